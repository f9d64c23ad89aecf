// name: expand_neighbors
// Graph expansion, one hop from seed symbols: callees, callers, the enclosing definition, subtypes
// (overrides / implementations), at most $per_seed of each relation per seed. Returns the first chunk of
// each neighbour with the relation and the call-site lines.
// returns: seed, id, symbol_id, rel, lines, is_test
// params: seeds, per_seed
UNWIND $seeds AS sid
MATCH (s:CodeNode {id: sid})
CALL (s) {
  MATCH (s)-[e:CALLS]->(t:Symbol) RETURN t, 'callee' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:CALLS]->(s) RETURN t, 'caller' AS rel, e.lines AS lines, e.confidence AS confidence
  UNION ALL
  MATCH (t:Symbol)-[:CONTAINS]->(s) RETURN t, 'parent' AS rel, [] AS lines, 1.0 AS confidence
  UNION ALL
  MATCH (t:Symbol)-[e:INHERITS|IMPLEMENTS]->(s) RETURN t, 'subtype' AS rel, e.lines AS lines,
        e.confidence AS confidence
}
WITH sid, rel, t, lines, confidence
ORDER BY confidence DESC
WITH sid, rel, collect({t: t, lines: lines})[..$per_seed] AS picked
UNWIND picked AS p
WITH sid, rel, p.t AS t, p.lines AS lines
MATCH (t)-[:HAS_CHUNK]->(c:Chunk)
WHERE c.part <= 1
RETURN sid AS seed, c.id AS id, t.id AS symbol_id, rel, lines, t.is_test AS is_test
