// name: name_references
// Lines of a repository's chunks that contain one of some identifiers, found through the chunk_text
// full-text index: $query ORs the lower-cased names (Lucene-escaped by the caller; the index holds every
// identifier as written, lower-cased), the hits are cut to the repository and to chunks whose text contains a
// name exactly, then to the lines that do. hits counts the index hits before the repository filter: when it
// reaches $limit the answer may be incomplete and the caller scans instead (name_references_scan). Impact
// analysis checks each line for a non-call reference (a function passed or stored as a value).
// returns: hits, lines [{path, line, text}]
// params: repo, query, names, limit
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $limit}) YIELD node
WITH count(node) AS hits, collect(CASE WHEN node.repo = $repo THEN node END) AS mine
CALL (mine, hits) {
  UNWIND mine AS c
  WITH c WHERE any(name IN $names WHERE c.text CONTAINS name)
  WITH c, split(c.text, '\n') AS lines
  UNWIND range(0, size(lines) - 1) AS i
  WITH c, c.start_line + i AS line, lines[i] AS text
  WHERE any(name IN $names WHERE text CONTAINS name)
  RETURN collect(DISTINCT {path: c.path, line: line, text: text}) AS lines
}
RETURN hits, lines
