// name: stage_nodes
// Write staged (invisible) nodes of a run: files, symbols and chunks, with their CONTAINS / HAS_CHUNK edge
// from an already staged owner. Labels are applied at promotion.
// row: {uid, owner_uid (or null), rel ('CONTAINS'|'HAS_CHUNK'|null), kind ('File'|'Symbol'|'Chunk'), props}
// params: rows
UNWIND $rows AS row
CREATE (n:Pending)
SET n = row.props, n.uid = row.uid, n.stage_kind = row.kind
WITH n, row
CALL (n, row) {
  WITH n, row WHERE row.owner_uid IS NOT NULL
  MATCH (o:Pending {uid: row.owner_uid})
  FOREACH (_ IN CASE WHEN row.rel = 'CONTAINS' THEN [1] ELSE [] END | CREATE (o)-[:CONTAINS]->(n))
  FOREACH (_ IN CASE WHEN row.rel = 'HAS_CHUNK' THEN [1] ELSE [] END | CREATE (o)-[:HAS_CHUNK]->(n))
}
RETURN count(*) AS staged
