// name: delete_file_slice
// Remove up to $limit live nodes of one file (a swap in several transactions deleting a file too large to
// delete in one: a generated module of 50k definitions held over 1 GiB of transaction memory); called until it
// deletes none. The File node goes first, so that a run killed between two slices leaves symbols and chunks
// without their File, which the next run finds (`partial_files`) and removes before it indexes the file again.
// returns: deleted
// params: repo, path, limit
MATCH (n:CodeNode)
WHERE n.repo = $repo AND n.path = $path AND (n:File OR n:Symbol OR n:Chunk)
WITH n ORDER BY CASE WHEN n:File THEN 0 ELSE 1 END
LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
