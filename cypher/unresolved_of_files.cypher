// name: unresolved_of_files
// The files and symbols of some files of a repository that hold unresolved call sites: the files whose edge
// digest changed, to diff their lists against a new resolution.
// returns: id, calls
// params: repo, paths
UNWIND $paths AS path
CALL (path) {
  MATCH (a:File {repo: $repo, path: path}) RETURN a
  UNION
  MATCH (a:Symbol {repo: $repo, path: path}) RETURN a
}
WITH a WHERE a.unresolved_count > 0
RETURN a.id AS id, a.unresolved_calls AS calls
