// name: fulltext_seeds
// Full-text seeds: chunks whose identifier-split text matches a Lucene query (escaped by the caller), best
// first, optionally limited to one repository. The index answers a global top $fetch, filtered afterwards:
// `fetched` (how many the index gave) tells the caller whether asking deeper could find more of $repo.
// returns: fetched, ids
// params: query, fetch, limit, repo
CALL db.index.fulltext.queryNodes('chunk_text', $query, {limit: $fetch}) YIELD node, score
WITH collect(CASE WHEN $repo IS NULL OR node.repo = $repo THEN node.id END) AS ids, count(*) AS fetched
RETURN fetched, ids[..$limit] AS ids
