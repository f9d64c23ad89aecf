// name: relation_neighbors
// "What calls X" / "what does X call": the callers (rel = 'caller') or the callees (rel = 'callee') of the
// symbols the question names, most confident edges first, at most $limit per symbol, each with its first
// chunk and the call-site lines. The callers of a placeholder method are the calls resolved to its overrides.
// returns: seed, id, symbol_id, rel, lines, is_test
// params: seeds, rel, limit
UNWIND $seeds AS sid
MATCH (s:CodeNode:Symbol {id: sid})
CALL (s) {
  MATCH (s)-[e:CALLS]->(t:Symbol) WHERE $rel = 'callee'
  RETURN t, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:CALLS]->(s) WHERE $rel = 'caller'
  RETURN t, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (s {kind: 'method', placeholder: true})<-[:CONTAINS]-(:Symbol)<-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)
        -[:CONTAINS]->(om:Symbol {name: s.name})<-[e:CALLS]-(t:Symbol)
  WHERE $rel = 'caller' AND e.resolved_by IN ['override', 'lsp_hierarchy']
  RETURN t, e.lines AS lines, e.confidence AS confidence
}
WITH sid, t, lines, confidence
ORDER BY confidence DESC, t.path, t.start_line
WITH sid, collect({t: t, lines: lines})[..$limit] AS picked
UNWIND picked AS p
WITH sid, p.t AS t, p.lines AS lines
MATCH (t)-[:HAS_CHUNK]->(c:Chunk)
WHERE c.part <= 1
RETURN sid AS seed, c.id AS id, t.id AS symbol_id, $rel AS rel, lines, t.is_test AS is_test
