// name: delete_files
// Remove the live nodes of files that changed or disappeared (their symbols and chunks too).
// returns: deleted
// params: repo, paths
MATCH (n:CodeNode)
WHERE n.repo = $repo AND n.path IN $paths AND (n:File OR n:Symbol OR n:Chunk)
DETACH DELETE n
RETURN count(*) AS deleted
