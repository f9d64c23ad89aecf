"""The indexer against the real Neo4j: exact symbols per language, edges, skips, secrets, coverage,
incremental == full, and crash safety."""

from __future__ import annotations

import json
import os
import subprocess
import shutil
import sys
import uuid
from pathlib import Path

import pytest

from graphrag_code.config import IndexSettings
from graphrag_code.db import Graph, Recorder
from graphrag_code.indexer import index_repository

FIXTURES = Path(__file__).parent / "fixtures" / "lang"
GITHUB_TOKEN = "ghp_" + "Zq7vK2mXw9RtY4uJ8nB3cD6fG1hL5pQ0sE2a"
PEM_BODY = "MIIEowIBAAKCAQEA7Zq3vXbN1pW9kR2tY6uJ8mB3cD6fG1hL5pQ0sE2aKx9wVn4"

SECRET_PY = f'''"""Settings with secrets that must never reach the graph."""
GITHUB_TOKEN = "{GITHUB_TOKEN}"
PRIVATE_KEY = """-----BEGIN RSA PRIVATE KEY-----
{PEM_BODY}
{PEM_BODY[::-1]}
-----END RSA PRIVATE KEY-----"""


def load_settings():
    return {{"token": GITHUB_TOKEN}}
'''


def dump(graph: Graph, repo: str) -> dict:
    row = graph.run("repo_dump", repo=repo)[0]
    return row


def symbols_of(graph_dump: dict, path: str) -> list[dict]:
    return [n["props"] for n in graph_dump["nodes"] if "Symbol" in n["labels"] and n["props"]["path"] == path]


