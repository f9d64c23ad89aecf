"""docker-compose.yml on a real Docker engine: both images built, the stack up, a repository indexed in the
indexer's container and read from this machine through the published ports.

Run by ``scripts/docker-check``, which provides the engine, Compose v2 and, where Docker Hub cannot be reached,
stand-in base images (it sets ``GRAPHRAG_DOCKER_CHECK=1``, ``PYTHON_IMAGE`` and ``NEO4J_IMAGE``). In the plain
test run these tests are skipped: ``tests/test_docker_compose.py`` checks the same file without an engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import GitRepo, free_ports
from messages_stub import MessagesStub

pytestmark = pytest.mark.skipif(os.environ.get("GRAPHRAG_DOCKER_CHECK") != "1",
                                reason="needs a Docker engine: run scripts/docker-check")

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "check-password-1"          # not the file's default: the variable must reach both services
TOKEN = "check-token-0123456789"


@dataclass
class Stack:
    project: str
    env: dict[str, str]
    bolt: int
    http: int
    api: int
    repo: GitRepo
    llm: MessagesStub

    def compose(self, *args: str, timeout: float = 900, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(["docker", "compose", "-p", self.project, "-f", str(ROOT / "docker-compose.yml"),
                               *args], cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"docker compose {' '.join(args)} exited {done.returncode}:\n"
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        return done

    def host_cli(self, *args: str, password: str = PASSWORD) -> subprocess.CompletedProcess:
        """This machine's graphrag-code against the container's Neo4j, through the published Bolt port."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHRAG_"))}
        env.update(NEO4J_URI=f"bolt://127.0.0.1:{self.bolt}", NEO4J_USER="neo4j", NEO4J_PASSWORD=password)
        return subprocess.run([sys.executable, "-m", "graphrag_code.cli", *args], env=env, capture_output=True,
                              text=True, timeout=300)

    def container(self, service: str) -> str:
        return self.compose("ps", "-a", "-q", service).stdout.strip()

    def api_get(self, path: str, token: str | None = TOKEN, body: dict | None = None) -> tuple[int, dict]:
        """The API through its published port, as a user's HTTP client reaches it."""
        req = urllib.request.Request(f"http://127.0.0.1:{self.api}{path}",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"{}")


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Stack:
    repo = GitRepo(tmp_path_factory.mktemp("docker") / "shop")
    repo.write("shop/orders.py", "def total(items):\n    return sum(price(i) for i in items)\n\n\n"
                                 "def price(item):\n    return item['price']\n")
    repo.write("README.md", "# Shop\nOrders and prices.\n")
    repo.commit("shop")
    bolt, http, api = free_ports(3)
    llm = MessagesStub(host="0.0.0.0").start()      # the Messages API stand-in, on this machine
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("NEO4J_PASSWORD", "REPO", "GRAPHRAG_API_TOKENS", "ANTHROPIC_"))}
    env.update(REPO=str(repo.root), NEO4J_PASSWORD=PASSWORD, GRAPHRAG_API_TOKENS=TOKEN,
               GRAPHRAG_BOLT_PORT=str(bolt), GRAPHRAG_HTTP_PORT=str(http), GRAPHRAG_API_PORT=str(api),
               ANTHROPIC_API_KEY=llm.api_key,
               ANTHROPIC_BASE_URL=f"http://host.docker.internal:{llm.url.rsplit(':', 1)[1]}")
    s = Stack(project=f"graphrag-check-{os.getpid()}", env=env, bolt=bolt, http=http, api=api, repo=repo, llm=llm)
    try:
        s.compose("build")
        s.compose("up", "-d", "--wait", "neo4j", timeout=600)
        yield s
    finally:
        logs = s.compose("logs", "--no-color", "--tail", "40", check=False)
        print(logs.stdout[-4000:], logs.stderr[-2000:])
        s.compose("down", "-v", "--remove-orphans", check=False)
        llm.stop()


def test_the_indexer_image_holds_what_the_dockerfile_copies_and_runs_unprivileged(stack: Stack) -> None:
    app = stack.compose("run", "--rm", "--no-deps", "--entrypoint", "sh", "graphrag-code", "-c",
                        "id -u; ls -A /app; graphrag-code --version").stdout.split()
    assert app[0] == "10001"
    assert set(app[1:-3]) == {"README.md", "cypher", "graphrag_code", "graphrag_code.egg-info", "pyproject.toml"}
    assert app[-3:-1] == ["graphrag-code,", "version"]


