"""The REST API: Flask's test client for shapes and errors, and a real HTTP client against waitress."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from graphrag_code.api import ApiConfig, create_app
from graphrag_code.config import Neo4jSettings
from graphrag_code.errors import ConfigError
from graphrag_code.indexer import delete_repository, index_repository
from serving import waitress_server



@pytest.fixture
def auth_client(neo4j_settings):
    app = create_app(ApiConfig(neo4j=neo4j_settings, tokens=frozenset({"s3cret-token"})))
    return app.test_client()


def test_health_and_readiness(client) -> None:
    assert client.get("/healthz").json["status"] == "ok"
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json["checks"]["neo4j"] == "ok"


def test_search_returns_typed_hits_with_provenance(client, indexed) -> None:
    repo, git_repo = indexed
    resp = client.post("/v1/search", json={"query": "load_user", "repo": repo, "k": 3, "debug": True})
    assert resp.status_code == 200
    top = resp.json["hits"][0]
    assert (top["path"], top["start_line"], top["end_line"], top["qualified_name"]) == ("src/app.py", 6, 7, "load_user")
    assert top["commit"] == git_repo.git("rev-parse", "HEAD") and "symbol" in top["channels"]
    assert {"fulltext_seeds", "symbol_seeds", "chunks_by_id"} <= {s["name"] for s in resp.json["debug"]["statements"]}


@pytest.mark.parametrize("body, field", [
    ({}, "query"), ({"query": "x", "k": 0}, "k"), ({"query": "x", "k": "5"}, "k"), ({"query": 3}, "query"),
    ({"query": "x", "hops": 9}, "hops"), ({"query": "x", "bogus": 1}, "bogus"), ({"query": "x" * 5000}, "query"),
])
def test_invalid_search_input_is_a_clear_400(client, body: dict, field: str) -> None:
    resp = client.post("/v1/search", json=body)
    assert resp.status_code == 400
    assert resp.json["error"]["code"] == "bad_input" and resp.json["error"]["field"] == field


def test_non_json_and_oversized_bodies(client) -> None:
    assert client.post("/v1/search", data="query=x").status_code == 400
    big = client.post("/v1/search", data=json.dumps({"query": "x" * 100_000}), content_type="application/json")
    assert big.status_code == 413 and "error" in big.json


def test_symbol_detail_has_callers_and_callees(client, indexed) -> None:
    repo, _ = indexed
    resp = client.get(f"/v1/symbols/{repo}:src/app.py%23handler")
    assert resp.status_code == 200
    assert [c["qualified_name"] for c in resp.json["callees"]] == ["load_user"]
    assert resp.json["callees"][0]["lines"] == [3]
    callee = client.get(f"/v1/symbols/{repo}:src/app.py%23load_user").json
    assert [c["qualified_name"] for c in callee["callers"]] == ["handler"]
    assert client.get(f"/v1/symbols/{repo}:nope%23x").status_code == 404


def test_source_returns_lines_at_the_indexed_commit(client, indexed) -> None:
    repo, git_repo = indexed
    git_repo.write("src/app.py", "# rewritten\n")          # the working tree moved on; the commit did not
    resp = client.get(f"/v1/source?repo={repo}&path=src/app.py&start=6&end=7")
    assert resp.status_code == 200
    assert resp.json["lines"] == ["def load_user(user_id):", '    return {"id": user_id}']


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "src/../../x", "src/app.py\\..", "nope.py"])
def test_source_refuses_paths_outside_the_index(client, indexed, path: str) -> None:
    repo, _ = indexed
    resp = client.get("/v1/source", query_string={"repo": repo, "path": path, "start": 1, "end": 2})
    assert resp.status_code in (400, 404) and "error" in resp.json
    assert "root:" not in resp.get_data(as_text=True)


def test_bearer_tokens(auth_client) -> None:
    assert auth_client.post("/v1/search", json={"query": "x"}).status_code == 401
    bad = auth_client.post("/v1/search", json={"query": "x"}, headers={"Authorization": "Bearer wrong"})
    assert bad.status_code == 401 and bad.headers["WWW-Authenticate"] == "Bearer"
    ok = auth_client.post("/v1/search", json={"query": "x"}, headers={"Authorization": "Bearer s3cret-token"})
    assert ok.status_code == 200
    assert auth_client.get("/healthz").status_code == 200      # probes need no token


def test_public_bind_without_tokens_is_refused(neo4j_settings) -> None:
    with pytest.raises(ConfigError, match="without API tokens"):
        create_app(ApiConfig(neo4j=neo4j_settings, host="0.0.0.0"))


def test_neo4j_down_is_503_with_retry_after() -> None:
    app = create_app(ApiConfig(neo4j=Neo4jSettings(uri="bolt://127.0.0.1:9")))
    c = app.test_client()
    resp = c.post("/v1/search", json={"query": "x"})
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert resp.json["error"]["code"] == "database_unavailable" and "Traceback" not in resp.get_data(as_text=True)
    # the driver's words (the server's address, errno) stay in the server log (eighth QA pass)
    assert "127.0.0.1:9" not in resp.get_data(as_text=True) and "Errno" not in resp.get_data(as_text=True)
    assert resp.json["error"]["message"].startswith("Neo4j is unavailable; retry later")
    ready = c.get("/readyz")
    assert ready.status_code == 503 and "127.0.0.1:9" not in ready.get_data(as_text=True)


def _finished(client, location: str) -> dict:
    """The job at ``location`` once it is done or failed (or after 20 s: a job also fills vectors)."""
    for _ in range(400):
        job = client.get(location).json
        if job["state"] in ("done", "failed"):
            break
        time.sleep(0.05)
    return job


def test_indexing_job_over_the_api(neo4j_settings, client, git_repo, repo_name) -> None:
    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit()
    off = client.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo_name})
    assert off.status_code == 403 and "GRAPHRAG_INDEX_ROOTS" in off.json["error"]["message"]
    client = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,))).test_client()
    outside = client.post("/v1/repositories", json={"path": "/etc"})
    assert outside.status_code == 403 and outside.json["error"]["field"] == "path"
    resp = client.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo_name})
    assert resp.status_code == 202 and resp.headers["Location"].startswith("/v1/jobs/")
    job = _finished(client, resp.headers["Location"])
    assert job["state"] == "done", job
    assert job["summary"]["symbols"] == 1
    repos = {r["id"] for r in client.get("/v1/repositories").json["repositories"]}
    assert repo_name in repos
    missing = client.post("/v1/repositories", json={"path": str(git_repo.root.parent / "nope")})
    assert missing.status_code == 400 and missing.json["error"]["field"] == "path"
    assert client.get("/v1/jobs/nope").status_code == 404



def test_deleting_a_repository_over_the_api(neo4j_settings, graph, client, git_repo, repo_name,
                                             tmp_path_factory) -> None:
    """DELETE /v1/repositories/REPO: only where the server may index (GRAPHRAG_INDEX_ROOTS) and only a repository
    indexed from there; 404 for an unknown one; the repository is gone afterwards, another stays."""
    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit()
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "mod.py").write_text("def g():\n    return 2\n")
    other = f"{repo_name}-lib"
    index_repository(graph, elsewhere, name=other)         # by the library, from outside the index roots
    try:
        roots = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root,))).test_client()
        job = roots.post("/v1/repositories", json={"path": str(git_repo.root), "name": f"{repo_name}-api"})
        assert job.status_code == 202
        state = _finished(roots, job.headers["Location"])
        assert state["state"] == "done", state
        off = client.delete(f"/v1/repositories/{repo_name}-api")            # a server without index roots
        assert off.status_code == 403 and "GRAPHRAG_INDEX_ROOTS" in off.json["error"]["message"]
        outside = roots.delete(f"/v1/repositories/{other}")
        assert outside.status_code == 403 and "outside the directories" in outside.json["error"]["message"]
        assert roots.delete("/v1/repositories/no-such-repo").status_code == 404
        from graphrag_code.api import Job
        jobs = roots.application.extensions["graphrag"].jobs.jobs    # a job indexing it: the seam the runner owns
        jobs["busy"] = Job("busy", str(git_repo.root), f"{repo_name}-api", state="running")
        busy = roots.delete(f"/v1/repositories/{repo_name}-api")
        assert busy.status_code == 409 and busy.json["error"]["code"] == "conflict"
        jobs["busy"].state = "done"
        gone = roots.delete(f"/v1/repositories/{repo_name}-api")
        assert gone.status_code == 200, gone.json
        assert gone.json["repo"] == f"{repo_name}-api" and gone.json["deleted_nodes"] > 1
        listed = {r["id"] for r in roots.get("/v1/repositories").json["repositories"]}
        assert f"{repo_name}-api" not in listed and other in listed
        assert roots.delete(f"/v1/repositories/{repo_name}-api").status_code == 404
    finally:
        for name in (other, f"{repo_name}-api"):
            delete_repository(graph, name)


def test_openapi_document_and_index_page(client) -> None:
    doc = client.get("/openapi.json").json
    assert doc["openapi"].startswith("3.")
    assert {"/v1/search", "/v1/source", "/v1/symbols/{symbol_id}", "/v1/jobs/{job_id}"} <= set(doc["paths"])
    schema = doc["paths"]["/v1/search"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["required"] == ["query"] and schema["additionalProperties"] is False
    impact = doc["paths"]["/v1/impact"]["post"]
    assert "repo" not in impact["requestBody"]["content"]["application/json"]["schema"].get("required", [])
    assert "several repositories" in impact["responses"]["409"]["description"]
    assert "several repositories" not in doc["paths"]["/v1/search"]["post"]["responses"]["409"]["description"]
    page = client.get("/").get_data(as_text=True)
    assert "curl" in page and "/v1/search" in page
    assert "Authorization" not in page, "no tokens: the curl lines to paste must work without one"


def test_index_page_curl_lines_send_the_token_when_tokens_are_required(auth_client) -> None:
    page = auth_client.get("/").get_data(as_text=True)
    # double quotes: a shell expands $TOKEN inside them, not inside single quotes
    assert 'curl -H "Authorization: Bearer $TOKEN"' in page and "'Authorization: Bearer $TOKEN'" not in page


def test_real_http_client_against_waitress(neo4j_settings, indexed) -> None:
    repo, _ = indexed
    with waitress_server(create_app(ApiConfig(neo4j=neo4j_settings))) as server:
        port = server.effective_port
        req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/search", method="POST",
                                     data=json.dumps({"query": "handler", "repo": repo}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            body = json.load(resp)
            assert resp.status == 200 and resp.headers["X-Request-Id"]
        assert body["hits"][0]["qualified_name"] == "handler"
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}/v1/search", method="POST",
                                                          data=b"{", headers={"Content-Type": "application/json"}),
                                   timeout=10)
        assert err.value.code == 400 and json.load(err.value)["error"]["code"] == "bad_input"


def test_ask_extractive_and_with_the_llm_stub(client, indexed, monkeypatch) -> None:
    from messages_stub import API_KEY, MessagesStub

    repo, git_repo = indexed
    plain = client.post("/v1/ask", json={"question": "how is a user loaded?", "repo": repo, "llm": False})
    assert plain.status_code == 200 and plain.json["mode"] == "extractive"
    assert any(c["path"] == "src/app.py" and c["status"] == "ok" for c in plain.json["citations"])
    with MessagesStub() as stub:
        stub.reply("The handler loads the user through load_user [1].")
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        resp = client.post("/v1/ask", json={"question": "how is a user loaded?", "repo": repo, "llm": True})
        assert resp.status_code == 200, resp.json
        body = resp.json
        assert body["mode"] == "llm" and body["citations"][0]["status"] == "ok"
        assert body["citations"][0]["commit"] == git_repo.git("rev-parse", "HEAD")
        stub.error(500).error(500).error(500).error(500)
        down = client.post("/v1/ask", json={"question": "how is a user loaded?", "repo": repo, "llm": True})
        assert down.status_code == 503 and down.json["error"]["code"] == "llm_unavailable"
        assert down.headers["Retry-After"] == "5"
        # a rate limit asking for an hour is passed on: a client told 5 s retried into it (sixth QA pass)
        stub.error(429, "slow down", headers={"retry-after": "3600"})
        limited = client.post("/v1/ask", json={"question": "how is a user loaded?", "repo": repo, "llm": True})
        assert limited.status_code == 503 and limited.headers["Retry-After"] == "3600", limited.json


def test_paths_and_impact_endpoints(client, indexed) -> None:
    repo, _ = indexed
    paths = client.post("/v1/paths", json={"repo": repo, "source": "handler", "target": "load_user"})
    assert paths.status_code == 200, paths.json
    assert "paths" in paths.json and paths.json["paths"]
    impact = client.post("/v1/impact", json={"repo": repo, "target": "load_user"})
    assert impact.status_code == 200, impact.json
    text = json.dumps(impact.json)
    assert "handler" in text
    assert client.post("/v1/impact", json={"repo": repo}).status_code == 400
    assert client.post("/v1/paths", json={"repo": repo, "source": "handler"}).json["error"]["field"] == "target"


def test_concurrent_debug_searches_keep_their_own_trace(client, indexed) -> None:
    """Eight threads at once: no 5xx, and each debug trace holds only its own request's statements."""
    from concurrent.futures import ThreadPoolExecutor

    repo, _ = indexed

    def one(i: int):
        query = "handler" if i % 2 else "load_user"
        resp = client.post("/v1/search", json={"query": query, "repo": repo, "debug": True, "k": 3})
        return query, resp.status_code, resp.json

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, range(32)))
    assert all(status == 200 for _, status, _ in results)
    for query, _, body in results:
        lucene = [s["params"]["query"] for s in body["debug"]["statements"] if s["name"] == "fulltext_seeds"]
        other = "load_user" if query == "handler" else "handler"
        # one statement, or a few when other repositories of the database fill the index's top (asked deeper)
        assert lucene and all(query in q and other not in q for q in lucene), (query, lucene)


