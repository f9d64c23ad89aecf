// name: repo_counts
// Node and edge counts of a repository's live graph.
// returns: files, symbols, chunks, edges (map type -> count)
// params: repo
MATCH (r:Repository {id: $repo})
CALL (r) { MATCH (f:File {repo: r.id}) RETURN count(f) AS files }
CALL (r) { MATCH (s:Symbol {repo: r.id}) RETURN count(s) AS symbols }
CALL (r) { MATCH (c:Chunk {repo: r.id}) RETURN count(c) AS chunks }
CALL (r) {
  MATCH (a:CodeNode {repo: r.id})-[e:CALLS|IMPORTS|INHERITS|IMPLEMENTS|CONTAINS|HAS_CHUNK]->()
  WITH type(e) AS t, count(e) AS n
  RETURN collect([t, n]) AS edge_pairs
}
RETURN files, symbols, chunks, edge_pairs
