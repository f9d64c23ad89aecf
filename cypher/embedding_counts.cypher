// name: embedding_counts
// How many chunks of a repository have a vector, and of which models (set_embeddings writes the vector and
// its model id together); current counts those of $model_id (pass null when no model is loaded: current
// is then 0). missing = chunks - current.
// returns: chunks, with_vector, current, models (list of [model_id, count])
// params: repo, model_id
MATCH (c:CodeNode {repo: $repo})
WHERE c:Chunk
WITH count(c) AS chunks,
     count(c.embedding_model) AS with_vector,
     count(CASE WHEN c.embedding_model = $model_id THEN 1 END) AS current,
     collect(c.embedding_model) AS tags
CALL (tags) {
  UNWIND tags AS m
  WITH m, count(*) AS n
  RETURN collect([m, n]) AS models
}
RETURN chunks, with_vector, current, models
