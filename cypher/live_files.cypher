// name: live_files
// The files of the live snapshot of a repository with their blob and extractor version (to diff a new commit)
// and the digest of the edges leaving them (to diff a new resolution).
// returns: path, blob, extractor_version, edges_digest
// params: repo
MATCH (f:File)
WHERE f.repo = $repo AND f.path IS NOT NULL   // path IS NOT NULL: lets the (repo, path) index find them
RETURN f.path AS path, f.blob AS blob, f.extractor_version AS extractor_version, f.edges_digest AS edges_digest
