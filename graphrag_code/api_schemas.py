"""The success responses of the REST API as OpenAPI 3.0 schemas (``api.openapi_document`` puts them in
/openapi.json). Each names the fields a client may rely on as required and types them; more fields may come
(``additionalProperties`` is left open), so adding one is no breaking change. Schemathesis checks every response
of its run against them (tests/test_api_schemathesis.py), and tests/test_api_schemas.py real ones."""

from __future__ import annotations

from typing import Any

S: dict[str, Any] = {"type": "string"}
I: dict[str, Any] = {"type": "integer"}
N: dict[str, Any] = {"type": "number"}
B: dict[str, Any] = {"type": "boolean"}
ANY_OBJECT: dict[str, Any] = {"type": "object"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with these fields (``required`` always present), others allowed."""
    return {"type": "object", "required": sorted(required), "properties": {**required, **(optional or {})}}


# a symbol or a file (module-level code) with its provenance: paths.NodeRef.to_dict
NODE = obj({"id": S, "repo": S, "commit": nullable(S), "path": S, "name": S, "kind": S, "label": S,
            "start_line": nullable(I), "end_line": nullable(I), "is_test": B, "location": S, "display": S},
           {"qualified_name": nullable(S)})
# how a name given in a request was resolved to definitions: paths.Resolved.to_dict
RESOLVED = obj({"query": S, "how": S, "reason": S, "ambiguous": B, "candidates": array(ANY_OBJECT),
                "chosen": nullable(NODE)})
# one impacted node and the step that reaches the target: impact.Caller
CALLER = obj({"node": NODE, "depth": I, "calls": S, "kind": S, "lines": array(I), "citations": array(S),
              "is_test": B, "entry_point": array(S)},
             {"confidence": nullable(N), "resolved_by": nullable(S), "via": nullable(S)})   # via: a symbol id
JOB = obj({"id": S, "path": S, "name": nullable(S), "state": {"type": "string",
                                                            "enum": ["queued", "running", "done", "failed"]},
           "stage": S, "done": I, "total": I, "summary": nullable(ANY_OBJECT), "error": nullable(ANY_OBJECT),
           "warnings": array(S), "created_at": N, "finished_at": nullable(N)})
READY = obj({"ready": B, "checks": {"type": "object", "additionalProperties": S}})

RESPONSE_SCHEMAS: dict[str, dict[str, Any]] = {
    "healthz": obj({"status": S, "version": S}),
    "readyz": READY,
    "search": obj({
        "query": S, "notes": array(S), "channels_used": array(S), "vectors": S,
        "timings": {"type": "object", "additionalProperties": N},
        "hits": array(obj({"id": S, "repo": S, "commit": nullable(S), "path": S, "start_line": I, "end_line": I,
                           "location": S, "score": N, "kind": S, "channels": ANY_OBJECT},
                          {"text": S,           # left out with "with_text": false
                           "symbol_id": nullable(S), "qualified_name": nullable(S), "name": nullable(S),
                           "language": nullable(S), "is_test": B, "via": array(S)}))},
        {"reranker": nullable(S), "analysis": ANY_OBJECT, "counts": ANY_OBJECT}),
    "ask": obj({
        "question": S, "answer": S, "mode": S, "refused": B, "flagged": B, "notes": array(S),
        "citations": array(obj({"n": I, "id": S, "repo": S, "commit": nullable(S), "path": S, "start_line": I,
                                "end_line": I, "status": S, "rendered": S})),
        "sources": array(obj({"n": I, "id": S, "repo": S, "path": S, "start_line": I, "end_line": I, "cited": B},
                             {"commit": nullable(S), "score": N, "symbol": nullable(S)})),
        "claims": array(obj({"sentence": S, "cites": array(I)}))},
        {"llm": ANY_OBJECT, "tokens": ANY_OBJECT, "timings": ANY_OBJECT, "call_chain": nullable(ANY_OBJECT)}),
    "paths": obj({
        "repo": S, "commit": nullable(S), "source": RESOLVED, "target": RESOLVED, "max_hops": I, "k": I,
        "found": B, "shortest": nullable(I), "notes": array(S), "frontier": nullable(ANY_OBJECT),
        "paths": array(obj({"length": I, "confidence": N, "nodes": array(S), "hops": array(ANY_OBJECT)}))}),
    "impact": obj({
        "repo": S, "commit": nullable(S), "depth": I, "notes": array(S),
        "targets": array(obj({"node": NODE, "reason": S})),
        "callers": {"type": "object", "additionalProperties": array(CALLER)},    # by depth ("1", "2", ...)
        "entry_points": array(CALLER), "tests": array(CALLER),
        "counts": {"type": "object", "additionalProperties": I},
        "completeness": obj({"verdict": {"type": "string", "enum": ["complete", "lower_bound"]}, "complete": B,
                             "reasons": array(S)})},
        {"resolution": nullable(RESOLVED), "diff": nullable(ANY_OBJECT), "importers": ANY_OBJECT}),
    "repos_list": obj({"repositories": array(obj(
        {"id": S, "status": S, "files": I, "symbols": I, "chunks": I, "edges": ANY_OBJECT},
        {"commit": nullable(S), "indexed_at": nullable(S), "root": nullable(S), "running": nullable(S),
         "last_failure": nullable(S), "failed_at": nullable(S)}))}),
    "repos_index": JOB,
    "repos_delete": obj({"repo": S, "deleted_nodes": I}),
    "job": JOB,
    "symbol": obj({"symbol": obj({"id": S, "repo": S, "path": S, "name": S, "kind": S, "start_line": I,
                                  "end_line": I}),
                   "commit": nullable(S), "parent": nullable(S),   # the enclosing symbol's id
                   "callers": array(obj({"id": S, "path": S, "lines": array(I)})),
                   "callees": array(obj({"id": S, "path": S, "lines": array(I)}))}),
    "source": obj({"repo": S, "commit": nullable(S), "path": S, "start": I, "end": I, "lines": array(S)}),
}
