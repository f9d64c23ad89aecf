// name: sibling_methods
// For some methods, the names of every method of the class that contains each (itself included): tells a
// file-like class (one that answers `seekable()` or `fileno()`) apart from one that merely has a `close()`.
// returns: id, names
// params: ids
UNWIND $ids AS sid
MATCH (cls:Symbol)-[:CONTAINS]->(m:CodeNode {id: sid})
RETURN sid AS id, [(cls)-[:CONTAINS]->(o:Symbol) WHERE o.kind = 'method' | o.name] AS names
