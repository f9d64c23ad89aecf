// name: message_chunks
// Full-text seeds, exact words: the chunks whose source text holds a word run of an error message pasted as the
// query ("No such command"), compared lower-cased. The full-text index's English analyzer drops stop words ("no",
// "such"), so its phrase query matched any "command"; this reads the text itself. Chunks holding more of the runs
// come first, then shorter ones (a message is written where it is raised, not in a long caller).
// returns: id
// params: phrases, repo, limit
MATCH (r:Repository)
WHERE $repo IS NULL OR r.id = $repo
MATCH (c:CodeNode)
WHERE c.repo = r.id AND c:Chunk AND c.text IS NOT NULL
WITH c, size([p IN $phrases WHERE toLower(c.text) CONTAINS p]) AS hits
WHERE hits > 0
RETURN c.id AS id
ORDER BY hits DESC, size(c.text), c.id
LIMIT $limit
