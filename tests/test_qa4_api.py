"""The fourth QA pass's API findings: NUL characters in paths and revisions, line numbers past Neo4j's integers,
bodies waitress buffered whole before the 64 KiB limit, the LLM reranker outside the answer slots and under
"llm": false, the server's LLM settings reported as the client's fault, and /v1/source serving a plain
directory's changed file under the indexed coordinates."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request

import pytest
from click.testing import CliRunner

from graphrag_code.api import MAX_REQUEST_BYTES, ApiConfig, create_app
from graphrag_code.cli import _bind_api, main
from graphrag_code.errors import ConfigError
from graphrag_code.indexer import index_repository
from graphrag_code.llm import LLMClient, LLMSettings
from graphrag_code.query_analysis import analyze
from graphrag_code.rerankers import LLMReranker
from messages_stub import API_KEY, MessagesStub
from serving import waitress_server

QUESTION = "how is the user loaded?"


# -- NUL characters, huge line numbers ------------------------------------------------------------------------
def test_a_nul_in_an_index_path_or_a_diff_revision_is_a_400_naming_the_field(neo4j_settings, indexed,
                                                                               tmp_path) -> None:
    """Both were a 500 (`ValueError: embedded null byte` from the OS, in Path.resolve and in subprocess)."""
    repo, _ = indexed
    c = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(tmp_path,))).test_client()
    job = c.post("/v1/repositories", json={"path": f"{tmp_path}\u0000x", "name": "qa4-nul"})
    assert job.status_code == 400 and job.json["error"]["field"] == "path", job.json
    assert "NUL" in job.json["error"]["message"]
    impact = c.post("/v1/impact", json={"diff": "HEAD\u0000", "repo": repo})
    assert impact.status_code == 400 and "NUL" in impact.json["error"]["message"], impact.json


@pytest.mark.parametrize("query", ["src/app.py:9223372036854775808", 'File "src/app.py", line 99999999999999999999',
                                   "at x (src/app.py:99999999999999999999:5)"])
def test_a_location_past_neo4js_integers_is_searched_not_a_database_error(client, indexed, query: str) -> None:
    """Was a 503 database_error with Retry-After (the driver's OverflowError): a request that can never succeed,
    told to retry. The line is capped (no chunk holds it, as no chunk holds line 99 of a 7-line file)."""
    repo, _ = indexed
    assert analyze(query).locations[0]["line"] == 2**31 - 1
    found = client.post("/v1/search", json={"query": query, "repo": repo})
    assert found.status_code == 200, found.json
    asked = client.post("/v1/ask", json={"question": query, "repo": repo, "llm": False})
    assert asked.status_code == 200, asked.json


def test_a_line_number_of_thousands_of_digits_is_a_400_not_a_500(client, indexed) -> None:
    """Python reads no int of over 4,300 digits: /v1/source's `end` was a 500 (`ValueError: Exceeds the limit`), a
    file:line endpoint of the CLI's path and impact a traceback (tenth QA pass)."""
    repo, _ = indexed
    nines = "9" * 5000
    source = client.get(f"/v1/source?repo={repo}&path=src/app.py&start=1&end={nines}")
    assert source.status_code == 400 and source.json["error"]["field"] == "end", source.json
    assert "out of range (5000 digits)" in source.json["error"]["message"]
    # the API takes endpoints of at most 500 characters; the command line takes any
    for args in (["impact", f"src/app.py:{nines}"], ["path", f"src/app.py:{nines}", "src/app.py:1"]):
        out = CliRunner().invoke(main, [*args, "--repo", repo])
        assert out.exit_code == 2 and "has 5000 digits: no file has that many lines" in out.output, out.output
    # nor does search fail on one (a query is at most 4,000 characters, so only a caller of analyze() gets one)
    assert analyze("src/app.py:" + nines).locations[0]["line"] == 2**31 - 1


def test_an_unknown_symbol_id_is_not_echoed_back_whole(client, indexed) -> None:
    repo, _ = indexed
    long_id = f"{repo}:src/app.py#" + "x" * 100_000
    resp = client.get(f"/v1/symbols/{long_id.replace('#', '%23')}")
    assert resp.status_code == 404 and len(resp.get_data()) < 1000, len(resp.get_data())
    assert "(100" in resp.json["error"]["message"] and "characters)" in resp.json["error"]["message"]


# -- the body limit on the wire ---------------------------------------------------------------------------------
def _raw_post(port: int, length: int, send: int) -> tuple[bytes, float]:
    """POST a body of ``length`` declared bytes, sending only ``send`` of them; the reply's first bytes, and how
    long it took."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /v1/search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % length + b"a" * send)
        return s.recv(200), time.monotonic() - started


def test_serve_refuses_a_body_past_its_wire_limit_before_reading_it(neo4j_settings, monkeypatch) -> None:
    """waitress buffered up to 1 GiB before the app's 64 KiB limit answered (300 MB accepted, then a 413, with
    or without a token). Now a declared 300 MiB is refused at once, none of it sent; a body just over 64 KiB
    still gets the app's JSON 413."""
    monkeypatch.delenv("GRAPHRAG_API_TOKENS", raising=False)
    app, server = _bind_api("127.0.0.1", 0, 2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        reply, seconds = _raw_post(server.effective_port, 300 * 2**20, 0)
        assert reply.startswith(b"HTTP/1.1 413") and seconds < 5, reply
        reply, _ = _raw_post(server.effective_port, MAX_REQUEST_BYTES + 10, MAX_REQUEST_BYTES + 10)
        assert reply.startswith(b"HTTP/1.1 413") and b"application/json" in reply, reply
    finally:
        server.trigger.pull_trigger(server.close)
        thread.join(timeout=10)


# -- the LLM reranker --------------------------------------------------------------------------------------------
def _llm_reranker(stub: MessagesStub):
    return lambda: LLMReranker(LLMClient(LLMSettings(api_key=API_KEY, base_url=stub.url, max_retries=0)))


def _post(url: str, body: dict) -> tuple[int, dict, float]:
    started = time.monotonic()
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read()), time.monotonic() - started
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), time.monotonic() - started


