// name: expand_neighbors
// Graph expansion, one hop from seed symbols: callees, callers (of a placeholder method: the calls that were
// resolved to its overrides), the enclosing definition, subtypes
// (subclasses / implementing types), the implementations of a method (same-named methods of subtypes of its
// class: an interface method reaches its implementations, a base method its overrides) and, when $tests,
// the tests that call it. At most $per_seed of each relation per seed, most confident edges first. Returns
// the first chunk of each neighbour with the relation and the call-site lines.
// returns: seed, id, symbol_id, rel, lines, is_test
// params: seeds, per_seed, tests
UNWIND $seeds AS sid
MATCH (s:CodeNode {id: sid})
CALL (s) {
  MATCH (s)-[e:CALLS]->(t:Symbol) RETURN t, 'callee' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:CALLS]->(s) WHERE NOT coalesce(t.is_test, false)
  RETURN t, 'caller' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (s {kind: 'method', placeholder: true})<-[:CONTAINS]-(:Symbol)<-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)
        -[:CONTAINS]->(om:Symbol {name: s.name})<-[e:CALLS]-(t:Symbol)
  WHERE e.resolved_by IN ['override', 'lsp_hierarchy'] AND NOT coalesce(t.is_test, false)
  RETURN t, 'caller' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:CALLS]->(s) WHERE $tests AND t.is_test
  RETURN t, 'test' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[:CONTAINS]->(s) RETURN t, 'parent' AS rel, [] AS lines, 1.0 AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:INHERITS|IMPLEMENTS]->(s) RETURN t, 'subtype' AS rel, e.lines AS lines,
        e.confidence AS confidence
  UNION ALL
  MATCH (c:Symbol)-[:CONTAINS]->(s)
  MATCH (sub:Symbol)-[e:INHERITS|IMPLEMENTS]->(c)
  MATCH (sub)-[:CONTAINS]->(t:Symbol {name: s.name})
  RETURN t, 'implementation' AS rel, [] AS lines, e.confidence AS confidence
}
WITH sid, rel, t, lines, confidence
ORDER BY confidence DESC
WITH sid, rel, collect({t: t, lines: lines})[..$per_seed] AS picked
UNWIND picked AS p
WITH sid, rel, p.t AS t, p.lines AS lines
MATCH (t)-[:HAS_CHUNK]->(c:Chunk)
WHERE c.part <= 1
RETURN sid AS seed, c.id AS id, t.id AS symbol_id, rel, lines, t.is_test AS is_test
