// name: file_facts
// The stored extraction facts (definitions, calls, imports, bases as JSON) of some live files, to resolve
// cross-file edges without parsing unchanged files again (and the language server's answers, when stored).
// returns: path, language, facts, lsp
// params: repo, paths
MATCH (f:File {repo: $repo})
WHERE f.path IN $paths
RETURN f.path AS path, f.language AS language, f.facts AS facts, f.lsp AS lsp
