// name: edges_of_repo
// Every resolved cross-reference edge leaving a repository's live nodes: one scan instead of edges_of_files
// when most files must be diffed (an upgrade without digests, a change of --lsp mode).
// returns: type, src, dst, props
// params: repo
MATCH (a:CodeNode {repo: $repo})-[e:CALLS|CALLS_EXTERNAL|IMPORTS|INHERITS|IMPLEMENTS]->(b:CodeNode)
RETURN type(e) AS type, a.id AS src, b.id AS dst, properties(e) AS props
