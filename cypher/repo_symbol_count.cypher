// name: repo_symbol_count
// How many symbols a repository has: graph expansion takes two hops on small repositories.
// returns: symbols
// params: repo
MATCH (s:Symbol {repo: $repo})
RETURN count(s) AS symbols
