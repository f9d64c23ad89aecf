// name: repo_claim
// The first statement of a run's swap: take the repository node's write lock, so that a run starting meanwhile
// waits in repo_begin until this transaction ends, and say which run the repository belongs to now (the one that
// started last). A run that is no longer that one must not swap.
// returns: running, deleting
// params: repo, run
MATCH (r:Repository {id: $repo})
SET r.swapping = $run
RETURN r.running AS running, r.deleting AS deleting
