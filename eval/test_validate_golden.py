"""Tests for eval/validate_golden.py: the golden set is clean, and broken rows are caught.

    .venv/bin/python -m pytest eval/test_validate_golden.py -q

Needs the corpus (``python eval/corpus.py``); skipped without it. Not under tests/ on purpose: the project's
test suite (testpaths = tests) does not fetch the eval corpus.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

EVAL_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(EVAL_DIR))
import corpus  # noqa: E402
import validate_golden as vg  # noqa: E402

GOLDEN = EVAL_DIR / "golden.jsonl"
pytestmark = pytest.mark.skipif(
    not all((corpus.CORPUS_DIR / n / ".git").is_dir() for n in corpus.CODEBASES),
    reason="eval corpus not fetched (python eval/corpus.py)")


def _rows() -> dict[str, dict]:
    return {r["id"]: r for r in map(json.loads, GOLDEN.read_text().splitlines())}


def _run(tmp_path: Path, rows: list[dict], extra_lines: tuple[str, ...] = ()) -> vg.Report:
    f = tmp_path / "g.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows) + "".join(x + "\n" for x in extra_lines))
    return vg.validate(f, vg.Corpus(corpus.CORPUS_DIR))


def _mutant(row: dict, new_id: str, **range_changes: int) -> dict:
    r = copy.deepcopy(row)
    r["id"] = new_id
    r["question"] += f" ({new_id})"
    r["expected"][0].update(range_changes)
    return r


def test_golden_set_is_clean():
    rep = vg.validate(GOLDEN, vg.Corpus(corpus.CORPUS_DIR))
    assert rep.errors == [] and rep.warnings == []
    assert sum(rep.counts.values()) >= 72
    repos = {r for r, _ in rep.counts}
    assert repos == set(corpus.CODEBASES)
    for repo in repos:   # every codebase has every kind
        assert all(rep.counts[(repo, k)] >= 1 for k in vg.KINDS), repo


@pytest.mark.parametrize("qid,change", [
    ("flask-001", {"start": 570}),     # Python: decorator left out
    ("flask-004", {"end": 326}),       # Python: body cut short
    ("express-002", {"start": 370}),   # JS: starts inside the function
    ("express-001", {"end": 56}),      # JS: misses the closing brace
    ("cobra-004", {"start": 95}),      # Go: starts at the inner closure
    ("cobra-001", {"end": 200}),       # Go: struct cut short
    ("gson-004", {"end": 540}),        # Java
    ("rxjs-003", {"start": 84}),       # TypeScript
    ("rxjs-005", {"end": 434}),        # TypeScript static method
    ("click-002", {"end": 99999}),     # past the end of the file
    ("click-002", {"start": 500, "end": 400}),
])
def test_bad_symbol_ranges_are_errors(tmp_path, qid, change):
    rep = _run(tmp_path, [_mutant(_rows()[qid], qid.split("-")[0] + "-900", **change)])
    assert len(rep.errors) == 1, rep.errors


def test_leading_comment_is_only_a_warning(tmp_path):
    rep = _run(tmp_path, [_mutant(_rows()["gson-005"], "gson-900", start=380)])
    assert rep.errors == [] and len(rep.warnings) == 1


def test_row_level_errors(tmp_path):
    rows = _rows()
    base = rows["flask-002"]
    bad = []
    for i, change in enumerate([
        {"kind": "lookup"},
        {"repo": "nope", "id": "nope-001"},
        {"expected": []},                                                      # symbol without answer
        {"expected": [{"path": "src/flask/nope.py", "start": 1, "end": 2}]},
        {"expected": [{"path": "src/flask/app.py", "start": "1", "end": 2}]},
        {"id": "click-001"},                                                   # id prefix != repo
    ]):
        r = copy.deepcopy(base)
        r["id"], r["question"] = f"flask-9{i:02d}", f"{r['question']} {i}"
        r.update(change)
        bad.append(r)
    neg = copy.deepcopy(rows["flask-021"])
    neg["expected"] = [{"path": "src/flask/app.py", "start": 1, "end": 2}]
    missing = copy.deepcopy(base)
    del missing["notes"]
    rep = _run(tmp_path, bad + [neg, missing, base, base], extra_lines=("{not json",))
    assert len(rep.errors) == 11, "\n".join(rep.errors)
    assert any("duplicate id" in e for e in rep.errors) and any("duplicate question" in e for e in rep.errors)


def test_stacktrace_frames_must_match_the_corpus(tmp_path):
    row = copy.deepcopy(_rows()["flask-018"])
    row["question"] = row["question"].replace("line 865, in dispatch_request", "line 864, in dispatch_request")
    rep = _run(tmp_path, [row])
    assert any("quotes" in e for e in rep.errors), rep.errors
    row = copy.deepcopy(_rows()["click-017"])
    row["question"] = "Error: no command called 'deploy'"          # text not in the expected lines
    rep = _run(tmp_path, [row])
    assert any("stacktrace question" in e for e in rep.errors), rep.errors