@pytest.fixture(scope="module")
def fixture_repo(tmp_path_factory, neo4j_settings):
    """One repository holding every language fixture plus the awkward files, indexed once for the module."""
    from conftest import GitRepo
    from graphrag_code.indexer import delete_repository

    repo = GitRepo(tmp_path_factory.mktemp("fixture") / "repo")
    for src in sorted(FIXTURES.glob("*/*")):
        if not src.name.endswith(".expected.json"):
            repo.write(f"src/{src.parent.name}/{src.name}", src.read_bytes())
    repo.write("config/settings.py", SECRET_PY)
    repo.write("legacy/latin1.py", b"# caf\xe9 cr\xe8me\ndef cafe():\n    return 1\n")
    repo.write("tools/blob.py", b"def x():\n    pass\n\x00\x01\x02")
    repo.write("assets/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    repo.write("big/huge.py", "x = 1\n" * 20_000)
    repo.write("node_modules/left-pad/index.js", "module.exports = function leftPad() {}\n")
    repo.write("package-lock.json", "{}\n")
    repo.write("web/app.min.js", "function a(){return 1}\n")
    repo.write("docs/guide.md", "# Guide\nIntro.\n\n## Install\nRun it.\n\n```sh\n# not a heading\n```\n## Use\nCall it.\n")
    repo.write("api/openapi.yaml", "openapi: 3.0.0\ninfo:\n  title: Shop\npaths:\n  /orders:\n    get:\n"
                                   "      summary: List orders\n    post:\n      summary: Create an order\n")
    repo.commit("fixtures")
    name = f"test-fixtures-{uuid.uuid4().hex[:8]}"
    with Graph(neo4j_settings) as graph:
        summary = index_repository(graph, repo.root, name=name, settings=IndexSettings(max_file_bytes=50_000))
        yield repo, name, summary, dump(graph, name)
        delete_repository(graph, name)


@pytest.mark.parametrize("expected_path", sorted(FIXTURES.glob("*/*.expected.json")), ids=lambda p: p.stem)
def test_symbols_in_graph_match_fixture_exactly(fixture_repo, expected_path: Path) -> None:
    _, _, _, graph_dump = fixture_repo
    expected = json.loads(expected_path.read_text())
    path = f"src/{expected_path.parent.name}/{expected_path.name.removesuffix('.expected.json')}"
    got = sorted((s["qualified_name"], s["kind"], s["start_line"], s["end_line"]) for s in symbols_of(graph_dump, path))
    want = sorted((d["qualified_name"], d["kind"], d["start_line"], d["end_line"]) for d in expected["definitions"])
    assert got == want


def test_every_node_hangs_under_its_own_owner(fixture_repo) -> None:
    """CONTAINS: file -> symbol -> nested symbol; HAS_CHUNK from the chunk's symbol or file. The
    staging statement links owners by position in a batch of many files, so a wrong offset shows up here."""
    _, name, _, graph_dump = fixture_repo
    nodes = {n["props"]["id"]: n for n in graph_dump["nodes"]}
    owner_of: dict[str, list[tuple[str, str]]] = {}
    for e in graph_dump["edges"]:
        if e["type"] in ("CONTAINS", "HAS_CHUNK"):
            owner_of.setdefault(e["dst"], []).append((e["type"], e["src"]))
    symbols = [n["props"] for n in nodes.values() if "Symbol" in n["labels"]]
    chunks = [n["props"] for n in nodes.values() if "Chunk" in n["labels"]]
    assert len(symbols) > 50 and len({s["path"] for s in symbols}) > 10
    for s in symbols:
        assert owner_of[s["id"]] == [("CONTAINS", s.get("parent_id") or f"{name}:{s['path']}")], s["id"]
    for c in chunks:
        assert owner_of[c["id"]] == [("HAS_CHUNK", c.get("symbol_id") or f"{name}:{c['path']}")], c["id"]
    files = [n["props"]["id"] for n in nodes.values() if "File" in n["labels"]]
    assert files and not set(files) & set(owner_of)   # only the repository (outside the dump) holds a file


def test_python_call_edges_carry_lines_and_resolution(fixture_repo) -> None:
    _, name, _, graph_dump = fixture_repo
    base = f"{name}:src/python/shop.py"
    calls = {(e["src"], e["dst"]): e["props"] for e in graph_dump["edges"] if e["type"] == "CALLS"}
    assert calls[(f"{base}#OrderService.cancel", f"{base}#OrderService.find")] == \
        {"lines": [38], "confidence": 0.95, "resolved_by": "self"}
    assert calls[(f"{base}#OrderService.path", f"{base}#_slug")]["lines"] == [35]
    assert calls[(f"{base}#OrderService.path", f"{base}#_slug")]["resolved_by"] == "same_file"
    assert calls[(base, f"{base}#OrderService")]["lines"] == [47]        # module-level call
    # reading a property runs its getter: an edge like a call's; assigning to it is not one
    assert calls[(f"{base}#Basket.describe", f"{base}#Basket.total")] == \
        {"lines": [56], "confidence": 0.95, "resolved_by": "self"}
    assert (f"{base}#Basket.reset", f"{base}#Basket.total") not in calls
    # `with self:` runs the class's __enter__ and __exit__
    for method in ("__enter__", "__exit__"):
        assert calls[(f"{base}#Session.run", f"{base}#Session.{method}")] == \
            {"lines": [70], "confidence": 0.95, "resolved_by": "self"}
    # a function handed to sorted() runs there; one handed to apply_all runs where apply_all calls its parameter
    assert calls[(f"{base}#list_orders", f"{base}#list_orders.newest_first")] == \
        {"lines": [20], "confidence": 0.85, "resolved_by": "callback"}
    assert calls[(f"{base}#apply_all", f"{base}#_slug")] == {"lines": [76], "confidence": 0.7, "resolved_by": "argument"}
    assert (f"{base}#audit", f"{base}#_slug") not in calls            # audit hands it over, apply_all calls it
    assert (f"{base}#apply_all", f"{base}#on_error") not in calls     # on_fail is never called
    inherits = [(e["src"], e["dst"]) for e in graph_dump["edges"] if e["type"] == "INHERITS"]
    assert (f"{base}#OrderService", f"{base}#Base") in inherits
    symbols = {s["qualified_name"]: s for s in symbols_of(graph_dump, "src/python/shop.py")}
    # calls that resolve to nothing in the repository are kept, with the reason
    assert "js.dumps@39:external:json" in symbols["OrderService.cancel"]["unresolved_calls"]
    assert symbols["list_orders"]["docstring"] == "Return the newest orders."
    assert symbols["list_orders"]["signature"] == 'def list_orders(limit=10)'
    assert symbols["_slug"]["visibility"] == "private" and symbols["_slug"]["exported"] is False


def test_every_skip_is_reported_with_its_reason(fixture_repo) -> None:
    _, _, summary, _ = fixture_repo
    skipped = summary.skipped
    assert "assets/logo.png" in skipped["binary-type"]
    assert "tools/blob.py" in skipped["binary"]
    assert "big/huge.py" in skipped["too-large"]
    assert "node_modules/" in skipped["vendored"]          # a vendored directory is reported once
    assert "package-lock.json" in skipped["lockfile"]
    assert "web/app.min.js" in skipped["minified"]


def test_secrets_never_enter_the_graph(fixture_repo) -> None:
    repo, name, summary, graph_dump = fixture_repo
    text = json.dumps(graph_dump)
    assert GITHUB_TOKEN not in text and PEM_BODY not in text and PEM_BODY[::-1] not in text
    assert summary.secrets.get("github-token") == 1 and summary.secrets.get("private-key") == 1
    assert GITHUB_TOKEN not in json.dumps(summary.to_dict())
    # redaction keeps every line where it was: the function after the key block keeps its exact lines
    (load,) = [s for s in symbols_of(graph_dump, "config/settings.py") if s["name"] == "load_settings"]
    assert (load["start_line"], load["end_line"]) == (9, 10)


def test_invalid_utf8_and_parse_errors_are_indexed_with_a_warning(fixture_repo) -> None:
    _, _, summary, graph_dump = fixture_repo
    warned = {(w["path"], w["warning"].split(":")[0]) for w in summary.warnings}
    assert ("legacy/latin1.py", "invalid UTF-8") in warned
    assert any(p == "src/c/broken.c" and w.startswith("syntax errors") for p, w in warned)
    (cafe,) = [s for s in symbols_of(graph_dump, "legacy/latin1.py")]
    # the comment holding the bad bytes sits directly above the function, so it belongs to it
    assert (cafe["name"], cafe["start_line"], cafe["end_line"]) == ("cafe", 1, 3)
    assert cafe["docstring"] == "caf\ufffd cr\ufffdme"
    files = {n["props"]["path"]: n["props"] for n in graph_dump["nodes"] if "File" in n["labels"]}
    assert files["src/c/broken.c"]["parse_status"] == "partial"
    # an error that took the rest of the file with it: parsed again without the statement that does not parse,
    # which stays module code (test_chunks_cover_every_line_with_exact_text)
    assert ("src/typescript/call_signatures.ts", "syntax errors") in warned
    assert files["src/typescript/call_signatures.ts"]["parse_status"] == "partial"
    assert {(s["name"], s["start_line"], s["end_line"]) for s in
            symbols_of(graph_dump, "src/typescript/call_signatures.ts")} == {("createActionFactory", 15, 20),
                                                                              ("res", 16, 18), ("isAction", 24, 26)}


def test_chunks_cover_every_line_with_exact_text(fixture_repo) -> None:
    repo, _, _, graph_dump = fixture_repo
    chunks: dict[str, list[dict]] = {}
    for n in graph_dump["nodes"]:
        if "Chunk" in n["labels"]:
            chunks.setdefault(n["props"]["path"], []).append(n["props"])
    files = [n["props"]["path"] for n in graph_dump["nodes"] if "File" in n["labels"]]
    assert len(files) >= 14
    for path in files:
        lines = (repo.root / path).read_bytes().decode("utf-8", "replace").split("\n")
        covered = {ln for c in chunks[path] for ln in range(c["start_line"], c["end_line"] + 1)}
        missing = [i for i, line in enumerate(lines, 1) if line.strip() and i not in covered]
        assert not missing, f"{path}: lines {missing[:10]} are in no chunk"
        if path != "config/settings.py":   # redacted files differ from disk by design
            for c in chunks[path]:
                assert c["text"] == "\n".join(lines[c["start_line"] - 1:c["end_line"]]), (path, c["id"])


def test_markdown_sections_and_openapi_operations(fixture_repo) -> None:
    _, _, _, graph_dump = fixture_repo
    titles = {(n["props"]["path"], n["props"]["title"], n["props"]["start_line"], n["props"]["end_line"])
              for n in graph_dump["nodes"] if "Chunk" in n["labels"]}
    assert ("docs/guide.md", "Install", 4, 9) in titles          # the fenced "# not a heading" stays inside
    assert ("docs/guide.md", "Use", 10, 11) in titles
    assert ("api/openapi.yaml", "GET /orders", 6, 7) in titles
    assert ("api/openapi.yaml", "POST /orders", 8, 9) in titles


def test_express_style_assignments_are_definitions(fixture_repo) -> None:
    _, _, _, graph_dump = fixture_repo
    js_names = {s["qualified_name"] for n in graph_dump["nodes"] if "Symbol" in n["labels"]
                for s in [n["props"]] if s["language"] == "javascript"}
    assert {"app.init", "app.set", "exports.render"} <= js_names, js_names


# -- incremental == full -----------------------------------------------------------------------------------------
V1 = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def parse(text):\n    return text.split()\n\n\ndef render(items):\n    return ' '.join(items)\n",
    "pkg/helpers.py": "def shout(s):\n    return s.upper()\n",
    "pkg/app.py": ("from .core import parse, render\nfrom .helpers import shout\nfrom . import legacy\n\n\n"
                   "def main(text):\n    return render(parse(shout(text)))\n\n\n"
                   "def old(text):\n    return legacy.convert(text)\n"),
    "pkg/legacy.py": "def convert(text):\n    return text\n",
    "web/router.js": "const core = require('./core');\n\nfunction route(req) {\n  return core.handle(req);\n}\n"
                     "module.exports = route;\n",
    "web/core.js": "exports.handle = function handle(req) {\n  return req;\n};\n",
}


