// name: promote_files
// Promote the nodes a run staged for some files (one transaction of a swap in several, after delete_files
// removed those files' live nodes, so that a reader sees each file whole, old or new); what `promote` does for
// all of them in a one-transaction swap. At most $limit nodes: a file too large for one transaction is promoted
// in slices, called until it promotes none (a reader then sees that file in part for a while); its File node
// comes last, so that a run killed between two slices leaves no File over a part of its symbols
// (`partial_files`).
// returns: promoted
// params: repo, run, paths, limit
MATCH (r:Repository {id: $repo})
MATCH (n:Pending {repo: $repo})
WHERE n.run = $run AND n.path IN $paths
WITH r, n ORDER BY CASE WHEN n.stage_kind = 'File' THEN 1 ELSE 0 END
LIMIT $limit
REMOVE n:Pending
SET n:CodeNode
FOREACH (_ IN CASE WHEN n.stage_kind = 'File' THEN [1] ELSE [] END | SET n:File MERGE (r)-[:CONTAINS]->(n))
FOREACH (_ IN CASE WHEN n.stage_kind = 'Symbol' THEN [1] ELSE [] END | SET n:Symbol)
FOREACH (_ IN CASE WHEN n.stage_kind = 'Chunk' THEN [1] ELSE [] END | SET n:Chunk)
REMOVE n.stage_kind, n.run
RETURN count(n) AS promoted
