// name: name_references_scan
// Chunks of a repository whose text contains one of some identifiers, by a scan of all the repository's
// chunks: the fallback of name_references for names the full-text analyzer drops (English stop words such as
// `then`, `is`) or when its hits reach the limit.
// returns: path, start_line, text
// params: repo, names
MATCH (c:Chunk)
WHERE c.repo = $repo AND c.path IS NOT NULL   // lets the (repo, path) index find them
  AND any(name IN $names WHERE c.text CONTAINS name)
RETURN c.path AS path, c.start_line AS start_line, c.text AS text
ORDER BY path, start_line
