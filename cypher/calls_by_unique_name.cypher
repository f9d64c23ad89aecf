// name: calls_by_unique_name
// Calls that resolution bound to a symbol named one of $names by that name alone (resolved_by one of $methods:
// global_unique / method_unique, the one definition of the name in the caller's language). impact --diff: a
// definition of that name the diff removed made the name unique, so each such edge is one the removal made: the
// call may have meant the removed definition and now reaches another one.
// returns: name, callee {...}, caller {...}, lines, confidence, resolved_by
// params: repo, names, methods
UNWIND $names AS name
MATCH (s:Symbol {name: name})
WHERE s.repo = $repo
MATCH (c:CodeNode)-[e:CALLS]->(s)
WHERE e.resolved_by IN $methods
RETURN name,
       s {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, label: 'Symbol'}
         AS callee,
       c {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test,
          label: CASE WHEN c:File THEN 'File' ELSE 'Symbol' END} AS caller,
       e.lines AS lines, e.confidence AS confidence, e.resolved_by AS resolved_by
ORDER BY caller.path, caller.start_line, callee.id
