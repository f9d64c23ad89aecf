// name: call_path
// Neo4j Browser saved query: the shortest call path (at most 8 CALLS hops) from one symbol to another, both
// given by qualified name in one repository; one row per (source, target) pair of symbols with those names,
// shortest first. `path` draws it; `steps` lists each hop as caller -> callee @ call-site lines.
// Browser: :param repo => 'main'   :param source => 'JobRunner._run'   :param target => 'is_test_path'
// returns: hops, steps, source_id, target_id, path
// params: repo, source, target
MATCH (a:Symbol {qualified_name: $source})
WHERE a.repo = $repo
MATCH (b:Symbol {qualified_name: $target})
WHERE b.repo = $repo AND b <> a
MATCH p = SHORTEST 1 (a)-[:CALLS]->{1,8}(b)
RETURN length(p) AS hops,
       [r IN relationships(p) | startNode(r).qualified_name + ' -> ' + endNode(r).qualified_name + ' @ '
          + startNode(r).path + ':' + reduce(at = '', l IN r.lines | at + CASE at WHEN '' THEN '' ELSE ',' END
                                                                       + toString(l))] AS steps,
       a.id AS source_id, b.id AS target_id, p AS path
ORDER BY hops, source_id, target_id
LIMIT 10
