"""docker-compose.yml and the Dockerfile, checked without a Docker engine (there is none on our machines): the
compose file against the Compose Specification's JSON schema and loaded by compose-go, the loader Docker Compose
v2 runs (``tests/composecheck``, built from the Go proxy: interpolation, normalisation, validation), its Neo4j
settings looked up in the 5.26 jars the local launcher runs, and what a user of it relies on."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from test_neo4j_local import settings_missing_from_jars

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_compose_file_follows_the_compose_specification() -> None:
    # check-jsonschema ships the compose-spec schema (no download at test time)
    run = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec",
                          str(ROOT / "docker-compose.yml")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_neo4j_is_the_lts_community_image_with_auth_health_check_and_volumes() -> None:
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"] == "neo4j:5.26-community"
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
    assert app["command"][:3] == ["graphrag-code", "index", "/repo"]
    assert set(compose["volumes"]) >= {v.split(":")[0] for s in compose["services"].values()
                                       for v in s["volumes"] if not v.startswith(("$", ".", "/"))}


def test_the_image_holds_everything_the_package_reads_at_run_time() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = {m.rstrip("/") for line in re.findall(r"^COPY (.+)$", dockerfile, re.M) for m in line.split()[:-1]}
    assert {"graphrag_code", "cypher", "pyproject.toml"} <= copied
    # the Cypher files and tree-sitter queries the package loads live under what is copied
    assert (ROOT / "cypher" / "schema.cypher").is_file() and list((ROOT / "graphrag_code" / "queries").glob("*.scm"))
    assert re.search(r"^RUN pip install (-e )?\.$", dockerfile, re.M)
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
    assert app["build"] == {"context": str(ROOT), "dockerfile": "Dockerfile"}


def test_the_loader_check_rejects_what_docker_compose_would(tmp_path: Path) -> None:
    bad = tmp_path / "docker-compose.yml"
    bad.write_text(COMPOSE.read_text().replace("condition: service_healthy", "condition: service_happy"))
    done = _load(bad)
    assert done.returncode == 1 and "depends_on.neo4j.condition value must be one of" in done.stderr, done.stderr


def test_the_compose_files_neo4j_settings_are_settings_of_neo4j_5_26() -> None:
    """The image turns NEO4J_<key> into a neo4j.conf key ('_' -> '.', '__' -> '_'); Neo4j validates neo4j.conf
    strictly, so a misspelt key would stop the container's server."""
    env = _compose()["services"]["neo4j"]["environment"]
    keys = [name.removeprefix("NEO4J_").replace("__", "\0").replace("_", ".").replace("\0", "_")
            for name in env if name != "NEO4J_AUTH"]
    assert "server.memory.heap.initial_size" in keys and "dbms.usage_report.enabled" in keys
    assert not settings_missing_from_jars(keys)
