// name: reach_forward
// The frontier of a failed path search: every node reachable from the sources over CALLS within $max_hops,
// with its distance (shortest number of calls), its unresolved call sites, and the low-confidence edges
// (< $min_confidence) on the shortest path that reached it.
// returns: node {id, path, name, qualified_name, kind, start_line, end_line, is_test, label, unresolved_calls}, depth, weak [{src, dst, lines, confidence, resolved_by}]
// params: sources, max_hops, min_confidence
MATCH (a:CodeNode) WHERE a.id IN $sources
MATCH p = ANY SHORTEST (a)-[:CALLS]->{1,10}(b:CodeNode)
WHERE length(p) <= $max_hops
WITH b, length(p) AS depth, [r IN relationships(p) WHERE r.confidence < $min_confidence |
                             {src: startNode(r).id, dst: endNode(r).id, lines: r.lines,
                              confidence: r.confidence, resolved_by: r.resolved_by}] AS weak
ORDER BY depth
WITH b, collect(depth)[0] AS depth, collect(weak)[0] AS weak
RETURN b {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .unresolved_calls,
          label: CASE WHEN b:File THEN 'File' ELSE 'Symbol' END} AS node, depth, weak
ORDER BY depth, node.id
