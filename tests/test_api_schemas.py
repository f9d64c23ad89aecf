"""/openapi.json types every success response (graphrag_code/api_schemas.py): real responses of each endpoint,
against the real Neo4j, validate against the schema the document gives for their operation and status."""

from __future__ import annotations

import time
from typing import Any

import jsonschema
import pytest

from graphrag_code.api import ENDPOINTS, ApiConfig, create_app
from graphrag_code.indexer import index_repository


def _json_schema(schema: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` as JSON Schema's null type (jsonschema does not know the keyword)."""
    if isinstance(schema, list):
        return [_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _json_schema(v) for k, v in schema.items() if k != "nullable"}
    if schema.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
    return out


@pytest.fixture
def api(neo4j_settings, git_repo, repo_name, graph):
    git_repo.write("src/app.py", "def handler(request):\n    \"\"\"Handle a request.\"\"\"\n    return load_user("
                                 "request.user_id)\n\n\ndef load_user(user_id):\n    return {\"id\": user_id}\n\n\n"
                                 "class Store:\n    def get(self, key):\n        return load_user(key)\n\n\n"
                                 "class Cache:\n    def __init__(self):\n        self.items = {}\n\n\n"
                                 "def make_cache():\n    return Cache()\n")
    git_repo.write("README.md", "# Users\n\nload_user reads a user by id.\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    app = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,)))
    client = app.test_client()
    doc = client.get("/openapi.json").get_json()

    def check(operation: str, resp) -> dict:
        ep = ENDPOINTS[operation]
        path = ep.path.replace("<path:", "{").replace("<", "{").replace(">", "}")
        spec = doc["paths"][path][ep.method.lower()]["responses"][str(resp.status_code)]
        body = resp.get_json()
        jsonschema.validate(body, _json_schema(spec["content"]["application/json"]["schema"]))
        return body

    return client, check, repo_name, git_repo


def test_every_success_response_is_typed(client) -> None:
    doc = client.get("/openapi.json").get_json()
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            success = next(s for s in op["responses"] if s.startswith("2"))
            schema = op["responses"][success]["content"]["application/json"]["schema"]
            assert schema.get("required") and schema.get("properties"), (method, path)


def test_responses_match_their_schemas(api) -> None:
    client, check, repo, git_repo = api
    check("healthz", client.get("/healthz"))
    assert check("readyz", client.get("/readyz"))["ready"] is True
    hits = check("search", client.post("/v1/search", json={"query": "load_user", "repo": repo}))["hits"]
    assert hits and hits[0]["repo"] == repo
    bare = check("search", client.post("/v1/search", json={"query": "load_user", "repo": repo, "with_text": False}))
    assert bare["hits"] and not any("text" in h for h in bare["hits"])
    answer = check("ask", client.post("/v1/ask", json={"question": "where is load_user", "repo": repo, "llm": False}))
    assert answer["sources"]
    paths = check("paths", client.post("/v1/paths", json={"source": "handler", "target": "load_user", "repo": repo}))
    assert paths["found"] and paths["shortest"] == 1
    none = check("paths", client.post("/v1/paths", json={"source": "load_user", "target": "handler", "repo": repo}))
    assert not none["found"] and none["shortest"] is None
    impact = check("impact", client.post("/v1/impact", json={"target": "load_user", "repo": repo}))
    assert {c["node"]["name"] for c in impact["callers"]["1"]} == {"handler", "get"}
    built = check("impact", client.post("/v1/impact", json={"target": "Cache.__init__", "repo": repo}))
    assert [c["via"] for c in built["callers"]["1"]] == [f"{repo}:src/app.py#Cache"], built["callers"]
    listed = check("repos_list", client.get("/v1/repositories"))
    assert repo in {r["id"] for r in listed["repositories"]}
    symbol = check("symbol", client.get(f"/v1/symbols/{repo}:src/app.py%23load_user"))
    assert {c["id"].rsplit("#")[1] for c in symbol["callers"]} == {"handler", "Store.get"}
    method = check("symbol", client.get(f"/v1/symbols/{repo}:src/app.py%23Store.get"))
    assert method["parent"] == f"{repo}:src/app.py#Store"
    docs = check("search", client.post("/v1/search", json={"query": "reads a user by id", "repo": repo}))
    assert any(h["path"] == "README.md" for h in docs["hits"]), docs["hits"]
    source = check("source", client.get("/v1/source", query_string={"repo": repo, "path": "src/app.py",
                                                                     "start": 1, "end": 2}))
    assert len(source["lines"]) == 2

    (git_repo.root / "src" / "more.py").write_text("def more():\n    return 1\n")
    git_repo.commit("more")
    job = check("repos_index", client.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo}))
    deadline = time.monotonic() + 120
    while job["state"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.2)
        job = check("job", client.get(f"/v1/jobs/{job['id']}"))
    assert job["state"] == "done", job
    gone = check("repos_delete", client.delete(f"/v1/repositories/{repo}"))
    assert gone["deleted_nodes"] > 0


def test_a_schema_rejects_what_breaks_the_contract(api) -> None:
    """The schemas can fail: an impact answer without its verdict, or with a verdict not in the enum."""
    client, check, repo, _ = api
    doc = client.get("/openapi.json").get_json()
    schema = _json_schema(doc["paths"]["/v1/impact"]["post"]["responses"]["200"]["content"]["application/json"]
                          ["schema"])
    body = client.post("/v1/impact", json={"target": "load_user", "repo": repo}).get_json()
    jsonschema.validate(body, schema)
    for broken in ({**body, "completeness": {**body["completeness"], "verdict": "maybe"}},
                   {k: v for k, v in body.items() if k != "completeness"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)
