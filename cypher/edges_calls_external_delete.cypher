// name: edges_calls_external_delete
// Delete CALLS_EXTERNAL edges between live nodes by (src id, dst id): the edges a new resolution no longer gives.
// row: {src, dst}
// returns: deleted
// params: rows
UNWIND $rows AS row
MATCH (a:CodeNode {id: row.src})-[e:CALLS_EXTERNAL]->(b:CodeNode {id: row.dst})
DELETE e
RETURN count(e) AS deleted
