// name: repo_counts
// Node and edge counts of a repository's live graph.
// returns: files, symbols, chunks, edges (map type -> count)
// The `path IS NOT NULL` predicates let the (repo, path) indexes find the nodes: with `{repo: ...}` alone the
// planner scans every node of the label in the database, every repository's (0.3 s per label at 270k chunks).
// params: repo
MATCH (r:Repository {id: $repo})
CALL (r) { MATCH (f:File) WHERE f.repo = r.id AND f.path IS NOT NULL RETURN count(f) AS files }
CALL (r) { MATCH (s:Symbol) WHERE s.repo = r.id AND s.path IS NOT NULL RETURN count(s) AS symbols }
CALL (r) { MATCH (c:Chunk) WHERE c.repo = r.id AND c.path IS NOT NULL RETURN count(c) AS chunks }
CALL (r) {
  MATCH (a:CodeNode {repo: r.id})-[e:CALLS|IMPORTS|INHERITS|IMPLEMENTS|CONTAINS|HAS_CHUNK]->()
  WITH type(e) AS t, count(e) AS n
  RETURN collect([t, n]) AS edge_pairs
}
RETURN files, symbols, chunks, edge_pairs
