// name: symbol_heads
// The first lines (decorators, signature) of some symbols: the chunk starting at the symbol's first line,
// cut to 400 characters. Tells properties (@property) and decorated entry points apart.
// returns: id, head
// params: ids
UNWIND $ids AS sid
MATCH (s:CodeNode {id: sid})
WHERE s:Symbol
RETURN sid AS id, [(s)-[:HAS_CHUNK]->(ch) WHERE ch.start_line = s.start_line | left(ch.text, 400)][0] AS head