def test_the_llm_reranker_takes_an_answer_slot_and_a_search_goes_on_without_it(neo4j_settings, indexed) -> None:
    """It waited on the LLM outside the slots: 10 searches on 8 threads kept /healthz waiting 15 s. With the one
    slot taken by a search waiting on the LLM, another search is answered at once in the fused order, with a
    note, and /healthz too."""
    repo, _ = indexed
    with MessagesStub() as stub:
        stub.sleep(3, '{"ranking": [1]}').reply('{"ranking": [1]}')
        app = create_app(ApiConfig(neo4j=neo4j_settings, llm_slots=1, reranker_loader=_llm_reranker(stub)))
        with waitress_server(app) as server:
            base = f"http://127.0.0.1:{server.effective_port}"
            first: list = []
            slow = threading.Thread(target=lambda: first.append(_post(f"{base}/v1/search",
                                                                      {"query": QUESTION, "repo": repo})))
            slow.start()
            while not stub.requests:
                time.sleep(0.05)
            status, body, seconds = _post(f"{base}/v1/search", {"query": QUESTION, "repo": repo})
            assert status == 200 and seconds < 2.0 and body["reranker"] == "none", body
            assert "reranker llm not run: all 1 answer slot(s) are waiting on the LLM (fused order)" in body["notes"]
            assert body["hits"], body
            with urllib.request.urlopen(f"{base}/healthz", timeout=30) as resp:
                assert resp.status == 200
            slow.join(timeout=30)
            assert first[0][0] == 200 and first[0][1]["reranker"] == "llm", first
            again = _post(f"{base}/v1/search", {"query": QUESTION, "repo": repo})      # the slot is free again
            assert again[0] == 200 and again[1]["reranker"] == "llm", again
        assert len(stub.requests) == 2


def test_llm_false_runs_no_llm_reranker(neo4j_settings, indexed) -> None:
    """"llm": false waited 16 s on the LLM reranker before its extractive answer."""
    repo, _ = indexed
    with MessagesStub() as stub:
        stub.sleep(5, '{"ranking": [1]}')
        c = create_app(ApiConfig(neo4j=neo4j_settings, reranker_loader=_llm_reranker(stub))).test_client()
        started = time.monotonic()
        resp = c.post("/v1/ask", json={"question": QUESTION, "repo": repo, "llm": False})
        assert resp.status_code == 200 and time.monotonic() - started < 3.0, resp.json
        assert resp.json["mode"] == "extractive" and resp.json["citations"]
        assert 'reranker llm not run: no LLM call with "llm": false (fused order)' in resp.json["notes"]
        assert not stub.requests


