// name: repo_remove
// Remove a repository's own node once its code nodes are gone (repo_delete until it returns 0 first).
// returns: removed
// params: repo
MATCH (r:Repository {id: $repo})
DETACH DELETE r
RETURN count(*) AS removed
