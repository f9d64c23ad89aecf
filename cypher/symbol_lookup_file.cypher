// name: symbol_lookup_file
// Files of a repository whose path equals the given one or ends with "/" + it (a path typed relative to a
// subdirectory); exact matches first.
// returns: node {id, repo, path, name, label, is_test, lines, language, unresolved_calls}, exact
// params: repo, path, suffix
MATCH (f:File {repo: $repo})
WHERE f.path = $path OR f.path ENDS WITH $suffix
RETURN f {.id, .repo, .path, .name, .is_test, .lines, .language, .unresolved_calls, kind: 'file',
          label: 'File'} AS node, f.path = $path AS exact
ORDER BY exact DESC, size(f.path), f.path
LIMIT 50
