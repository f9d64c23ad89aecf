// name: embedding_status
// How many chunks of a repository (or of all) have a vector, and from which model.
// returns: chunks, embedded, models
// params: repo
MATCH (c:Chunk)
WHERE $repo IS NULL OR c.repo = $repo
RETURN count(c) AS chunks, count(c.embedding) AS embedded, collect(DISTINCT c.embedding_model) AS models
