// name: symbol_lookup_id
// A symbol or file of a repository by its exact id ("repo:path#Qualified.name" or "repo:path"), for path /
// impact queries that name their endpoints by id.
// returns: node {id, repo, path, name, qualified_name, kind, start_line, end_line, is_test, exported, label, unresolved_calls}
// params: repo, id
MATCH (n:CodeNode {id: $id})
WHERE n.repo = $repo AND (n:Symbol OR n:File)
RETURN n {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .exported,
          .unresolved_calls, label: CASE WHEN n:File THEN 'File' ELSE 'Symbol' END} AS node
