// name: chunks_by_id
// Chunks with everything a result shows: location, text, the symbol they belong to, the repository commit.
// returns: one map per chunk (no embedding)
// params: ids
UNWIND $ids AS wanted
MATCH (c:CodeNode {id: wanted})
WHERE c:Chunk
OPTIONAL MATCH (s:CodeNode {id: c.symbol_id})
MATCH (r:Repository {id: c.repo})
RETURN c.id AS id, c.repo AS repo, r.commit AS commit, c.path AS path, c.start_line AS start_line,
       c.end_line AS end_line, c.kind AS chunk_kind, c.text AS text, c.header AS header, c.title AS title,
       c.language AS language, c.is_test AS is_test, c.is_generated AS is_generated, c.symbol_id AS symbol_id,
       s.name AS name, s.qualified_name AS qualified_name, s.kind AS symbol_kind, s.signature AS signature,
       c.content_hash AS content_hash
