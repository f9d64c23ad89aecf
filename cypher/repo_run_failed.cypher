// name: repo_run_failed
// A run that stopped with an error: clear its running marker and record why, so that `status` and the API say
// the run failed instead of "has not finished" forever; a repository with no completed index becomes 'failed'.
// Only the run the repository belongs to may (a later run owns the marker otherwise); the live snapshot, if any,
// is left as it was.
// returns: marked
// params: repo, run, message, at
MATCH (r:Repository {id: $repo})
WHERE r.running = $run
SET r.last_failure = $message, r.failed_run = $run, r.failed_at = $at,
    r.status = CASE WHEN r.indexed_at IS NULL THEN 'failed' ELSE r.status END
REMOVE r.running, r.run_started_at
RETURN count(r) AS marked
