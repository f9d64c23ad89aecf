// name: swap_beat
// The first statement of each transaction of a swap in several (docs/design.md, "Swaps too large for one
// transaction"): take the repository node's write lock and record, committed with the transaction, which run is
// swapping and when it last wrote (a lease each of its transactions renews). A run that starts meanwhile waits
// while the lease is fresh; one that finds it stale (the swapping run died) completes the repository instead of
// trusting its half-written edges. Only while the repository belongs to the run; returns the run it belongs to
// (the caller stops, and its transaction rolls back, when that is another).
// returns: running, deleting
// params: repo, run, at
MATCH (r:Repository {id: $repo})
FOREACH (_ IN CASE WHEN r.running = $run THEN [1] ELSE [] END | SET r.swapping = $run, r.swap_beat = $at)
RETURN r.running AS running, r.deleting AS deleting
