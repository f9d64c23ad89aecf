// name: symbol_neighbourhood
// Neo4j Browser saved query: a symbol (by qualified name, in one repository) with its file and enclosing
// symbols (the CONTAINS chain), the symbols it calls and the files/symbols that call it. One row per
// neighbour; `path` draws the graph, the other columns read as a table (call-site lines, confidence, how the
// edge was resolved). A qualified name defined in several files gives each of them.
// Browser: :param repo => 'main'   :param qualified_name => 'index_repository'
// returns: symbol, relation (file|parent|callee|caller), neighbour, neighbour_path, lines, confidence,
//          resolved_by, path
// params: repo, qualified_name
MATCH (s:Symbol {qualified_name: $qualified_name})
WHERE s.repo = $repo
CALL (s) {
  MATCH p = (f:File)-[:CONTAINS]->{1,6}(s)
  UNWIND nodes(p)[..-1] AS n
  RETURN p, CASE WHEN n:File THEN 'file' ELSE 'parent' END AS relation, n AS other, null AS e
  UNION
  MATCH p = (s)-[e:CALLS]->(other:Symbol)
  RETURN p, 'callee' AS relation, other, e
  UNION
  MATCH p = (other:CodeNode)-[e:CALLS]->(s)
  RETURN p, 'caller' AS relation, other, e
}
RETURN s.id AS symbol, relation, coalesce(other.qualified_name, other.path) AS neighbour,
       other.path AS neighbour_path, e.lines AS lines, e.confidence AS confidence,
       e.resolved_by AS resolved_by, p AS path
ORDER BY symbol, CASE relation WHEN 'file' THEN 0 WHEN 'parent' THEN 1 WHEN 'callee' THEN 2 ELSE 3 END,
         neighbour_path, neighbour
LIMIT 300
