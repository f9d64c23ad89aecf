// name: repo_mark_deleted
// The first step of deleting a repository: take its node's write lock (waiting for a swap in progress to commit)
// and mark it as being deleted, so that a run indexing it meanwhile stops at its next claim (repo_claim,
// swap_beat: the repository belongs to no run any more) and a run starting meanwhile refuses in repo_begin.
// returns: marked
// params: repo
MATCH (r:Repository {id: $repo})
SET r.deleting = true, r.running = null
RETURN count(r) AS marked
