// name: chunks_missing_embeddings
// One page of a repository's chunks without an embedding of model $model_id (none, or another model's),
// with what their embedding text is made of. Keyset paging over the unique CodeNode.id index: ids of repo R
// all lie in the range ("R:", "R;"), so pass after = "R:" first, then the last id of the previous page,
// and upper = "R;". The enclosing symbol's kind comes from its HAS_CHUNK edge (null for module/document chunks).
// returns: id, content_hash, path, language, kind, qualified_name, title, part, header, text, symbol_kind
// params: repo, model_id, after, upper, limit
MATCH (c:CodeNode)
WHERE c.id > $after AND c.id < $upper AND c:Chunk AND c.repo = $repo
  AND (c.embedding IS NULL OR coalesce(c.embedding_model, '') <> $model_id)
WITH c ORDER BY c.id LIMIT $limit
OPTIONAL MATCH (s:Symbol)-[:HAS_CHUNK]->(c)
RETURN c.id AS id, c.content_hash AS content_hash, c.path AS path, c.language AS language, c.kind AS kind,
       c.qualified_name AS qualified_name, c.title AS title, c.part AS part, c.header AS header, c.text AS text,
       s.kind AS symbol_kind
ORDER BY id
