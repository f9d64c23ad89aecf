"""Retrieval latency on a ~100k-line index (bench/.corpus/combo100k), LLM off, query embedding and graph
expansion included, against a trivial statement (repo_get) run in the same process as the baseline.

    .venv/bin/python bench/bench_search.py [--queries 200] [--no-vectors]

Target (issue 3): p50 <= 100 ms, p95 <= 250 ms on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphrag_code.db import Graph  # noqa: E402
from graphrag_code.indexer import index_repository  # noqa: E402
from graphrag_code.search import Filters, Searcher, SearchOptions, channels_for  # noqa: E402

REPO = "bench-search-combo100k"
QUERIES = [
    "how does flask dispatch a request to the view function", "url_for", "where are cookies parsed",
    "click option prompt confirmation", "Session.send", "how are redirects followed in requests",
    "cobra command suggestions for a mistyped command", "express router next middleware",
    'File "werkzeug/routing/map.py", line 600, in match', "lexer for python tokens",
    "how does werkzeug build the WSGI environ", "BaseCommand.main", "HTTPAdapter retries",
    "where is the response content decoded", "template rendering context", "ParamType.convert",
]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--no-vectors", action="store_true")
    args = ap.parse_args()
    root = ROOT / "bench" / ".corpus" / "combo100k"
    if not root.is_dir():
        raise SystemExit("bench/.corpus/combo100k is missing: run `.venv/bin/python bench/corpus.py` first")
    embedder = None
    if not args.no_vectors:
        from graphrag_code.embeddings import EmbeddingCache, load_embedder
        from graphrag_code.vectors import fill_embeddings
        embedder = load_embedder(None)
    with Graph() as graph:
        summary = index_repository(graph, root, name=REPO)
        if embedder is not None:
            cache_dir = ROOT / ".graphrag"
            cache_dir.mkdir(exist_ok=True)
            with EmbeddingCache(cache_dir / "embeddings.sqlite") as cache:
                fill_embeddings(graph, REPO, embedder, cache)
        searcher = Searcher(graph, embedder)
        opts = SearchOptions(k=10, hops=1, channels=channels_for(embedder))
        for q in QUERIES:   # warm-up: query plans, model
            searcher.search(q, Filters(repo=REPO), opts)
        base, lat = [], []
        for i in range(args.queries):
            t = time.perf_counter()
            graph.run("repo_get", repo=REPO)
            base.append(time.perf_counter() - t)
            t = time.perf_counter()
            searcher.search(QUERIES[i % len(QUERIES)], Filters(repo=REPO), opts)
            lat.append(time.perf_counter() - t)
    result = {"repo_files": summary.files_indexed, "chunks": summary.chunks, "queries": args.queries,
              "vectors": embedder is not None,
              "search_p50_ms": round(pct(lat, 0.5), 1), "search_p95_ms": round(pct(lat, 0.95), 1),
              "search_mean_ms": round(1000 * statistics.mean(lat), 1),
              "baseline_p50_ms": round(pct(base, 0.5), 2), "baseline_p95_ms": round(pct(base, 0.95), 2)}
    result["ratio_p50"] = round(result["search_p50_ms"] / max(result["baseline_p50_ms"], 1e-6), 1)
    print(f"combo100k: {result['repo_files']} files, {result['chunks']} chunks, {args.queries} queries, "
          f"vectors {'on' if embedder else 'off'}")
    print(f"{'':18s}{'p50 ms':>9s}{'p95 ms':>9s}")
    print(f"{'repo_get (base)':18s}{result['baseline_p50_ms']:9.2f}{result['baseline_p95_ms']:9.2f}")
    print(f"{'search':18s}{result['search_p50_ms']:9.1f}{result['search_p95_ms']:9.1f}   "
          f"({result['ratio_p50']}x the baseline; target p50 <= 100, p95 <= 250: "
          f"{'met' if result['search_p50_ms'] <= 100 and result['search_p95_ms'] <= 250 else 'NOT met'})")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"search-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
