// name: repo_get
// One repository's node, or nothing.
// returns: repo (map of properties)
// params: repo
MATCH (r:Repository {id: $repo})
RETURN properties(r) AS repo
