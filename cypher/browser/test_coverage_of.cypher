// name: test_coverage_of
// Neo4j Browser saved query: the test symbols (is_test: defined in test files) that reach a symbol, given by
// qualified name in one repository, through at most 4 CALLS hops; the shortest such chain per test, nearest
// tests first. No row means no test reaches it through resolved calls (unresolved calls are not followed).
// Browser: :param repo => 'main'   :param qualified_name => 'redact'
// returns: test, test_location, hops, via, target_id, path
// params: repo, qualified_name
MATCH (s:Symbol {qualified_name: $qualified_name})
WHERE s.repo = $repo
MATCH p = SHORTEST 1 (t:Symbol WHERE t.is_test AND t <> s)-[:CALLS]->{1,4}(s)
RETURN t.qualified_name AS test, t.path + ':' + toString(t.start_line) AS test_location, length(p) AS hops,
       [n IN nodes(p)[1..-1] | n.qualified_name] AS via, s.id AS target_id, p AS path
ORDER BY hops, t.path, t.start_line
LIMIT 100
