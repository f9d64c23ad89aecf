// name: symbol_seeds
// Symbol seeds: chunks of symbols whose name or qualified name is one of the identifiers in the query
// (`parseFlow`, `OrderService.cancel`), exact qualified matches first.
// returns: id, score
// params: names, repo, limit
UNWIND $names AS wanted
MATCH (s:Symbol)
WHERE ($repo IS NULL OR s.repo = $repo)
  AND (s.name = wanted OR s.qualified_name = wanted OR s.qualified_name ENDS WITH '.' + wanted)
MATCH (s)-[:HAS_CHUNK]->(c:Chunk)
WITH c, max(CASE WHEN s.qualified_name = wanted THEN 3 WHEN s.name = wanted THEN 2 ELSE 1 END) AS score,
     min(c.part) AS part
RETURN c.id AS id, score
ORDER BY score DESC, part ASC
LIMIT $limit
