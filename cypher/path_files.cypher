// name: path_files
// Path seeds, step 1: the files whose path contains one of the paths the query names (a cheap substring
// prefilter; the caller keeps the files whose path is that path or ends with it).
// returns: repo, path
// params: paths, repo, limit
MATCH (f:File)
WHERE ($repo IS NULL OR f.repo = $repo)
  AND any(p IN $paths WHERE toLower(f.path) CONTAINS p)
RETURN f.repo AS repo, f.path AS path
LIMIT $limit
