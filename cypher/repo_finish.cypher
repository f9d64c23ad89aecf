// name: repo_finish
// Make a run's snapshot the live one: commit, counts, versions, status 'ready'; clear the running marker.
// returns: repo
// params: repo, props
MATCH (r:Repository {id: $repo})
SET r += $props, r.status = 'ready'
REMOVE r.running, r.run_started_at
RETURN properties(r) AS repo
