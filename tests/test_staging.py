"""Parsing in worker processes (staging.StagePool): the graph equals the one parsed in the indexer's own process,
a worker that dies loses no file, and the number of workers is chosen and reported as documented."""

from __future__ import annotations

import os
import signal

import pytest
from click.testing import CliRunner

from graphrag_code import staging
from graphrag_code.cli import main
from graphrag_code.config import IndexSettings
from graphrag_code.db import Graph
from graphrag_code.errors import ConfigError
from graphrag_code.indexer import index_repository
from test_indexer import FIXTURES, V1, _normalized, _v2, dump

CRASH_MARK = b"KILL_THE_PARSER"


def _write_mixed(git_repo) -> None:
    """V1 plus every language fixture: many files, several languages, so that batches hold mixed files."""
    for path, text in V1.items():
        git_repo.write(path, text)
    for src in sorted(FIXTURES.glob("*/*")):
        if not src.name.endswith(".expected.json"):
            git_repo.write(f"src/{src.parent.name}/{src.name}", src.read_bytes())
    git_repo.commit("v1")


def test_a_graph_parsed_by_workers_equals_one_parsed_in_process(graph: Graph, git_repo, repos, monkeypatch) -> None:
    """Two workers, batches of two files (so that many batches are in flight and come back out of order
    internally): nodes, properties and edges equal an in-process run's, on a first index and an incremental
    run with an edit, a delete and a rename."""
    monkeypatch.setattr(staging, "_BATCH_FILES", 2)
    _write_mixed(git_repo)
    par, ser = repos("test-par"), repos("test-ser")
    first = index_repository(graph, git_repo.root, name=par, settings=IndexSettings(workers=2))
    assert first.workers == 2 and first.files_parsed > 20
    assert index_repository(graph, git_repo.root, name=ser, settings=IndexSettings(workers=0)).workers == 0
    assert _normalized(dump(graph, par), par) == _normalized(dump(graph, ser), ser)

    _v2(git_repo)
    second = index_repository(graph, git_repo.root, name=par, settings=IndexSettings(workers=2))
    assert second.files_parsed == 4 and second.files_renamed == 1
    index_repository(graph, git_repo.root, name=ser, settings=IndexSettings(workers=0))
    assert _normalized(dump(graph, par), par) == _normalized(dump(graph, ser), ser)


def _crashing_extract(original):
    def extract(source: bytes, language: str):
        if CRASH_MARK in source:
            os.kill(os.getpid(), signal.SIGKILL)   # as a grammar's segfault or the OOM killer would
        return original(source, language)
    return extract


def test_a_file_that_kills_its_worker_is_indexed_as_file_chunks_and_no_other_file_is_lost(
        graph: Graph, git_repo, repos, monkeypatch) -> None:
    """The workers are forked, so they run the patched extract: the file with the mark kills its worker (as
    a segfault would); every file of the batches lost with the pool is staged again, the marked one as file-level
    chunks with a warning, the others parsed as usual."""
    monkeypatch.setattr(staging, "_BATCH_FILES", 3)
    monkeypatch.setattr(staging, "extract", _crashing_extract(staging.extract))
    _write_mixed(git_repo)
    git_repo.write("pkg/poison.py", "# KILL_THE_PARSER\ndef poisoned():\n    return 1\n")
    git_repo.commit("poison")
    par, ser = repos("test-crash"), repos("test-crashref")
    s = index_repository(graph, git_repo.root, name=par, settings=IndexSettings(workers=2))
    files = {n["props"]["path"]: n["props"] for n in dump(graph, par)["nodes"] if "File" in n["labels"]}
    assert files["pkg/poison.py"]["parse_status"] == "failed"
    assert any("crashed its process" in w["warning"] for w in s.warnings if w["path"] == "pkg/poison.py")
    chunks = [n["props"] for n in dump(graph, par)["nodes"]
              if "Chunk" in n["labels"] and n["props"]["path"] == "pkg/poison.py"]
    assert chunks and "def poisoned()" in chunks[0]["text"]

    # every other file is exactly what an in-process run makes of it (the marked file aside)
    (git_repo.root / "pkg/poison.py").unlink()
    git_repo.commit("no poison")
    index_repository(graph, git_repo.root, name=ser, settings=IndexSettings(workers=0))
    got = [x for x in _normalized(dump(graph, par), par)[0] if "pkg/poison.py" not in x]
    assert got == _normalized(dump(graph, ser), ser)[0]


def test_a_file_staged_without_its_grammar_is_file_chunks_over_every_line() -> None:
    """stage_file(parse=False) is the fallback's own path: file chunks over every line, parse_status failed."""
    from graphrag_code.discovery import SourceFile

    ctx = staging.StageContext("r", "run", IndexSettings())
    data = b"def a():\n    return 1\n\n\ndef b():\n    return a()\n"
    f = SourceFile("m.py", "0" * 40, len(data), "python")
    parsed, fallback = staging.stage_file(f, data, ctx), staging.stage_file(f, data, ctx, parse=False)
    assert [r["props"]["name"] for r in parsed.rows if r["kind"] == "Symbol"] == ["a", "b"]
    assert [r["kind"] for r in fallback.rows] == ["File", "Chunk"]
    assert fallback.rows[0]["props"]["parse_status"] == "failed"
    assert fallback.rows[1]["props"]["start_line"] == 1 and fallback.rows[1]["props"]["end_line"] == 6


def test_the_number_of_workers_follows_cores_and_bytes(monkeypatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert staging.auto_workers(staging.PARALLEL_MIN_BYTES - 1) == 0    # a few changed files: no start-up cost
    assert staging.auto_workers(staging.PARALLEL_MIN_BYTES) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    assert staging.auto_workers(10**9) == 4
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert staging.auto_workers(10**9) == 0


def test_workers_from_the_environment_are_checked(monkeypatch) -> None:
    monkeypatch.setenv("GRAPHRAG_INDEX_WORKERS", "3")
    assert IndexSettings().workers == 3
    monkeypatch.setenv("GRAPHRAG_INDEX_WORKERS", "")
    assert IndexSettings().workers is None
    for bad in ("-1", "two"):
        monkeypatch.setenv("GRAPHRAG_INDEX_WORKERS", bad)
        with pytest.raises(ConfigError, match="GRAPHRAG_INDEX_WORKERS"):
            IndexSettings()


def test_index_workers_option_is_used_and_reported(graph: Graph, git_repo, repos) -> None:
    _write_mixed(git_repo)
    name = repos("test-cliw")
    res = CliRunner().invoke(main, ["index", str(git_repo.root), "--name", name, "--no-embed", "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert "files parsed by 2 worker processes" in res.output
    res = CliRunner().invoke(main, ["index", str(git_repo.root), "--name", name, "--no-embed", "--workers", "-1"])
    assert res.exit_code == 2 and "--workers" in res.output
