// name: pending_count
// How many staged (invisible) nodes a repository has: non-zero only while a run is in progress or after
// one died before its final transaction.
// returns: pending
// params: repo
MATCH (p:Pending {repo: $repo})
RETURN count(p) AS pending
