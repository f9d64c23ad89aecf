// name: constructor_family
// For some constructors (a class's __init__ or Ruby initialize): the names and files of its class and of the classes below it
// (constructing any of them may run it), and the methods of the classes above it, of its own class and of those
// below it whose text may construct a class known only at run time (`cls(...)`, `type(self)(...)`,
// `self.__class__(...)`, Ruby's `self.class.new`), with that text and whether the method is above (an ancestor's `cls(...)` constructs
// whichever subclass it is called on).
// returns: id, classes [{name, path}], methods [{id, name, above, text}]
// params: ids
UNWIND $ids AS sid
MATCH (:CodeNode {id: sid})<-[:CONTAINS]-(cls:Symbol {kind: 'class'})
CALL (cls) {
  MATCH (cls)<-[:INHERITS]-{0,4}(sub:Symbol)
  RETURN collect(DISTINCT sub {.name, .path}) AS classes
}
CALL (cls) {
  MATCH (cls)<-[:INHERITS]-{0,4}(sub:Symbol)-[:CONTAINS]->(m:Symbol {kind: 'method'})-[:HAS_CHUNK]->(ch)
  WHERE ch.text CONTAINS 'cls(' OR ch.text CONTAINS 'type(' OR ch.text CONTAINS '__class__'
     OR ch.text CONTAINS 'class.new' OR ch.text CONTAINS 'class.allocate'
  RETURN collect(DISTINCT {id: m.id, name: m.qualified_name, above: false, text: ch.text}) AS own_and_below
}
CALL (cls) {
  MATCH (cls)-[:INHERITS]->{1,4}(base:Symbol)-[:CONTAINS]->(m:Symbol {kind: 'method'})-[:HAS_CHUNK]->(ch)
  WHERE ch.text CONTAINS 'cls(' OR ch.text CONTAINS 'type(' OR ch.text CONTAINS '__class__'
     OR ch.text CONTAINS 'class.new' OR ch.text CONTAINS 'class.allocate'
  RETURN collect(DISTINCT {id: m.id, name: m.qualified_name, above: true, text: ch.text}) AS above
}
RETURN sid AS id, classes, own_and_below + above AS methods
