"""The third QA pass's API findings: token rules, text that is no UTF-8, search filters that match nothing, ask's
debug field and wording, the OpenAPI document's statuses, and /v1/source when the indexed commit is gone."""

from __future__ import annotations

import json

import pytest

from graphrag_code.api import ApiConfig, create_app, parse_tokens
from graphrag_code.errors import ConfigError



def _post(client, path: str, raw_json: str):
    return client.post(path, data=raw_json, content_type="application/json")


# -- tokens ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, says", [
    ("=shop,secret-a", "entry 1 has no token"),
    ("secret-a, = shop|billing", "entry 2 has no token"),
    ("secret-a,secret-c=", "entry 2 has no repository after '='"),
    ("secret-a,secret-c= | ", "entry 2 has no repository after '='"),
])
def test_a_token_entry_without_a_token_or_without_repositories_is_a_startup_error(spec: str, says: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_tokens(spec)
    assert says in str(err.value)
    assert "secret-a" not in str(err.value) and "secret-c" not in str(err.value), "tokens are never echoed"


def test_a_token_without_repositories_reads_every_one_and_a_limited_one_only_those() -> None:
    tokens, limited = parse_tokens("all-token, some-token=shop|billing")
    assert tokens == {"all-token", "some-token"} and limited == {"some-token": {"shop", "billing"}}


def test_a_request_without_a_token_never_matches(neo4j_settings) -> None:
    """Even a token set holding "" (an ApiConfig built by hand) lets no request in without a token."""
    c = create_app(ApiConfig(neo4j=neo4j_settings, tokens=frozenset({"", "t"}))).test_client()
    for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer  "}, {"Authorization": ""}):
        resp = c.get("/v1/repositories", headers=headers)
        assert resp.status_code == 401, headers
    assert c.get("/v1/repositories", headers={"Authorization": "Bearer t"}).status_code == 200


# -- text that is no UTF-8 ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path, raw, field", [
    ("/v1/search", '{"query": "sign\\ud800_token"}', "query"),
    ("/v1/search", '{"query": "sign", "repo": "x\\udcff"}', "repo"),
    ("/v1/ask", '{"question": "how is \\ud800 signed", "llm": false}', "question"),
    ("/v1/paths", '{"source": "a\\ud800", "target": "b"}', "source"),
    ("/v1/impact", '{"target": "sign\\udcff"}', "target"),
])
def test_lone_surrogates_are_a_400_before_any_database_call(neo4j_settings, path: str, raw: str, field: str) -> None:
    # an unreachable Neo4j: a 400 proves no statement ran (it would be a 503)
    from dataclasses import replace
    app = create_app(ApiConfig(neo4j=replace(neo4j_settings, uri="bolt://127.0.0.1:9")))
    app.extensions["graphrag"].schema_ready = True
    resp = _post(app.test_client(), path, raw)
    assert resp.status_code == 400, resp.json
    assert resp.json["error"]["code"] == "bad_input" and resp.json["error"]["field"] == field
    assert "not valid UTF-8" in resp.json["error"]["message"] and "Retry-After" not in resp.headers


# -- search filters -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("extra, field, says", [
    ({"language": "pyhton"}, "language", "python"),
    ({"kind": "fucntion"}, "kind", "function"),
    ({"path": "src/["}, "path", "'['"),
])
def test_a_filter_that_can_match_nothing_is_a_400_listing_what_is_valid(client, indexed, extra, field, says) -> None:
    repo, _ = indexed
    resp = client.post("/v1/search", json={"query": "load_user", "repo": repo, **extra})
    assert resp.status_code == 400, resp.json
    assert resp.json["error"]["field"] == field and says in resp.json["error"]["message"]


def test_valid_filters_still_find_the_code(client, indexed) -> None:
    repo, _ = indexed
    resp = client.post("/v1/search", json={"query": "load_user", "repo": repo, "language": "python",
                                           "kind": "function", "path": "src/[a-z]*.py"})
    assert resp.status_code == 200 and resp.json["hits"][0]["qualified_name"] == "load_user"


