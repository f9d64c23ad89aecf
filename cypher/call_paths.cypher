// name: call_paths
// The shortest call paths (up to 16 per source/target pair, at most 10 CALLS hops, cut to $max_hops) from
// any source node to any target node over CALLS edges, none through a node twice (a recursive call is no step
// on the way), each with its nodes and its edges' call-site lines,
// confidence and resolution method. Ranking (hops, then product of confidences) is done by the caller.
// returns: nodes [{id, path, name, qualified_name, kind, start_line, end_line, is_test, label}], rels [{type, src, dst, lines, confidence, resolved_by}]
// params: sources, targets, max_hops
MATCH (a:CodeNode) WHERE a.id IN $sources
MATCH (b:CodeNode) WHERE b.id IN $targets AND b <> a
MATCH p = SHORTEST 16 (a)-[:CALLS]->{1,10}(b)
WHERE length(p) <= $max_hops AND all(n IN nodes(p) WHERE single(m IN nodes(p) WHERE m = n))
RETURN [n IN nodes(p) | n {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test,
                           label: CASE WHEN n:File THEN 'File' ELSE 'Symbol' END}] AS nodes,
       [r IN relationships(p) | {type: type(r), src: startNode(r).id, dst: endNode(r).id, lines: r.lines,
                                 confidence: r.confidence, resolved_by: r.resolved_by}] AS rels
