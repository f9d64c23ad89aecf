// name: edges_implements_create
// Create IMPLEMENTS edges between live nodes by id, with their properties (lines, confidence, resolved_by).
// row: {src, dst, props}
// returns: created
// params: rows
UNWIND $rows AS row
MATCH (a:CodeNode {id: row.src})
MATCH (b:CodeNode {id: row.dst})
CREATE (a)-[e:IMPLEMENTS]->(b)
SET e = row.props
RETURN count(e) AS created
