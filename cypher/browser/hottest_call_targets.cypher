// name: hottest_call_targets
// Neo4j Browser saved query: the 25 symbols of a repository with the most distinct callers (symbols or files
// whose code calls them), with how many of those callers are tests and in how many files they sit. Scalars
// only, so the Browser shows a table.
// Browser: :param repo => 'main'
// returns: qualified_name, kind, location, callers, test_callers, caller_files, some_callers
// params: repo
MATCH (t:Symbol)<-[:CALLS]-(c:CodeNode)
WHERE t.repo = $repo AND t.path IS NOT NULL   // path IS NOT NULL: lets the (repo, path) index find them
WITH t, collect(DISTINCT c) AS cs
WITH t, cs, size(cs) AS callers
ORDER BY callers DESC, t.qualified_name, t.path
LIMIT 25
CALL (cs) {
  UNWIND cs AS c
  RETURN count(DISTINCT c.path) AS caller_files
}
RETURN t.qualified_name AS qualified_name, t.kind AS kind, t.path + ':' + toString(t.start_line) AS location,
       callers, size([c IN cs WHERE c.is_test]) AS test_callers, caller_files,
       [c IN cs | coalesce(c.qualified_name, c.path)][..5] AS some_callers
