// name: file_digests_set
// Record each file's edge digest (a hash of the edges and unresolved call sites leaving its file and symbols),
// so that the next run reads and diffs only the files whose digest changes.
// row: {id, digest}
// returns: updated
// params: rows
UNWIND $rows AS row
MATCH (f:CodeNode {id: row.id})
SET f.edges_digest = row.digest
RETURN count(f) AS updated
