// name: unresolved_set
// Record a node's unresolved call sites ("receiver.name@line:reason"), or clear them with an empty list.
// row: {id, calls}
// returns: updated
// params: rows
UNWIND $rows AS row
MATCH (n:CodeNode {id: row.id})
// an empty list removes both properties, so a node whose calls all resolve now is as a fresh index writes it
SET n.unresolved_calls = CASE WHEN size(row.calls) > 0 THEN row.calls END,
    n.unresolved_count = CASE WHEN size(row.calls) > 0 THEN size(row.calls) END
RETURN count(n) AS updated