def test_neo4j_is_healthy_serves_the_browser_and_wants_the_password(stack: Stack) -> None:
    health = subprocess.run(["docker", "inspect", "--format", "{{.State.Health.Status}}", stack.container("neo4j")],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert health == "healthy"
    with urllib.request.urlopen(f"http://127.0.0.1:{stack.http}/browser/", timeout=30) as page:
        assert page.status == 200 and b"Neo4j Browser" in page.read()
    wrong = stack.host_cli("status", password="not-the-password")
    assert wrong.returncode != 0 and "refused the credentials" in wrong.stderr


def test_the_service_indexes_the_mounted_repository_then_serves_the_api(stack: Stack) -> None:
    """`docker compose up` as the file's header says: the service waits for a healthy Neo4j, indexes the
    read-only /repo, fills the vectors and serves the API on the published port, with the tokens."""
    stack.compose("up", "-d", "graphrag-code", timeout=600)
    app = stack.container("graphrag-code")
    deadline = time.monotonic() + 600
    while True:
        try:
            if stack.api_get("/readyz", token=None)[0] == 200:
                break
        except OSError:                                       # not listening yet: still indexing
            pass
        state = subprocess.run(["docker", "inspect", "--format", "{{.State.Status}}", app],
                               capture_output=True, text=True).stdout.strip()
        logs = subprocess.run(["docker", "logs", app], capture_output=True, text=True)
        assert state == "running" and time.monotonic() < deadline, (state, logs.stdout[-3000:], logs.stderr[-3000:])
        time.sleep(2)
    logs = subprocess.run(["docker", "logs", app], capture_output=True, text=True)
    assert "files: 2 in snapshot" in logs.stdout and "vectors: 3 chunks embedded" in logs.stdout, logs.stdout

    assert stack.api_get("/v1/repositories", token=None)[0] == 401
    assert stack.api_get("/v1/repositories", token="not-a-token")[0] == 401
    code, listed = stack.api_get("/v1/repositories")
    assert code == 200 and [r["id"] for r in listed["repositories"]] == ["repo"]   # named after the mount point
    code, impact = stack.api_get("/v1/impact", body={"repo": "repo", "target": "price"})
    assert code == 200 and [c["citations"] for c in impact["callers"]["1"]] == [["shop/orders.py:2"]], impact
    code, found = stack.api_get("/v1/search", body={"repo": "repo", "query": "order prices total"})
    assert code == 200 and any(h["path"] == "shop/orders.py" for h in found["hits"]), found
    assert "vector" in found["channels_used"], found      # the image's embedding model, in the API too

    # a cited answer from the LLM, which the container reaches on this machine as host.docker.internal
    stack.llm.reply("The total adds up each item's price [1].")
    code, answer = stack.api_get("/v1/ask", body={"question": "how is the order total computed?", "repo": "repo",
                                                   "llm": True})
    assert code == 200 and answer["mode"] == "llm", answer
    assert answer["citations"][0]["status"] == "ok", answer
    assert answer["citations"][0]["path"] in {"shop/orders.py", "README.md"}, answer
    assert len(stack.llm.requests) == 1 and "def total(items)" in stack.llm.requests[0].last_user_text

    # and this machine's CLI reads the same graph through the published Bolt port
    repos = json.loads(stack.host_cli("status", "--json").stdout)
    (shop,) = [r for r in repos if r["id"] == "repo"]
    assert shop["commit"] == stack.repo.git("rev-parse", "HEAD")
    assert shop["files"] == 2 and shop["vectors"]["with_vector"] == shop["vectors"]["chunks"] > 0


def test_without_tokens_the_service_stops_at_once_and_says_why(stack: Stack) -> None:
    run = stack.compose("run", "--rm", "-e", "GRAPHRAG_API_TOKENS=", "graphrag-code", check=False, timeout=300)
    assert run.returncode == 2, (run.stdout[-2000:], run.stderr[-2000:])
    assert "refusing to serve on 0.0.0.0 without API tokens" in run.stderr and "Indexed" not in run.stdout


def test_a_second_index_run_in_the_container_changes_nothing(stack: Stack) -> None:
    """The file's `docker compose run --rm graphrag-code graphrag-code index /repo`: the state volume and the
    graph outlive the first container, so nothing is parsed or embedded again."""
    run = stack.compose("run", "--rm", "graphrag-code", "graphrag-code", "index", "/repo", "--json")
    summary = json.loads(run.stdout)
    assert summary["files_parsed"] == 0 and summary["vectors"]["chunks_embedded"] == 0, summary


def test_the_graph_outlives_the_neo4j_container(stack: Stack) -> None:
    stack.compose("down")                                    # containers gone, volumes kept
    stack.compose("up", "-d", "--wait", "neo4j", timeout=600)
    repos = json.loads(stack.host_cli("status", "--json").stdout)
    assert [r["id"] for r in repos] == ["repo"]
