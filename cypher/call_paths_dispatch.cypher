// name: call_paths_dispatch
// The shortest call paths that take one dynamic-dispatch step: a call reaches a base-class method whose
// class is inherited / implemented (1-3 levels) by a class overriding it (same name), and the path goes on
// from the override. Up to 16 per source/target pair; CALLS hops on both sides together at most $max_hops - 1;
// none through a node twice.
// returns: nodes [...], rels [{type (CALLS|CONTAINS|INHERITS|IMPLEMENTS), src, dst, lines, confidence, resolved_by}]
// params: sources, targets, max_hops
MATCH (a:CodeNode) WHERE a.id IN $sources
MATCH (b:CodeNode) WHERE b.id IN $targets AND b <> a
MATCH p = SHORTEST 16 ((a) ((x)-[:CALLS]->(y)){0,9} (bm:Symbol)<-[:CONTAINS]-(:Symbol)
                       <-[:INHERITS|IMPLEMENTS]-{1,3}(:Symbol)-[:CONTAINS]->(om:Symbol)
                       ((x2)-[:CALLS]->(y2)){0,9} (b)
                       WHERE om.name = bm.name AND om.kind = 'method')
WITH p, size([r IN relationships(p) WHERE type(r) = 'CALLS']) AS calls
WHERE calls + 1 <= $max_hops AND all(n IN nodes(p) WHERE single(m IN nodes(p) WHERE m = n))
RETURN [n IN nodes(p) | n {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test,
                           label: CASE WHEN n:File THEN 'File' ELSE 'Symbol' END}] AS nodes,
       [r IN relationships(p) | {type: type(r), src: startNode(r).id, dst: endNode(r).id, lines: r.lines,
                                 confidence: r.confidence, resolved_by: r.resolved_by}] AS rels
