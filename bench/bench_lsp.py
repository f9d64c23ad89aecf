"""What the language-server pass costs: a full index without it and with it, per language, side by side.

    .venv/bin/python bench/bench_lsp.py                 # flask (Python), express (JS), rxjs (TS), cobra (Go)
    .venv/bin/python bench/bench_lsp.py --only cobra    # one corpus
    .venv/bin/python bench/bench_lsp.py --quick         # the CI slice: cobra and express

The corpora are the evaluation's pinned codebases (``eval/corpus.py`` fetches them from PyPI / npm / the Go
proxy). Each is indexed twice into fresh repositories in the same process, first tree-sitter only (the
baseline), then with ``--lsp`` asking one ``definition`` per call site, then with ``--lsp`` asking one
``callHierarchy/outgoingCalls`` per function where the server has it (the default; jedi has not); all without
vectors. Printed per corpus and mode: seconds, ratio to the baseline, call sites answered, requests sent,
seconds per 1k call sites, how the server's answers compare with the name-based resolution (agreed / corrected /
added / placed outside the repository / variables), and how many call sites the two LSP modes answer alike. Accuracy is measured
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


def run_one(graph, name: str, languages: tuple[str, ...]) -> dict:
    from graphrag_code.evaluate import corpus_module
    corpus = corpus_module()
    from graphrag_code.config import IndexSettings
    from graphrag_code.indexer import delete_repository, index_repository

    corpus.build(corpus.CODEBASES[name])
    root = corpus.CORPUS_DIR / name
    out = {"corpus": name}
    modes = (("tree-sitter", IndexSettings()),
             ("lsp", IndexSettings(lsp_languages=languages, lsp_call_hierarchy=False)),
             ("lsp-hierarchy", IndexSettings(lsp_languages=languages, lsp_call_hierarchy=True)))
    repos = {}
    try:
        for mode, settings in modes:
            repos[mode] = repo = f"bench-lsp-{name}-{mode}-{uuid.uuid4().hex[:6]}"
            started = time.perf_counter()
            summary = index_repository(graph, root, name=repo, settings=settings)
            out[mode] = {"seconds": round(time.perf_counter() - started, 2), "lsp": summary.lsp,
                         "resolution": summary.resolution, "files": summary.files_indexed}
        out["answers_agree"] = _agreement(graph, repos["lsp"], repos["lsp-hierarchy"])
    finally:
        for repo in repos.values():
            delete_repository(graph, repo)
    return out


def _agreement(graph, a: str, b: str) -> dict:
    """Call sites answered the same way per call and through the call hierarchy (ids compared without the
    repository prefix)."""
    def answers(repo: str) -> dict:
        paths = [r["path"] for r in graph.run("live_files", repo=repo)]
        rows = graph.run("file_facts", repo=repo, paths=paths)
        return {r["path"]: json.loads(r["lsp"])["answers"] for r in rows if r["lsp"]}
    one, two = answers(a), answers(b)
    same = total = 0
    for path, xs in one.items():
        for x, y in zip(xs, two.get(path, [])):
            total += 1
            same += json.dumps(x).replace(a + ":", "") == json.dumps(y).replace(b + ":", "")
    return {"call_sites": total, "same": same}


def print_table(rows: list[dict]) -> None:
    print(f"{'corpus':9s} {'files':>6s} {'mode':>14s} {'seconds':>8s} {'ratio':>7s} {'call sites':>11s} "
          f"{'requests':>9s} {'s per 1k':>9s}  server answers vs names")
    for r in rows:
        base = r["tree-sitter"]
        print(f"{r['corpus']:9s} {base['files']:6d} {'tree-sitter':>14s} {base['seconds']:8.2f} {'1.0x':>7s}")
        for mode in ("lsp", "lsp-hierarchy"):
            run = r[mode]
            groups = (run["lsp"] or {}).get("groups", {})
            asked = sum(g["asked"] for g in groups.values())
            requests = sum(g["definition_requests"] + 2 * g["hierarchy_requests"] for g in groups.values())
            lsp_seconds = sum(g["seconds"] for g in groups.values())
            per_1k = f"{1000 * lsp_seconds / asked:.1f}" if asked else "-"
            stats = {k.split(":", 1)[1]: v for k, v in run["resolution"].items() if k.startswith("lsp:")}
            skipped = "; ".join(f"{k}: {g['skipped']}" for k, g in groups.items() if g["skipped"])
            print(f"{'':16s} {mode:>14s} {run['seconds']:8.2f} {run['seconds'] / base['seconds']:6.1f}x "
                  f"{asked:11d} {requests:9d} {per_1k:>9s}  {stats}" + (f"  [{skipped}]" if skipped else ""))
        agree = r["answers_agree"]
        print(f"{'':16s} answers the same per call and through the call hierarchy: {agree['same']} of "
              f"{agree['call_sites']} call sites")


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
    from graphrag_code.errors import script_main
    script_main(main)
