// name: unresolved_existing
// Nodes of a repository holding call sites that resolution could not pin to a definition.
// returns: id, calls
// params: repo
MATCH (n:CodeNode {repo: $repo})
WHERE n.unresolved_count > 0
RETURN n.id AS id, n.unresolved_calls AS calls
