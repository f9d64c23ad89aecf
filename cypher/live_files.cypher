// name: live_files
// The files of the live snapshot of a repository with their blob and extractor version (to diff a new commit).
// returns: path, blob, extractor_version
// params: repo
MATCH (f:File {repo: $repo})
RETURN f.path AS path, f.blob AS blob, f.extractor_version AS extractor_version
