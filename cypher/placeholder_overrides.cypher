// name: placeholder_overrides
// For the placeholder methods among some symbols (a body that only raises NotImplementedError, or declared
// abstract): their overrides in subclasses (1-4 levels), where the calls that landed on them were resolved.
// returns: placeholder, node {...}
// params: ids
UNWIND $ids AS sid
MATCH (s:CodeNode:Symbol {id: sid, kind: 'method', placeholder: true})<-[:CONTAINS]-(:Symbol)
      <-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)-[:CONTAINS]->(om:Symbol {name: s.name})
RETURN DISTINCT sid AS placeholder,
       om {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, label: 'Symbol'} AS node
