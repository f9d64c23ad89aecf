// name: callers_step
// One level of a breadth-first walk up the call graph. For each id: the nodes that CALL it (kind 'dispatch', via =
// the method the call names, for an edge the resolver gave an override: `self.m()` in a base class); for a method, the
// callers of the base-class methods it overrides (dynamic dispatch: a call to the base method may run the
// override; kind 'dispatch', via = the base method); for a placeholder method (its body only raises
// NotImplementedError: calls to it were resolved to its overrides), the callers of its overrides through it
// (kind 'dispatch', via = the override); for a constructor (__init__, __new__, constructor, Foo.Foo, ...),
// the callers of its class or of a subclass (kind 'constructor', via = the class called). Each caller carries
// what entry-point classification needs: callers_in (incoming CALLS), dispatch_in (a base method it overrides
// is called), head (first lines of its chunk: decorators), main_guard (a File whose module code has an
// `if __name__ == "__main__"` block).
// returns: target, kind, via, lines, confidence, resolved_by, caller {...}, callers_in, dispatch_in, head, main_guard
// params: ids
UNWIND $ids AS tid
MATCH (t:CodeNode {id: tid})
CALL (t) {
  MATCH (c:CodeNode)-[e:CALLS]->(t)
  OPTIONAL MATCH (named:CodeNode {id: e.via})
  RETURN c, e, CASE WHEN named IS NULL THEN 'call' ELSE 'dispatch' END AS kind,
         named {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, label: 'Symbol'} AS via
  UNION
  MATCH (t:Symbol {kind: 'method'})<-[:CONTAINS]-(tc:Symbol)-[:INHERITS|IMPLEMENTS]->{1,4}(bc:Symbol)
        -[:CONTAINS]->(bm:Symbol)
  WHERE bm.name = t.name AND bm <> t
  MATCH (c:CodeNode)-[e:CALLS]->(bm)
  // not from a sibling branch: a method of another subclass of the base calling the base method on its own
  // object (BadParameter.__init__'s super().__init__() reaching UsageError.__init__: resolved 'inherited' or
  // 'self') works on its own class, never on t's, unless a class derives from both (Python's MRO: D(Left, Right)
  // runs Right.run from Left.run's super().run()); a call on another object (PrefixLoader.list_templates calling
  // loader.list_templates()) may reach t; nor t itself
  WHERE c <> t AND NOT (e.resolved_by IN ['inherited', 'self'] AND EXISTS {
    MATCH (c)<-[:CONTAINS]-(cc:Symbol)-[:INHERITS|IMPLEMENTS]->{1,4}(bc)
    WHERE NOT EXISTS { MATCH (tc)-[:INHERITS|IMPLEMENTS]->{0,4}(cc) }
      AND NOT EXISTS { MATCH (cc)<-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)-[:INHERITS|IMPLEMENTS]->{1,4}(tc) }
  })
  RETURN c, e, 'dispatch' AS kind, bm {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line,
                                        .is_test, label: 'Symbol'} AS via
  UNION
  MATCH (t:Symbol {kind: 'method', placeholder: true})<-[:CONTAINS]-(:Symbol)
        <-[:INHERITS|IMPLEMENTS]-{1,4}(:Symbol)-[:CONTAINS]->(om:Symbol)
  WHERE om.name = t.name
  MATCH (c:CodeNode)-[e:CALLS]->(om)
  WHERE e.resolved_by IN ['override', 'lsp_hierarchy']
  RETURN c, e, 'dispatch' AS kind, om {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line,
                                        .is_test, label: 'Symbol'} AS via
  UNION
  MATCH (t:Symbol)<-[:CONTAINS]-(cls:Symbol)<-[:INHERITS]-{0,4}(sub:Symbol)
  // Java, C#, C++ constructors bear the class's name (`new Foo(1)` is a CALLS edge to the class Foo)
  WHERE t.name IN ['__init__', '__new__', '__post_init__', 'constructor', 'initialize', '__construct']
     OR (t.name = cls.name AND t.kind IN ['method', 'constructor'] AND cls.kind IN ['class', 'struct'])
  MATCH (c:CodeNode)-[e:CALLS]->(sub)
  RETURN c, e, 'constructor' AS kind, sub {.id, .path, .name, .qualified_name, .kind, .start_line, .end_line,
                                           .is_test, label: 'Symbol'} AS via
}
RETURN tid AS target, kind, via, e.lines AS lines, e.confidence AS confidence, e.resolved_by AS resolved_by,
       c {.id, .repo, .path, .name, .qualified_name, .kind, .start_line, .end_line, .is_test, .exported,
          .visibility, label: CASE WHEN c:File THEN 'File' ELSE 'Symbol' END} AS caller,
       COUNT { (c)<-[:CALLS]-() } AS callers_in,
       c:Symbol AND c.kind = 'method' AND EXISTS {
         MATCH (c)<-[:CONTAINS]-(:Symbol)-[:INHERITS|IMPLEMENTS]->{1,4}(:Symbol)-[:CONTAINS]->(bm2:Symbol)
         WHERE bm2.name = c.name AND EXISTS { (bm2)<-[:CALLS]-() } } AS dispatch_in,
       [(c)-[:HAS_CHUNK]->(ch) WHERE ch.start_line = c.start_line | left(ch.text, 400)][0] AS head,
       c:File AND EXISTS { MATCH (c)-[:HAS_CHUNK]->(ch) WHERE ch.text CONTAINS '__name__'
                                                          AND ch.text CONTAINS '__main__' } AS main_guard
