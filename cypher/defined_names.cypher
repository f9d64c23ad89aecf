// name: defined_names
// impact --diff: for each path the diff removes lines from, whether it is an indexed file of the repository and
// the qualified names its symbols define at the indexed commit. A definition the diff's base (REV) had there
// whose qualified name the indexed file lacks was removed (or moved, or renamed) by the diff.
// returns: path, indexed, names
// params: repo, paths
UNWIND $paths AS p
OPTIONAL MATCH (f:File {repo: $repo, path: p})
RETURN p AS path, f IS NOT NULL AS indexed,
       COLLECT { MATCH (s:Symbol {repo: $repo, path: p}) RETURN DISTINCT s.qualified_name } AS names
ORDER BY path
