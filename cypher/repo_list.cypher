// name: repo_list
// Every indexed repository with its live commit, status, counts and versions.
// returns: repo (map of properties)
// params:
MATCH (r:Repository)
RETURN properties(r) AS repo
ORDER BY r.id
