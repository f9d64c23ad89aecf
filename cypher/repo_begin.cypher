// name: repo_begin
// Create the repository node if new (status 'indexing' until its first run completes, again after a first run
// failed) and record the run now in progress. The live commit and counts are left as they are: readers keep the
// previous snapshot. A repository being deleted (repo_mark_deleted) is left alone: the caller refuses to index it.
// returns: deleting
// params: repo, name, root, run, started_at
MERGE (r:Repository {id: $repo})
ON CREATE SET r.status = 'indexing', r.created_at = $started_at
WITH r, coalesce(r.deleting, false) AS deleting
FOREACH (_ IN CASE WHEN deleting THEN [] ELSE [1] END |
  SET r.name = $name, r.root = $root, r.running = $run, r.run_started_at = $started_at,
      r.status = CASE WHEN r.indexed_at IS NULL THEN 'indexing' ELSE r.status END)
RETURN deleting
