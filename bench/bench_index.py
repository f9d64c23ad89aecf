"""Indexing benchmark: full index, no-op re-index and a 3-file change, as ratios to a tree-sitter parse baseline
measured in the same process.

    .venv/bin/python bench/bench_index.py            # all corpora (fetches them first, see bench/corpus.py)
    .venv/bin/python bench/bench_index.py --quick    # flask + express only: the CI slice
    .venv/bin/python bench/bench_index.py --only cobra,combo100k --index-runs 2
    .venv/bin/python bench/bench_index.py --quick --profile flask   # + cProfile of flask's full index

Per corpus, in one process:

(a) baseline: the bytes of exactly the files the indexer parses are read first (discovery.snapshot +
    SourceReader, minus the files it would skip by content), then only ``get_parser(lang).parse(data)`` is
    timed over them; best of ``--parse-runs`` (default 3).
(b) full index into Neo4j under ``bench-<corpus>`` (deleted first with delete_repository, so every file is
    parsed and written); best of ``--index-runs`` (default 3).
(c) a no-op re-index of the same commit; best of ``--noop-runs`` (default 3).
(d) combo100k and django only: a new commit that appends a function to 3 Python files, re-indexed and timed,
    alternately with its calls resolved as the indexer chooses (the call-site pass shared among processes:
    resolve_parallel) and in one process (``--workers 0``), each from the original commit's graph; best of
    ``--change-runs`` (default 3) each, and their ratio; then the same change as a user runs it,
    ``graphrag-code index --no-embed`` in a new process (interpreter start and imports included), best of as
    many runs. Then the original commit is restored (git reset --hard) and re-indexed (timed as ``restore``).

``django`` (Django 5.1.4's sdist, ~470k lines of Python) runs only when named (``--only django``): its swap is
too large for one transaction of the local server and runs in several (docs/design.md).

Needs the local Neo4j (bolt://127.0.0.1:7687, see graphrag_code.neo4j_local); results go to
``bench/results/index-<date>[-quick].json``. The indexer computes no embeddings, so there is nothing to switch off.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import resource
import subprocess
import sys
import threading
import time
import types
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

import psutil  # noqa: E402  (a test extra of the project, installed in the venv)

RUST_EXT_DIR = BENCH_DIR / ".corpus" / "neo4j-rust-ext"
RUST_EXT_SPEC = "neo4j-rust-ext==6.4.1.0"   # must match the installed neo4j driver (6.4.1)


def _use_neo4j_rust_ext() -> str:
    """Experiment (--neo4j-rust-ext): let the driver use the Rust PackStream codec from ``neo4j-rust-ext``,
    installed with pip into bench/.corpus/ (not into the project's venv), by loading ``neo4j._rust`` from
    there. Must run before the driver is imported."""
    import glob
    import importlib.abc
    import importlib.util

    if not glob.glob(str(RUST_EXT_DIR / "neo4j" / "_rust.*")):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
                        "--target", str(RUST_EXT_DIR), RUST_EXT_SPEC], check=True)
    so = glob.glob(str(RUST_EXT_DIR / "neo4j" / "_rust.*"))[0]

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            return importlib.util.spec_from_file_location(fullname, so) if fullname == "neo4j._rust" else None

    sys.meta_path.insert(0, _Finder())
    return RUST_EXT_SPEC


def _installed_codec() -> str:
    """Which PackStream codec the driver will use: the project depends on neo4j-rust-ext, so normally Rust."""
    import importlib.util

    found = importlib.util.find_spec("neo4j._rust") is not None
    return f"{RUST_EXT_SPEC} (installed with the project)" if found else "pure Python (driver default)"


NEO4J_CODEC = _use_neo4j_rust_ext() if "--neo4j-rust-ext" in sys.argv else _installed_codec()

import corpus as corpora  # noqa: E402  (bench/corpus.py)


def _import_indexer() -> tuple[types.ModuleType, str]:
    """The indexer, and what secret scanner it runs. When graphrag_code/secrets.py is missing (it is imported by
    indexer.py but was not in the tree when this bench was written) a pass-through stub stands in and the
    results say so: the numbers then do not include the secret scanner's cost."""
    try:
        from graphrag_code import indexer
        return indexer, "graphrag_code.secrets"
    except ImportError as exc:
        if "secrets" not in str(exc):
            raise
    stub = types.ModuleType("graphrag_code.secrets")
    stub.redact_bytes = lambda data: (data, [])  # type: ignore[attr-defined]
    sys.modules["graphrag_code.secrets"] = stub
    import graphrag_code
    graphrag_code.secrets = stub  # type: ignore[attr-defined]
    from graphrag_code import indexer
    print("[bench] WARNING: graphrag_code/secrets.py is missing; a pass-through stub stands in "
          "(secret scanning is not measured)", file=sys.stderr)
    return indexer, "STUB (graphrag_code/secrets.py missing: pass-through, not measured)"


indexer, SECRETS_IMPL = _import_indexer()
from graphrag_code import discovery, staging  # noqa: E402
from graphrag_code.config import IndexSettings  # noqa: E402
from graphrag_code.db import Graph, TraceEvent  # noqa: E402
from graphrag_code.extract import extract, get_parser  # noqa: E402
from graphrag_code.languages import LANGUAGES  # noqa: E402

BASELINE_FORMATS = ("yaml", "json")   # text formats the indexer also runs tree-sitter on (OpenAPI detection)
CHANGE_FILES = {                      # files that get a function appended for the 3-file change
    "combo100k": ("flask/src/flask/app.py", "werkzeug/src/werkzeug/routing/map.py", "click/src/click/core.py"),
    "django": ("django/db/models/query.py", "django/http/request.py", "django/urls/resolvers.py"),
}
TARGET_RATIO = 3.0
TARGET_CHANGE_SECONDS = 3.0


# -- measuring ----------------------------------------------------------------------------------------------------
class Sampler:
    """Peak RSS and CPU seconds of this process and of the Neo4j server (when local) while a block runs.

    RSS is sampled every 10 ms; CPU is the user+system time difference over the block. Wall time minus this
    process's CPU is mostly time spent waiting on Neo4j (and on git)."""

    def __init__(self, neo4j_pid: int | None) -> None:
        self.me = psutil.Process()
        self.neo = None
        if neo4j_pid:
            try:
                self.neo = psutil.Process(neo4j_pid)
            except psutil.Error:
                self.neo = None

    @staticmethod
    def _cpu(proc) -> float:
        try:
            t = proc.cpu_times()
            return t.user + t.system + getattr(t, "children_user", 0) + getattr(t, "children_system", 0)
        except psutil.Error:
            return 0.0

    def _rss(self, proc) -> int:
        try:
            return proc.memory_info().rss
        except psutil.Error:
            return 0

    def _children_uss(self) -> int:
        """The memory the indexer's worker processes (and git) hold of their own: forked workers share the
        parent's pages until written, so their RSS counts the parent's memory again (891 MB of RSS against
        136 MB of USS for Django's two workers)."""
        total = 0
        for c in self.me.children(recursive=True):
            try:
                total += c.memory_full_info().uss
            except psutil.Error:
                pass
        return total

    @contextmanager
    def measure(self):
        """Yields a dict filled in on exit: py_peak_rss_mb, py_cpu_s (incl. git children), neo4j_*."""
        stop, out = threading.Event(), {}
        peak = {"py": self._rss(self.me), "neo4j": self._rss(self.neo) if self.neo else 0, "children": 0}
        cpu0 = (self._cpu(self.me), self._cpu(self.neo) if self.neo else 0.0, self._busy())

        def loop() -> None:
            tick = 0
            while not stop.wait(0.01):
                peak["py"] = max(peak["py"], self._rss(self.me))
                tick += 1
                if tick % 10 == 0:   # the indexer's worker processes (and git): reads of /proc, so less often
                    peak["children"] = max(peak["children"], self._children_uss())
                if self.neo is not None:
                    peak["neo4j"] = max(peak["neo4j"], self._rss(self.neo))

        t = threading.Thread(target=loop, daemon=True)
        t.start()
        try:
            yield out
        finally:
            stop.set()
            t.join()
            peak["py"] = max(peak["py"], self._rss(self.me))
            out["py_peak_rss_mb"] = round(peak["py"] / 2**20, 1)
            out["children_peak_uss_mb"] = round(peak["children"] / 2**20, 1)
            out["py_cpu_s"] = round(self._cpu(self.me) - cpu0[0], 3)
            if self.neo is not None:
                out["neo4j_peak_rss_mb"] = round(peak["neo4j"] / 2**20, 1)
                out["neo4j_cpu_s"] = round(self._cpu(self.neo) - cpu0[1], 3)
            # CPU that other processes on this machine burnt meanwhile: the benchmark shares its cores
            out["others_cpu_s"] = round(max(0.0, self._busy() - cpu0[2] - out["py_cpu_s"]
                                            - out.get("neo4j_cpu_s", 0.0)), 3)

    budget = 120.0   # seconds of waiting for the whole bench run; then measure whatever the machine does

    def wait_quiet(self, timeout: float, threshold: float = 0.25) -> dict:
        """Wait (up to ``timeout`` s) until other processes, Neo4j included (it may still be cleaning up after a
        delete), use less than ``threshold`` cores over 0.5 s: the machine is shared, and a parse baseline or
        index run taken while something else computes is noise."""
        t0 = time.perf_counter()
        load = 0.0
        while True:
            mine0 = self._cpu(self.me)
            busy0 = self._busy()
            time.sleep(0.5)
            mine = self._cpu(self.me) - mine0
            load = max(0.0, self._busy() - busy0 - mine) / 0.5
            waited = time.perf_counter() - t0
            if load < threshold or waited >= min(timeout, self.budget):
                self.budget = max(0.0, self.budget - waited)
                return {"waited_s": round(waited, 1), "others_load_cores": round(load, 2),
                        "quiet": load < threshold}

    @staticmethod
    def _busy() -> float:
        t = psutil.cpu_times()
        return t.user + t.nice + t.system + getattr(t, "irq", 0) + getattr(t, "softirq", 0)


class TimedGraph(Graph):
    """A Graph that also times every call as the indexer sees it: ``Graph.run`` including the driver's
    transaction commit (the project's tracer stops before the commit), and the one explicit ``transaction``
    (the swap) from begin to commit, under the name ``swap_transaction``. Statement times inside the swap
    transaction come from the project's tracer and are listed with an ``in_tx:`` prefix."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._in_tx = False
        self.tracers.append(self._trace)

    def _trace(self, event: TraceEvent) -> None:
        if self._in_tx:
            self.seconds["in_tx:" + event.name] += event.seconds
            self.calls["in_tx:" + event.name] += 1

    def run(self, name: str, /, **params):
        t0 = time.perf_counter()
        try:
            return super().run(name, **params)
        finally:
            self.seconds[name] += time.perf_counter() - t0
            self.calls[name] += 1

    def run_schema(self, name: str, /, **params):
        t0 = time.perf_counter()
        try:
            return super().run_schema(name, **params)
        finally:
            self.seconds[name] += time.perf_counter() - t0
            self.calls[name] += 1

    @contextmanager
    def transaction(self):
        t0 = time.perf_counter()
        self._in_tx = True
        try:
            with super().transaction() as tx:
                yield tx
        finally:
            self._in_tx = False
            self.seconds["swap_transaction"] += time.perf_counter() - t0
            self.calls["swap_transaction"] += 1

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()

    def snapshot(self) -> dict:
        total = sum(v for k, v in self.seconds.items() if not k.startswith("in_tx:"))
        top = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        return {"total": round(total, 3),
                "by_statement": {k: {"seconds": round(v, 3), "calls": self.calls[k]} for k, v in top}}


def _git(root: Path, *args: str, env: dict | None = None) -> str:
    return subprocess.run(["git", *args], cwd=root, env={**os.environ, **(env or {})}, check=True,
                          capture_output=True, text=True).stdout.strip()


# -- the measurements ---------------------------------------------------------------------------------------------
@dataclass
class ParseInput:
    files: list[tuple[str, str, bytes]]   # (path, language, bytes) in snapshot order
    text_files: int                        # indexed but only chunked (Markdown, reST, txt, toml)
    skipped_by_content: int
    read_seconds: float


def read_inputs(root: Path) -> ParseInput:
    """The files the indexer parses with tree-sitter, read up front (as it reads them: git cat-file)."""
    t0 = time.perf_counter()
    snap = discovery.snapshot(root)
    files, text_files, skipped = [], 0, 0
    with discovery.SourceReader(snap) as reader:
        for f in snap.files:
            data = reader.read(f)
            if discovery.content_skip_reason(f.path, data) is not None:
                skipped += 1
            elif f.language in LANGUAGES or f.language in BASELINE_FORMATS:
                files.append((f.path, f.language, data))
            else:
                text_files += 1
    return ParseInput(files, text_files, skipped, time.perf_counter() - t0)


def _parser(language: str):
    if language in LANGUAGES:
        return get_parser(language)
    import tree_sitter_language_pack as ts_pack
    return ts_pack.get_parser(language)


def parse_baseline(inp: ParseInput, runs: int) -> tuple[float, list[float], float]:
    """(best wall seconds, all wall seconds, best CPU seconds of this thread) of parsing every input once."""
    parsers = {lang: _parser(lang) for _, lang, _ in inp.files}   # created outside the timing
    times, cpu = [], []
    for _ in range(runs):
        gc.collect()
        c0, t0 = time.thread_time(), time.perf_counter()
        for _path, lang, data in inp.files:
            parsers[lang].parse(data)
        times.append(time.perf_counter() - t0)
        cpu.append(time.thread_time() - c0)
    return min(times), times, min(cpu)


class _Timers:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, name: str, fn):
        def timed(*a, **kw):
            t0 = time.perf_counter()
            try:
                return fn(*a, **kw)
            finally:
                self.seconds[name] += time.perf_counter() - t0
        return timed


class _TimedParser:
    """A tree-sitter parser whose ``parse`` calls add to the breakdown's "extract: tree-sitter parse"."""

    def __init__(self, parser, timers: _Timers) -> None:
        self.parse = timers.wrap("extract: tree-sitter parse", parser.parse)


def breakdown(root: Path, repo: str) -> dict:
    """The indexer's per-file Python work without Neo4j, step by step (no profiler overhead: each step is a
    wrapped call to the indexer's own function). ``staging.stage_file`` is called as the indexer calls it (in
    this process: one core's work, whatever the workers of a real run), then the staged rows are packed with the
    driver's PackStream encoder (what ``stage_nodes`` costs this process before a byte reaches Neo4j), then
    ``resolve`` runs over all facts.

    Steps nest: extract and chunk_file are inside _extract (extract_file); search_text is inside _rows
    (file_rows); extract is split into the tree-sitter parse, the tags query and the facts ``_Builder`` makes of
    the matches (Python). ``*_own`` values subtract the nested steps."""
    from graphrag_code import extract as extract_mod
    from graphrag_code import resolve as resolve_mod
    from neo4j._codec.packstream.v1 import Packer

    t = _Timers()
    names = ("extract", "chunk_file", "search_text", "secrets", "extract_file", "file_rows")
    saved = {n: getattr(staging, n) for n in names}
    saved.update(content_skip_reason=discovery.content_skip_reason, decode=discovery.decode)
    t0 = time.perf_counter()
    snap = discovery.snapshot(root)
    t.seconds["snapshot (git ls-tree)"] = time.perf_counter() - t0
    ctx = staging.StageContext(repo, "bench", IndexSettings())
    facts: dict = {}
    rows: list[dict] = []
    saved_parser, saved_matches = extract_mod.get_parser, extract_mod._matches
    try:
        extract_mod.get_parser = lambda language: _TimedParser(saved_parser(language), t)
        extract_mod._matches = t.wrap("extract: tags query", saved_matches)
        staging.extract = t.wrap("extract", saved["extract"])
        staging.chunk_file = t.wrap("chunk_file", saved["chunk_file"])
        staging.search_text = t.wrap("search_text", saved["search_text"])
        staging.secrets = types.SimpleNamespace(redact_bytes=t.wrap("secrets.redact_bytes",
                                                                    saved["secrets"].redact_bytes))
        staging.extract_file = t.wrap("_extract", saved["extract_file"])
        staging.file_rows = t.wrap("_rows", saved["file_rows"])
        discovery.content_skip_reason = t.wrap("content_skip_reason", saved["content_skip_reason"])
        discovery.decode = t.wrap("decode", saved["decode"])
        stage_file = t.wrap("_stage_file (all per-file work)", staging.stage_file)
        with discovery.SourceReader(snap) as reader:
            read = t.wrap("read (git cat-file)", reader.read)
            for f in snap.files:
                staged = stage_file(f, read(f), ctx)
                if staged.skip is None:
                    rows.extend(staged.rows)
                    facts[f.path] = staged.facts
    finally:
        for n in names:
            setattr(staging, n, saved[n])
        discovery.content_skip_reason, discovery.decode = saved["content_skip_reason"], saved["decode"]
        extract_mod.get_parser, extract_mod._matches = saved_parser, saved_matches
    t0 = time.perf_counter()
    for start in range(0, len(rows), IndexSettings().write_batch):
        Packer(io.BytesIO()).pack({"rows": rows[start:start + IndexSettings().write_batch]})
    t.seconds["PackStream encode of staged rows (driver)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    resolve_mod.resolve(repo, facts)
    t.seconds["resolve"] = time.perf_counter() - t0
    sec = dict(t.seconds)
    whole_extract = sec.pop("extract", 0.0)
    sec["extract: facts from the matches (_Builder, Python)"] = whole_extract - sec.get(
        "extract: tree-sitter parse", 0.0) - sec.get("extract: tags query", 0.0)
    sec["_extract_own (fallbacks, bookkeeping)"] = sec.pop("_extract", 0.0) - whole_extract - sec.get("chunk_file", 0.0)
    sec["_rows_own (row dicts, sha1, facts json)"] = sec.pop("_rows", 0.0) - sec.get("search_text", 0.0)
    total_stage = sec.pop("_stage_file (all per-file work)", 0.0)
    nested = ("secrets.redact_bytes", "content_skip_reason", "decode", "extract: tree-sitter parse",
              "extract: tags query", "extract: facts from the matches (_Builder, Python)", "chunk_file",
              "search_text", "_extract_own (fallbacks, bookkeeping)", "_rows_own (row dicts, sha1, facts json)")
    sec["_stage_file other"] = total_stage - sum(sec.get(k, 0.0) for k in nested)
    total = sum(sec.values())
    return {"total_seconds": round(total, 3), "rows": len(rows),
            "steps": {k: round(v, 4) for k, v in sorted(sec.items(), key=lambda kv: -kv[1])}}


@dataclass
class Run:
    seconds: float
    summary: "indexer.IndexSummary"
    db: dict          # TimedGraph.snapshot(): seconds per statement
    res: dict         # Sampler: peak RSS, CPU seconds

    def report(self, prefix: str) -> dict:
        s = self.summary
        # the summary's stages start after discovery.snapshot and end before repo_counts/repo_finish
        unstaged = self.seconds - sum(s.stage_seconds.values())
        return {f"{prefix}_seconds": round(self.seconds, 3), f"{prefix}_stage_seconds": s.stage_seconds,
                f"{prefix}_unstaged_seconds": round(unstaged, 3),
                f"{prefix}_files_parsed": s.files_parsed, f"{prefix}_swap_transactions": s.swap_transactions,
                f"{prefix}_db": self.db, f"{prefix}_resources": self.res}


def run_index(graph: TimedGraph, sampler: Sampler, root: Path, repo: str, workers: int | None = None) -> Run:
    """One index run; ``workers`` as IndexSettings.workers (None: the indexer's own choice)."""
    gc.collect()
    graph.reset()
    with sampler.measure() as res:
        t0 = time.perf_counter()
        summary = indexer.index_repository(graph, root, name=repo, settings=IndexSettings(workers=workers))
        secs = time.perf_counter() - t0
    return Run(secs, summary, graph.snapshot(), res)


def best_of(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.seconds)


def three_file_change(graph: TimedGraph, sampler: Sampler, root: Path, repo: str, out: dict, name: str,
                      runs: int = 3) -> None:
    """Append a function to 3 Python files in a new commit and re-index, alternately with the calls resolved as
    the indexer chooses (shared among processes) and in one process (``--workers 0``; 3 files parse in-process
    either way), ``runs`` times each, each from the original commit; best of each. Then restore the original."""
    original = _git(root, "rev-parse", "HEAD")
    env = {**corpora.GIT_IDENTITY, "GIT_AUTHOR_DATE": "2024-01-02T00:00:00+0000",
           "GIT_COMMITTER_DATE": "2024-01-02T00:00:00+0000"}
    shared: list[Run] = []
    alone: list[Run] = []
    try:
        for i, rel in enumerate(CHANGE_FILES[name], 1):
            path = root / rel
            text = path.read_text(encoding="utf-8")
            path.write_text(text.rstrip("\n") + f"\n\n\ndef _bench_added_{i}(value):\n"
                            f"    \"\"\"Added by bench/bench_index.py for the 3-file change timing.\"\"\"\n"
                            f"    return repr(value).strip()\n", encoding="utf-8")
        _git(root, "add", *CHANGE_FILES[name])
        _git(root, "commit", "-q", "--no-verify", "-m", "bench: append a function to 3 files", env=env)
        changed = _git(root, "rev-parse", "HEAD")
        for n in range(runs):
            for workers, into in ((None, shared), (0, alone)):
                if n or into is alone:           # back to the original commit's graph first
                    _git(root, "reset", "-q", "--hard", original)
                    run_index(graph, sampler, root, repo)
                    _git(root, "reset", "-q", "--hard", changed)
                sampler.wait_quiet(2.0)
                into.append(run_index(graph, sampler, root, repo, workers=workers))
        run, one = best_of(shared), best_of(alone)
        out.update(run.report("change3"))
        out["change3_runs"] = [round(r.seconds, 3) for r in shared]
        out["change3_edges_created"] = run.summary.edges_created
        out["change3_edges_deleted"] = run.summary.edges_deleted
        out["change3_resolve_processes"] = run.summary.resolve_processes
        out["change3_one_process_seconds"] = round(one.seconds, 3)
        out["change3_one_process_runs"] = [round(r.seconds, 3) for r in alone]
        out["change3_one_process_resolve_seconds"] = one.summary.stage_seconds.get("resolve")
        out["change3_one_process_ratio"] = round(one.seconds / run.seconds, 2)
        cli = []
        for _ in range(runs):
            _git(root, "reset", "-q", "--hard", original)
            run_index(graph, sampler, root, repo)
            _git(root, "reset", "-q", "--hard", changed)
            sampler.wait_quiet(2.0)
            cli.append(_cli_index_seconds(root, repo, len(CHANGE_FILES[name])))
        out["change3_cli_seconds"] = min(cli)
        out["change3_cli_runs"] = cli
    finally:
        _git(root, "reset", "-q", "--hard", original)
    run = run_index(graph, sampler, root, repo)
    out["restore_seconds"] = round(run.seconds, 3)
    out["restore_files_parsed"] = run.summary.files_parsed


def _cli_index_seconds(root: Path, repo: str, changed: int) -> float:
    """Wall seconds of ``graphrag-code index ROOT --name REPO --no-embed`` in a new process, as a user runs it:
    the interpreter's start and the command line's imports included (the in-process runs leave them out)."""
    script = Path(sys.executable).with_name("graphrag-code")
    t0 = time.perf_counter()
    # this checkout's package, as in the bench's own process (the script imports the editable install's otherwise)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([str(script), "index", str(root), "--name", repo, "--no-embed", "--json"],
                          capture_output=True, text=True, timeout=600, env=env)
    seconds = round(time.perf_counter() - t0, 3)
    if done.returncode != 0:
        raise RuntimeError(f"graphrag-code index exited {done.returncode}: {done.stderr[-2000:]}")
    parsed = json.loads(done.stdout)["files_parsed"]
    if parsed != changed:
        raise RuntimeError(f"graphrag-code index parsed {parsed} files, not the {changed} changed ones")
    return seconds


def bench_corpus(graph: TimedGraph, sampler: Sampler, name: str, args: argparse.Namespace) -> dict:
    """Every measurement of one corpus: its inputs, the Python work's breakdown, rounds of (parse baseline,
    full index), no-op re-indexes, the 3-file change and an optional profile."""
    root = corpora.CORPUS_DIR / name
    repo = f"bench-{name}"
    first = _reset_corpus(root)
    out: dict = {"corpus": name, "repo": repo, "commit": first,
                 "sources": [s.spec for s in corpora.CORPORA[name].sources]}
    print(f"[bench] {name}: reading ...", file=sys.stderr, flush=True)
    inp = read_inputs(root)
    out.update(_input_stats(inp))
    if not args.no_breakdown:
        sampler.wait_quiet(args.quiet_timeout)
        out["breakdown"] = min((breakdown(root, repo) for _ in range(args.parse_runs)),
                               key=lambda b: b["total_seconds"])
    print(f"[bench] {name}: {args.index_runs} rounds of parse baseline + full index ...", file=sys.stderr,
          flush=True)
    rounds = _index_rounds(graph, sampler, root, repo, inp, args)
    del inp
    gc.collect()
    _full_index_report(out, rounds)
    print(f"[bench] {name}: no-op re-index x{args.noop_runs} ...", file=sys.stderr, flush=True)
    noops = []
    for _ in range(args.noop_runs):
        sampler.wait_quiet(args.quiet_timeout)
        noops.append(run_index(graph, sampler, root, repo))
    noop = best_of(noops)
    out.update(noop.report("noop"))
    out["noop_runs"] = [round(r.seconds, 3) for r in noops]
    if any(r.summary.files_parsed for r in noops):
        out["noop_warning"] = f"a no-op re-index parsed {max(r.summary.files_parsed for r in noops)} files"
    if name in CHANGE_FILES:
        print(f"[bench] {name}: 3-file change ...", file=sys.stderr, flush=True)
        sampler.wait_quiet(args.quiet_timeout)
        three_file_change(graph, sampler, root, repo, out, name, args.change_runs)
    if name in args.profile:
        print(f"[bench] {name}: profiled full index ...", file=sys.stderr, flush=True)
        out["profile"] = profile_index(graph, root, repo, args)
    if not args.keep:
        indexer.delete_repository(graph, repo)
    out["ru_maxrss_mb_so_far"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def _reset_corpus(root: Path) -> str:
    """The corpus's only real commit, checked out clean (a run killed during the 3-file change leaves its
    commit at HEAD)."""
    first = _git(root, "rev-list", "--max-parents=0", "HEAD")
    if _git(root, "rev-parse", "HEAD") != first or _git(root, "status", "--porcelain"):
        _git(root, "reset", "-q", "--hard", first)
    return first


def _input_stats(inp) -> dict:
    """Files, lines, bytes and languages of what the parse baseline reads."""
    by_lang: dict[str, int] = defaultdict(int)
    for _, lang, _ in inp.files:
        by_lang[lang] += 1
    return {"files": len(inp.files), "lines": sum(corpora.count_lines(d) for _, _, d in inp.files),
            "bytes": sum(len(d) for _, _, d in inp.files), "text_files": inp.text_files,
            "skipped_by_content": inp.skipped_by_content, "read_seconds": round(inp.read_seconds, 3),
            "files_by_language": dict(sorted(by_lang.items()))}


@dataclass
class _Rounds:
    """The rounds of (parse baseline, full index): each round's row, the full index runs (and those with every
    file parsed in the indexer's process), every parse time and each round's parse CPU seconds."""
    rows: list[dict]
    runs: list
    serial_runs: list
    parse_all: list[float]
    parse_cpu: list[float]


def _index_rounds(graph: TimedGraph, sampler: Sampler, root: Path, repo: str, inp,
                  args: argparse.Namespace) -> _Rounds:
    """Rounds of (parse baseline, full index), back to back, so that both sides of the ratio see the same
    machine; each round first waits for the other processes on this shared machine to calm down."""
    r = _Rounds([], [], [], [], [])
    for _ in range(args.index_runs):
        indexer.delete_repository(graph, repo)
        quiet = sampler.wait_quiet(args.quiet_timeout)
        with sampler.measure() as pres:
            pbest, ptimes, pcpu = parse_baseline(inp, args.parse_runs)
        r.parse_all += ptimes
        r.parse_cpu.append(pcpu)
        run = run_index(graph, sampler, root, repo)
        r.runs.append(run)
        r.rows.append({"parse_s": round(pbest, 4), "index_s": round(run.seconds, 3),
                       "ratio": round(run.seconds / pbest, 1), "before": quiet,
                       "others_cpu_s_parse": pres["others_cpu_s"],
                       "others_cpu_s_index": run.res["others_cpu_s"], "workers": run.summary.workers})
        if run.summary.workers and not args.no_serial:
            # the same full index with every file parsed in the indexer's process: what the workers save
            indexer.delete_repository(graph, repo)
            sampler.wait_quiet(args.quiet_timeout)
            serial = run_index(graph, sampler, root, repo, workers=0)
            r.serial_runs.append(serial)
            r.rows[-1].update(index_serial_s=round(serial.seconds, 3), ratio_serial=round(serial.seconds / pbest, 1))
    return r


def _full_index_report(out: dict, r: _Rounds) -> None:
    """The best full index against the best parse: ratios (wall and CPU, with and without workers), throughput,
    and what it indexed."""
    best = min(r.parse_all)
    out["parse_seconds"] = round(best, 4)
    out["parse_runs"] = [round(t, 4) for t in r.parse_all]
    out["rounds"] = r.rows
    full = best_of(r.runs)
    out.update(full.report("index"))
    out["index_runs"] = [round(x.seconds, 3) for x in r.runs]
    s = full.summary
    out["ratio"] = round(full.seconds / best, 1) if best else None
    out["workers"] = full.summary.workers
    if r.serial_runs:
        serial = best_of(r.serial_runs)
        out["index_serial_seconds"] = round(serial.seconds, 3)
        out["index_serial_runs"] = [round(x.seconds, 3) for x in r.serial_runs]
        out["ratio_serial"] = round(serial.seconds / best, 1) if best else None
        out["serial_stage_seconds"] = serial.summary.stage_seconds
        out["serial_resources"] = serial.res
        out["workers_speedup"] = round(serial.seconds / full.seconds, 2)
    out["ratio_rounds_median"] = sorted(x["ratio"] for x in r.rows)[len(r.rows) // 2]
    # CPU seconds are less disturbed by other load on a shared machine than wall seconds: the work the
    # indexer costs (its own CPU, git's, and the Neo4j server's) over the CPU that parsing costs
    out["parse_cpu_seconds"] = round(min(r.parse_cpu), 4)
    work = full.res.get("py_cpu_s", 0.0) + full.res.get("neo4j_cpu_s", 0.0)
    out["cpu_ratio"] = round(work / min(r.parse_cpu), 1) if min(r.parse_cpu) > 0 else None
    out["contended"] = any(not x["before"]["quiet"] for x in r.rows) or full.res.get("others_cpu_s", 0) > \
        0.25 * full.seconds
    if "breakdown" in out:
        out["python_floor_ratio"] = round(out["breakdown"]["total_seconds"] / best, 1) if best else None
    out["files_per_s"] = round(s.files_parsed / full.seconds, 1)
    out["lines_per_s"] = round(out["lines"] / full.seconds)
    out["indexed"] = {"files_indexed": s.files_indexed, "files_parsed": s.files_parsed, "symbols": s.symbols,
                      "chunks": s.chunks, "edges": s.edges, "unresolved_calls": s.unresolved_calls,
                      "warnings": len(s.warnings), "secrets": s.secrets,
                      "skipped": {k: len(v) for k, v in s.skipped.items()}}


def profile_index(graph: Graph, root: Path, repo: str, args: argparse.Namespace) -> dict:
    """cProfile one full index; the stats file goes next to the results, a top list into them."""
    indexer.delete_repository(graph, repo)
    prof = cProfile.Profile()
    prof.enable()
    indexer.index_repository(graph, root, name=repo, settings=IndexSettings())
    prof.disable()
    RESULTS_DIR.mkdir(exist_ok=True)
    path = RESULTS_DIR / f"profile-{root.name}.pstats"
    prof.dump_stats(path)
    stats = pstats.Stats(prof)
    total = stats.total_tt   # type: ignore[attr-defined]
    rows = []
    for (filename, line, func), (cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append({"function": f"{Path(filename).name}:{line}:{func}", "calls": nc,
                     "tottime": round(tt, 3), "cumtime": round(ct, 3)})
    top_cum = sorted(rows, key=lambda r: -r["cumtime"])[:args.profile_top]
    top_tot = sorted(rows, key=lambda r: -r["tottime"])[:args.profile_top]
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(args.profile_top)
    (RESULTS_DIR / f"profile-{root.name}.txt").write_text(buf.getvalue())
    return {"total_seconds": round(total, 3), "pstats": str(path), "top_cumulative": top_cum,
            "top_tottime": top_tot}


# -- reporting ----------------------------------------------------------------------------------------------------
ROWS = [
    ("files", "files", "{:d}"),
    ("lines", "lines", "{:,d}"),
    ("bytes", "bytes", "{:,d}"),
    ("text files (chunked only)", "text_files", "{:d}"),
    ("parse s (baseline)", "parse_seconds", "{:.3f}"),
    ("index s (full)", "index_seconds", "{:.2f}"),
    ("ratio index/parse", "ratio", "{:.1f}x"),
    ("  worker processes parsing", "workers", "{:d}"),
    ("  index s, parsed in-process", "index_serial_seconds", "{:.2f}"),
    ("  ratio in-process/parse", "ratio_serial", "{:.1f}x"),
    ("  in-process/workers", "workers_speedup", "{:.2f}x"),
    ("  parse_and_stage s in-process", ("serial_stage_seconds", "parse_and_stage"), "{:.2f}"),
    ("  median of per-round ratios", "ratio_rounds_median", "{:.1f}x"),
    ("  CPU ratio (py+git+Neo4j)/parse", "cpu_ratio", "{:.1f}x"),
    ("python work w/o Neo4j s", ("breakdown", "total_seconds"), "{:.2f}"),
    ("  ratio python work/parse", "python_floor_ratio", "{:.1f}x"),
    ("files/s", "files_per_s", "{:.0f}"),
    ("lines/s", "lines_per_s", "{:,d}"),
    ("  prepare s", ("index_stage_seconds", "prepare"), "{:.2f}"),
    ("  parse_and_stage s", ("index_stage_seconds", "parse_and_stage"), "{:.2f}"),
    ("  resolve s", ("index_stage_seconds", "resolve"), "{:.2f}"),
    ("  swap s", ("index_stage_seconds", "swap"), "{:.2f}"),
    ("  swap transactions", "index_swap_transactions", "{:d}"),
    ("  unstaged s (snapshot, counts)", "index_unstaged_seconds", "{:.2f}"),
    ("  in Neo4j calls s", ("index_db", "total"), "{:.2f}"),
    ("  python CPU s", ("index_resources", "py_cpu_s"), "{:.2f}"),
    ("  Neo4j CPU s", ("index_resources", "neo4j_cpu_s"), "{:.2f}"),
    ("  other processes' CPU s", ("index_resources", "others_cpu_s"), "{:.2f}"),
    ("peak RSS MB (python)", ("index_resources", "py_peak_rss_mb"), "{:.0f}"),
    ("  + its workers' own memory (USS) MB", ("index_resources", "children_peak_uss_mb"), "{:.0f}"),
    ("peak RSS MB (Neo4j)", ("index_resources", "neo4j_peak_rss_mb"), "{:.0f}"),
    ("no-op re-index s", "noop_seconds", "{:.2f}"),
    ("3-file change s", "change3_seconds", "{:.2f}"),
    ("  its resolve s", ("change3_stage_seconds", "resolve"), "{:.2f}"),
    ("  processes resolving", "change3_resolve_processes", "{:d}"),
    ("  same change, 1 process resolving s", "change3_one_process_seconds", "{:.2f}"),
    ("  its resolve s", "change3_one_process_resolve_seconds", "{:.2f}"),
    ("  ratio 1 process / shared", "change3_one_process_ratio", "{:.2f}x"),
    ("  same change by the CLI, new process s", "change3_cli_seconds", "{:.2f}"),
    ("  restore (3 files back) s", "restore_seconds", "{:.2f}"),
    ("symbols", ("indexed", "symbols"), "{:d}"),
    ("chunks", ("indexed", "chunks"), "{:d}"),
]


def _get(result: dict, key):
    if isinstance(key, tuple):
        for k in key:
            result = result.get(k, {}) if isinstance(result, dict) else {}
        return None if result == {} else result
    return result.get(key)


def table(results: list[dict]) -> str:
    width = max(12, *(len(r["corpus"]) + 1 for r in results))   # 12: "17,621,270" and a space
    label_w = max(len(label) for label, _, _ in ROWS)
    lines = [f"{'':<{label_w}} " + "".join(f"{r['corpus']:>{width}}" for r in results)]
    for label, key, fmt in ROWS:
        cells = []
        for r in results:
            v = _get(r, key)
            cells.append(f"{(fmt.format(v) if v is not None else '-'):>{width}}")
        lines.append(f"{label:<{label_w}} " + "".join(cells))
    return "\n".join(lines)


def verdicts(results: list[dict]) -> list[str]:
    out = []
    busy = [f"{r['corpus']} {r.get('index_resources', {}).get('others_cpu_s', 0):.1f}"
            for r in results if r.get("contended")]
    if busy:
        out.append("NOTE the machine was busy (CPU s that other processes used during the best full index: "
                   + ", ".join(busy) + "): wall-clock numbers are inflated; the CPU ratio is steadier, unless "
                   "others also queried this Neo4j server")
    for r in results:
        if r.get("ratio") is not None:
            ok = "OK  " if r["ratio"] <= TARGET_RATIO else "MISS"
            out.append(f"{ok} {r['corpus']}: index/parse {r['ratio']:.1f}x (target <= {TARGET_RATIO:.0f}x)")
        if "change3_seconds" in r:
            ok = "OK  " if r["change3_seconds"] < TARGET_CHANGE_SECONDS else "MISS"
            out.append(f"{ok} {r['corpus']}: 3-file change {r['change3_seconds']:.2f} s "
                       f"(target < {TARGET_CHANGE_SECONDS:.0f} s)")
        if "change3_cli_seconds" in r:
            ok = "OK  " if r["change3_cli_seconds"] < TARGET_CHANGE_SECONDS else "MISS"
            out.append(f"{ok} {r['corpus']}: 3-file change by `graphrag-code index --no-embed` in a new process "
                       f"{r['change3_cli_seconds']:.2f} s (target < {TARGET_CHANGE_SECONDS:.0f} s)")
    return out


def environment() -> dict:
    import neo4j
    import tree_sitter
    try:
        from graphrag_code.neo4j_local import LocalNeo4j
        st = LocalNeo4j().status()
        server = {"version": st.version, "pid": st.pid, "heap": LocalNeo4j().heap,
                  "pagecache": LocalNeo4j().pagecache}
    except Exception as exc:  # a remote server, or the launcher cannot tell
        server = {"error": str(exc)}
    git_rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "status", "--porcelain", "--", "graphrag_code", "cypher"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip())
    import hashlib
    code = hashlib.sha1()
    for f in sorted([*(ROOT / "graphrag_code").rglob("*.py"), *(ROOT / "graphrag_code").rglob("*.scm"),
                     *(ROOT / "cypher").rglob("*.cypher")]):
        code.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes())
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "mem_gb": round(psutil.virtual_memory().total / 2**30, 1), "tree_sitter": tree_sitter.__version__
            if hasattr(tree_sitter, "__version__") else "?", "neo4j_driver": neo4j.__version__,
            "neo4j_server": server, "graphrag_code_rev": git_rev, "graphrag_code_dirty": dirty,
            "graphrag_code_tree_sha1": code.hexdigest()[:12],
            "secret_scanner": SECRETS_IMPL, "neo4j_codec": _codec_in_use()}


def _codec_in_use() -> str:
    from neo4j._codec.packstream import v1
    return NEO4J_CODEC if v1._rust_pack is not None else "pure Python (driver default)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"only {', '.join(corpora.QUICK)} (the CI slice)")
    ap.add_argument("--only", help="comma-separated corpus names")
    ap.add_argument("--parse-runs", type=int, default=3)
    ap.add_argument("--index-runs", type=int, default=3)
    ap.add_argument("--noop-runs", type=int, default=3)
    ap.add_argument("--change-runs", type=int, default=3,
                    help="3-file changes timed, each way (calls resolved shared and in one process); best of each")
    ap.add_argument("--quiet-timeout", type=float, default=None,
                    help="before each timed run, wait up to this many seconds for other processes to go idle "
                         "(default 10, --quick 2)")
    ap.add_argument("--quiet-budget", type=float, default=None,
                    help="total seconds of such waiting per bench run (default 120, --quick 10)")
    ap.add_argument("--profile", default="", help="comma-separated corpora to cProfile one extra full index of")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--no-breakdown", action="store_true", help="skip the per-step timing of the indexer's "
                    "Python work without Neo4j")
    ap.add_argument("--neo4j-rust-ext", action="store_true", help=f"experiment: the driver's Rust codec "
                    f"({RUST_EXT_SPEC}, pip-installed into bench/.corpus/, not the venv)")
    ap.add_argument("--keep", action="store_true", help="keep the bench-* repositories in Neo4j afterwards")
    ap.add_argument("--no-serial", action="store_true",
                    help="where the indexer parses in worker processes, skip the same full index parsed in its "
                         "own process (the comparison row)")
    ap.add_argument("--out", help="results file (default bench/results/index-<date>[-quick].json)")
    ap.add_argument("--show", metavar="RESULTS_JSON", help="print the table of an earlier results file and exit")
    args = ap.parse_args(argv)
    if args.show:
        data = json.loads(Path(args.show).read_text())
        print(table(data["results"]))
        print()
        for v in verdicts(data["results"]):
            print(v)
        env = data["environment"]
        print(f"{data['date']}  secret scanner: {env['secret_scanner']}; PackStream codec: "
              f"{env.get('neo4j_codec', '?')}; graphrag_code {env['graphrag_code_rev']}"
              f"{' (dirty)' if env['graphrag_code_dirty'] else ''}")
        return 0
    args.profile = [p for p in args.profile.split(",") if p]
    names = args.only.split(",") if args.only else list(corpora.QUICK if args.quick else corpora.DEFAULT)
    unknown = [n for n in names + args.profile if n not in corpora.CORPORA]
    if unknown:
        ap.error(f"unknown corpus {unknown}; known: {', '.join(corpora.CORPORA)}")

    started = time.perf_counter()
    corpora.ensure(sorted(set(names) | {"express"}))
    env = environment()
    graph = TimedGraph()
    graph.verify()
    sampler = Sampler(env["neo4j_server"].get("pid"))
    if args.quiet_timeout is None:
        args.quiet_timeout = 2.0 if args.quick else 10.0
    sampler.budget = args.quiet_budget if args.quiet_budget is not None else (10.0 if args.quick else 120.0)
    # warm up once (driver connection pool, schema, parser and query compilation) so the first corpus pays no
    # one-off costs the others do not
    indexer.index_repository(graph, corpora.CORPUS_DIR / "express", name="bench-warmup", settings=IndexSettings())
    indexer.delete_repository(graph, "bench-warmup")
    for lang in ("python", "javascript", "go"):
        extract(b"x = 1\n", lang)   # compiles the tags query once
    results = []
    try:
        for name in names:
            results.append(bench_corpus(graph, sampler, name, args))
    finally:
        graph.close()
    env["ru_maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    env["bench_seconds"] = round(time.perf_counter() - started, 1)

    print(table(results))
    print()
    for v in verdicts(results):
        print(v)
    print(f"secret scanner: {SECRETS_IMPL}; PackStream codec: {env['neo4j_codec']}; total bench time {env['bench_seconds']} s; "
          f"process ru_maxrss {env['ru_maxrss_mb']} MB")
    for r in results:
        if "breakdown" in r:
            b = r["breakdown"]
            print(f"\n{r['corpus']}: indexer Python work without Neo4j = {b['total_seconds']:.3f} s "
                  f"(parse baseline {r['parse_seconds']:.3f} s):")
            for k, v in b["steps"].items():
                print(f"  {v:8.3f} s  {k}")
    for r in results:
        if "profile" in r:
            print(f"\nprofile of {r['corpus']} full index (top by cumulative; full list in "
                  f"{r['profile']['pstats']}):")
            for row in r["profile"]["top_cumulative"]:
                print(f"  {row['cumtime']:8.3f} cum {row['tottime']:8.3f} own {row['calls']:>9}  {row['function']}")

    now = datetime.now(timezone.utc)
    suffix = ("-quick" if args.quick else "") + ("-rustext" if args.neo4j_rust_ext else "")
    out = Path(args.out) if args.out else RESULTS_DIR / f"index-{now:%Y-%m-%d}{suffix}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"date": now.isoformat(timespec="seconds"), "argv": sys.argv[1:],
                               "environment": env, "targets": {"ratio": TARGET_RATIO,
                                                               "change3_seconds": TARGET_CHANGE_SECONDS},
                               "results": results}, indent=1) + "\n")
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