def _v2(git_repo) -> str:
    """V1 -> V2 of the incremental test: an edit that adds a definition an unchanged file calls, a delete, a
    rename."""
    git_repo.write("pkg/helpers.py", "def shout(s):\n    return whisper(s).upper()\n\n\ndef whisper(s):\n    return s\n")
    git_repo.write("pkg/core.py", V1["pkg/core.py"] + "\n\ndef shout(s):\n    return s\n")
    (git_repo.root / "pkg/legacy.py").unlink()
    git_repo.git("mv", "web/core.js", "web/engine.js")
    git_repo.write("web/router.js", V1["web/router.js"].replace("./core", "./engine"))
    return git_repo.commit("v2")


def _normalized(graph_dump: dict, repo: str) -> tuple[list, list]:
    def fix(value):
        if isinstance(value, str):
            return value.replace(repo + ":", "REPO:")
        if isinstance(value, list):
            return [fix(v) for v in value]
        if isinstance(value, dict):   # edge properties: `via` names a symbol
            return {k: fix(v) for k, v in value.items()}
        return value

    nodes = sorted(json.dumps({"labels": sorted(n["labels"]),
                               "props": {k: fix(v) for k, v in n["props"].items() if k != "repo"}}, sort_keys=True)
                   for n in graph_dump["nodes"])
    edges = sorted(json.dumps({k: fix(v) for k, v in e.items()}, sort_keys=True) for e in graph_dump["edges"])
    return nodes, edges


def test_incremental_index_equals_full_index(graph: Graph, git_repo, repos) -> None:

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    inc, full = repos("test-inc"), repos("test-full")
    first = index_repository(graph, git_repo.root, name=inc)
    assert first.files_parsed == len(V1)
    commit = _v2(git_repo)
    second = index_repository(graph, git_repo.root, name=inc)
    assert second.commit == commit
    assert second.files_parsed == 4 and second.files_deleted == 2 and second.files_renamed == 1
    assert second.files_unchanged == len(V1) - 1 - 4
    fresh = index_repository(graph, git_repo.root, name=full)
    assert fresh.files_parsed == len(V1) - 1
    assert _normalized(dump(graph, inc), inc) == _normalized(dump(graph, full), full)
    # and the edge an unchanged file gained through the edit exists
    edges = {(e["src"], e["dst"]) for e in dump(graph, inc)["edges"] if e["type"] == "CALLS"}
    assert (f"{inc}:web/router.js#route", f"{inc}:web/engine.js#exports.handle") in edges or \
           (f"{inc}:web/router.js#route", f"{inc}:web/engine.js#handle") in edges
    assert (f"{inc}:pkg/helpers.py#shout", f"{inc}:pkg/helpers.py#whisper") in edges


DIGEST_V1 = {
    "a/caller.py": "def use(x):\n    return x.frobnicate()\n",
    "a/widget.py": "class Widget:\n    def frobnicate(self):\n        return 1\n",
    "a/other.py": "def lone():\n    return 2\n",
    "a/user.py": "from .other import lone\n\n\ndef f():\n    return lone()\n",
    # a dispatch edge names the method it overrides in `via`: an id, so the digest must not see the repo's name
    "a/base.py": "class Base:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return 0\n",
    "a/impl.py": "from .base import Base\n\n\nclass Impl(Base):\n    def step(self):\n        return 1\n",
}


def test_a_change_rereads_only_files_whose_edges_changed_and_equals_a_full_index(graph: Graph, git_repo,
                                                                                 repos) -> None:
    """An unchanged file whose edges a change elsewhere alters (caller.py: a second `frobnicate` appears) is
    diffed; an unchanged file whose edges stand (user.py) is not read back, but its edge into an edited file
    (other.py) is made again; the result equals a full index."""

    for path, text in DIGEST_V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    inc, full = repos("test-dig"), repos("test-digfull")
    index_repository(graph, git_repo.root, name=inc)
    before = {(e["src"], e["dst"]) for e in dump(graph, inc)["edges"] if e["type"] == "CALLS"}
    assert (f"{inc}:a/caller.py#use", f"{inc}:a/widget.py#Widget.frobnicate") in before
    assert (f"{inc}:a/user.py#f", f"{inc}:a/other.py#lone") in before
    assert any(e["props"].get("via") == f"{inc}:a/base.py#Base.step" for e in dump(graph, inc)["edges"])
    digests = {r["path"]: r["edges_digest"] for r in graph.run("live_files", repo=inc)}
    assert all(digests.values()) and digests["a/caller.py"] != digests["a/user.py"]
    assert digests["a/widget.py"] == digests["a/other.py"]      # nothing leaves either

    git_repo.write("a/gadget.py", "class Gadget:\n    def frobnicate(self):\n        return 2\n")
    git_repo.write("a/other.py", "def lone():\n    return 3\n")
    git_repo.commit("v2")
    recorder = Recorder()
    with graph.trace(recorder):
        second = index_repository(graph, git_repo.root, name=inc)
    read_back = [p for e in recorder.events if e.name == "edges_of_files"
                 for p in e.params["paths"]]
    assert sorted(set(read_back)) == ["a/caller.py"]
    assert second.edges_deleted >= 1        # use -> Widget.frobnicate is no longer the one candidate
    after = {(e["src"], e["dst"]) for e in dump(graph, inc)["edges"] if e["type"] == "CALLS"}
    assert (f"{inc}:a/user.py#f", f"{inc}:a/other.py#lone") in after
    assert {r["path"]: r["edges_digest"] for r in graph.run("live_files", repo=inc)}["a/user.py"] == \
        digests["a/user.py"]

    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, inc), inc) == _normalized(dump(graph, full), full)
    assert graph.run("repo_get", repo=inc)[0]["repo"]["unresolved_calls"] == second.unresolved_calls


