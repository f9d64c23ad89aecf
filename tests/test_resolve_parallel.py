"""The call-site pass shared among processes (resolve_parallel): the same resolution as one process, exactly
(order of lines and lists included), on every language's fixtures and on a package whose shares need every
kind of write a child sends back; a child that fails, dies or hangs costs time, never edges."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from graphrag_code import discovery, resolve_parallel, staging
from graphrag_code.config import IndexSettings
from graphrag_code.db import Graph
from graphrag_code.indexer import delete_repository, index_repository
from graphrag_code.resolve import _Resolver, resolve

FIXTURES = Path(__file__).parent / "fixtures" / "lang"

pytestmark = pytest.mark.skipif(not resolve_parallel.can_fork(), reason="the call-site pass forks on Linux only")


def _package(root: Path, modules: int = 9) -> None:
    """A Python package whose every module holds what each list a child sends back is made of: overrides called
    through a base (dispatch), a function handed a callback (callback outcomes, calls of a parameter), a
    getattr by a built name (reflective lookups), calls nothing defines (unresolved), imports."""
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "base.py").write_text(
        "class Handler:\n"
        "    def handle(self, event):\n"
        "        raise NotImplementedError\n"
        "\n"
        "    def describe(self):\n"
        "        return 'a handler'\n"
        "\n"
        "    def dispatch(self, name):\n"
        "        return getattr(self, 'on_' + name)()\n"
        "\n"
        "\n"
        "def run(callback, value):\n"
        "    return callback(value)\n")
    for i in range(modules):
        (root / "pkg" / f"m{i}.py").write_text(
            "from pkg.base import Handler, run\n"
            "from pkg import base\n"
            "\n"
            "\n"
            f"class Handler{i}(Handler):\n"
            "    def handle(self, event):\n"
            f"        return helper{i}(event) + missing_{i}(event)\n"
            "\n"
            f"    def on_start{i}(self):\n"
            "        self.describe()\n"
            "        return self.dispatch('stop')\n"
            "\n"
            "    def describe(self):\n"
            f"        return 'handler {i}'\n"
            "\n"
            "    def route(self, name):\n"
            "        return getattr(self, 'on_' + name)()\n"
            "\n"
            "\n"
            f"class Special{i}(Handler{i}):\n"
            "    def describe(self):\n"
            "        return 'special'\n"
            "\n"
            "\n"
            f"def helper{i}(event):\n"
            "    return event\n"
            "\n"
            "\n"
            f"def apply{i}(fn, event):\n"
            "    return fn(event)\n"
            "\n"
            "\n"
            f"def fire{i}(handler: Handler, event):\n"
            "    handler.handle(event)\n"
            "    handler.describe()\n"
            f"    run(helper{i}, event)\n"
            f"    apply{i}(helper{i}, event)\n"
            "    base.run(len, event)\n"
            f"    return Handler{i}().dispatch('start{i}')\n")


def _facts(root: Path) -> dict:
    snap = discovery.snapshot(root)
    ctx = staging.StageContext("r", "run", IndexSettings())
    facts = {}
    with discovery.SourceReader(snap) as reader:
        for f in snap.files:
            staged = staging.stage_file(f, reader.read(f), ctx)
            if staged.skip is None and staged.facts is not None:
                facts[f.path] = staged.facts
    return facts


def _whole(res) -> tuple:
    """Everything a resolution says, in its order."""
    return list(res.edges.items()), list(res.unresolved.items()), dict(res.stats), res.external_modules, res.warnings


@pytest.fixture
def every_site_shared(monkeypatch):
    """Shares of any size (a fixture has a few dozen call sites); what the children sent, by kind."""
    monkeypatch.setattr(resolve_parallel, "MIN_SITES_PER_PROCESS", 1)
    sent: dict[str, int] = {}
    replay = resolve_parallel._replay

    def counting(resolver, sites, result):
        for key, value in result.items():
            if key == "log":
                for op in value:
                    sent[op[0]] = sent.get(op[0], 0) + 1
            else:
                sent[key] = sent.get(key, 0) + len(value)
        replay(resolver, sites, result)

    monkeypatch.setattr(resolve_parallel, "_replay", counting)
    return sent


@pytest.fixture(scope="module")
def package_facts(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("pkg")
    _package(root)
    return _facts(root)


@pytest.fixture(scope="module")
def fixture_facts(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("lang")
    for src in sorted(FIXTURES.glob("*/*")):
        if not src.name.endswith(".expected.json"):
            (root / src.parent.name).mkdir(exist_ok=True)
            (root / src.parent.name / src.name).write_bytes(src.read_bytes())
    return _facts(root)


def test_the_package_shared_among_processes_resolves_as_in_one(package_facts, every_site_shared) -> None:
    one = _whole(resolve("r", package_facts))
    for processes in (2, 3, 5):
        assert _whole(resolve("r", package_facts, processes=processes)) == one, processes
    # every kind of write came back from a child and was replayed (else the comparison proves less)
    for kind in ("edge", "unresolved", "dispatched", "outcomes", "parameter_calls", "reflected", "stats"):
        assert every_site_shared.get(kind), (kind, sorted(every_site_shared.items()))
    assert one[3] == set() and not one[4]


def test_every_language_fixture_shared_among_processes_resolves_as_in_one(fixture_facts, every_site_shared) -> None:
    assert len({f.language for f in fixture_facts.values()}) >= 11
    one = _whole(resolve("r", fixture_facts))
    assert len(one[0]) > 100
    for processes in (2, 4):
        assert _whole(resolve("r", fixture_facts, processes=processes)) == one, processes
    assert every_site_shared["edge"] > 50


def test_language_server_answers_shared_among_processes_resolve_as_in_one(every_site_shared) -> None:
    """Answers naming an abstract method (lsp_abstract: its overrides get lsp_hierarchy edges afterwards) and a
    library module (external_modules), in files of several shares."""
    from test_lsp import _facts as lsp_facts

    base = lsp_facts("a/m.py", [["Base", "class", "Base", None, 1, 3], ["run", "method", "Base.run", 0, 2, 3],
                                ["Sub", "class", "Sub", None, 4, 6], ["run", "method", "Sub.run", 2, 5, 6]], [])
    base.bases, base.abstract = [[2, "Base", "INHERITS", 4]], [1]
    files = {"a/m.py": base}
    for i in range(6):
        files[f"u{i}.py"] = lsp_facts(f"u{i}.py", [["go", "function", "go", None, 1, 3]],
                                      [[0, "run", "b", 2, 6], [0, "dumps", "json", 3, 6]],
                                      [["sym", ["r:a/m.py#Base.run"], []], ["ext", [f"json{i}"]]])
    one = _whole(resolve("r", files, use_lsp=True))
    assert ("CALLS", "r:u5.py#go", "r:a/m.py#Sub.run") in dict(one[0])
    assert one[3] == {f"json{i}" for i in range(6)}
    for processes in (2, 3):
        assert _whole(resolve("r", files, use_lsp=True, processes=processes)) == one, processes
    assert every_site_shared.get("lsp_abstract") and every_site_shared.get("external_modules"), every_site_shared


def _failing_child(monkeypatch, how: str) -> None:
    parent = os.getpid()
    sites_of = _Resolver._sites_of

    def sites_of_failing(self, paths, sites):
        if os.getpid() != parent:
            if how == "raise":
                raise RuntimeError("boom")
            if how == "die":
                os.kill(os.getpid(), 9)
            if how == "hang":
                time.sleep(60)
        return sites_of(self, paths, sites)

    monkeypatch.setattr(_Resolver, "_sites_of", sites_of_failing)


@pytest.mark.parametrize("how", ["raise", "die", "hang"])
def test_a_child_that_fails_costs_time_not_edges(package_facts, every_site_shared, monkeypatch, how) -> None:
    one = _whole(resolve("r", package_facts))
    _failing_child(monkeypatch, how)
    monkeypatch.setattr(resolve_parallel, "_GRACE_SECONDS", 1.0)
    monkeypatch.setattr(resolve_parallel, "_GRACE_FACTOR", 0.0)
    started = time.monotonic()
    res = resolve("r", package_facts, processes=3)
    assert time.monotonic() - started < 20
    assert _whole(res)[:4] == one[:4]
    assert len(res.warnings) == 2, res.warnings        # both children's shares, resolved by the parent
    reason = {"raise": "exited with status 1", "die": "exited with status -9", "hang": "did not answer in time"}[how]
    assert all(reason in w and "resolved in the indexer's process" in w for w in res.warnings), res.warnings
    assert not every_site_shared


def test_processes_for_follows_workers_and_the_call_sites(monkeypatch) -> None:
    per = resolve_parallel.MIN_SITES_PER_PROCESS
    assert resolve_parallel.processes_for(0, 100 * per) == 1
    assert resolve_parallel.processes_for(1, 100 * per) == 1
    assert resolve_parallel.processes_for(3, 100 * per) == 3
    assert resolve_parallel.processes_for(3, 2 * per + 1) == 2       # never a share under the minimum
    assert resolve_parallel.processes_for(8, per - 1) == 1
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3, 4, 5, 6, 7})
    assert resolve_parallel.processes_for(None, 100 * per) == resolve_parallel.MAX_PROCESSES
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert resolve_parallel.processes_for(None, 100 * per) == 1


def test_shares_are_contiguous_and_about_even() -> None:
    paths = [f"f{i:02d}" for i in range(20)]
    sizes = {p: (50 if i == 3 else 5) for i, p in enumerate(paths)}
    parts = resolve_parallel.shares(paths, sizes, 3)
    assert [p for part in parts for p in part] == paths and all(parts)
    assert len(parts) == 3
    totals = [sum(sizes[p] for p in part) for part in parts]
    assert max(totals) - min(totals) <= 50, totals
    assert resolve_parallel.shares(paths[:2], sizes, 4) == [["f00"], ["f01"]]


def test_the_indexer_shares_the_calls_and_writes_the_same_graph(tmp_path, neo4j_settings, monkeypatch) -> None:
    from test_indexer import _normalized, dump

    _package(tmp_path / "repo", modules=6)
    monkeypatch.setattr(resolve_parallel, "MIN_SITES_PER_PROCESS", 1)
    names = [f"test-par-{os.getpid()}-{n}" for n in ("one", "two")]
    with Graph(neo4j_settings) as graph:
        try:
            alone = index_repository(graph, tmp_path / "repo", name=names[0], settings=IndexSettings(workers=0))
            shared = index_repository(graph, tmp_path / "repo", name=names[1], settings=IndexSettings(workers=2))
            assert (alone.resolve_processes, shared.resolve_processes) == (1, 2)
            assert shared.resolution == alone.resolution and not shared.warnings
            graphs = [dump(graph, n) for n in names]
        finally:
            for n in names:
                delete_repository(graph, n)

    assert len(graphs[0]["edges"]) > 40
    assert _normalized(graphs[0], names[0]) == _normalized(graphs[1], names[1])
