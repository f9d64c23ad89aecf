// name: fulltext_seeds
// Full-text seeds: chunks whose identifier-split text matches a Lucene query (escaped by the caller),
// best first, optionally limited to one repository.
// returns: id, score
// params: query, limit, repo
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $limit}) YIELD node, score
WHERE $repo IS NULL OR node.repo = $repo
RETURN node.id AS id, score
