// name: name_references
// Chunks of a repository whose text contains one of some identifiers, found through the chunk_text full-text
// index: $query ORs the lower-cased names (Lucene-escaped by the caller; the index holds every identifier as
// written, lower-cased), then the hits are cut to the repository and to chunks whose text contains a name
// exactly. hits counts the index hits before the repository filter: when it reaches $limit the answer may be
// incomplete and the caller scans instead (name_references_scan). Impact analysis tokenizes the chunks to
// find non-call references (a function passed or stored as a value).
// returns: hits, chunks [{path, start_line, text}]
// params: repo, query, names, limit
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $limit}) YIELD node
WITH count(node) AS hits, collect(CASE WHEN node.repo = $repo THEN node END) AS mine
RETURN hits, [c IN mine WHERE any(name IN $names WHERE c.text CONTAINS name) |
              {path: c.path, start_line: c.start_line, text: c.text}] AS chunks
