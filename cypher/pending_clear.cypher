// name: pending_clear
// Delete up to $limit staged nodes left by an earlier run of this repository that did not finish.
// returns: deleted
// params: repo, limit
MATCH (p:Pending {repo: $repo})
WITH p LIMIT $limit
DETACH DELETE p
RETURN count(*) AS deleted
