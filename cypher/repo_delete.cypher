// name: repo_delete
// Delete up to $limit nodes of a repository (live and staged); call until it returns 0, then the repository.
// returns: deleted
// params: repo, limit
MATCH (n)
WHERE (n:CodeNode OR n:Pending) AND n.repo = $repo
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
