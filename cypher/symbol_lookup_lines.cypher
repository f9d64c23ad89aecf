// name: symbol_lookup_lines
// The symbols of given files that overlap given line ranges (file:line lookups, diff hunks, whole files);
// the caller picks the innermost symbol per line. Ranges are 1-based and inclusive.
// row: {path, start, end}
// returns: path, start, end, node {...}
// params: repo, ranges
UNWIND $ranges AS r
MATCH (s:Symbol {repo: $repo, path: r.path})
WHERE s.start_line <= r.end AND s.end_line >= r.start
RETURN r.path AS path, r.start AS start, r.end AS end,
       s {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .exported,
          .unresolved_calls, .parent_id, label: 'Symbol'} AS node
ORDER BY path, start, node.start_line
