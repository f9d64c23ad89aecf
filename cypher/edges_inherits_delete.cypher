// name: edges_inherits_delete
// Delete INHERITS edges between live nodes by (src id, dst id): the edges a new resolution no longer gives.
// row: {src, dst}
// returns: deleted
// params: rows
UNWIND $rows AS row
MATCH (a:CodeNode {id: row.src})-[e:INHERITS]->(b:CodeNode {id: row.dst})
DELETE e
RETURN count(e) AS deleted
