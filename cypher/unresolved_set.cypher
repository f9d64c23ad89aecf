// name: unresolved_set
// Record a node's unresolved call sites ("receiver.name@line:reason"), or clear them with an empty list.
// row: {id, calls}
// returns: updated
// params: rows
UNWIND $rows AS row
MATCH (n:CodeNode {id: row.id})
SET n.unresolved_calls = row.calls, n.unresolved_count = size(row.calls)
RETURN count(n) AS updated
