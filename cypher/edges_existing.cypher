// name: edges_existing
// Every resolved cross-reference edge leaving a repository's live nodes, to diff against a new resolution.
// returns: type, src, dst, props
// params: repo
MATCH (a:CodeNode {repo: $repo})-[e:CALLS|CALLS_EXTERNAL|IMPORTS|INHERITS|IMPLEMENTS]->(b:CodeNode)
RETURN type(e) AS type, a.id AS src, b.id AS dst, properties(e) AS props
