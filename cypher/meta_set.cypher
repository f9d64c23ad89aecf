// name: meta_set
// Record the schema version and embedding model of the graph (first use of a database).
// params: key, schema_version, embedding_model, embedding_dim
MERGE (m:GraphragMeta {key: $key})
SET m.schema_version = $schema_version, m.embedding_model = $embedding_model, m.embedding_dim = $embedding_dim
