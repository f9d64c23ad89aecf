// name: path_files
// Path seeds, step 1: the files whose path contains one of the query's terms (a cheap substring prefilter;
// the caller matches whole path segments and scores the files).
// returns: repo, path
// params: terms, repo, limit
MATCH (f:File)
WHERE ($repo IS NULL OR f.repo = $repo)
  AND any(t IN $terms WHERE toLower(f.path) CONTAINS t)
RETURN f.repo AS repo, f.path AS path
LIMIT $limit