def test_an_index_without_digests_is_diffed_in_one_scan_and_equals_a_full_index(graph: Graph, git_repo,
                                                                                 repos) -> None:
    """An index written before edge digests existed (here: digests removed) has every unedited file stale: more
    than half the files, so their edges are read in one scan of the repository instead of file by file."""

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    inc, full = repos("test-scan"), repos("test-scanfull")
    index_repository(graph, git_repo.root, name=inc)
    graph.run("file_digests_set", rows=[{"id": f"{inc}:{p}", "digest": None} for p in V1])
    git_repo.write("pkg/helpers.py", "def shout(s):\n    return whisper(s)\n\n\ndef whisper(s):\n    return s\n")
    git_repo.write("pkg/app.py", V1["pkg/app.py"] + "# edited below its calls: their edges come back the same\n")
    git_repo.commit("v2")
    recorder = Recorder()
    with graph.trace(recorder):
        index_repository(graph, git_repo.root, name=inc)
    names = {e.name for e in recorder.events}
    assert "edges_of_repo" in names and "edges_of_files" not in names
    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, inc), inc) == _normalized(dump(graph, full), full)


def test_random_edits_to_real_code_index_incrementally_as_a_full_index(graph: Graph, git_repo, repos) -> None:
    """This package's own modules and the language fixtures, edited at random for three commits: a renamed
    definition (its callers lose edges), a deleted file, a moved file, a new file defining method names used
    everywhere (guesses by name change in unedited files), an appended function. Each incremental run must
    equal a full index of the same commit."""
    import random
    import re

    root = Path(__file__).resolve().parents[1]
    sources = [*sorted((root / "graphrag_code").glob("*.py")), *sorted((root / "tests/fixtures/lang").glob("*/*"))]
    for src in sources:
        if not src.name.endswith(".json"):
            git_repo.write(str(src.relative_to(root)), src.read_bytes())
    git_repo.commit("v0")
    rng = random.Random(7)
    inc = repos("test-rnd")
    read_back: list[int] = []   # unedited files whose edges changed, per run
    index_repository(graph, git_repo.root, name=inc)
    for step in range(3):
        py = sorted(str(p.relative_to(git_repo.root)) for p in git_repo.root.rglob("*.py") if ".git" not in p.parts)
        renamed, deleted, moved, appended = rng.sample(py, 4)
        text = (git_repo.root / renamed).read_text()
        names = re.findall(r"^(?:    )?def (\w+)\(", text, re.M)
        if names:
            name = rng.choice(names)
            git_repo.write(renamed, re.sub(rf"\bdef {name}\(", f"def {name}_renamed(", text, count=1))
        (git_repo.root / deleted).unlink()
        git_repo.git("add", "-A")
        git_repo.git("mv", moved, moved.replace(".py", f"_moved{step}.py"))
        git_repo.write(f"graphrag_code/extra_{step}.py",
                       "class Extra:\n    def run(self, name):\n        return self.get(name)\n\n"
                       "    def get(self, name):\n        return None\n\n    def close(self):\n        pass\n")
        git_repo.write(appended, (git_repo.root / appended).read_text() + "\n\ndef added():\n    return run()\n")
        git_repo.commit(f"v{step + 1}")
        recorder = Recorder()
        with graph.trace(recorder):
            summary = index_repository(graph, git_repo.root, name=inc)
        assert summary.files_parsed == 4 and summary.files_deleted == 2 and summary.files_renamed == 1
        read_back.append(len({p for e in recorder.events if e.name == "edges_of_files" for p in e.params["paths"]}))
        full = repos("test-rndfull")
        index_repository(graph, git_repo.root, name=full)
        assert _normalized(dump(graph, inc), inc) == _normalized(dump(graph, full), full), step
    print("files read back per run:", read_back, "of", len(sources))
    assert 0 < max(read_back) < len(sources) / 2


@pytest.mark.parametrize("first_changes", [True, False], ids=["change", "no-op"])
def test_a_run_overtaken_by_a_later_run_stops_and_the_later_snapshot_stands(graph: Graph, git_repo, repos,
                                                                              first_changes: bool) -> None:
    """Two runs of one repository at once (two terminals, a cron job): the one that started last wins. A later
    run starts while the first one is between reading the live files and swapping (here: from the first run's
    own tracer), edits the checkout first and completes. The first run then stops with an IndexingError instead
    of swapping its older view in (or, as a no-op, moving the commit back), and the graph equals a full index
    of the commit the later run saw."""
    from graphrag_code.errors import IndexingError

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    name, full = repos("test-race"), repos("test-racefull")
    later: dict = {}

    def start_a_later_run(event) -> None:
        if event.name == "live_files" and not later:
            later["started"] = True
            git_repo.write("pkg/helpers.py", "def shout(s):\n    return s.upper() + '!'\n")
            later["commit"] = git_repo.commit("v3")
            later["summary"] = index_repository(graph, git_repo.root, name=name)

    index_repository(graph, git_repo.root, name=name)
    if first_changes:
        git_repo.write("pkg/core.py", "def parse(text):\n    return []\n")
        git_repo.commit("v2")
    with graph.trace(start_a_later_run), pytest.raises(IndexingError, match="another index run") as raised:
        index_repository(graph, git_repo.root, name=name)
    assert raised.value.exit_code == 6 and later["summary"].commit == later["commit"]
    assert graph.run("pending_count", repo=name)[0]["pending"] == 0     # the stopped run took its own away
    repo = graph.run("repo_get", repo=name)[0]["repo"]
    assert repo["commit"] == later["commit"] and "running" not in repo and "swapping" not in repo
    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, name), name) == _normalized(dump(graph, full), full)
    recorder = Recorder()
    with graph.trace(recorder):     # the next run clears what the stopped one staged, and has nothing to do
        again = index_repository(graph, git_repo.root, name=name)
    assert again.files_parsed == 0 and graph.run("pending_count", repo=name)[0]["pending"] == 0


