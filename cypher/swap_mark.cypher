// name: swap_mark
// Start a swap in several transactions (docs/design.md, "Swaps too large for one transaction"): record, committed,
// which run is swapping and when it last wrote (a lease that each of its transactions renews). A run that starts
// meanwhile waits while the lease is fresh; one that finds it stale (the swapping run died) completes the
// repository instead of trusting its half-written edges. Returns the run the repository belongs to: a run that is
// no longer that one must not swap.
// returns: running
// params: repo, run, at
MATCH (r:Repository {id: $repo})
FOREACH (_ IN CASE WHEN r.running = $run THEN [1] ELSE [] END | SET r.swapping = $run, r.swap_beat = $at)
RETURN r.running AS running
