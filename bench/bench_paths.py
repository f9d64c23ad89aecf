"""Path and impact query benchmark: latency of ``find_paths`` / ``analyze_impact`` on an indexed corpus, as
percentiles and as ratios to a baseline query measured in the same process.

    .venv/bin/python bench/bench_paths.py                      # combo100k (~112k code lines), 200 queries each
    .venv/bin/python bench/bench_paths.py --corpus flask --queries 50

The corpus (bench/.corpus/<name>, see bench/corpus.py) is indexed under ``bench-paths-<name>`` first (a no-op
for files already indexed; edges are re-resolved with the current resolver). Queries are sampled with a fixed
seed from the repository's CALLS edges (cypher/calls_of_repo.cypher):

- ``path_found``: a source symbol and a target 1-6 calls away on a random walk (a path exists);
- ``path_none``: random symbol pairs, mostly unconnected: the search fails and the frontier is computed;
- ``impact``: random called symbols, ``depth=3`` (the tests walk continues to depth 8).

Each query is timed end to end through the library (every Cypher statement it runs, through the driver);
per-statement times come from the project's tracer. The baseline is ``repo_get`` (one index seek, the cheapest
round trip the library makes), run ``--baseline-runs`` times interleaved with the queries; ratios are query
percentile / baseline median. Target: p95 of ``path_found`` and ``path_none`` <= 200 ms on combo100k.
Results go to bench/results/paths-<date>.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
sys.path.insert(0, str(ROOT))

from graphrag_code.db import Graph, TraceEvent  # noqa: E402
from graphrag_code.impact import analyze_impact  # noqa: E402
from graphrag_code.indexer import index_repository  # noqa: E402
from graphrag_code.paths import find_paths, repository  # noqa: E402

TARGET_P95_MS = 200.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def summary(ms: list[float], base: float) -> dict:
    return {"n": len(ms), "p50_ms": round(pct(ms, 0.5), 2), "p95_ms": round(pct(ms, 0.95), 2),
            "max_ms": round(max(ms), 2) if ms else None, "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
            "p50_ratio": round(pct(ms, 0.5) / base, 1), "p95_ratio": round(pct(ms, 0.95) / base, 1)}


def ensure_indexed(graph: Graph, corpus: str) -> str:
    import subprocess

    root = BENCH_DIR / ".corpus" / corpus
    if not root.is_dir():
        raise SystemExit(f"{root} is missing: run `.venv/bin/python bench/corpus.py --only {corpus}` first")
    name = f"bench-paths-{corpus}"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    # always run: a no-op for unchanged files, but edges are re-resolved with the current resolver
    print(f"[bench] indexing {root} ({head[:12]}) as {name} ...", file=sys.stderr)
    s = index_repository(graph, root, name=name)
    print(f"[bench] {s.files_indexed} files ({s.files_parsed} parsed), {s.symbols} symbols, "
          f"CALLS {s.edges.get('CALLS', 0)} in {s.seconds:.1f}s", file=sys.stderr)
    return name


def sample(graph: Graph, repo: str, n: int, seed: int) -> dict[str, list]:
    rng = random.Random(seed)
    out_edges: dict[str, list[str]] = defaultdict(list)
    called: set[str] = set()
    for r in graph.run("calls_of_repo", repo=repo):
        if "#" in r["src"] and "#" in r["dst"]:
            out_edges[r["src"]].append(r["dst"])
        called.add(r["dst"])
    sources = sorted(out_edges)
    found = []
    while len(found) < n:
        a = rng.choice(sources)
        cur, steps = a, rng.randint(1, 6)
        for _ in range(steps):
            nxt = out_edges.get(cur)
            if not nxt:
                break
            cur = rng.choice(sorted(nxt))
        if cur != a:
            found.append((a, cur))
    symbols = sorted(set(sources) | {c for c in called if "#" in c})
    none = [(rng.choice(symbols), rng.choice(symbols)) for _ in range(n)]
    # pairs where one is the other's class (or the same) have nothing to connect: find_paths refuses them
    none = [(a, b) for a, b in none if not (a.startswith(b + ".") or b.startswith(a + ".") or a == b)]
    impact = rng.sample(sorted(c for c in called if "#" in c), min(n, len(called)))
    return {"path_found": found, "path_none": none, "impact": impact}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default="combo100k")
    ap.add_argument("--queries", type=int, default=200, help="queries per kind")
    ap.add_argument("--warmup", type=int, default=20, help="untimed queries per kind first")
    ap.add_argument("--baseline-runs", type=int, default=400)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--max-hops", type=int, default=8)
    args = ap.parse_args()

    stmt_ms: dict[str, list[float]] = defaultdict(list)

    def trace(e: TraceEvent) -> None:
        stmt_ms[e.name].append(e.seconds * 1000)

    with Graph() as graph:
        repo = ensure_indexed(graph, args.corpus)
        info = repository(graph, repo)
        samples = sample(graph, repo, args.queries + args.warmup, args.seed)
        graph.tracers.append(trace)

        def run(kind: str, q) -> dict:
            if kind == "impact":
                r = analyze_impact(graph, repo, q, depth=3)
                return {"callers": len(r.callers), "verdict": r.completeness.verdict}
            r = find_paths(graph, repo, q[0], q[1], max_hops=args.max_hops, k=args.k)
            return {"found": r.found, "paths": len(r.paths)}

        baseline: list[float] = []

        def base_once() -> None:
            t = time.perf_counter()
            graph.run("repo_get", repo=repo)
            baseline.append((time.perf_counter() - t) * 1000)

        for kind, qs in samples.items():                # warm the plan cache and the page cache
            for q in qs[:args.warmup]:
                run(kind, q)
        for _ in range(50):
            base_once()
        baseline.clear()
        stmt_ms.clear()
        timings: dict[str, list[float]] = defaultdict(list)
        outcomes: dict[str, list[dict]] = defaultdict(list)
        per_base = max(1, args.baseline_runs // (3 * args.queries))
        for i in range(args.queries):
            for kind, qs in samples.items():
                q = qs[args.warmup + i] if args.warmup + i < len(qs) else None
                if q is None:
                    continue
                t = time.perf_counter()
                outcomes[kind].append(run(kind, q))
                timings[kind].append((time.perf_counter() - t) * 1000)
                for _ in range(per_base):
                    base_once()
        base = statistics.median(baseline)
        found_ok = [o["found"] for o in outcomes["path_found"]]
        result = {
            "corpus": args.corpus, "repo": repo, "commit": info.get("commit"), "symbols": info.get("symbols"),
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "params": vars(args),
            "baseline": {"statement": "repo_get", "n": len(baseline), "p50_ms": round(base, 3),
                         "p95_ms": round(pct(baseline, 0.95), 3)},
            "queries": {k: summary(v, base) for k, v in timings.items()},
            "statements": {k: summary(v, base) for k, v in sorted(stmt_ms.items()) if k != "repo_get"},
            "outcomes": {
                "path_found_found": sum(found_ok), "path_found_n": len(found_ok),
                "path_none_found": sum(o["found"] for o in outcomes["path_none"]),
                "impact_mean_callers": round(statistics.fmean(o["callers"] for o in outcomes["impact"]), 1),
                "impact_lower_bound": sum(o["verdict"] == "lower_bound" for o in outcomes["impact"]),
            },
        }
        p95s = [result["queries"][k]["p95_ms"] for k in ("path_found", "path_none")]
        result["target"] = {"p95_ms": TARGET_P95_MS, "met": all(p <= TARGET_P95_MS for p in p95s)}
    out_dir = BENCH_DIR / "results"
    out_dir.mkdir(exist_ok=True)
    out = out_dir / f"paths-{datetime.now(timezone.utc):%Y%m%d}-{args.corpus}.json"
    out.write_text(json.dumps(result, indent=2))
    print(f"baseline repo_get: p50 {base:.2f} ms (n={len(baseline)})")
    print(f"{'query':28s} {'n':>4s} {'p50 ms':>9s} {'p95 ms':>9s} {'max ms':>9s} {'p50 x':>7s} {'p95 x':>7s}")
    for k, v in list(result["queries"].items()) + [(f"  {k}", v) for k, v in result["statements"].items()]:
        print(f"{k:28s} {v['n']:4d} {v['p50_ms']:9.1f} {v['p95_ms']:9.1f} {v['max_ms']:9.1f} "
              f"{v['p50_ratio']:7.1f} {v['p95_ratio']:7.1f}")
    print(f"outcomes: {json.dumps(result['outcomes'])}")
    print(f"target p95 <= {TARGET_P95_MS:.0f} ms for path queries: {'met' if result['target']['met'] else 'NOT met'}")
    print(f"results: {out.relative_to(ROOT)}")


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