def test_a_repository_deleted_during_a_run_stays_deleted(graph: Graph, git_repo, repos) -> None:
    """`graphrag-code delete` while a run re-indexes the repository, after it staged its nodes: the run stops
    with an IndexingError and takes away what it staged, and no node of the repository is left."""
    from graphrag_code.errors import IndexingError
    from graphrag_code.indexer import delete_repository

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    name = repos("test-deleted")
    index_repository(graph, git_repo.root, name=name)
    git_repo.write("pkg/core.py", "def parse(text):\n    return []\n")
    git_repo.commit("v2")
    deleted: list[int] = []

    def delete_it(event) -> None:     # file_facts: the unchanged files' facts, read after staging
        if event.name == "file_facts" and not deleted:
            assert graph.run("pending_count", repo=name)[0]["pending"] > 0
            with Graph(graph.settings) as other:      # another connection, as the CLI's would be
                deleted.append(delete_repository(other, name))

    with graph.trace(delete_it), pytest.raises(IndexingError, match="was deleted while this run indexed it"):
        index_repository(graph, git_repo.root, name=name)
    assert deleted and deleted[0] > len(V1)      # the live and staged nodes and the repository node went
    assert graph.run("repo_dump", repo=name)[0]["nodes"] == []
    assert graph.run("pending_count", repo=name)[0]["pending"] == 0
    assert graph.run("repo_get", repo=name) == []


@pytest.mark.parametrize("several", [False, True], ids=["one-transaction", "several-transactions"])
def test_a_run_meeting_a_delete_half_way_stops_and_a_run_starting_then_refuses(graph: Graph, git_repo, repos,
                                                                               several: bool) -> None:
    """A delete removes nodes in batches and the repository node last. A run that reaches its swap in between (here
    the delete is held after its first batch) must not promote what the batches have not reached: it stops with
    "was deleted" (it had promoted a few hundred nodes and exited 0, found by a QA pass), and a run that starts
    then refuses; the finished delete leaves nothing."""
    from graphrag_code.errors import IndexingError
    from graphrag_code.indexer import delete_repository

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    name = repos("test-halfdeleted")
    settings = IndexSettings(swap_max_rows=0, swap_batch_rows=3) if several else IndexSettings()
    index_repository(graph, git_repo.root, name=name, settings=settings)
    git_repo.write("pkg/core.py", "def parse(text):\n    return []\n")
    git_repo.commit("v2")
    started: list[bool] = []

    def start_deleting(event) -> None:      # staged, facts being read: the delete marks and takes a first batch
        if event.name == "file_facts" and not started:
            started.append(True)
            with Graph(graph.settings) as other:
                other.run("repo_mark_deleted", repo=name)
                other.run("repo_delete", repo=name, limit=2)

    with graph.trace(start_deleting), pytest.raises(IndexingError, match="was deleted while this run indexed it"):
        index_repository(graph, git_repo.root, name=name, settings=settings)
    assert graph.run("pending_count", repo=name)[0]["pending"] == 0         # what it staged went with it
    with pytest.raises(IndexingError, match="is being deleted"):
        index_repository(graph, git_repo.root, name=name)
    delete_repository(graph, name)
    assert graph.run("repo_dump", repo=name)[0]["nodes"] == [] and graph.run("repo_get", repo=name) == []
    assert index_repository(graph, git_repo.root, name=name).files_parsed == len(V1)   # and it indexes again


@pytest.mark.parametrize("several", [False, True], ids=["one-transaction", "several-transactions"])
def test_a_run_starting_during_a_swap_waits_for_it_and_builds_on_it(graph: Graph, git_repo, repos, monkeypatch,
                                                                     several: bool) -> None:
    """One transaction: its first statement takes the repository node's write lock, and a run that starts
    meanwhile (in another thread here, inside the first run's swap) waits in repo_begin until the swap commits.
    Several transactions hold no lock between them: a run that starts halfway through the first run's files sees
    the fresh lease and waits before repo_begin. Either way it then reads the new snapshot and completes on top
    of it, and the result equals a full index."""
    import threading
    import time
    from graphrag_code import indexer

    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    name, full = repos("test-wait"), repos("test-waitfull")
    settings = IndexSettings(swap_max_rows=0, swap_batch_rows=3) if several else IndexSettings()
    second: dict = {"events": Recorder()}

    def run_second() -> None:
        with graph.trace(second["events"]):
            second["summary"] = index_repository(graph, git_repo.root, name=name, settings=settings)

    def in_the_swap(point: str) -> None:
        if point == ("swap_batched" if several else "swap") and "thread" not in second:
            git_repo.write("pkg/helpers.py", "def shout(s):\n    return s.upper() + '!'\n")
            second["commit"] = git_repo.commit("v3")
            second["thread"] = threading.Thread(target=run_second)
            second["thread"].start()
            time.sleep(2.0)
            second["seen_during_swap"] = [e.name for e in second["events"].events]

    index_repository(graph, git_repo.root, name=name)
    first_commit = _v2(git_repo)
    monkeypatch.setattr(indexer, "_crash_point", in_the_swap)
    first = index_repository(graph, git_repo.root, name=name, settings=settings)
    second["thread"].join(timeout=120)
    assert first.commit == first_commit and second["summary"].commit == second["commit"]
    assert first.swap_transactions > (3 if several else 0) and not second["summary"].recovered
    assert "repo_begin" not in second["seen_during_swap"] and "repo_get" in second["seen_during_swap"]
    assert second["summary"].files_parsed == 1          # only pkg/helpers.py: it read the first run's files
    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, name), name) == _normalized(dump(graph, full), full)


