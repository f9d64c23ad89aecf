// name: swap_expire
// A swap in several transactions failed part-way (the server refused a transaction, Neo4j went away): end its
// lease at once, so that the next run completes the repository without waiting for the lease to run out.
// params: repo, run
MATCH (r:Repository {id: $repo})
WHERE r.swapping = $run
SET r.swap_beat = 0
