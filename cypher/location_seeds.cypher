// name: location_seeds
// Stack-trace seeds: for each (path, line) found in the query, the chunks that contain the line in the files
// that path names, innermost (shortest) first. A file is named when its path is the given one or a tail of it
// (an absolute `/home/u/proj/pkg/auth.py` names pkg/auth.py: index seeks, one per tail the caller lists) or
// when the given path is a tail of its path (`flask/app.py` names src/flask/app.py: a scan of the repository's
// file paths, never of its chunks). Of the files one location names, only those matching the most of it count
// (`/srv/other/pkg/auth.py` names other/pkg/auth.py, not pkg/auth.py): one path is a tail of the other,
// so the shorter one is what they share.
// row: {path, line, tails (the path and each shorter tail of it, at '/' boundaries)}
// returns: id, score
// params: locations, repo, limit
UNWIND $locations AS loc
MATCH (r:Repository)
WHERE $repo IS NULL OR r.id = $repo
CALL (loc, r) {
  MATCH (f:File)
  WHERE f.repo = r.id AND f.path IN loc.tails
  RETURN f
  UNION
  MATCH (f:File)
  WHERE f.repo = r.id AND f.path ENDS WITH '/' + loc.path
  RETURN f
}
WITH loc, f, CASE WHEN size(f.path) < size(loc.path) THEN size(f.path) ELSE size(loc.path) END AS matched
WITH loc, collect({file: f, matched: matched}) AS found, max(matched) AS longest
UNWIND [x IN found WHERE x.matched = longest | x.file] AS f
MATCH (c:Chunk)
WHERE c.repo = f.repo AND c.path = f.path AND c.start_line <= loc.line AND c.end_line >= loc.line
RETURN c.id AS id, 1.0 / (1 + c.end_line - c.start_line) AS score
ORDER BY score DESC
LIMIT $limit
