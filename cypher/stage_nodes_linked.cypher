// name: stage_nodes_linked
// Write one slice of a file too large for one staging transaction, after its first slice (which goes through
// stage_nodes): as stage_nodes, but a row whose owner was staged by an earlier slice names it by its position in
// $owner_ids (owner_ref), found among this run's staged nodes of the repository in one pass.
// row: {owner (position in rows, or null), owner_ref (position in owner_ids, or null), rel, kind, props}
// returns: staged
// params: rows, owner_ids, repo, run
UNWIND range(0, size($rows) - 1) AS i
CREATE (n:Pending)
SET n = $rows[i].props, n.stage_kind = $rows[i].kind
WITH i, n ORDER BY i
WITH collect(n) AS nodes
OPTIONAL MATCH (p:Pending {repo: $repo})
WHERE p.run = $run AND p.id IN $owner_ids
WITH nodes, collect(p) AS found
WITH nodes, [k IN range(0, size($owner_ids) - 1) | head([x IN found WHERE x.id = $owner_ids[k]])] AS owners
FOREACH (i IN range(0, size($rows) - 1) |
  FOREACH (o IN CASE WHEN $rows[i].owner IS NOT NULL THEN [nodes[$rows[i].owner]]
                     WHEN $rows[i].owner_ref IS NOT NULL THEN [owners[$rows[i].owner_ref]] ELSE [] END |
    FOREACH (n IN [nodes[i]] |
      FOREACH (_ IN CASE WHEN $rows[i].rel = 'CONTAINS' THEN [1] ELSE [] END | CREATE (o)-[:CONTAINS]->(n))
      FOREACH (_ IN CASE WHEN $rows[i].rel = 'HAS_CHUNK' THEN [1] ELSE [] END | CREATE (o)-[:HAS_CHUNK]->(n)))))
RETURN size(nodes) AS staged