def test_tokens_limited_to_repositories(neo4j_settings, indexed) -> None:
    from graphrag_code.api import parse_tokens

    repo, _ = indexed
    tokens, limited = parse_tokens(f"admin, reader={repo}|other, stranger=nothing-here")
    assert tokens == {"admin", "reader", "stranger"} and limited["reader"] == {repo, "other"}
    c = create_app(ApiConfig(neo4j=neo4j_settings, tokens=tokens, token_repos=limited)).test_client()

    def h(token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}

    assert c.post("/v1/search", json={"query": "handler", "repo": repo}, headers=h("reader")).status_code == 200
    denied = c.post("/v1/search", json={"query": "handler", "repo": repo}, headers=h("stranger"))
    assert denied.status_code == 403 and denied.json["error"]["field"] == "repo"
    unnamed = c.post("/v1/search", json={"query": "handler"}, headers=h("reader"))
    assert unnamed.status_code == 403 and "name the repository" in unnamed.json["error"]["message"]
    assert c.get(f"/v1/source?repo={repo}&path=src/app.py&start=1&end=2", headers=h("stranger")).status_code == 403
    assert c.get(f"/v1/source?repo={repo}&path=src/app.py&start=1&end=2", headers=h("reader")).status_code == 200
    assert c.get(f"/v1/symbols/{repo}:src/app.py%23handler", headers=h("stranger")).status_code == 403
    listed = c.get("/v1/repositories", headers=h("reader")).json["repositories"]
    assert [r["id"] for r in listed] == [repo]
    assert len(c.get("/v1/repositories", headers=h("admin")).json["repositories"]) >= 1
    assert c.post("/v1/repositories", json={"path": "/tmp"}, headers=h("reader")).status_code == 403
    assert c.delete(f"/v1/repositories/{repo}", headers=h("reader")).status_code == 403
    assert c.post("/v1/paths", json={"repo": repo, "source": "handler", "target": "load_user"},
                  headers=h("stranger")).status_code == 403