# -- crash safety --------------------------------------------------------------------------------------------
def _index_in_subprocess(root: Path, name: str, crash_at: str | None,
                         extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "GRAPHRAG_CRASH_AT"} | (extra_env or {})
    if crash_at:
        env["GRAPHRAG_CRASH_AT"] = crash_at
    return subprocess.run([sys.executable, "-m", "graphrag_code.cli", "index", str(root), "--name", name, "--json",
                           "--no-embed"],
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("crash_at", ["staged", "swap"])
def test_kill_mid_run_leaves_previous_snapshot_intact(graph: Graph, git_repo, repo_name: str, crash_at: str) -> None:
    for path, text in V1.items():
        git_repo.write(path, text)
    v1 = git_repo.commit("v1")
    assert _index_in_subprocess(git_repo.root, repo_name, None).returncode == 0
    before = _normalized(dump(graph, repo_name), repo_name)

    git_repo.write("pkg/core.py", "def parse(text):\n    return []\n")
    (git_repo.root / "pkg/helpers.py").unlink()
    v2 = git_repo.commit("v2")
    killed = _index_in_subprocess(git_repo.root, repo_name, crash_at)
    assert killed.returncode == -9, killed.stderr
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == v1
    assert _normalized(dump(graph, repo_name), repo_name) == before
    if crash_at == "staged":
        assert graph.run("pending_count", repo=repo_name)[0]["pending"] > 0   # invisible leftovers

    done = _index_in_subprocess(git_repo.root, repo_name, None)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["commit"] == v2
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == v2
    assert graph.run("pending_count", repo=repo_name)[0]["pending"] == 0
    paths = {n["props"]["path"] for n in dump(graph, repo_name)["nodes"] if "File" in n["labels"]}
    assert "pkg/helpers.py" not in paths and "pkg/core.py" in paths


def test_unchanged_files_on_a_new_commit_move_only_the_commit(graph: Graph, git_repo, repo_name: str) -> None:
    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    first = index_repository(graph, git_repo.root, name=repo_name)
    before = _normalized(dump(graph, repo_name), repo_name)
    git_repo.git("commit", "--allow-empty", "-q", "-m", "nothing indexed changes")
    recorder = Recorder()
    with graph.trace(recorder):
        second = index_repository(graph, git_repo.root, name=repo_name)
    # the counts are those the last swap stored with the snapshot, not counted again
    assert not {"repo_counts", "unresolved_total", "file_facts"} & {e.name for e in recorder.events}
    assert second.commit != first.commit and second.files_parsed == 0
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == second.commit
    assert (second.symbols, second.chunks, second.edges, second.unresolved_calls) == \
        (first.symbols, first.chunks, first.edges, first.unresolved_calls)
    # a repository indexed before the counts were stored is counted
    graph.run("repo_set", repo=repo_name, props={"unresolved_calls": None})
    git_repo.git("commit", "--allow-empty", "-q", "-m", "again")
    with graph.trace(recorder):
        third = index_repository(graph, git_repo.root, name=repo_name)
    assert {"repo_counts", "unresolved_total"} <= {e.name for e in recorder.events}
    assert (third.symbols, third.edges, third.unresolved_calls) == \
        (first.symbols, first.edges, first.unresolved_calls) and first.unresolved_calls > 0
    assert _normalized(dump(graph, repo_name), repo_name) == before


def test_a_rerun_over_files_skipped_for_their_content_is_a_no_op(graph: Graph, git_repo, repo_name: str) -> None:
    """A generated file is read (its content says it is generated) and skipped on every run; that alone must not
    make an unchanged repository resolve and swap again."""
    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.write("requirements.txt", "# This file is autogenerated by pip-compile\nclick==8.1.7\n")
    git_repo.commit("v1")
    first = index_repository(graph, git_repo.root, name=repo_name)
    assert first.skipped.get("generated") == ["requirements.txt"]
    second = index_repository(graph, git_repo.root, name=repo_name)
    assert "noop" in second.stage_seconds and "swap" not in second.stage_seconds
    assert second.skipped.get("generated") == ["requirements.txt"]         # still reported
    assert (second.symbols, second.chunks, second.edges) == (first.symbols, first.chunks, first.edges)


def test_a_failed_staging_write_stops_the_run_and_keeps_the_previous_snapshot(
        graph: Graph, git_repo, repo_name: str, neo4j_settings) -> None:
    """Staged batches are written on a second thread while the next files parse: a write that fails there (Neo4j
    going away mid-job) still stops the run with the package's error, and the previous commit stays whole."""
    from graphrag_code.errors import DatabaseUnavailable

    for path, text in V1.items():
        git_repo.write(path, text)
    v1 = git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    before = _normalized(dump(graph, repo_name), repo_name)
    git_repo.write("pkg/core.py", "def parse(text):\n    return []\n")
    for k in range(6):
        git_repo.write(f"pkg/extra{k}.py", f"def one():\n    return {k}\n\n\ndef two():\n    return one()\n")
    git_repo.commit("v2")

    class GoesAway(Graph):
        writes = 0

        def run(self, name: str, /, **params):
            if name == "stage_nodes":
                GoesAway.writes += 1
                if GoesAway.writes == 2:
                    raise DatabaseUnavailable("Neo4j went away (test)")
            return super().run(name, **params)

    with GoesAway(neo4j_settings) as failing, pytest.raises(DatabaseUnavailable, match="went away"):
        index_repository(failing, git_repo.root, name=repo_name, settings=IndexSettings(write_batch=1))
    assert GoesAway.writes == 2            # 7 files, one batch each: nothing written after the failure
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == v1
    assert _normalized(dump(graph, repo_name), repo_name) == before
    done = index_repository(graph, git_repo.root, name=repo_name)
    assert done.files_parsed == 7 and graph.run("pending_count", repo=repo_name)[0]["pending"] == 0


def test_staged_rows_stream_in_batches_and_memory_does_not_hold_the_repositorys_text(graph: Graph, tmp_path: Path,
                                                                                      repos) -> None:
    """120 Markdown files, 4.5 MB of text in 2,520 chunks: staged in batches of 50 rows, the indexer's peak of
    Python memory (tracemalloc) stays a fraction of what it is when every row waits for one batch (the text, its
    search text and the rows of all files at once)."""
    import random
    import tracemalloc

    words = "alpha beta gamma delta order refund token expiry handler request".split()
    rng = random.Random(1)
    for i in range(120):
        sections = "".join(f"## Section {h}\n\n" + " ".join(rng.choice(words) for _ in range(300)) + "\n\n"
                           for h in range(20))
        (tmp_path / f"doc{i:03d}.md").write_text(f"# Doc {i}\n\n{sections}")
    peaks = {}
    for batch in (50, 1_000_000):
        tracemalloc.start()
        try:
            summary = index_repository(graph, tmp_path, name=repos(f"test-stream-{batch}"),
                                       settings=IndexSettings(write_batch=batch))
            peaks[batch] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert summary.chunks == 2520
    text = sum(p.stat().st_size for p in tmp_path.glob("*.md"))
    # measured: 2.6-3.3 MB against 37 MB, for 4.7 MB of text; holding the rows holds the text twice (search text)
    assert peaks[50] < 1.5 * text < peaks[1_000_000], (peaks, text)
    assert peaks[50] * 4 < peaks[1_000_000], peaks


# -- swaps too large for one transaction ---------------------------------------------------------------------
BATCHED = {"GRAPHRAG_SWAP_MAX_ROWS": "0", "GRAPHRAG_SWAP_BATCH_ROWS": "3"}


def test_a_swap_in_several_transactions_equals_a_full_index(graph: Graph, git_repo, repos) -> None:
    """Over swap_max_rows, the swap runs in transactions of about swap_batch_rows rows (here 3, so that the files,
    the edges and the lists each take several); first index and incremental run both equal a full index made
    in one transaction, and the repository keeps no lease."""
    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    batched, full = repos("test-batched"), repos("test-batchedfull")
    small = IndexSettings(swap_max_rows=0, swap_batch_rows=3)
    first = index_repository(graph, git_repo.root, name=batched, settings=small)
    assert first.swap_transactions > len(V1) // 3 + 2
    assert index_repository(graph, git_repo.root, name=full).swap_transactions == 1
    assert _normalized(dump(graph, batched), batched) == _normalized(dump(graph, full), full)

    commit = _v2(git_repo)
    second = index_repository(graph, git_repo.root, name=batched, settings=small)
    assert second.commit == commit and second.files_parsed == 4 and second.swap_transactions > 3
    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, batched), batched) == _normalized(dump(graph, full), full)
    repo = graph.run("repo_get", repo=batched)[0]["repo"]
    assert repo["commit"] == commit and "swapping" not in repo and "swap_beat" not in repo


