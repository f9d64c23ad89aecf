// name: delete_file_slice
// Remove up to $limit live nodes of one file (a swap in several transactions deleting a file too large to
// delete in one: a generated module of 50k definitions held over 1 GiB of transaction memory); called until it
// deletes none.
// returns: deleted
// params: repo, path, limit
MATCH (n:CodeNode)
WHERE n.repo = $repo AND n.path = $path AND (n:File OR n:Symbol OR n:Chunk)
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
