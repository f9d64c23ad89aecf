// name: file_node_counts
// How many live nodes (the file, its symbols, its chunks) each of some files holds: what replacing them deletes,
// which a swap counts as it counts what it promotes.
// returns: path, nodes
// params: repo, paths
UNWIND $paths AS path
CALL (path) {
  OPTIONAL MATCH (s:Symbol)
  WHERE s.repo = $repo AND s.path = path
  RETURN count(s) AS symbols
}
CALL (path) {
  OPTIONAL MATCH (c:Chunk)
  WHERE c.repo = $repo AND c.path = path
  RETURN count(c) AS chunks
}
CALL (path) {
  OPTIONAL MATCH (f:File)
  WHERE f.repo = $repo AND f.path = path
  RETURN count(f) AS files
}
RETURN path, symbols + chunks + files AS nodes
