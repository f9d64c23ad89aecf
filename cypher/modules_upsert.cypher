// name: modules_upsert
// External modules (imports that resolve to no file of the repository), shared across repositories.
// returns: modules
// params: names
UNWIND $names AS name
MERGE (m:CodeNode {id: 'module:' + name})
ON CREATE SET m:Module, m.name = name, m.kind = 'module'
RETURN count(m) AS modules
