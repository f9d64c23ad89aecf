// name: partial_files
// Files a swap in several transactions left in part: symbols or chunks without a live File node of their blob
// (a run killed between two slices of a file too large for one transaction; the File node is deleted first and
// promoted last). Read only by a run that finds a dead run's lease.
// returns: path
// params: repo
MATCH (n:CodeNode)
WHERE n.repo = $repo AND (n:Symbol OR n:Chunk)
WITH DISTINCT n.path AS path, n.blob AS blob
OPTIONAL MATCH (f:File)
WHERE f.repo = $repo AND f.path = path
WITH path, blob, f
WHERE f IS NULL OR f.blob <> blob
RETURN DISTINCT path
