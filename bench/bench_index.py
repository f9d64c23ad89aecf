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
    parsed and written); best of ``--index-runs`` (default 1).
(c) a no-op re-index of the same commit; best of ``--noop-runs`` (default 3).
(d) combo100k only: a new commit that appends a function to 3 Python files, re-indexed and timed, then the
    original commit is restored (git reset --hard) and re-indexed (timed as ``restore``).

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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
RESULTS_DIR = BENCH_DIR / "results"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH_DIR))

import psutil  # noqa: E402  (a test extra of the project, installed in the venv)

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
from graphrag_code import discovery  # noqa: E402
from graphrag_code.config import IndexSettings  # noqa: E402
from graphrag_code.db import Graph, TraceEvent  # noqa: E402
from graphrag_code.extract import extract, get_parser  # noqa: E402
from graphrag_code.languages import LANGUAGES  # noqa: E402

BASELINE_FORMATS = ("yaml", "json")   # text formats the indexer also runs tree-sitter on (OpenAPI detection)
CHANGE_FILES = (                      # combo100k files that get a function appended for the 3-file change
    "flask/src/flask/app.py",
    "werkzeug/src/werkzeug/routing/map.py",
    "click/src/click/core.py",
)
TARGET_RATIO = 3.0
TARGET_CHANGE_SECONDS = 3.0


# -- measuring ----------------------------------------------------------------------------------------------------
class RssSampler:
    """Peak RSS of this process (and of the Neo4j server, when local) while a block runs, sampled every 10 ms."""

    def __init__(self, neo4j_pid: int | None) -> None:
        self.me = psutil.Process()
        self.neo = None
        if neo4j_pid:
            try:
                self.neo = psutil.Process(neo4j_pid)
            except psutil.Error:
                self.neo = None

    @contextmanager
    def measure(self, out: dict, key: str):
        stop = threading.Event()
        peak = {"py": self.me.memory_info().rss, "neo4j": 0}

        def loop() -> None:
            while not stop.wait(0.01):
                peak["py"] = max(peak["py"], self.me.memory_info().rss)
                if self.neo is not None:
                    try:
                        peak["neo4j"] = max(peak["neo4j"], self.neo.memory_info().rss)
                    except psutil.Error:
                        pass

        t = threading.Thread(target=loop, daemon=True)
        t.start()
        try:
            yield
        finally:
            stop.set()
            t.join()
            peak["py"] = max(peak["py"], self.me.memory_info().rss)
            out[f"{key}_peak_rss_mb"] = round(peak["py"] / 2**20, 1)
            if self.neo is not None:
                out[f"{key}_neo4j_peak_rss_mb"] = round(peak["neo4j"] / 2**20, 1)


