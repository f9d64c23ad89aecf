// name: callees_step
// One level of a breadth-first walk down the call graph (the frontier of a failed path search): for each id, the
// nodes it CALLS, with the edge's confidence, lines and how it was resolved. The walk is stepped from Python,
// one query per level: a variable-length `ANY SHORTEST ...{1,10}` to every reachable node enumerated walks of a
// dense call graph for minutes before the hop limit applied (an eleventh QA pass).
// returns: src, node {id, path, name, qualified_name, kind, start_line, end_line, is_test, label, unresolved_calls}, confidence, lines, resolved_by
// params: ids
UNWIND $ids AS sid
MATCH (a:CodeNode {id: sid})-[r:CALLS]->(b:CodeNode)
RETURN a.id AS src, b {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .unresolved_calls,
                       label: CASE WHEN b:File THEN 'File' ELSE 'Symbol' END} AS node,
       r.confidence AS confidence, r.lines AS lines, r.resolved_by AS resolved_by
ORDER BY src, node.id
