// name: file_lsp_set
// Store a language server's answers for the call sites of live files (JSON, one answer per call site; see
// graphrag_code/lsp.py), so later incremental runs ask only about what changed.
// row: {id, lsp}
// returns: updated
// params: rows
UNWIND $rows AS row
MATCH (f:CodeNode:File {id: row.id})
SET f.lsp = row.lsp
RETURN count(f) AS updated
