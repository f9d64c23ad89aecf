// name: unresolved_named
// Call sites anywhere in a repository that resolution could not pin to a definition and whose called name
// (the last "."-segment of "receiver.name" in "receiver.name@line:reason") is one of $names, or a prefix
// "visit_*" (a method looked up by a built name, getattr(obj, "visit_" + kind)) one of them starts with. They may
// be calls of those names that the graph misses: an answer that ignores them is only a lower bound.
// returns: node {id, path, name, qualified_name, kind, start_line, end_line, is_test, label}, call
// params: repo, names
MATCH (n:CodeNode {repo: $repo})
WHERE n.unresolved_count > 0
UNWIND n.unresolved_calls AS call
WITH n, call, last(split(split(call, '@')[0], '.')) AS called
WHERE called IN $names
   OR (called ENDS WITH '*' AND any(name IN $names WHERE name STARTS WITH left(called, size(called) - 1)))
RETURN n {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test,
          label: CASE WHEN n:File THEN 'File' ELSE 'Symbol' END} AS node, call
ORDER BY node.path, node.start_line, call
