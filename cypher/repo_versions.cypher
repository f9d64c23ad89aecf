// name: repo_versions
// Every repository's snapshot marker: its commit and when its run finished (a swap's commit changes them).
// Graph.consistent reads them before and after a request's statements and runs those again when a swap
// committed in between.
// returns: repo, commit, indexed_at
// params:
MATCH (r:Repository)
RETURN r.id AS repo, r.commit AS commit, r.indexed_at AS indexed_at
ORDER BY repo