def test_the_schema_lists_the_languages_and_kinds(client) -> None:
    props = client.get("/openapi.json").json["paths"]["/v1/search"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["properties"]
    assert {"python", "go", "markdown"} <= set(props["language"]["enum"])
    assert {"function", "method", "class", "section"} <= set(props["kind"]["enum"])
    assert "pattern" in props["path"]


# -- ask ------------------------------------------------------------------------------------------------------
def test_ask_with_debug_gives_the_statements_and_stage_timings(client, indexed) -> None:
    repo, _ = indexed
    resp = client.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo, "llm": False,
                                        "debug": True})
    assert resp.status_code == 200, resp.json
    debug = resp.json["debug"]
    assert {"fulltext_seeds", "chunks_by_id"} <= {s["name"] for s in debug["statements"]}
    assert {"search", "verify", "total"} <= set(debug["timings"])
    plain = client.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo, "llm": False})
    assert "debug" not in plain.json


def test_an_extractive_answer_over_the_api_names_the_request_field_not_the_cli_option(client, indexed) -> None:
    repo, _ = indexed
    text = client.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo, "llm": False}).json[
        "answer"]
    assert '"llm": false' in text and "--no-llm" not in text


def test_llm_false_reads_no_llm_setting(client, indexed, monkeypatch) -> None:
    repo, _ = indexed
    monkeypatch.setenv("GRAPHRAG_LLM_CONTEXT_SHARE", "2")
    ok = client.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo, "llm": False})
    assert ok.status_code == 200, ok.json
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-used")
    bad = client.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo})
    assert bad.status_code == 500 and bad.json["error"]["code"] == "bad_config", bad.json    # the server's fault
    assert "context share" in bad.json["error"]["message"]


# -- the OpenAPI document -------------------------------------------------------------------------------------
def _documented(client, path: str, method: str) -> set[str]:
    return set(client.get("/openapi.json").json["paths"][path][method]["responses"])


def test_the_document_lists_exactly_what_health_and_indexing_answer(client) -> None:
    assert _documented(client, "/healthz", "get") == {"200"}, "no auth on /healthz: no 401 or 403"
    assert _documented(client, "/readyz", "get") == {"200", "503"}
    posted = _documented(client, "/v1/repositories", "post")
    assert "202" in posted and "200" not in posted


def test_every_status_a_handler_returns_is_documented(neo4j_settings, indexed, repos, tmp_path, monkeypatch) -> None:
    """Each request below makes a handler answer one of its statuses; the document must list it."""
    from messages_stub import API_KEY, MessagesStub

    repo, _ = indexed
    app = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(tmp_path,), tokens=frozenset({"all", "one"}),
                               token_repos={"one": frozenset({repo})}))
    c = app.test_client()
    auth = {"Authorization": "Bearer all"}
    with MessagesStub() as stub:
        stub.error(401, "bad key")
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        seen = [
            ("/healthz", "get", c.get("/healthz")),
            ("/v1/ask", "post", c.post("/v1/ask", json={"question": "how is the user loaded?", "repo": repo,
                                                       "llm": True}, headers=auth)),
            ("/v1/ask", "post", c.post("/v1/ask", json={"question": "x"})),
            ("/v1/ask", "post", c.post("/v1/ask", json={"question": "x", "repo": "other"},
                                       headers={"Authorization": "Bearer one"})),
            ("/v1/repositories", "post", c.post("/v1/repositories", json={"path": str(tmp_path),
                                                                            "name": repos("test-qa3-job")},
                                                    headers=auth)),
            ("/v1/repositories", "post", c.post("/v1/repositories", json={"path": "/"}, headers=auth)),
            ("/v1/search", "post", c.post("/v1/search", json={"query": "x", "language": "pyhton"}, headers=auth)),
            ("/v1/source", "get", c.get(f"/v1/source?repo={repo}&path=nope.py&start=1&end=1", headers=auth)),
        ]
    assert [resp.status_code for *_, resp in seen] == [200, 502, 401, 403, 202, 403, 400, 404]
    for path, method, resp in seen:
        assert str(resp.status_code) in _documented(c, path, method), (path, resp.status_code)
    _finish_jobs(app)


def _finish_jobs(app) -> None:
    import time
    jobs = app.extensions["graphrag"].jobs.jobs.values()
    for _ in range(200):
        if all(j.state in ("done", "failed") for j in jobs):
            return
        time.sleep(0.05)


