// name: location_seeds
// Stack-trace seeds: for each (path suffix, line) found in the query, the chunks of files whose path ends
// with it that contain the line, innermost (shortest) first.
// row: {path, line}
// returns: id, score
// params: locations, repo, limit
UNWIND $locations AS loc
MATCH (c:Chunk)
WHERE ($repo IS NULL OR c.repo = $repo) AND (c.path = loc.path OR c.path ENDS WITH '/' + loc.path)
  AND c.start_line <= loc.line AND c.end_line >= loc.line
RETURN c.id AS id, 1.0 / (1 + c.end_line - c.start_line) AS score
ORDER BY score DESC
LIMIT $limit
