// name: name_references
// Lines of a repository's chunks that contain one of some identifiers (a scan of the repository's chunks:
// exact and complete, unlike a full-text lookup whose hits are shared with every other repository). Impact
// analysis checks each line for a non-call reference (a function passed or stored as a value).
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
