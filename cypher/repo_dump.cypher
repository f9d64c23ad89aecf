// name: repo_dump
// Every live node of a repository with its labels and properties, and every edge leaving one: used to
// compare two index runs (incremental vs full) and to export a repository's graph.
// returns: nodes [{labels, props}], edges [{type, src, dst, props}]
// params: repo
MATCH (n:CodeNode {repo: $repo})
WITH collect({labels: [l IN labels(n) WHERE l <> 'CodeNode'], props: properties(n)}) AS nodes
CALL (nodes) {
  MATCH (a:CodeNode {repo: $repo})-[e]->(b)
  RETURN collect({type: type(e), src: a.id, dst: b.id, props: properties(e)}) AS edges
}
RETURN nodes, edges
