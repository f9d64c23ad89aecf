// name: importers_step
// One level of a breadth-first walk up the import graph: the files that IMPORT each given file, with lines.
// returns: target, importer {id, repo, path, name, is_test, label}, lines
// params: ids
UNWIND $ids AS fid
MATCH (f:CodeNode {id: fid})<-[e:IMPORTS]-(g:File)
RETURN fid AS target, g {.id, .repo, .path, .name, .is_test, kind: 'file', label: 'File'} AS importer,
       e.lines AS lines
ORDER BY target, importer.path
