// name: embedding_counts
// How many chunks of a repository have a vector, and of which models; current counts those of $model_id
// (pass null when no model is loaded: current is then 0). missing = chunks - current.
// returns: chunks, with_vector, current, models (list of [model_id, count])
// params: repo, model_id
MATCH (c:Chunk {repo: $repo})
WITH count(c) AS chunks,
     count(c.embedding) AS with_vector,
     sum(CASE WHEN c.embedding IS NOT NULL AND c.embedding_model = $model_id THEN 1 ELSE 0 END) AS current,
     collect(CASE WHEN c.embedding IS NOT NULL THEN coalesce(c.embedding_model, '?') END) AS tags
CALL (tags) {
  UNWIND tags AS m
  WITH m, count(*) AS n
  RETURN collect([m, n]) AS models
}
RETURN chunks, with_vector, current, models
