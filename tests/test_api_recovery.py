"""Neo4j going away under a running API: 503 with Retry-After while it is down, answers again by itself once
it is back — no restart of the service. Uses a server of its own (other ports) so the shared one stays up."""

from __future__ import annotations

import time

import pytest

from graphrag_code.api import ApiConfig, create_app
from graphrag_code.config import Neo4jSettings
from graphrag_code.neo4j_local import LocalNeo4j


@pytest.fixture(scope="module")
def own_server(tmp_path_factory):
    server = LocalNeo4j(state_dir=tmp_path_factory.mktemp("neo4j-recovery"), bolt_port=17697, http_port=17484,
                        heap="512m", pagecache="64m")
    server.start(timeout=240)
    yield server
    server.stop()


def test_api_recovers_when_neo4j_returns(own_server) -> None:
    app = create_app(ApiConfig(neo4j=Neo4jSettings(uri="bolt://127.0.0.1:17697")))
    client = app.test_client()
    assert client.get("/readyz").status_code == 200
    assert client.post("/v1/search", json={"query": "anything"}).status_code == 200

    own_server.stop()
    down = client.post("/v1/search", json={"query": "anything"})
    assert down.status_code == 503 and down.headers["Retry-After"] == "5"
    assert down.json["error"]["code"] == "database_unavailable"
    assert client.get("/readyz").status_code == 503

    own_server.start(timeout=240)
    deadline = time.time() + 60
    while time.time() < deadline and client.get("/readyz").status_code != 200:
        time.sleep(0.5)
    assert client.get("/readyz").status_code == 200
    assert client.post("/v1/search", json={"query": "anything"}).status_code == 200


def test_a_frozen_neo4j_is_a_503_in_bounded_time_and_the_api_recovers(own_server) -> None:
    """A server that stops answering without closing its connections (SIGSTOP here; a paused VM, a dropped
    network) held each request for 136 s: the driver waits on a read as long as the server's hint says (120 s
    by default). The launcher's server sends keep-alives during every request and hints 20 s (eighth QA pass)."""
    import os
    import signal

    app = create_app(ApiConfig(neo4j=Neo4jSettings(uri="bolt://127.0.0.1:17697")))
    client = app.test_client()
    assert client.post("/v1/search", json={"query": "anything"}).status_code == 200    # a connection in the pool
    pid = own_server.status().pid
    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        frozen = client.post("/v1/search", json={"query": "anything"})
        waited = time.monotonic() - started
        assert frozen.status_code == 503 and frozen.json["error"]["code"] == "database_unavailable", frozen.json
        assert waited < 60, waited
    finally:
        os.kill(pid, signal.SIGCONT)
    deadline = time.time() + 60
    while time.time() < deadline and client.post("/v1/search", json={"query": "anything"}).status_code != 200:
        time.sleep(0.5)
    assert client.post("/v1/search", json={"query": "anything"}).status_code == 200
