// name: repo_begin
// Create the repository node if new (status 'indexing' until its first run completes) and record the run
// now in progress. The live commit and counts are left as they are: readers keep the previous snapshot.
// params: repo, name, root, run, started_at
MERGE (r:Repository {id: $repo})
ON CREATE SET r.status = 'indexing', r.created_at = $started_at
SET r.name = $name, r.root = $root, r.running = $run, r.run_started_at = $started_at
