// name: unresolved_of_repo
// Nodes of a repository holding call sites that resolution could not pin to a definition: one scan instead
// of unresolved_of_files when most files must be diffed.
// returns: id, calls
// params: repo
MATCH (n:CodeNode {repo: $repo})
WHERE n.unresolved_count > 0
RETURN n.id AS id, n.unresolved_calls AS calls
