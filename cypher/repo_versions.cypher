// name: repo_versions
// Every repository's snapshot marker: its commit and the run that made it live (a swap's commit changes them).
// Graph.consistent reads them before and after a request's statements and runs those again when a swap
// committed in between.
// returns: repo, commit, snapshot_run
// params:
MATCH (r:Repository)
RETURN r.id AS repo, r.commit AS commit, r.snapshot_run AS snapshot_run
ORDER BY repo
