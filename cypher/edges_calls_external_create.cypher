// name: edges_calls_external_create
// Create CALLS_EXTERNAL edges (a language server placed the callee outside the repository: a :Module) by id, with their properties (lines, confidence, resolved_by).
// row: {src, dst, props}
// returns: created
// params: rows
UNWIND $rows AS row
MATCH (a:CodeNode {id: row.src})
MATCH (b:CodeNode {id: row.dst})
CREATE (a)-[e:CALLS_EXTERNAL]->(b)
SET e = row.props
RETURN count(e) AS created