def test_a_file_too_large_for_one_staging_transaction_is_staged_in_slices(graph: Graph, git_repo, repos,
                                                                           monkeypatch) -> None:
    """A file with more staged rows than FILE_SLICE_ROWS (here 4) goes to the server in slices of the write batch
    (here 4); rows whose owner (the file, a class) went in an earlier slice are linked to it by id. The graph
    equals one staged whole."""
    from graphrag_code import indexer

    for path, text in V1.items():
        git_repo.write(path, text)
    classes = "".join(f"class C{k}:\n    def m{k}(self):\n        return f{k}()\n\n\n" for k in range(4))
    git_repo.write("pkg/generated.py", classes + "".join(f"def f{k}():\n    return {k}\n\n\n" for k in range(12)))
    git_repo.commit("v1")
    sliced, whole = repos("test-sliced"), repos("test-whole")
    recorder = Recorder()
    monkeypatch.setattr(indexer, "FILE_SLICE_ROWS", 4)
    with Graph(graph.settings, tracer=recorder) as traced:
        index_repository(traced, git_repo.root, name=sliced, settings=IndexSettings(write_batch=4))
    linked = [e for e in recorder.events if e.name == "stage_nodes_linked"]
    assert len(linked) >= 10 and all(e.rows == 1 for e in linked)    # generated.py: 1 + 20 + 20 rows, in slices of 4
    monkeypatch.setattr(indexer, "FILE_SLICE_ROWS", 5000)
    index_repository(graph, git_repo.root, name=whole)
    got, want = _normalized(dump(graph, sliced), sliced), _normalized(dump(graph, whole), whole)
    assert got == want
    contains = [e for e in dump(graph, sliced)["edges"] if e["type"] == "CONTAINS"
                and e["dst"].startswith(f"{sliced}:pkg/generated.py#C3.m3")]
    assert [e["src"] for e in contains] == [f"{sliced}:pkg/generated.py#C3"]


def _assert_equals_a_full_index(graph: Graph, root: Path, name: str) -> None:
    """The repository ``name`` is what a full index of ``root`` at its commit makes (compared without names)."""
    from graphrag_code.indexer import delete_repository

    full = f"{name}-full"
    try:
        index_repository(graph, root, name=full)
        assert _normalized(dump(graph, name), name) == _normalized(dump(graph, full), full)
    finally:
        delete_repository(graph, full)


def test_a_run_killed_in_a_swap_in_several_transactions_is_completed_by_the_next(graph: Graph, git_repo,
                                                                                 repo_name: str) -> None:
    """kill -9 in a swap in several transactions, after the files were replaced and before their edges were
    made again: the repository is left partly updated with the dead run's lease (`status` says so). Every file
    now looks unchanged to the next run, and the edges of pkg/app.py into the edited pkg/core.py are gone while
    app.py's stored digest still matches; the next run, once the lease is stale, re-parses nothing, trusts no
    digest, and completes the repository: it then equals a full index of the commit."""
    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    assert _index_in_subprocess(git_repo.root, repo_name, None).returncode == 0
    git_repo.write("pkg/core.py", V1["pkg/core.py"].replace("text.split()", "text.split(',')"))
    git_repo.write("web/core.js", V1["web/core.js"].replace("return req;", "return req || {};"))
    v2 = git_repo.commit("v2")
    killed = _index_in_subprocess(git_repo.root, repo_name, "swap_batched", BATCHED)
    assert killed.returncode == -9, killed.stderr
    repo = graph.run("repo_get", repo=repo_name)[0]["repo"]
    assert repo.get("swapping") and repo["commit"] != v2
    calls = {(e["src"], e["dst"]) for e in dump(graph, repo_name)["edges"] if e["type"] == "CALLS"}
    assert (f"{repo_name}:pkg/app.py#main", f"{repo_name}:pkg/core.py#parse") not in calls   # cut with the file
    from click.testing import CliRunner
    from graphrag_code.cli import main
    status = CliRunner().invoke(main, ["status"])
    assert "partly updated" in status.output, status.output

    done = _index_in_subprocess(git_repo.root, repo_name, None, {"GRAPHRAG_SWAP_LEASE_SECONDS": "0"})
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["commit"] == v2 and summary["recovered"] and summary["files_parsed"] == 0
    _assert_equals_a_full_index(graph, git_repo.root, repo_name)
    repo = graph.run("repo_get", repo=repo_name)[0]["repo"]
    assert "swapping" not in repo and graph.run("pending_count", repo=repo_name)[0]["pending"] == 0