# -- /v1/source when the indexed commit is gone ---------------------------------------------------------------
def test_source_says_the_indexed_commit_is_gone_and_to_reindex(client, indexed) -> None:
    repo, git_repo = indexed
    old = git_repo.git("rev-parse", "HEAD")
    git_repo.write("src/app.py", (git_repo.root / "src/app.py").read_text() + "\n# rewritten\n")
    git_repo.git("add", "-A")
    git_repo.git("commit", "-q", "--amend", "-m", "rewritten")
    git_repo.git("reflog", "expire", "--expire=now", "--all")
    git_repo.git("gc", "-q", "--prune=now")
    assert git_repo.git("cat-file", "-t", git_repo.git("rev-parse", "HEAD")) == "commit"
    resp = client.get(f"/v1/source?repo={repo}&path=src/app.py&start=1&end=2")
    assert resp.status_code == 409, resp.json
    error = resp.json["error"]
    assert error["code"] == "commit_missing"
    assert f"commit {old[:12]} is no longer in the repository" in error["message"] and "re-index" in \
        error["message"]
    assert "exists on disk" not in error["message"]
    # impact --diff / {"diff": ...} says the same (it was a 400 with git's command, stderr and the server's path;
    # eighth QA pass)
    diff = client.post("/v1/impact", json={"repo": repo, "diff": "HEAD"})
    assert diff.status_code == 409 and diff.json["error"]["code"] == "commit_missing", diff.json
    assert "cat-file" not in diff.json["error"]["message"] and "fatal" not in diff.json["error"]["message"]


def test_answers_waiting_on_the_llm_leave_the_server_answering(neo4j_settings, indexed, monkeypatch) -> None:
    """With one answer slot, a second LLM answer while the first waits on a slow LLM is a 503 busy with
    Retry-After, at once, and /healthz and an extractive answer are still served (third QA pass: with every thread
    of the pool waiting on the LLM, /healthz waited 7 s). A real waitress server and HTTP client."""
    import threading
    import time
    import urllib.error
    import urllib.request

    from messages_stub import API_KEY, MessagesStub
    from serving import waitress_server

    repo, _ = indexed

    def post(url: str, body: dict) -> tuple[int, dict, dict]:
        req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, dict(resp.headers), json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), json.loads(err.read())

    with MessagesStub() as stub:
        stub.sleep(3, "The user is loaded by `load_user` [1].").reply("The user is loaded by `load_user` [1].")
        monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)
        app = create_app(ApiConfig(neo4j=neo4j_settings, llm_slots=1))
        with waitress_server(app) as server:
            base = f"http://127.0.0.1:{server.effective_port}"
            question = {"question": "how is the user loaded?", "repo": repo}
            first: list = []
            slow = threading.Thread(target=lambda: first.append(post(f"{base}/v1/ask", question)))
            slow.start()
            while not stub.requests:          # the first answer is waiting on the LLM now
                time.sleep(0.05)
            started = time.monotonic()
            status, headers, body = post(f"{base}/v1/ask", question)
            assert status == 503 and body["error"]["code"] == "busy" and headers.get("Retry-After") == "5", body
            with urllib.request.urlopen(f"{base}/healthz", timeout=30) as resp:
                assert resp.status == 200
            assert post(f"{base}/v1/ask", {**question, "llm": False})[0] == 200
            assert time.monotonic() - started < 2.0
            slow.join(timeout=30)
            assert first[0][0] == 200 and first[0][2]["citations"], first
            assert post(f"{base}/v1/ask", question)[0] == 200      # the slot is free again


@pytest.mark.parametrize("threads, slots", [(8, 7), (2, 1), (1, 1)])
def test_serve_keeps_a_thread_free_of_llm_answers(neo4j_settings, monkeypatch, threads: int, slots: int) -> None:
    from graphrag_code.cli import _bind_api

    monkeypatch.delenv("GRAPHRAG_API_TOKENS", raising=False)
    app, server = _bind_api("127.0.0.1", 0, threads)
    try:
        ctx = app.extensions["graphrag"]
        assert ctx.config.llm_slots == slots and ctx.llm_slots is not None
    finally:
        server.close()
