// name: meta_get
// The graph-wide metadata node: schema version and the embedding model the vector index was built for.
// returns: key, schema_version, embedding_model, embedding_dim
// params: key
MATCH (m:GraphragMeta {key: $key})
RETURN m.key AS key, m.schema_version AS schema_version, m.embedding_model AS embedding_model,
       m.embedding_dim AS embedding_dim
