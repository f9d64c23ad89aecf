// name: swap_beat
// The first statement of each later transaction of a swap in several: take the repository node's write lock and
// renew the run's lease (only while the repository still belongs to the run); returns the run it belongs to.
// returns: running
// params: repo, run, at
MATCH (r:Repository {id: $repo})
SET r.swap_beat = CASE WHEN r.running = $run THEN $at ELSE r.swap_beat END
RETURN r.running AS running
