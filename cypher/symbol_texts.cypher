// name: symbol_texts
// The whole text of some symbols: their chunks' texts in line order (a definition split into parts has several;
// a class's chunks hold the code between its methods, not the methods). Tells generators apart from functions.
// returns: id, texts
// params: ids
UNWIND $ids AS sid
MATCH (s:CodeNode {id: sid})
WHERE s:Symbol
RETURN sid AS id, [(s)-[:HAS_CHUNK]->(ch) | [ch.start_line, ch.text]] AS texts
