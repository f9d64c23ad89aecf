// name: promote_files
// One transaction of a swap in several: replace the live nodes of some files by what the run staged for them
// (delete, then promote), so that a reader sees each file whole, old or new. Takes the repository node's write
// lock first and renews the run's lease; returns the run the repository belongs to (nothing changes when it is
// another: the caller stops).
// returns: running, promoted
// params: repo, run, at, deleted_paths, paths
MATCH (r:Repository {id: $repo})
SET r.swap_beat = CASE WHEN r.running = $run THEN $at ELSE r.swap_beat END
WITH r, r.running = $run AS mine
CALL (r, mine) {
  MATCH (n:CodeNode)
  WHERE mine AND n.repo = $repo AND n.path IN $deleted_paths AND (n:File OR n:Symbol OR n:Chunk)
  DETACH DELETE n
}
CALL (r, mine) {
  MATCH (n:Pending {repo: $repo})
  WHERE mine AND n.run = $run AND n.path IN $paths
  REMOVE n:Pending
  SET n:CodeNode
  FOREACH (_ IN CASE WHEN n.stage_kind = 'File' THEN [1] ELSE [] END | SET n:File MERGE (r)-[:CONTAINS]->(n))
  FOREACH (_ IN CASE WHEN n.stage_kind = 'Symbol' THEN [1] ELSE [] END | SET n:Symbol)
  FOREACH (_ IN CASE WHEN n.stage_kind = 'Chunk' THEN [1] ELSE [] END | SET n:Chunk)
  REMOVE n.stage_kind, n.run
  RETURN count(n) AS promoted
}
RETURN r.running AS running, promoted
