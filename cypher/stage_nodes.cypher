// name: stage_nodes
// Write staged (invisible) nodes of a run: files, symbols and chunks, with their CONTAINS / HAS_CHUNK edge
// from their owner, given as the owner's position in the same batch (a file's rows never span two batches,
// so no lookup by id is needed). Labels are applied at promotion.
// row: {owner (position in rows, or null), rel ('CONTAINS'|'HAS_CHUNK'|null), kind ('File'|'Symbol'|'Chunk'), props}
// returns: staged
// params: rows
UNWIND range(0, size($rows) - 1) AS i
CREATE (n:Pending)
SET n = $rows[i].props, n.stage_kind = $rows[i].kind
WITH i, n ORDER BY i
WITH collect(n) AS nodes
FOREACH (i IN [j IN range(0, size($rows) - 1) WHERE $rows[j].rel = 'CONTAINS'] |
  FOREACH (o IN [nodes[$rows[i].owner]] | FOREACH (n IN [nodes[i]] | CREATE (o)-[:CONTAINS]->(n))))
FOREACH (i IN [j IN range(0, size($rows) - 1) WHERE $rows[j].rel = 'HAS_CHUNK'] |
  FOREACH (o IN [nodes[$rows[i].owner]] | FOREACH (n IN [nodes[i]] | CREATE (o)-[:HAS_CHUNK]->(n))))
RETURN size(nodes) AS staged
