// name: pending_clear_run
// Delete up to $limit staged nodes of one run: a run that another, later run overtook removes what it staged.
// returns: deleted
// params: repo, run, limit
MATCH (p:Pending {repo: $repo})
WHERE p.run = $run
WITH p LIMIT $limit
DETACH DELETE p
RETURN count(*) AS deleted
