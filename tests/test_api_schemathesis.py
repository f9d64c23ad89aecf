"""Schemathesis generates requests from /openapi.json against the served API (waitress on loopback): no input
may produce a 5xx, and every response must match the document (status codes, content type, schema)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from graphrag_code.api import ApiConfig, create_app


def test_schemathesis_finds_no_server_errors(neo4j_settings, tmp_path, monkeypatch) -> None:
    from messages_stub import API_KEY, MessagesStub
    from serving import waitress_server

    stub = MessagesStub().start()   # `llm: true` requests reach a local Messages API, never the network
    for _ in range(500):
        stub.reply("The retrieved code does not answer this question.")
    monkeypatch.setenv("ANTHROPIC_API_KEY", API_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", stub.url)

    # indexing is allowed only under an empty temporary directory: generated paths never reach real code
    app = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(tmp_path / "allowed",),
                               tokens=frozenset({"schemathesis-token"})))
    cli = shutil.which("schemathesis", path=str(Path(sys.executable).parent)) or "schemathesis"
    try:
        with waitress_server(app) as server:
            proc = subprocess.run(
                [cli, "run", f"http://127.0.0.1:{server.effective_port}/openapi.json", "--checks", "all",
                 "--max-examples", "20", "--generation-deterministic", "--request-timeout", "20",
                 "--suppress-health-check", "all", "-H", "Authorization: Bearer schemathesis-token"],
                capture_output=True, text=True, timeout=600, cwd=tmp_path)
    finally:
        stub.stop()
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
