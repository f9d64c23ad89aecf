// name: name_references_scan
// Lines of a repository's chunks that contain one of some identifiers, by a scan of all the repository's
// chunks: the fallback of name_references for names the full-text analyzer drops (English stop words such as
// `then`, `is`) or when its hits reach the limit. Impact analysis checks each line for a non-call reference.
// returns: path, line, text
// params: repo, names
MATCH (c:Chunk {repo: $repo})
WHERE any(name IN $names WHERE c.text CONTAINS name)
WITH c, split(c.text, '\n') AS lines
UNWIND range(0, size(lines) - 1) AS i
WITH c, c.start_line + i AS line, lines[i] AS text
WHERE any(name IN $names WHERE text CONTAINS name)
RETURN DISTINCT c.path AS path, line, text
ORDER BY path, line
