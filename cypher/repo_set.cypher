// name: repo_set
// Set properties of a repository's node (null removes one): the total seconds of a finished run.
// returns: repo
// params: repo, props
MATCH (r:Repository {id: $repo})
SET r += $props
RETURN properties(r) AS repo
