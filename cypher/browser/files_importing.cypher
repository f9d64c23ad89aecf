// name: files_importing
// Neo4j Browser saved query: the files of a repository that import a module (`os`, also matching its
// submodules `os.path`) or a file of that repository (by path, `graphrag_code/cypher.py`), with the import
// lines. Found by id seeks on :CodeNode(id), never a scan.
// Browser: :param repo => 'main'   :param target => 'graphrag_code/errors.py'   (or a module: 'collections')
// returns: importer, is_test, imports, lines, path
// params: repo, target
MATCH (t:CodeNode)
WHERE t.id = $repo + ':' + $target OR t.id = 'module:' + $target OR t.id STARTS WITH 'module:' + $target + '.'
MATCH p = (f:File)-[i:IMPORTS]->(t)
WHERE f.repo = $repo
RETURN f.path AS importer, f.is_test AS is_test, coalesce(t.path, t.name) AS imports, i.lines AS lines, p AS path
ORDER BY importer, imports
