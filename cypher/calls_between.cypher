// name: calls_between
// CALLS edges whose caller and callee are both among the given symbols (the sources of one answer), with
// the call-site lines, confidence and how the call was resolved. Used for the extractive answer's call chain.
// returns: src, dst, lines, confidence, resolved_by
// params: ids
UNWIND $ids AS sid
MATCH (a:CodeNode {id: sid})-[e:CALLS]->(b:Symbol)
WHERE a:Symbol AND b.id IN $ids AND b.id <> a.id
RETURN a.id AS src, b.id AS dst, e.lines AS lines, e.confidence AS confidence, e.resolved_by AS resolved_by
ORDER BY src, dst