@dataclass
class DbTimes:
    """A Graph tracer: seconds and calls per named Cypher statement (the time spent waiting on Neo4j)."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def __call__(self, event: TraceEvent) -> None:
        self.seconds[event.name] += event.seconds
        self.calls[event.name] += 1

    def reset(self) -> None:
        self.seconds.clear()
        self.calls.clear()

    def snapshot(self) -> dict:
        total = sum(self.seconds.values())
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


def parse_baseline(inp: ParseInput, runs: int) -> tuple[float, list[float]]:
    parsers = {lang: _parser(lang) for _, lang, _ in inp.files}   # created outside the timing
    times = []
    for _ in range(runs):
        gc.collect()
        t0 = time.perf_counter()
        for _path, lang, data in inp.files:
            parsers[lang].parse(data)
        times.append(time.perf_counter() - t0)
    return min(times), times


def run_index(graph: Graph, root: Path, repo: str) -> tuple[float, "indexer.IndexSummary"]:
    gc.collect()
    t0 = time.perf_counter()
    summary = indexer.index_repository(graph, root, name=repo, settings=IndexSettings())
    return time.perf_counter() - t0, summary


def three_file_change(graph: Graph, root: Path, repo: str, db: DbTimes, out: dict) -> None:
    """Append a function to 3 Python files in a new commit, re-index, then restore the original commit."""
    original = _git(root, "rev-parse", "HEAD")
    env = {**corpora.GIT_IDENTITY, "GIT_AUTHOR_DATE": "2024-01-02T00:00:00+0000",
           "GIT_COMMITTER_DATE": "2024-01-02T00:00:00+0000"}
    try:
        for i, rel in enumerate(CHANGE_FILES, 1):
            path = root / rel
            text = path.read_text(encoding="utf-8")
            path.write_text(text.rstrip("\n") + f"\n\n\ndef _bench_added_{i}(value):\n"
                            f"    \"\"\"Added by bench/bench_index.py for the 3-file change timing.\"\"\"\n"
                            f"    return repr(value).strip()\n", encoding="utf-8")
        _git(root, "add", *CHANGE_FILES)
        _git(root, "commit", "-q", "--no-verify", "-m", "bench: append a function to 3 files", env=env)
        db.reset()
        secs, s = run_index(graph, root, repo)
        out["change3_seconds"] = round(secs, 3)
        out["change3_files_parsed"] = s.files_parsed
        out["change3_edges_created"], out["change3_edges_deleted"] = s.edges_created, s.edges_deleted
        out["change3_stage_seconds"] = s.stage_seconds
        out["change3_db"] = db.snapshot()
    finally:
        _git(root, "reset", "-q", "--hard", original)
    db.reset()
    secs, s = run_index(graph, root, repo)
    out["restore_seconds"] = round(secs, 3)
    out["restore_files_parsed"] = s.files_parsed


def bench_corpus(graph: Graph, db: DbTimes, rss: RssSampler, name: str, args: argparse.Namespace) -> dict:
    root = corpora.CORPUS_DIR / name
    repo = f"bench-{name}"
    # a run killed during the 3-file change leaves its commit at HEAD: go back to the corpus's only real commit
    first = _git(root, "rev-list", "--max-parents=0", "HEAD")
    if _git(root, "rev-parse", "HEAD") != first or _git(root, "status", "--porcelain"):
        _git(root, "reset", "-q", "--hard", first)
    out: dict = {"corpus": name, "repo": repo, "commit": first,
                 "sources": [s.spec for s in corpora.CORPORA[name].sources]}
    print(f"[bench] {name}: reading ...", file=sys.stderr, flush=True)

    inp = read_inputs(root)
    out["files"] = len(inp.files)
    out["lines"] = sum(corpora.count_lines(d) for _, _, d in inp.files)
    out["bytes"] = sum(len(d) for _, _, d in inp.files)
    out["text_files"] = inp.text_files
    out["skipped_by_content"] = inp.skipped_by_content
    out["read_seconds"] = round(inp.read_seconds, 3)
    by_lang: dict[str, int] = defaultdict(int)
    for _, lang, _ in inp.files:
        by_lang[lang] += 1
    out["files_by_language"] = dict(sorted(by_lang.items()))

    with rss.measure(out, "parse"):
        best, all_runs = parse_baseline(inp, args.parse_runs)
    out["parse_seconds"] = round(best, 4)
    out["parse_runs"] = [round(t, 4) for t in all_runs]
    del inp
    gc.collect()

    print(f"[bench] {name}: full index ...", file=sys.stderr, flush=True)
    full_runs, best_summary, best_db = [], None, None
    with rss.measure(out, "index"):
        for _ in range(args.index_runs):
            indexer.delete_repository(graph, repo)
            db.reset()
            secs, summary = run_index(graph, root, repo)
            full_runs.append(secs)
            if secs <= min(full_runs):
                best_summary, best_db = summary, db.snapshot()
    out["index_seconds"] = round(min(full_runs), 3)
    out["index_runs"] = [round(t, 3) for t in full_runs]
    s = best_summary
    out["ratio"] = round(out["index_seconds"] / out["parse_seconds"], 1) if out["parse_seconds"] else None
    out["files_per_s"] = round(s.files_parsed / out["index_seconds"], 1)
    out["lines_per_s"] = round(out["lines"] / out["index_seconds"])
    out["stage_seconds"] = s.stage_seconds
    out["db"] = best_db
    out["indexed"] = {"files_indexed": s.files_indexed, "files_parsed": s.files_parsed, "symbols": s.symbols,
                      "chunks": s.chunks, "edges": s.edges, "unresolved_calls": s.unresolved_calls,
                      "warnings": len(s.warnings), "skipped": {k: len(v) for k, v in s.skipped.items()}}

    print(f"[bench] {name}: no-op re-index ...", file=sys.stderr, flush=True)
    noop_runs = []
    with rss.measure(out, "noop"):
        for _ in range(args.noop_runs):
            db.reset()
            secs, ns = run_index(graph, root, repo)
            noop_runs.append(secs)
            if ns.files_parsed:
                out.setdefault("noop_warning", f"no-op re-index parsed {ns.files_parsed} files")
            if secs <= min(noop_runs):
                out["noop_stage_seconds"], out["noop_db"] = ns.stage_seconds, db.snapshot()
    out["noop_seconds"] = round(min(noop_runs), 3)
    out["noop_runs"] = [round(t, 3) for t in noop_runs]

    if name == "combo100k":
        print(f"[bench] {name}: 3-file change ...", file=sys.stderr, flush=True)
        three_file_change(graph, root, repo, db, out)

    if args.profile and name in args.profile:
        out["profile"] = profile_index(graph, root, repo, args)
    if not args.keep:
        indexer.delete_repository(graph, repo)
    out["ru_maxrss_mb_so_far"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


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
    ("files/s", "files_per_s", "{:.0f}"),
    ("lines/s", "lines_per_s", "{:,d}"),
    ("  prepare s", ("stage_seconds", "prepare"), "{:.2f}"),
    ("  parse_and_stage s", ("stage_seconds", "parse_and_stage"), "{:.2f}"),
    ("  resolve s", ("stage_seconds", "resolve"), "{:.2f}"),
    ("  swap s", ("stage_seconds", "swap"), "{:.2f}"),
    ("  (Neo4j statements s)", ("db", "total"), "{:.2f}"),
    ("peak RSS MB (index)", "index_peak_rss_mb", "{:.0f}"),
    ("Neo4j peak RSS MB", "index_neo4j_peak_rss_mb", "{:.0f}"),
    ("no-op re-index s", "noop_seconds", "{:.2f}"),
    ("3-file change s", "change3_seconds", "{:.2f}"),
    ("symbols", ("indexed", "symbols"), "{:d}"),
    ("chunks", ("indexed", "chunks"), "{:d}"),
]


def _get(result: dict, key):
    if isinstance(key, tuple):
        for k in key:
            result = result.get(k, {}) if isinstance(result, dict) else {}
        return result if result != {} else None
    return result.get(key)


def table(results: list[dict]) -> str:
    width = max(10, *(len(r["corpus"]) + 1 for r in results))
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
    for r in results:
        if r.get("ratio") is not None:
            ok = "OK " if r["ratio"] <= TARGET_RATIO else "MISS"
            out.append(f"{ok} {r['corpus']}: index/parse {r['ratio']:.1f}x (target <= {TARGET_RATIO:.0f}x)")
        if "change3_seconds" in r:
            ok = "OK " if r["change3_seconds"] < TARGET_CHANGE_SECONDS else "MISS"
            out.append(f"{ok} {r['corpus']}: 3-file change {r['change3_seconds']:.2f} s "
                       f"(target < {TARGET_CHANGE_SECONDS:.0f} s)")
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
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "mem_gb": round(psutil.virtual_memory().total / 2**30, 1), "tree_sitter": tree_sitter.__version__
            if hasattr(tree_sitter, "__version__") else "?", "neo4j_driver": neo4j.__version__,
            "neo4j_server": server, "graphrag_code_rev": git_rev, "graphrag_code_dirty": dirty,
            "secret_scanner": SECRETS_IMPL}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help=f"only {', '.join(corpora.QUICK)} (the CI slice)")
    ap.add_argument("--only", help="comma-separated corpus names")
    ap.add_argument("--parse-runs", type=int, default=3)
    ap.add_argument("--index-runs", type=int, default=1)
    ap.add_argument("--noop-runs", type=int, default=3)
    ap.add_argument("--profile", default="", help="comma-separated corpora to cProfile one extra full index of")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--keep", action="store_true", help="keep the bench-* repositories in Neo4j afterwards")
    ap.add_argument("--out", help="results file (default bench/results/index-<date>[-quick].json)")
    args = ap.parse_args(argv)
    args.profile = [p for p in args.profile.split(",") if p]
    names = args.only.split(",") if args.only else list(corpora.QUICK if args.quick else corpora.CORPORA)
    unknown = [n for n in names + args.profile if n not in corpora.CORPORA]
    if unknown:
        ap.error(f"unknown corpus {unknown}; known: {', '.join(corpora.CORPORA)}")

    started = time.perf_counter()
    corpora.ensure(sorted(set(names) | {"express"}))
    env = environment()
    graph = Graph()
    db = DbTimes()
    graph.tracers.append(db)
    graph.verify()
    rss = RssSampler(env["neo4j_server"].get("pid"))
    # warm up once (driver connection pool, schema, parser and query compilation) so the first corpus pays no
    # one-off costs the others do not
    indexer.index_repository(graph, corpora.CORPUS_DIR / "express", name="bench-warmup", settings=IndexSettings())
    indexer.delete_repository(graph, "bench-warmup")
    for lang in ("python", "javascript", "go"):
        extract(b"x = 1\n", lang)   # compiles the tags query once
    results = []
    try:
        for name in names:
            results.append(bench_corpus(graph, db, rss, name, args))
    finally:
        graph.close()
    env["ru_maxrss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    env["bench_seconds"] = round(time.perf_counter() - started, 1)

    print(table(results))
    print()
    for v in verdicts(results):
        print(v)
    print(f"secret scanner: {SECRETS_IMPL}; total bench time {env['bench_seconds']} s; "
          f"process ru_maxrss {env['ru_maxrss_mb']} MB")
    for r in results:
        if "profile" in r:
            print(f"\nprofile of {r['corpus']} full index (top by cumulative; full list in "
                  f"{r['profile']['pstats']}):")
            for row in r["profile"]["top_cumulative"]:
                print(f"  {row['cumtime']:8.3f} cum {row['tottime']:8.3f} own {row['calls']:>9}  {row['function']}")

    now = datetime.now(timezone.utc)
    out = Path(args.out) if args.out else RESULTS_DIR / f"index-{now:%Y-%m-%d}{'-quick' if args.quick else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"date": now.isoformat(timespec="seconds"), "argv": sys.argv[1:],
                               "environment": env, "targets": {"ratio": TARGET_RATIO,
                                                               "change3_seconds": TARGET_CHANGE_SECONDS},
                               "results": results}, indent=1) + "\n")
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
