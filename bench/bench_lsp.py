"""What the language-server pass costs: a full index without it and with it, per language, side by side.

    .venv/bin/python bench/bench_lsp.py                 # flask (Python), express (JS), rxjs (TS), cobra (Go)
    .venv/bin/python bench/bench_lsp.py --only cobra    # one corpus
    .venv/bin/python bench/bench_lsp.py --quick         # the CI slice: cobra and express

The corpora are the evaluation's pinned codebases (``eval/corpus.py`` fetches them from PyPI / npm / the Go
proxy). Each is indexed twice into fresh repositories in the same process, first tree-sitter only (the
baseline), then with ``--lsp``; both without vectors. Printed per corpus: seconds of each run, their ratio,
call sites asked, seconds per 1k call sites, and how the server's answers compare with the name-based
resolution (agreed / corrected / added / placed outside the repository / variables). Accuracy is measured
elsewhere (``eval/callgraph_oracle.py --compare``, ``eval/lsp_handcheck.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CORPORA = {"flask": ("python",), "express": ("javascript",), "rxjs": ("typescript", "javascript", "tsx"),
           "cobra": ("go",)}
QUICK = ("cobra", "express")


def _eval_corpus():
    """eval/corpus.py (bench/ has a corpus.py of its own)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("eval_corpus", ROOT / "eval" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_corpus"] = module
    spec.loader.exec_module(module)
    return module


def run_one(graph, name: str, languages: tuple[str, ...]) -> dict:
    corpus = _eval_corpus()
    from graphrag_code.config import IndexSettings
    from graphrag_code.indexer import delete_repository, index_repository

    corpus.build(corpus.CODEBASES[name])
    root = corpus.CORPUS_DIR / name
    out = {"corpus": name}
    for mode, settings in (("tree-sitter", IndexSettings()), ("lsp", IndexSettings(lsp_languages=languages))):
        repo = f"bench-lsp-{name}-{mode}-{uuid.uuid4().hex[:6]}"
        try:
            started = time.perf_counter()
            summary = index_repository(graph, root, name=repo, settings=settings)
            out[mode] = {"seconds": round(time.perf_counter() - started, 2), "lsp": summary.lsp,
                         "resolution": summary.resolution, "files": summary.files_indexed}
        finally:
            delete_repository(graph, repo)
    return out


def print_table(rows: list[dict]) -> None:
    print(f"{'corpus':9s} {'files':>6s} {'tree-sitter s':>14s} {'+ lsp s':>9s} {'ratio':>7s} {'call sites':>11s} "
          f"{'s per 1k':>9s}  server answers vs names")
    for r in rows:
        base, lsp = r["tree-sitter"], r["lsp"]
        groups = (lsp["lsp"] or {}).get("groups", {})
        asked = sum(g["asked"] for g in groups.values())
        lsp_seconds = sum(g["seconds"] for g in groups.values())
        per_1k = f"{1000 * lsp_seconds / asked:.1f}" if asked else "-"
        stats = {k.split(":", 1)[1]: v for k, v in lsp["resolution"].items() if k.startswith("lsp:")}
        skipped = "; ".join(f"{k}: {g['skipped']}" for k, g in groups.items() if g["skipped"])
        print(f"{r['corpus']:9s} {base['files']:6d} {base['seconds']:14.2f} {lsp['seconds']:9.2f} "
              f"{lsp['seconds'] / base['seconds']:6.1f}x {asked:11d} {per_1k:>9s}  {stats}"
              + (f"  [{skipped}]" if skipped else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated corpora (default: all)")
    ap.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)} (the CI slice)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    from graphrag_code.db import Graph

    names = QUICK if args.quick else tuple(args.only.split(",")) if args.only else tuple(CORPORA)
    unknown = [n for n in names if n not in CORPORA]
    if unknown:
        ap.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(CORPORA)}")
    with Graph() as graph:
        rows = [run_one(graph, n, CORPORA[n]) for n in names]
    print_table(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
