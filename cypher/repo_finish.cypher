// name: repo_finish
// Make a run's snapshot the live one: commit, counts, versions, status 'ready'; clear the running marker and an
// earlier run's failure. Only the run the repository belongs to (the one that started last) may: for another,
// nothing is returned.
// returns: repo
// params: repo, run, props
MATCH (r:Repository {id: $repo})
WHERE r.running = $run
SET r += $props, r.status = 'ready'
REMOVE r.running, r.run_started_at, r.swapping, r.swap_beat, r.last_failure, r.failed_run, r.failed_at
RETURN properties(r) AS repo
