// name: call_paths_dispatch
// The shortest call paths that take one dynamic-dispatch step: a call reaches a base-class method whose
// class is inherited / implemented (1-3 levels) by a class overriding it (same name), and the path goes on
// from the override. In three parts, each a shortest search of its own: the methods the sources reach, their
// overrides, what reaches the targets from those (one pattern with the name test across its parts enumerated
// every path when none matched: Jsoup.parse -> Attributes.checkNotNull ran for minutes). Per (base method,
// override) pair the shortest way each side; CALLS hops on both sides together at most $max_hops - 1; none
// through a node twice; the 256 shortest.
// returns: nodes [...], rels [{type (CALLS|CONTAINS|INHERITS|IMPLEMENTS), src, dst, lines, confidence, resolved_by}]
// params: sources, targets, max_hops
MATCH (a:CodeNode) WHERE a.id IN $sources
MATCH p1 = ANY SHORTEST (a)-[:CALLS]->{0,9}(bm:Symbol)
WHERE length(p1) <= $max_hops - 1
MATCH pd = ANY SHORTEST (bm)<-[:CONTAINS]-(:Symbol)<-[:INHERITS|IMPLEMENTS]-{1,3}(:Symbol)-[:CONTAINS]->(om:Symbol)
WHERE om.name = bm.name AND om.kind = 'method' AND om <> bm
MATCH (b:CodeNode) WHERE b.id IN $targets AND b <> a
MATCH p2 = ANY SHORTEST (om)-[:CALLS]->{0,9}(b)
WITH nodes(p1) + tail(nodes(pd)) + tail(nodes(p2)) AS ns,
     relationships(p1) + relationships(pd) + relationships(p2) AS rs, length(p1) + length(p2) AS calls
WHERE calls + 1 <= $max_hops AND all(n IN ns WHERE single(m IN ns WHERE m = n))
WITH ns, rs, calls ORDER BY calls LIMIT 256
RETURN [n IN ns | n {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test,
                     label: CASE WHEN n:File THEN 'File' ELSE 'Symbol' END}] AS nodes,
       [r IN rs | {type: type(r), src: startNode(r).id, dst: endNode(r).id, lines: r.lines,
                   confidence: r.confidence, resolved_by: r.resolved_by}] AS rels
