// name: unresolved_total
// How many call sites of a repository's live snapshot resolution could not pin to a definition (for a
// repository indexed before the count was stored on its node).
// returns: total
// params: repo
MATCH (n:CodeNode {repo: $repo})
WHERE n.unresolved_count > 0
RETURN coalesce(sum(n.unresolved_count), 0) AS total
