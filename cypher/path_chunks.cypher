// name: path_chunks
// Path seeds, step 2: the chunks of the files the query's terms picked (first part of each definition,
// module-level and section chunks too), with the name of the symbol each belongs to.
// returns: id, repo, path, name, chunk_kind, start_line
// params: files
UNWIND $files AS wanted
MATCH (c:Chunk {repo: wanted.repo, path: wanted.path})
WHERE c.part <= 1
OPTIONAL MATCH (s:CodeNode {id: c.symbol_id})
RETURN c.id AS id, c.repo AS repo, c.path AS path, coalesce(s.name, c.title) AS name, c.kind AS chunk_kind,
       c.start_line AS start_line
