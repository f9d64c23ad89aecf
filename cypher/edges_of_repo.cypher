// name: edges_of_repo
// What leaves every live node of a repository, as edges_of_files returns it: one scan instead of
// edges_of_files when most files must be diffed (an upgrade without digests, a change of --lsp mode).
// returns: id, calls (or null), edges [{type, dst, props}]
// params: repo
MATCH (a:CodeNode {repo: $repo})
OPTIONAL MATCH (a)-[e:CALLS|CALLS_EXTERNAL|IMPORTS|INHERITS|IMPLEMENTS]->(b:CodeNode)
WITH a, collect(CASE WHEN e IS NOT NULL THEN {type: type(e), dst: b.id, props: properties(e)} END) AS edges
WHERE size(edges) > 0 OR a.unresolved_count > 0
RETURN a.id AS id, CASE WHEN a.unresolved_count > 0 THEN a.unresolved_calls END AS calls, edges
