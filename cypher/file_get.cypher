// name: file_get
// One indexed file of a repository (only indexed paths can be read back through the API) and its commit.
// returns: path, blob, language, lines, root, commit, is_git
// params: repo, path
MATCH (r:Repository {id: $repo})-[:CONTAINS]->(f:File {path: $path})
RETURN f.path AS path, f.blob AS blob, f.language AS language, f.lines AS lines, r.root AS root,
       r.commit AS commit
