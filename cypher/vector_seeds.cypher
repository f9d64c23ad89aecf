// name: vector_seeds
// Nearest chunks to a query vector from the vector index chunk_embedding (score: cosine mapped to [0, 1]).
// The procedure returns the global top $fetch; rows of other repositories (when $repo is set) and vectors of
// another model are dropped afterwards, so callers over-fetch and cut to $k.
// returns: id, repo, path, start_line, end_line, kind, qualified_name, score
// params: fetch, vector, repo, model_id, k
CALL db.index.vector.queryNodes('chunk_embedding', $fetch, $vector) YIELD node, score
WHERE node.embedding_model = $model_id AND ($repo IS NULL OR node.repo = $repo)
RETURN node.id AS id, node.repo AS repo, node.path AS path, node.start_line AS start_line,
       node.end_line AS end_line, node.kind AS kind, node.qualified_name AS qualified_name, score
ORDER BY score DESC
LIMIT $k
