// name: repo_live
// Whether a repository is indexed and no delete has started on it (repo_mark_deleted): the vector fill asks
// when its pages run dry or a write matched fewer chunks than it held, so that a delete meanwhile stops the fill
// with an error instead of ending it as though every chunk had its vector.
// returns: live
// params: repo
OPTIONAL MATCH (r:Repository {id: $repo})
RETURN r IS NOT NULL AND coalesce(r.deleting, false) = false AS live
