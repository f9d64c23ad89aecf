// name: symbol_lookup_name
// Candidate symbols for a name given by a user: those whose name equals the last segment of what was typed
// (index on Symbol.name) or whose qualified name equals it exactly (index on Symbol.qualified_name); `match`
// says how each matched ('exact_qualified' > 'suffix_qualified' > 'name'); the caller ranks and explains.
// returns: node {...}, match
// params: repo, name, qualified, suffix, limit
CALL () {
  MATCH (s:Symbol {name: $name}) WHERE s.repo = $repo RETURN s
  UNION
  MATCH (s:Symbol {qualified_name: $qualified}) WHERE s.repo = $repo RETURN s
}
WITH s, CASE WHEN s.qualified_name = $qualified THEN 'exact_qualified'
             WHEN s.qualified_name ENDS WITH $suffix THEN 'suffix_qualified'
             ELSE 'name' END AS match
RETURN s {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .exported,
          .unresolved_calls, label: 'Symbol'} AS node, match
ORDER BY match, node.is_test, node.path, node.start_line
LIMIT $limit