def test_ask_no_llm_reads_no_llm_setting_for_the_reranker_either(neo4j_settings, indexed, monkeypatch) -> None:
    """GRAPHRAG_RERANKER=llm made `ask --no-llm` build the LLM client: a bad LLM setting failed it (exit 2)."""
    repo, _ = indexed
    monkeypatch.setenv("GRAPHRAG_RERANKER", "llm")
    monkeypatch.setenv("GRAPHRAG_LLM_TIMEOUT", "abc")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-used")
    result = CliRunner().invoke(main, ["ask", QUESTION, "--repo", repo, "--no-llm", "--no-vectors", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["mode"] == "extractive" and out["citations"]
    assert "reranker llm not run: no LLM call with --no-llm (fused order)" in out["notes"]


# -- the server's settings -----------------------------------------------------------------------------------
def test_serve_refuses_to_start_with_a_bad_llm_setting(monkeypatch) -> None:
    """It started, said ready, and answered every ask with a 400 bad_config, the client's fault."""
    monkeypatch.setenv("GRAPHRAG_LLM_TIMEOUT", "abc")
    with pytest.raises(ConfigError, match="GRAPHRAG_LLM_TIMEOUT='abc' is not a float"):
        _bind_api("127.0.0.1", 0, 2)


# -- /v1/source on a plain directory ---------------------------------------------------------------------------
def test_source_of_a_plain_directory_refuses_lines_that_changed_since_indexing(graph, client, repo_name,
                                                                                tmp_path) -> None:
    """It served the file as it is now under the indexed coordinates (a line inserted at the top shifted them
    all) while ask marked the same citations stale; a deleted file was a 400 source_error."""
    (tmp_path / "auth.py").write_text("def sign(p, k):\n    return p\n")
    index_repository(graph, tmp_path, name=repo_name)
    url = f"/v1/source?repo={repo_name}&path=auth.py&start=1&end=2"
    ok = client.get(url)
    assert ok.status_code == 200 and ok.json["lines"] == ["def sign(p, k):", "    return p"], ok.json
    (tmp_path / "auth.py").write_text("def sign(p, k):\n    return p\n\n\ndef added():\n    return 1\n")
    # lines below a function unchanged (their chunk's hash holds): served, as ask's citation of them is ok; it
    # was a 409 for the whole file's hash (eighth QA pass)
    below = client.get(url)
    assert below.status_code == 200 and below.json["lines"] == ["def sign(p, k):", "    return p"], below.json
    (tmp_path / "auth.py").write_text("# inserted\ndef sign(p, k):\n    return p\n")
    changed = client.get(url)
    assert changed.status_code == 409 and changed.json["error"]["code"] == "source_changed", changed.json
    (tmp_path / "auth.py").unlink()
    gone = client.get(url)
    assert gone.status_code == 409 and gone.json["error"]["code"] == "source_changed", gone.json
    assert "gone" in gone.json["error"]["message"]


def test_ask_retrieves_as_many_sources_by_the_api_as_by_the_command_line(client, graph, git_repo, repo_name) -> None:
    """`ask` retrieved 10 sources on the command line and 8 through the API for the same question (tenth QA
    pass): one default, config.ANSWER_SOURCES."""
    from graphrag_code.config import ANSWER_SOURCES
    from graphrag_code.indexer import index_repository

    git_repo.write("lib/many.py", "\n\n".join(f"def refresh_token_{i}(token):\n    return token.refresh({i})"
                                               for i in range(ANSWER_SOURCES + 4)))
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    question = "how is the refresh token refreshed?"
    api = client.post("/v1/ask", json={"question": question, "repo": repo_name, "llm": False})
    assert api.status_code == 200, api.json
    cli = CliRunner().invoke(main, ["ask", question, "--repo", repo_name, "--no-llm", "--no-vectors", "--json"])
    assert cli.exit_code == 0, cli.output
    assert len(api.json["sources"]) == len(json.loads(cli.output)["sources"]) == ANSWER_SOURCES
