"""Check every row of ``eval/golden.jsonl`` against the pinned corpus in ``eval/.corpus/``.

    python eval/validate_golden.py              # report, exit 1 on any error
    python eval/validate_golden.py --verbose    # also print each expected range's first and last line
    python eval/validate_golden.py --json       # machine-readable report

Errors (exit status 1):
  * a line that is not a JSON object, a missing/extra/mistyped field, a duplicate id or question;
  * ``id`` not of the form ``<repo>-NNN``; ``kind`` not one of symbol, behaviour, cross-file, stacktrace, negative;
  * ``repo`` not a codebase of ``eval/corpus.py``, its checkout missing or not at the pinned commit;
  * ``expected`` empty for a non-negative question, or not empty for a negative one;
  * an expected ``path`` that is not a file tracked in the corpus repository, a range with start > end, or
    outside the file;
  * for ``symbol`` questions: a range that does not start at a definition (decorators/annotations first are
    fine, and so are comments) or does not end where that definition ends. Python is checked exactly with
    ``ast`` (decorators included); brace languages by a definition pattern on the first code line and balanced
    braces from it to the end line, which must close the definition.

Warnings (reported, exit status unaffected): a behaviour/cross-file range that does not start at a definition,
or a range that starts or ends on a blank line.

Self-contained: it imports only ``eval/corpus.py`` (for the codebase list and pinned commits).
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EVAL_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(EVAL_DIR))
import corpus  # noqa: E402  (eval/corpus.py)

KINDS = ("symbol", "behaviour", "cross-file", "stacktrace", "negative")
FIELDS = {"id": str, "repo": str, "question": str, "kind": str, "expected": list, "notes": str}
RANGE_FIELDS = {"path": str, "start": int, "end": int}

LANG_BY_EXT = {".py": "python", ".go": "go", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
               ".ts": "typescript", ".tsx": "typescript", ".java": "java"}

# A line that may precede the definition inside its range: decorator/annotation, comment, blank.
_PREFIX_LINE = re.compile(r"^\s*($|@|#|//|/\*|\*)")
_JAVA_MODS = r"(?:(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp|sealed|non-sealed|transient)\s+)*"
_TS_MODS = r"(?:(?:public|protected|private|static|readonly|abstract|override|async|declare|get|set)\s+)*"
DEFINITION = {
    "go": re.compile(r"^\s*(func\b|type\s+\w+)"),
    "java": re.compile(
        rf"^\s*{_JAVA_MODS}(?:(?:class|interface|enum|record|@interface)\s+\w+"
        rf"|(?:<[^>]*>\s+)?[\w.$<>\[\]?, ]+\s+\w+\s*\(|\w+\s*\()"),
    "javascript": re.compile(
        r"^\s*(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\b|class\b|(?:const|let|var)\s+\w+\s*=)"
        r"|^\s*[\w$.\[\]'\"]+\s*=\s*(?:async\s+)?(?:function\b|\(|\w+\s*=>|class\b)"
        r"|^\s*(?:static\s+|async\s+|get\s+|set\s+)*[\w$]+\s*\([^;]*\)\s*\{"),
    "typescript": re.compile(
        r"^\s*(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?"
        r"(?:function\b|class\b|interface\b|enum\b|type\s+\w+|namespace\b|(?:const|let|var)\s+\w+)"
        rf"|^\s*{_TS_MODS}[\w$]+\s*(?:<.*>)?\s*\((?!.*;\s*$)"),
}


@dataclass
class Report:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)          # (repo, kind) -> n
    ranges: int = 0

    def error(self, where: str, msg: str) -> None:
        self.errors.append(f"{where}: {msg}")

    def warn(self, where: str, msg: str) -> None:
        self.warnings.append(f"{where}: {msg}")


# ---------------------------------------------------------------------------------------------------------------
class Corpus:
    """Tracked files and their lines for each codebase, loaded lazily."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._tracked: dict[str, set[str] | None] = {}
        self._lines: dict[tuple[str, str], list[str]] = {}
        self._py_defs: dict[tuple[str, str], set[tuple[int, int]]] = {}

    def head(self, repo: str) -> str | None:
        r = subprocess.run(["git", "-C", str(self.root / repo), "rev-parse", "--verify", "-q", "HEAD"],
                           capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 and (self.root / repo / ".git").exists() else None

    def tracked(self, repo: str) -> set[str] | None:
        if repo not in self._tracked:
            r = subprocess.run(["git", "-C", str(self.root / repo), "ls-files", "-z"], capture_output=True, text=True)
            self._tracked[repo] = set(p for p in r.stdout.split("\0") if p) if r.returncode == 0 else None
        return self._tracked[repo]

    def lines(self, repo: str, path: str) -> list[str]:
        key = (repo, path)
        if key not in self._lines:
            data = (self.root / repo / path).read_bytes().decode("utf-8", errors="replace")
            self._lines[key] = data.splitlines()
        return self._lines[key]

    def python_defs(self, repo: str, path: str) -> set[tuple[int, int]]:
        """(first line incl. decorators, last line) of every def/class in a Python file."""
        key = (repo, path)
        if key not in self._py_defs:
            tree = ast.parse((self.root / repo / path).read_bytes())
            out = set()
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
                    out.add((start, node.end_lineno))
            self._py_defs[key] = out
        return self._py_defs[key]


    def python_def_at(self, repo: str, path: str, line: int) -> str | None:
        """Name of the innermost def/class whose body holds ``line`` (a traceback's ``in NAME``)."""
        tree = ast.parse((self.root / repo / path).read_bytes())
        best: tuple[int, str] | None = None
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and node.lineno <= line <= (node.end_lineno or node.lineno):
                if best is None or node.lineno >= best[0]:
                    best = (node.lineno, node.name)
        return best[1] if best else None

    def resolve(self, repo: str, ref: str) -> str | None:
        """The tracked file a traceback path refers to: the longest common path suffix, at least two parts
        (``.../site-packages/flask/app.py`` -> ``src/flask/app.py``); a bare file name is not enough."""
        parts = [p for p in re.split(r"[\\/]", ref) if p]
        best, best_n = None, 1
        for path in self.tracked(repo) or ():
            tp = path.split("/")
            n = 0
            while n < min(len(tp), len(parts)) and tp[-1 - n] == parts[-1 - n]:
                n += 1
            if n > best_n or (n == best_n and best is not None and len(path) < len(best)):
                best, best_n = path, n
        return best


def _strip_strings_and_comments(text: str) -> str:
    """Rough lexer for brace counting: blank out string/char/template literals and // or /* */ comments,
    keeping every newline so line numbers stay put."""
    def keep_newlines(m: re.Match[str]) -> str:
        return "\n" * m.group(0).count("\n")

    token = re.compile(r"/\*.*?\*/|//[^\n]*|`(?:\\.|[^`\\])*`|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
    return token.sub(keep_newlines, text)


def first_code_line(lines: list[str], start: int, end: int) -> int | None:
    """The first line in [start, end] that is not a decorator/annotation, comment or blank line."""
    in_block_comment = False
    depth = 0        # parentheses of a multi-line decorator/annotation
    for n in range(start, end + 1):
        s = lines[n - 1].strip()
        if in_block_comment:
            in_block_comment = "*/" not in s
            continue
        if s.startswith("/*") and "*/" not in s:
            in_block_comment = True
            continue
        if depth > 0 or s.startswith("@"):
            depth = max(0, depth + s.count("(") - s.count(")"))
            continue
        if _PREFIX_LINE.match(lines[n - 1]):
            continue
        return n
    return None


def check_definition(cor: Corpus, repo: str, path: str, start: int, end: int) -> str | None:
    """None if [start, end] is exactly one definition; otherwise why not."""
    lang = LANG_BY_EXT.get(Path(path).suffix)
    if lang is None:
        return f"cannot check a definition in {path} (unknown language)"
    if lang == "python":
        defs = cor.python_defs(repo, path)
        if (start, end) in defs:
            return None
        same_start = sorted(e for s, e in defs if s == start)
        if same_start:
            return f"a definition starts at {start} but ends at {same_start[0]}, not {end}"
        same_end = sorted(s for s, e in defs if e == end)
        hint = f" (a definition ending at {end} starts at {same_end[0]})" if same_end else ""
        return f"no def/class (with its decorators) spans exactly {start}-{end}{hint}"
    lines = cor.lines(repo, path)
    code = first_code_line(lines, start, end)
    if code is None:
        return "the range holds only decorators/comments/blank lines"
    if not DEFINITION[lang].search(lines[code - 1]):
        return f"line {code} does not begin a {lang} definition: {lines[code - 1].strip()[:80]!r}"
    body = _strip_strings_and_comments("\n".join(lines[code - 1:end]))
    if "{" not in body:
        if "}" in body:
            return f"a '}}' closes an outer block inside {code}-{end}"
        # a brace-less definition: a one-liner (`type X int`) or a statement spanning a few lines
        return None if code == end or lines[end - 1].rstrip().endswith((";", ")")) else \
            f"a definition without a body is expected to end at {code} or with ';'/')'"
    # End-of-line brace depth: once the body is open (depth > 0 at the end of a line) it must stay open until
    # the end line, where it returns to 0. Braces closed on the line they open (`= {}` defaults) don't count.
    depth, opened, closed_at = 0, False, None
    for i, ln in enumerate(body.split("\n")):
        for ch in ln:
            depth += (ch == "{") - (ch == "}")
            if depth < 0:
                return f"unbalanced '}}' at line {code + i}"
        if depth > 0:
            opened = True
        elif opened and closed_at is None:
            closed_at = code + i
    if depth != 0:
        return f"braces from line {code} to {end} do not balance ({depth:+d}); the definition ends elsewhere"
    if closed_at != end:
        return f"the definition's braces close at line {closed_at}, not {end}"
    return None


# Frames in pasted tracebacks: Python, Node (JS/TS), Java, Go.
_PY_FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)(?:\n[ \t]+(\S[^\n]*))?')
_JS_FRAME = re.compile(r"at (?:[^\n(]*?\()?([^\s()]+\.(?:js|mjs|cjs|ts|tsx)):(\d+):\d+\)?")
_JAVA_FRAME = re.compile(r"at ([\w$.]+)\((\w+\.java):(\d+)\)")
_GO_FRAME = re.compile(r"([^\s:]+\.go):(\d+)")
_LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`')
_PLACEHOLDER = re.compile(r"%[-+ #0-9.]*[a-zA-Z]|\$?\{[^}]*\}|\\[nt]")


def _frames(question: str) -> list[tuple[str, int, str | None, str | None]]:
    """(path as written, line, function name or None, quoted source line or None) for each frame."""
    out: list[tuple[str, int, str | None, str | None]] = []
    for m in _PY_FRAME.finditer(question):
        out.append((m.group(1), int(m.group(2)), m.group(3), m.group(4)))
    for m in _JS_FRAME.finditer(question):
        out.append((m.group(1), int(m.group(2)), None, None))
    for m in _JAVA_FRAME.finditer(question):
        qualified, file_name = m.group(1), m.group(2)
        package = [p for p in qualified.split(".")[:-1] if p[:1].islower()]   # drop Class$Inner and method
        out.append(("/".join(package + [file_name]), int(m.group(3)), None, None))
    for m in _GO_FRAME.finditer(question):
        out.append((m.group(1), int(m.group(2)), None, None))
    return out


def _message_fragments(text: str) -> set[str]:
    """Pieces of the string literals in ``text`` long enough to identify an error message."""
    frags = set()
    for lit in _LITERAL.findall(text):
        for piece in _PLACEHOLDER.split(lit[1:-1]):
            piece = " ".join(piece.split()).strip(" .,:;'\"")
            if len(piece) >= 8 and re.search(r"[A-Za-z]{3}", piece):
                frags.add(piece)
    return frags


def check_stacktrace(rep: Report, where: str, cor: Corpus, repo: str, question: str,
                     expected: list[tuple[str, int, int]]) -> None:
    """A stacktrace question must point into its expected ranges: a frame in the corpus whose line is inside one
    of them, or an error-message fragment from their string literals quoted in the question. Frames that resolve
    to corpus files must be real: the line exists, and for Python the function name and quoted source match."""
    hit = False
    for ref, line, func, source in _frames(question):
        path = cor.resolve(repo, ref)
        if path is None:
            continue                                  # the user's own code
        lines = cor.lines(repo, path)
        if not 1 <= line <= len(lines):
            rep.error(where, f"frame {ref}:{line} -> {path} has only {len(lines)} lines")
            continue
        if path.endswith(".py"):
            name = cor.python_def_at(repo, path, line)
            if func and func != "<module>" and name != func:
                rep.error(where, f"frame {ref}:{line} says 'in {func}' but {path}:{line} is in {name}")
            if source and " ".join(source.split()) != " ".join(lines[line - 1].split()):
                rep.error(where, f"frame {ref}:{line} quotes {source.strip()!r} but {path}:{line} is "
                                 f"{lines[line - 1].strip()!r}")
        if any(p == path and s <= line <= e for p, s, e in expected):
            hit = True
    if not hit:
        question_text = " ".join(question.split())
        for p, s, e in expected:
            text = "\n".join(cor.lines(repo, p)[s - 1:e])
            if any(f in question_text for f in _message_fragments(text)):
                hit = True
                break
    if not hit:
        rep.error(where, "stacktrace question: no frame inside an expected range and no message text from the "
                         "expected lines' string literals appears in the question")


# ---------------------------------------------------------------------------------------------------------------
def validate(golden: Path, cor: Corpus, verbose: bool = False) -> Report:
    """Every row of ``golden`` checked: its fields, id and question unique, its corpus at the pinned commit, and
    each expected range inside a tracked file (a whole definition for symbol questions)."""
    rep = Report()
    seen_ids: dict[str, int] = {}
    seen_questions: dict[str, str] = {}
    heads: dict[str, str | None] = {}
    for lineno, raw in enumerate(golden.read_text(encoding="utf-8").splitlines(), 1):
        row = _parse_row(rep, lineno, raw)
        if row is None:
            continue
        where = f"line {lineno} ({row.get('id', '?')})"
        if not _check_fields(rep, where, row):
            continue
        rid, repo, kind, expected = row["id"], row["repo"], row["kind"], row["expected"]
        if rid in seen_ids:
            rep.error(where, f"duplicate id (also line {seen_ids[rid]})")
        seen_ids.setdefault(rid, lineno)
        q_key = " ".join(row["question"].lower().split())
        if q_key in seen_questions:
            rep.error(where, f"duplicate question (also {seen_questions[q_key]})")
        seen_questions.setdefault(q_key, rid)
        if not re.fullmatch(rf"{re.escape(repo)}-\d{{3}}", rid):
            rep.error(where, f"id must look like '{repo}-NNN'")
        if kind not in KINDS:
            rep.error(where, f"kind {kind!r} not one of {', '.join(KINDS)}")
        rep.counts[(repo, kind)] += 1
        if not _corpus_ready(rep, where, cor, repo, heads):
            continue
        if kind == "negative" and expected:
            rep.error(where, "negative questions must have expected == []")
        if kind != "negative" and not expected:
            rep.error(where, f"{kind} question without expected ranges")
        tracked = cor.tracked(repo) or set()
        seen_ranges: set[tuple[str, int, int]] = set()
        good_ranges: list[tuple[str, int, int]] = []
        for i, rng in enumerate(expected):
            good = _check_range(rep, f"{where} expected[{i}]", cor, row, rng, tracked, seen_ranges, verbose)
            if good:
                good_ranges.append(good)
        if kind == "stacktrace" and good_ranges and len(good_ranges) == len(expected):
            check_stacktrace(rep, where, cor, repo, row["question"], good_ranges)
    return rep


def _parse_row(rep: Report, lineno: int, raw: str) -> dict | None:
    """The JSON object on a line, or None (and an error) for a blank line, bad JSON or another value."""
    if not raw.strip():
        rep.error(f"line {lineno}", "blank line")
        return None
    try:
        row = json.loads(raw)
    except json.JSONDecodeError as e:
        rep.error(f"line {lineno}", f"not JSON: {e}")
        return None
    if not isinstance(row, dict):
        rep.error(f"line {lineno}", "not a JSON object")
        return None
    return row


def _check_fields(rep: Report, where: str, row: dict) -> bool:
    """Every field present with its type (strings not empty), no unknown field; False when one is missing or
    mistyped (the row cannot be checked further)."""
    bad = False
    for name, typ in FIELDS.items():
        if name not in row:
            rep.error(where, f"missing field {name!r}")
            bad = True
        elif not isinstance(row[name], typ):
            rep.error(where, f"{name!r} must be {typ.__name__}, got {type(row[name]).__name__}")
            bad = True
        elif typ is str and not row[name].strip():
            rep.error(where, f"{name!r} is empty")
            bad = True
    for extra in sorted(set(row) - set(FIELDS)):
        rep.error(where, f"unknown field {extra!r}")
    return not bad


def _corpus_ready(rep: Report, where: str, cor: Corpus, repo: str, heads: dict[str, str | None]) -> bool:
    """Whether ``repo`` is a codebase of eval/corpus.py checked out (its head read once; a head other than the
    pinned commit is an error: line numbers cannot be trusted)."""
    if repo not in corpus.CODEBASES:
        rep.error(where, f"repo {repo!r} is not a codebase in eval/corpus.py ({', '.join(corpus.CODEBASES)})")
        return False
    if repo not in heads:
        heads[repo] = cor.head(repo)
        pinned = corpus.CODEBASES[repo].commit
        if heads[repo] is None:
            rep.error(repo, f"corpus checkout {cor.root / repo} missing: run python eval/corpus.py")
        elif pinned and heads[repo] != pinned:
            rep.error(repo, f"corpus at {heads[repo][:12]}, pinned {pinned[:12]}: line numbers cannot be "
                            f"trusted; run python eval/corpus.py --only {repo} --force")
    return heads[repo] is not None


def _check_range(rep: Report, rwhere: str, cor: Corpus, row: dict, rng: Any, tracked: set[str],
                 seen_ranges: set[tuple[str, int, int]], verbose: bool) -> tuple[str, int, int] | None:
    """One expected range: its shape, inside a tracked file, not blank at either end, a whole definition where the
    question's kind wants one. Returns (path, start, end) when it lies inside the file."""
    rid, repo, kind = row["id"], row["repo"], row["kind"]
    if not isinstance(rng, dict):
        rep.error(rwhere, "must be an object {path, start, end}")
        return None
    missing = [k for k, t in RANGE_FIELDS.items()
               if k not in rng or not isinstance(rng[k], t) or isinstance(rng[k], bool)]
    if missing or set(rng) - set(RANGE_FIELDS):
        rep.error(rwhere, f"needs exactly path (str), start (int), end (int); got {rng}")
        return None
    path, start, end = rng["path"], rng["start"], rng["end"]
    rep.ranges += 1
    if (path, start, end) in seen_ranges:
        rep.error(rwhere, "duplicate range")
    seen_ranges.add((path, start, end))
    if path not in tracked:
        rep.error(rwhere, f"{path} is not a tracked file of {repo}")
        return None
    lines = cor.lines(repo, path)
    if not 1 <= start <= end:
        rep.error(rwhere, f"bad range {start}-{end}")
        return None
    if end > len(lines):
        rep.error(rwhere, f"{path}:{start}-{end} is past the end of the file ({len(lines)} lines)")
        return None
    if not lines[start - 1].strip() or not lines[end - 1].strip():
        rep.warn(rwhere, f"{path}:{start}-{end} starts or ends on a blank line")
    if kind == "symbol":
        why = check_definition(cor, repo, path, start, end)
        if why:
            rep.error(rwhere, f"{path}:{start}-{end}: {why}")
        elif re.match(r"\s*(#|//|/\*|\*)", lines[start - 1]):
            rep.warn(rwhere, f"{path}:{start}-{end} starts in a comment above the definition "
                             f"(the convention is the decorator/annotation or definition line)")
    elif kind in ("behaviour", "cross-file"):
        why = check_definition(cor, repo, path, start, end)
        if why:
            rep.warn(rwhere, f"{path}:{start}-{end} is not a whole definition ({why})")
    if verbose:
        print(f"{rid:12} {path}:{start}-{end}")
        print(f"    {start:5}| {lines[start - 1][:100]}")
        if end != start:
            print(f"    {end:5}| {lines[end - 1][:100]}")
    return path, start, end


def print_report(rep: Report, golden: Path) -> None:
    repos = sorted({r for r, _ in rep.counts})
    total = sum(rep.counts.values())
    print(f"{golden.relative_to(EVAL_DIR.parent) if golden.is_relative_to(EVAL_DIR.parent) else golden}: "
          f"{total} questions, {rep.ranges} expected ranges")
    header = f"{'repo':10}" + "".join(f"{k:>12}" for k in KINDS) + f"{'total':>8}"
    print(header)
    for r in repos:
        row = [rep.counts[(r, k)] for k in KINDS]
        print(f"{r:10}" + "".join(f"{n:12}" for n in row) + f"{sum(row):8}")
    col = [sum(rep.counts[(r, k)] for r in repos) for k in KINDS]
    print(f"{'all':10}" + "".join(f"{n:12}" for n in col) + f"{sum(col):8}")
    for w in rep.warnings:
        print(f"WARNING {w}")
    for e in rep.errors:
        print(f"ERROR   {e}")
    print(f"{len(rep.errors)} error(s), {len(rep.warnings)} warning(s): {'FAILED' if rep.errors else 'OK'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--golden", type=Path, default=EVAL_DIR / "golden.jsonl")
    ap.add_argument("--corpus", type=Path, default=corpus.CORPUS_DIR)
    ap.add_argument("--verbose", action="store_true", help="print the first and last line of every range")
    ap.add_argument("--json", action="store_true", help="JSON report on stdout")
    args = ap.parse_args(argv)
    if not args.golden.is_file():
        print(f"ERROR {args.golden} not found", file=sys.stderr)
        return 1
    rep = validate(args.golden.resolve(), Corpus(args.corpus.resolve()), verbose=args.verbose)
    if args.json:
        per_repo: dict[str, dict[str, int]] = defaultdict(dict)
        for (r, k), n in sorted(rep.counts.items()):
            per_repo[r][k] = n
        print(json.dumps({"ok": not rep.errors, "questions": sum(rep.counts.values()), "ranges": rep.ranges,
                          "per_repo": per_repo, "errors": rep.errors, "warnings": rep.warnings}, indent=2))
    else:
        print_report(rep, args.golden.resolve())
    return 1 if rep.errors else 0


if __name__ == "__main__":
    sys.exit(main())
