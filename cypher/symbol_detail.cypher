// name: symbol_detail
// One symbol with its location, repository commit, callers and callees (with call-site lines), the
// enclosing definition and the chunks that hold its text. The callers of a placeholder method are the calls
// resolved to its overrides (each says `via` which override).
// returns: symbol (map), commit, callers [{id, qualified_name, path, lines, confidence}], callees [...], parent
// params: id
MATCH (s:CodeNode {id: $id})
WHERE s:Symbol
MATCH (r:Repository {id: s.repo})
OPTIONAL MATCH (p:Symbol)-[:CONTAINS]->(s)
CALL (s) {
  OPTIONAL MATCH (c:CodeNode)-[e:CALLS]->(s)
  RETURN collect(CASE WHEN c IS NULL THEN NULL ELSE {id: c.id, qualified_name: coalesce(c.qualified_name, c.path),
         path: c.path, lines: e.lines, confidence: e.confidence, resolved_by: e.resolved_by} END) AS direct
}
CALL (s) {
  OPTIONAL MATCH (s {kind: 'method', placeholder: true})<-[:CONTAINS]-(:Symbol)<-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)
        -[:CONTAINS]->(om:Symbol {name: s.name})<-[e:CALLS]-(c:CodeNode)
  WHERE e.resolved_by IN ['override', 'lsp_hierarchy']
  RETURN collect(CASE WHEN c IS NULL THEN NULL ELSE {id: c.id, qualified_name: coalesce(c.qualified_name, c.path),
         path: c.path, lines: e.lines, confidence: e.confidence, resolved_by: e.resolved_by,
         via: om.qualified_name} END) AS through_overrides
}
CALL (s) {
  OPTIONAL MATCH (s)-[e:CALLS]->(t:Symbol)
  RETURN collect(CASE WHEN t IS NULL THEN NULL ELSE {id: t.id, qualified_name: t.qualified_name, path: t.path,
         lines: e.lines, confidence: e.confidence, resolved_by: e.resolved_by} END) AS callees
}
RETURN s {.*} AS symbol, r.commit AS commit, direct + through_overrides AS callers, callees, p.id AS parent
