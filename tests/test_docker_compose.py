"""docker-compose.yml and the Dockerfile, checked without a Docker engine (there is none on our machines): the
compose file against the Compose Specification's JSON schema, and what a user of it relies on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


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
