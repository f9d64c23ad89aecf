// name: edges_of_files
// The resolved cross-reference edges leaving the live files and symbols of some files of a repository: the
// files whose edge digest changed, to diff their edges against a new resolution.
// returns: type, src, dst, props
// params: repo, paths
UNWIND $paths AS path
CALL (path) {
  MATCH (a:File {repo: $repo, path: path}) RETURN a
  UNION
  MATCH (a:Symbol {repo: $repo, path: path}) RETURN a
}
MATCH (a)-[e:CALLS|CALLS_EXTERNAL|IMPORTS|INHERITS|IMPLEMENTS]->(b:CodeNode)
RETURN type(e) AS type, a.id AS src, b.id AS dst, properties(e) AS props
