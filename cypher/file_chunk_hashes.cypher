// name: file_chunk_hashes
// The chunks of one indexed file with their line ranges and content hashes: /v1/source vouches for a plain
// directory's lines with them when the file changed on disk since it was indexed (as ask's citations do).
// returns: start_line, end_line, content_hash
// params: repo, path
MATCH (c:Chunk {repo: $repo, path: $path})
RETURN c.start_line AS start_line, c.end_line AS end_line, c.content_hash AS content_hash
