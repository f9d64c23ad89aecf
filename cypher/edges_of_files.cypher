// name: edges_of_files
// What leaves the live files and symbols of some files of a repository (the files whose edge digest changed),
// to diff against a new resolution: per node, its resolved cross-reference edges and its unresolved call
// sites; nodes with neither are left out.
// returns: id, calls (or null), edges [{type, dst, props}]
// params: repo, paths
UNWIND $paths AS path
CALL (path) {
  MATCH (a:File {repo: $repo, path: path}) RETURN a
  UNION
  MATCH (a:Symbol {repo: $repo, path: path}) RETURN a
}
OPTIONAL MATCH (a)-[e:CALLS|CALLS_EXTERNAL|IMPORTS|INHERITS|IMPLEMENTS]->(b:CodeNode)
WITH a, collect(CASE WHEN e IS NOT NULL THEN {type: type(e), dst: b.id, props: properties(e)} END) AS edges
WHERE size(edges) > 0 OR a.unresolved_count > 0
RETURN a.id AS id, CASE WHEN a.unresolved_count > 0 THEN a.unresolved_calls END AS calls, edges
