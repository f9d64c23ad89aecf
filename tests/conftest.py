"""Shared fixtures: the real Neo4j started by the project's own launcher, and throw-away git repositories.

Tests isolate themselves by repository id (Community edition has one database) and delete what they wrote.
Set NEO4J_URI to run against another server instead of the local launcher's.
"""

from __future__ import annotations

import os
import socket
import subprocess
import uuid
from pathlib import Path

import pytest

from graphrag_code.config import Neo4jSettings
from graphrag_code.db import Graph
from graphrag_code.api import ApiConfig, create_app
from graphrag_code.indexer import delete_repository, index_repository

GIT_ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}


@pytest.fixture(autouse=True)
def _hermetic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach a real LLM or inherit a fault-injection switch."""
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GRAPHRAG_CRASH_AT"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="session")
def neo4j_settings() -> Neo4jSettings:
    settings = Neo4jSettings.from_env()
    if "NEO4J_URI" not in os.environ:
        from graphrag_code.neo4j_local import LocalNeo4j
        LocalNeo4j().start()
    return settings


@pytest.fixture
def graph(neo4j_settings: Neo4jSettings):
    with Graph(neo4j_settings) as g:
        yield g


@pytest.fixture
def repo_name(graph: Graph):
    """A unique repository id, deleted from the graph after the test."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    delete_repository(graph, name)


class GitRepo:
    """A small git repository in a temporary directory, written and committed by the test."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.root, check=True, capture_output=True, text=True,
                              env={**os.environ, **GIT_ENV}).stdout.strip()

    def write(self, path: str, content: str | bytes) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))

    def commit(self, message: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def free_ports(count: int = 2) -> list[int]:
    """`count` distinct TCP ports free on 127.0.0.1 right now (all held open together so none repeats)."""
    socks = [socket.socket() for _ in range(count)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in socks]
    finally:
        for sock in socks:
            sock.close()


@pytest.fixture
def repos(graph: Graph):
    """Unique repository ids made on demand (``repos("test-inc")``), every one deleted after the test."""
    made: list[str] = []

    def make(prefix: str) -> str:
        made.append(f"{prefix}-{uuid.uuid4().hex[:8]}")
        return made[-1]

    yield make
    for name in made:
        delete_repository(graph, name)


APP_PY = '''def handler(request):
    """Handle a request by loading the user."""
    return load_user(request.user_id)


def load_user(user_id):
    return {"id": user_id}
'''


# the REST API tests' repository (a module of its own tests may define another `indexed`)
@pytest.fixture
def indexed(graph, git_repo, repo_name):
    git_repo.write("src/app.py", APP_PY)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name, git_repo


@pytest.fixture
def client(neo4j_settings):
    app = create_app(ApiConfig(neo4j=neo4j_settings))
    return app.test_client()
