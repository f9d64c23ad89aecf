// name: promote
// Turn the staged nodes of a run into live ones and hang the files under their repository.
// returns: promoted
// params: repo, run
MATCH (r:Repository {id: $repo})
MATCH (n:Pending {repo: $repo, run: $run})
REMOVE n:Pending
SET n:CodeNode
FOREACH (_ IN CASE WHEN n.stage_kind = 'File' THEN [1] ELSE [] END | SET n:File MERGE (r)-[:CONTAINS]->(n))
FOREACH (_ IN CASE WHEN n.stage_kind = 'Symbol' THEN [1] ELSE [] END | SET n:Symbol)
FOREACH (_ IN CASE WHEN n.stage_kind = 'Chunk' THEN [1] ELSE [] END | SET n:Chunk)
REMOVE n.stage_kind, n.run
RETURN count(n) AS promoted