def test_paths_impact_and_source_default_to_the_only_repository_readable(neo4j_settings, graph, indexed) -> None:
    """Unnamed, the repository is the only one the token may read; with several readable (a token for two: the
    shared test database may hold more than the 409's list shows), a 409 that lists them; with none, a 404."""
    from graphrag_code.api import parse_tokens

    repo, git_repo = indexed
    tokens, limited = parse_tokens(f"pair={repo}|{repo}-second, reader={repo}, stranger=nothing-here")
    c = create_app(ApiConfig(neo4j=neo4j_settings, tokens=tokens, token_repos=limited)).test_client()
    reader = {"Authorization": "Bearer reader"}

    impact = c.post("/v1/impact", json={"target": "load_user"}, headers=reader)
    assert impact.status_code == 200, impact.json
    assert impact.json["repo"] == repo and "handler" in json.dumps(impact.json["callers"])
    paths = c.post("/v1/paths", json={"source": "handler", "target": "load_user"}, headers=reader)
    assert paths.status_code == 200 and paths.json["paths"], paths.json
    source = c.get("/v1/source?path=src/app.py&start=6&end=7", headers=reader)
    assert source.status_code == 200 and source.json["repo"] == repo
    assert source.json["lines"][0].startswith("def load_user")

    index_repository(graph, git_repo.root, name=f"{repo}-second")
    try:
        several = c.post("/v1/impact", json={"target": "load_user"}, headers={"Authorization": "Bearer pair"})
        assert several.status_code == 409 and several.json["error"]["code"] == "ambiguous"
        message = several.json["error"]["message"]
        assert several.json["error"]["field"] == "repo" and repo in message and f"{repo}-second" in message
        none = c.post("/v1/impact", json={"target": "load_user"}, headers={"Authorization": "Bearer stranger"})
        assert none.status_code == 404 and none.json["error"]["field"] == "repo"
    finally:
        delete_repository(graph, f"{repo}-second")