@pytest.mark.parametrize("crash_at", ["swap_slice_deleted", "swap_slice_promoted"])
def test_a_run_killed_between_two_slices_of_one_file_is_completed_by_the_next(graph: Graph, git_repo,
                                                                               repo_name: str, crash_at: str) -> None:
    """A file too large for one swap transaction is replaced in slices (here: 3 rows a transaction), so kill -9
    between two of them leaves that file in part: its File node deleted first and promoted last, its symbols
    and chunks without one. The next run finds them (`partial_files`), removes them, indexes the file again,
    and equals a full index of the commit."""
    for path, text in V1.items():
        git_repo.write(path, text)
    git_repo.commit("v1")
    assert _index_in_subprocess(git_repo.root, repo_name, None, BATCHED).returncode == 0
    git_repo.write("pkg/core.py", V1["pkg/core.py"].replace("text.split()", "text.split(',')"))
    v2 = git_repo.commit("v2")
    killed = _index_in_subprocess(git_repo.root, repo_name, crash_at, BATCHED)
    assert killed.returncode == -9, killed.stderr
    assert graph.run("partial_files", repo=repo_name), "the kill left a file in part"
    done = _index_in_subprocess(git_repo.root, repo_name, None, {**BATCHED, "GRAPHRAG_SWAP_LEASE_SECONDS": "0"})
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["commit"] == v2 and summary["recovered"] and summary["files_parsed"] >= 1
    assert not graph.run("partial_files", repo=repo_name)
    _assert_equals_a_full_index(graph, git_repo.root, repo_name)


@pytest.mark.parametrize("as_git", [True, False])
def test_a_file_name_that_is_not_utf8_is_skipped_with_its_reason_and_the_rest_indexed(graph: Graph, git_repo,
                                                                                      repo_name: str,
                                                                                      as_git: bool) -> None:
    """Neo4j stores text only: a name git or the file system gives as bytes that are not UTF-8 is reported as
    `undecodable-path` (its bytes as \\x escapes) instead of failing the whole run at the first write."""
    git_repo.write("ok.py", "def fine():\n    return 1\n")
    with open(os.path.join(os.fsencode(git_repo.root), b"bad\xe9name.py"), "wb") as out:
        out.write(b"def hidden():\n    return 2\n")
    if as_git:
        git_repo.commit("v1")
    else:
        shutil.rmtree(git_repo.root / ".git")
    summary = index_repository(graph, git_repo.root, name=repo_name)
    assert summary.skipped.get("undecodable-path") == ["bad\\xe9name.py"]
    assert summary.files_indexed == 1
    json.dumps(summary.to_dict(), ensure_ascii=False).encode("utf-8")     # printable as the CLI prints it
    assert [s["name"] for s in symbols_of(dump(graph, repo_name), "ok.py")] == ["fine"]


@pytest.mark.parametrize("steps", [
    # every unresolved call of f resolves once b.py defines g: the incremental run had stored
    # unresolved_calls = [] and unresolved_count = 0 where a fresh index has neither (fifth QA pass)
    [{"a.py": "def f():\n    g()\n"}, {"b.py": "def g():\n    pass\n"}],
    # a package indexed from inside (its root holds __init__.py) whose own imports name it two ways, once each:
    # the tie was broken by the order files came in, changed files first, so the two runs resolved different edges
    [{"__init__.py": "", "models.py": "def X():\n    pass\n",
      "a.py": "from alpha.models import X\n\n\ndef fa():\n    X()\n",
      "b.py": "from beta.models import X\n\n\ndef fb():\n    X()\n"},
     {"b.py": "from beta.models import X\n\n\ndef fb():\n    X()  # touched\n"}],
], ids=["unresolved-all-resolved", "root-package-tie"])
def test_incremental_equals_full_in_cases_the_differential_fuzzer_found(graph: Graph, git_repo, repos,
                                                                        steps) -> None:
    inc, full = repos("test-inc"), repos("test-full")
    for n, files in enumerate(steps):
        for path, text in files.items():
            git_repo.write(path, text)
        git_repo.commit(f"v{n}")
        index_repository(graph, git_repo.root, name=inc)
    index_repository(graph, git_repo.root, name=full)
    assert _normalized(dump(graph, inc), inc) == _normalized(dump(graph, full), full)


def test_deleting_a_repository_deletes_the_modules_only_it_imported(graph: Graph, tmp_path: Path, repos) -> None:
    """External modules are shared nodes: those only the deleted repository imported went stale in the graph
    (and in the Browser), those another repository imports stay."""
    from graphrag_code.indexer import delete_repository

    mine = f"zz_only_{uuid.uuid4().hex[:8]}"
    first, second = tmp_path / "first", tmp_path / "second"
    for root, text in ((first, f"import os\nimport {mine}\n\n\ndef f():\n    return os.sep\n"),
                       (second, "import os\n\n\ndef g():\n    return os.sep\n")):
        root.mkdir()
        (root / "m.py").write_text(text)
    a, b = repos("test-mods"), repos("test-mods")
    index_repository(graph, first, name=a)
    index_repository(graph, second, name=b)
    assert [r["importer"] for r in graph.run("browser/files_importing", repo=a, target=mine)] == ["m.py"]
    delete_repository(graph, a)
    assert graph.run("modules_orphaned_delete", limit=1000)[0]["deleted"] == 0    # none was left behind
    assert [r["importer"] for r in graph.run("browser/files_importing", repo=b, target="os")] == ["m.py"]
