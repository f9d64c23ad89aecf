"""Neo4j Browser support: the saved queries in cypher/browser/ (headers, parameters, and exact rows on a small
repository indexed into the real Neo4j), the GRASS style read the way the Browser reads it, and the Browser itself
driven by headless Debian Chromium (tests/browser_check.mjs) — skipped, with the reason, on a machine without
node, /usr/bin/chromium or node_modules/playwright-core."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.request
import warnings
from collections import Counter
from pathlib import Path

import pytest

from graphrag_code import cypher
from graphrag_code.config import CYPHER_DIR, PROJECT_ROOT
from graphrag_code.db import Graph, Recorder
from graphrag_code.indexer import index_repository

BROWSER_DIR = CYPHER_DIR / "browser"
STYLE = BROWSER_DIR / "style.grass"
CHECK_SCRIPT = PROJECT_ROOT / "tests" / "browser_check.mjs"
CHROMIUM = Path("/usr/bin/chromium")
PLAYWRIGHT = PROJECT_ROOT / "node_modules" / "playwright-core"

SAVED = {
    "symbol_neighbourhood": {"repo", "qualified_name"},
    "call_path": {"repo", "source", "target"},
    "files_importing": {"repo", "target"},
    "hottest_call_targets": {"repo"},
    "test_coverage_of": {"repo", "qualified_name"},
}

# A small package with tests; line numbers matter (the expectations below cite them).
SMALL = {
    "pkg/__init__.py": "",
    "pkg/core.py": (
        "def helper(x):\n"                      # 1
        "    return x + 1\n"
        "\n\n"
        "def compute(x):\n"                     # 5
        "    return helper(x) * 2\n"            # 6
        "\n\n"
        "class Engine:\n"                       # 9
        "    def run(self, x):\n"               # 10
        "        return compute(x)\n"),         # 11
    "pkg/api.py": (
        "import os\n"                           # 1
        "\n"
        "from pkg.core import Engine, compute\n"  # 3
        "\n\n"
        "def handle(x):\n"                      # 6
        "    return Engine().run(x) + compute(x) + len(os.sep)\n"),  # 7
    "tests/test_core.py": (
        "from pkg.api import handle\n"          # 1
        "from pkg.core import compute, helper\n"  # 2
        "\n\n"
        "def test_helper():\n"                  # 5
        "    assert helper(1) == 2\n"           # 6
        "\n\n"
        "def test_compute():\n"                 # 9
        "    assert compute(1) == 4\n"          # 10
        "\n\n"
        "def test_handle():\n"                  # 13
        "    assert handle(1) == 9\n"),         # 14
}


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """The GRASS reader of Neo4j Browser 5 (parseGrass), ported: selectors are the text before '{' with
    whitespace removed, quotes only protect braces, declarations split on ';' and must have exactly one ':'.
    It knows no comments, so a comment would end up inside a selector or a value."""
    rules: dict[str, str] = {}
    in_quote = in_rule = False
    selector = body = ""
    for ch in text:
        structural = True
        if ch == "{":
            if in_quote:
                structural = False
            else:
                in_rule = True
        elif ch == "}":
            if in_quote:
                structural = False
            else:
                in_rule = False
                rules[selector], selector, body = body, "", ""
        elif ch in "'\"":
            in_quote = not in_quote
        else:
            structural = False
        if not structural:
            if in_rule:
                body += ch
            elif not ch.isspace():
                selector += ch
    parsed = {}
    for sel, decls in rules.items():
        props = {}
        for decl in decls.split(";"):
            parts = decl.split(":")
            if len(parts) == 2:
                props[parts[0].strip()] = parts[1].strip()
            else:
                assert not decl.strip(), f"{sel}: the Browser drops the declaration {decl.strip()!r}"
        parsed[sel] = props
    return parsed


def run_saved(graph: Graph, name: str, **params) -> tuple[list[dict], float]:
    """Run a saved query through the project's one path to Neo4j (Graph.run loads ``browser/<name>`` from
    cypher/browser/ and checks the parameters); its rows and the seconds it took."""
    recorder = Recorder()
    graph.tracers.append(recorder)
    try:
        rows = graph.run(f"browser/{name}", **params)
    finally:
        graph.tracers.remove(recorder)
    return rows, recorder.events[-1].seconds


@pytest.fixture
def small_repo(graph, git_repo, repo_name):
    for path, text in SMALL.items():
        git_repo.write(path, text)
    git_repo.commit("small")
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name


# -- files -----------------------------------------------------------------------------------------------------

def test_saved_queries_load_with_their_parameters_and_browser_lines() -> None:
    loaded = {name.rsplit("/", 1)[-1] for name in cypher.load_all()}   # the recursive loader accepts them
    assert set(SAVED) <= loaded
    for name, params in SAVED.items():
        st = cypher.load(f"browser/{name}")
        assert st.params == params, name
        assert len(st.texts) == 1, f"{name}: one statement, so it can be pasted into the Browser as is"
        assert "saved query" in st.description
        # the header tells a Browser user how to set every parameter
        header = (BROWSER_DIR / f"{name}.cypher").read_text().split("\n// params:")[0]
        for p in params:
            assert re.search(rf":param {p} => '[^']+'", header), f"{name}: no ':param {p} => ...' example"


def test_statement_names_are_unique_across_cypher_subfolders() -> None:
    """load_all() keys statements by file name: a second file of the same name in another folder would hide one."""
    counts = Counter(p.stem for p in CYPHER_DIR.rglob("*.cypher"))
    assert [n for n, c in counts.items() if c > 1] == []


def test_style_reads_as_the_browser_reads_it() -> None:
    text = STYLE.read_text()
    assert "/*" not in text and "//" not in text, "the Browser's GRASS reader has no comments"
    rules = parse_grass(text)
    captions = {"Repository": "{id}", "File": "{path}", "Symbol": "{qualified_name}", "Chunk": "{start_line}",
                "Module": "{name}"}
    colors = set()
    for label, needle in captions.items():
        rule = rules[f"node.{label}"]
        assert needle in rule["caption"], label
        assert re.fullmatch(r"#[0-9A-F]{6}", rule["color"]), label
        assert re.fullmatch(r"\d+px", rule["diameter"]), label
        colors.add(rule["color"])
    assert len(colors) == len(captions), "every label has its own colour"
    for rel in ("CALLS", "CONTAINS", "HAS_CHUNK", "IMPORTS", "INHERITS", "IMPLEMENTS"):
        assert rules[f"relationship.{rel}"]["caption"], rel
    assert "{lines}" in rules["relationship.CALLS"]["caption"]
    assert set(rules) >= {"node", "relationship"}
    # Neo4j Browser 5.24 crashes on a multi-line `:style` command: it is pasted on one line, which reads the same
    assert parse_grass(" ".join(text.split())) == rules


# -- the saved queries on a real graph -------------------------------------------------------------------------

def test_saved_queries_on_a_small_repository(graph, small_repo) -> None:
    repo = small_repo
    timings = {}

    rows, timings["hottest_call_targets"] = run_saved(graph, "hottest_call_targets", repo=repo)
    got = [(r["qualified_name"], r["callers"], r["test_callers"], r["caller_files"], r["location"]) for r in rows]
    assert got[:2] == [("compute", 3, 1, 3, "pkg/core.py:5"), ("helper", 2, 1, 2, "pkg/core.py:1")]
    assert sorted(rows[0]["some_callers"]) == ["Engine.run", "handle", "test_compute"]

    rows, timings["symbol_neighbourhood"] = run_saved(graph, "symbol_neighbourhood", repo=repo,
                                                      qualified_name="Engine.run")
    assert [(r["relation"], r["neighbour"], r["lines"]) for r in rows] == [
        ("file", "pkg/core.py", None), ("parent", "Engine", None),
        ("callee", "compute", [11]), ("caller", "handle", [7])]
    assert all(r["symbol"] == f"{repo}:pkg/core.py#Engine.run" and r["path"] for r in rows)

    rows, timings["call_path"] = run_saved(graph, "call_path", repo=repo, source="handle", target="helper")
    assert [(r["hops"], r["steps"]) for r in rows] == [
        (2, ["handle -> compute @ pkg/api.py:7", "compute -> helper @ pkg/core.py:6"])]
    rows, _ = run_saved(graph, "call_path", repo=repo, source="helper", target="handle")
    assert rows == []   # calls only go one way

    rows, timings["files_importing"] = run_saved(graph, "files_importing", repo=repo, target="pkg/core.py")
    assert [(r["importer"], r["is_test"], r["lines"]) for r in rows] == [
        ("pkg/api.py", False, [3]), ("tests/test_core.py", True, [2])]
    rows, _ = run_saved(graph, "files_importing", repo=repo, target="os")
    assert [(r["importer"], r["imports"], r["lines"]) for r in rows] == [("pkg/api.py", "os", [1])]

    rows, timings["test_coverage_of"] = run_saved(graph, "test_coverage_of", repo=repo, qualified_name="helper")
    assert [(r["test"], r["test_location"], r["hops"], r["via"]) for r in rows] == [
        ("test_helper", "tests/test_core.py:5", 1, []),
        ("test_compute", "tests/test_core.py:9", 2, ["compute"]),
        ("test_handle", "tests/test_core.py:13", 3, ["handle", "compute"])]

    slow = {name: s for name, s in timings.items() if s > 2.0}
    assert not slow, f"saved queries should answer at once on a small graph: {slow}"


# -- the Browser, headless ---------------------------------------------------------------------------------------

def _browser_missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not CHROMIUM.exists():
        return "/usr/bin/chromium is not installed (apt-get install -y chromium)"
    if not PLAYWRIGHT.is_dir():
        return "node_modules/playwright-core is not installed (npm ci in the project root)"
    return None


@pytest.fixture
def browser_ready(neo4j_settings) -> None:
    missing = _browser_missing()
    if missing:
        pytest.skip(f"Neo4j Browser check skipped: {missing}")
    if not neo4j_settings.is_local_default:
        pytest.skip("Neo4j Browser check skipped: it drives the local launcher's Browser, NEO4J_URI points elsewhere")
    with urllib.request.urlopen("http://127.0.0.1:7474/browser/", timeout=10) as response:
        assert response.status == 200, "the local Neo4j serves no Browser"


def _browser_check(args: list[str]) -> tuple[int, dict]:
    proc = subprocess.run(args, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=240)
    lines = proc.stdout.strip().splitlines()
    assert lines, f"browser_check printed nothing; stderr: {proc.stderr[-2000:]}"
    return proc.returncode, json.loads(lines[-1])


@pytest.mark.neo4j
@pytest.mark.parametrize("query, params, expect, view", [
    ("hottest_call_targets", {}, "Engine.run", "table"),
    ("call_path", {"source": "handle", "target": "helper"}, "compute", "graph"),
])
def test_browser_renders_a_saved_query(browser_ready, small_repo, tmp_path: Path, query, params, expect, view):
    shot = tmp_path / f"{query}.png"
    args = ["node", str(CHECK_SCRIPT), "--query", query, "--param", f"repo={small_repo}", "--expect", expect,
            "--screenshot", str(shot)]
    for k, v in params.items():
        args += ["--param", f"{k}={v}"]
    code, result = _browser_check(args)
    if code != 0:
        # Driving a third-party web app: a CI run once failed 5 s after connecting, before the first command, and
        # no repeat of it (idle, under load, on a cold server) failed. One more try, with the first error shown as a
        # warning; a broken query, style or Browser fails both.
        warnings.warn(f"browser_check failed once, then was run again: {result.get('error')} {result.get('timings')}")
        code, result = _browser_check(args)
    # the error first: pytest cuts a long dict before its last keys
    assert code == 0 and result["ok"], (result.get("error"), result.get("timings"), result)
    assert result["view"] == view and result["found"]
    if view == "graph":
        assert result["styled"], "the project's GRASS style was not applied"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