def test_server_reranker_runs_on_search_and_shows_in_readiness(neo4j_settings, indexed, tmp_path) -> None:
    from graphrag_code.rerankers import make_reranker
    from test_rerankers import build_cross_encoder

    repo, _ = indexed
    build_cross_encoder(tmp_path / "ce")
    c = create_app(ApiConfig(neo4j=neo4j_settings,
                             reranker_loader=lambda: make_reranker("cross-encoder", str(tmp_path / "ce")))).test_client()
    assert c.get("/readyz").json["checks"]["reranker"] == "cross-encoder:ce"
    resp = c.post("/v1/search", json={"query": "load_user", "repo": repo})
    assert resp.status_code == 200 and resp.json["reranker"] == "cross-encoder:ce"
    assert resp.json["hits"][0]["qualified_name"] == "load_user"


def test_a_reranker_that_cannot_load_leaves_search_working(neo4j_settings, indexed) -> None:
    def broken():
        raise ConfigError("cross-encoder model not found: /nowhere")

    repo, _ = indexed
    c = create_app(ApiConfig(neo4j=neo4j_settings, reranker_loader=broken)).test_client()
    ready = c.get("/readyz")
    assert ready.status_code == 200 and "model not found" in ready.json["checks"]["reranker"]
    resp = c.post("/v1/search", json={"query": "load_user", "repo": repo})
    assert resp.status_code == 200 and resp.json["reranker"] == "none" and resp.json["hits"]
