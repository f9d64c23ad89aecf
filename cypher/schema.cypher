// name: schema
// Constraints and indexes of the code graph, created idempotently (IF NOT EXISTS).
// Every File, Symbol, Chunk and Module is also a :CodeNode so any id is one index seek away.
// Staged nodes of a running index job carry :Pending instead, so readers never see them.
// params: dimensions
CREATE CONSTRAINT repository_id IF NOT EXISTS FOR (r:Repository) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT code_node_id IF NOT EXISTS FOR (n:CodeNode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (m:GraphragMeta) REQUIRE m.key IS UNIQUE;
CREATE INDEX file_repo_path IF NOT EXISTS FOR (f:File) ON (f.repo, f.path);
CREATE INDEX symbol_repo_path IF NOT EXISTS FOR (s:Symbol) ON (s.repo, s.path);
CREATE INDEX symbol_name IF NOT EXISTS FOR (s:Symbol) ON (s.name);
CREATE INDEX symbol_qualified_name IF NOT EXISTS FOR (s:Symbol) ON (s.qualified_name);
CREATE INDEX chunk_repo_path IF NOT EXISTS FOR (c:Chunk) ON (c.repo, c.path);
CREATE INDEX code_node_repo IF NOT EXISTS FOR (n:CodeNode) ON (n.repo);
CREATE INDEX pending_repo IF NOT EXISTS FOR (p:Pending) ON (p.repo);
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.search_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (c:Chunk) ON c.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}};
