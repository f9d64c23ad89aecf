"""Impact analysis: what calls (or imports) a symbol, a file or the code a git diff touches, up to a depth, with
the entry points and tests reached, and an explicit verdict on whether the answer is complete or a lower bound.

The library behind ``graphrag-code impact``::

    result = analyze_impact(graph, "shop", "OrderService.cancel", depth=3)
    result.by_depth()[1]              # direct callers, each with its call-site citation
    result.completeness.verdict       # "complete" | "lower_bound"

Targets: a symbol (any form :func:`graphrag_code.paths.resolve_endpoint` takes), ``file:line``, a file path
(every symbol of the file, plus the files importing it), or the symbols whose line ranges a git diff touches
(``diff="REV"``: ``git diff -U0 REV <indexed commit>`` in the repository's root, new-side lines;
``staged=True``: ``git diff -U0 --cached <indexed commit>``, old-side lines, i.e. the indexed lines). A changed
line inside no definition makes the file's module-level code a target. What ``diff="REV"`` removes is no target
(the graph does not have it): the definitions of REV (read with ``git cat-file`` and the extractor) overlapping
removed lines, or in a file deleted or renamed away, whose qualified name the indexed file lacks are listed under
``removed``, each with the callers at the indexed commit that still call its name (unresolved calls of it, calls
resolution binds by that name alone to another definition); callers left make the answer a lower bound and
count as impacted.

The walk goes up CALLS edges one level per Cypher call (``callers_step``), including dynamic dispatch (callers
of a base-class method that the target overrides). Callers up to ``depth`` are listed by depth; the walk goes on
up to ``test_depth`` only to find the tests that exercise the target. Completeness: unresolved call sites
anywhere in the repository whose called name is the target's (or an intermediate caller's) name may be callers
the graph misses, so the answer is then a lower bound; low-confidence edges (< 0.6) and dispatch steps are
listed as possible over-approximation. "0 callers" is never reported as certain while such calls exist.
Calls the graph cannot see make it a lower bound too: dunder methods and properties, non-call references to a
name (a callback, a table entry, a nested function returned), an entry point naming it (``pkg.module:Name``), a
call of it inside a string of Python code (a template, text for eval: code built at run time), and a
generator's or coroutine function's result kept, returned or passed on (its body runs where that is iterated or
awaited). A Python ``__init__`` is no such dunder: its callers are the constructions of its class and
subclasses, which the graph has, unless the class may be constructed out of its sight (an ancestor's
``cls()``, a ``type(self)(...)`` in the family, the class or a subclass handed on as a value or named by an
entry point).
"""

from __future__ import annotations

import codecs
import difflib
import json
import posixpath
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .db import Graph
from .errors import InputError, SourceError
from .impact_references import _DUNDER, _PROPERTY, ConstructorFamily, _implicit_uses, _mangled, code_only
from .languages import LANGUAGES, SCRIPT_LANGUAGES, language_for_path
from .paths import (
    LOW_CONFIDENCE,
    NodeRef,
    Resolved,
    UnresolvedCall,
    innermost,
    node_ref,
    parse_unresolved,
    repository,
    resolve_endpoint,
    symbols_in_lines,
)
from .resolve_facts import _last_segment
from .source import check_commit

DEFAULT_DEPTH = 3
DEFAULT_TEST_DEPTH = 8
MAX_VISITED = 20_000                 # stop walking up past this many nodes (hub functions), and say so
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ROUTE_DECORATOR = re.compile(
    r"^\s*@[\w.]*\b(route|get|post|put|patch|delete|head|options|websocket|api_view|endpoint|"
    r"Get|Post|Put|Patch|Delete|RequestMapping|GetMapping|PostMapping|PutMapping|DeleteMapping|Controller)\b",
    re.M)
_CLI_DECORATOR = re.compile(r"^\s*@[\w.]*\b(command|group|callback|main|app\.command|cli\.command)\b", re.M)
_ROUTE_NAME = re.compile(r"(^|_)(view|handler|endpoint|route|controller)s?$|(Handler|Controller|View|Endpoint)$",
                         re.I)
_CLI_NAME = re.compile(r"^(cli|main_cli|run_cli|command_line|entrypoint|entry_point)$|(_command|_cmd|Command)$")
_PACKAGE_ENTRY = ("__init__.py", "index.js", "index.ts", "index.mjs", "lib.rs", "mod.rs")


# references through text the code hands on, by kind: the reason each gives for a lower bound
_BY_TEXT = {
    "in_string": "{n} string(s) of code call {names} (a template, text for eval): code built from them at run time "
                 "calls it where the graph does not see",
    "entry_point": "{n} entry point(s) name {names} (`package.module:Name`): loaded by name and called or "
                   "constructed where the graph does not see",
    "named_string": "{n} call(s) are handed the name {names} as a string or a callable array (methodcaller(\"close\"), "
                    "PHP's [$this, 'm']): code may look it up by that name and call it",
    "macro": "{n} macro(s) use {names} (a C/C++ `#define`): the code that expands them calls "
             "it where the graph does not see",
}
# a construction of a class known only at run time: `cls(...)`, `type(self)(...)`, `self.__class__(...)`
_CLS_CALL = re.compile(r"(?<![\w.])cls\s*\(")
_RUNTIME_CLASS_CALL = re.compile(r"(?<![\w.])type\s*\(\s*[\w.]+\s*\)\s*\(|\b__class__\s*\(")
# Ruby's: `self.class.new(...)` (hashie's Mash and Clash build their values so)
_RUBY_RUNTIME_CLASS_CALL = re.compile(r"\bself\.class\.(?:new|allocate)\b")
_CONSTRUCTORS = {"python": "__init__", "ruby": "initialize"}     # those a constructor family is found for


@dataclass
class Caller:
    """One impacted node: it reaches the target in ``depth`` steps; the first step is cited."""

    node: NodeRef
    depth: int
    calls: NodeRef                   # the next node toward the target (what it calls / imports)
    kind: str                        # call | dispatch | import
    lines: list[int]
    confidence: float | None
    resolved_by: str | None
    via: NodeRef | None = None       # dispatch: the base method it calls, which the target overrides
    entry_point: list[str] = field(default_factory=list)   # why it is an entry point (empty: it is not)
    has_callers: bool = True         # something calls it (used for "uncalled" and the depth bound)

    @property
    def citations(self) -> list[str]:
        return [f"{self.node.path}:{ln}" for ln in self.lines]

    def to_dict(self) -> dict[str, Any]:
        return {"node": self.node.to_dict(), "depth": self.depth, "calls": self.calls.id, "kind": self.kind,
                "lines": self.lines, "citations": self.citations, "confidence": self.confidence,
                "resolved_by": self.resolved_by, "via": self.via.id if self.via else None,
                "entry_point": self.entry_point, "is_test": self.node.is_test}


@dataclass
class Target:
    node: NodeRef
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"node": self.node.to_dict(), "reason": self.reason}


@dataclass
class RemovedCaller:
    """A caller, at the indexed commit, of a definition the diff removed: call sites of its name that resolution
    leaves unresolved (kind 'unresolved': the call no longer reaches a definition in the graph), or binds by that
    name alone to another definition of it (kind 'rebound': the name was not unique while the removed one was
    there, so the removal made that edge)."""

    node: NodeRef
    kind: str                            # unresolved | rebound
    call: str                            # the call as written ("receiver.name"); rebound: the name
    lines: list[int]
    reason: str                          # unresolved: resolution's reason (unknown, dynamic, ...); rebound: resolved_by
    now_calls: NodeRef | None = None     # rebound: the definition the call reaches now
    confidence: float | None = None      # rebound: the edge's

    @property
    def citations(self) -> list[str]:
        return [f"{self.node.path}:{ln}" for ln in self.lines]

    def to_dict(self) -> dict[str, Any]:
        return {"node": self.node.to_dict(), "kind": self.kind, "call": self.call, "lines": self.lines,
                "citations": self.citations, "reason": self.reason,
                "now_calls": self.now_calls.to_dict() if self.now_calls else None, "confidence": self.confidence,
                "is_test": self.node.is_test}


@dataclass
class Removed:
    """A definition the diff's base (REV) has and the indexed commit lacks (deleted, or moved or renamed away):
    its lines are those of REV; its callers those of the indexed commit."""

    name: str
    qualified_name: str
    kind: str
    path: str
    start_line: int
    end_line: int
    commit: str                          # REV's commit: where path:start_line-end_line are
    is_test: bool
    file_gone: bool                      # the whole file is gone at the indexed commit (deleted or renamed away)
    callers: list[RemovedCaller] = field(default_factory=list)
    moved_to: str | None = None          # the file was renamed to this path, which defines the qualified name
    top_level: bool = field(default=True, repr=False)    # not nested in another definition (unique-name rules)

    @property
    def citation(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "qualified_name": self.qualified_name, "kind": self.kind, "path": self.path,
                "start_line": self.start_line, "end_line": self.end_line, "commit": self.commit,
                "citation": self.citation, "is_test": self.is_test, "file_gone": self.file_gone,
                "moved_to": self.moved_to, "callers": [c.to_dict() for c in self.callers]}


@dataclass
class Completeness:
    verdict: str                                     # "complete" | "lower_bound"
    reasons: list[str]
    unresolved_same_name: list[UnresolvedCall]       # may be callers of a target the graph misses
    unresolved_deeper: list[UnresolvedCall]          # may be callers of an intermediate caller
    external_ignored: int                            # same-name calls bound to an external module
    low_confidence_edges: list[Caller]               # edges < 0.6 among the callers shown (may be false)
    dynamic_dispatch: list[Caller]                   # callers reached through a base method (may be false)
    truncated: bool = False
    implicit: list[str] = field(default_factory=list)                      # targets called without call syntax
    value_references: list[dict[str, Any]] = field(default_factory=list)   # non-call mentions of a target

    @property
    def complete(self) -> bool:
        return self.verdict == "complete"

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "complete": self.complete, "reasons": self.reasons,
                "unresolved_same_name": [u.to_dict() for u in self.unresolved_same_name],
                "unresolved_deeper": [u.to_dict() for u in self.unresolved_deeper],
                "external_ignored": self.external_ignored,
                "low_confidence_edges": [_edge_dict(c) for c in self.low_confidence_edges],
                "dynamic_dispatch": [_edge_dict(c) for c in self.dynamic_dispatch], "truncated": self.truncated,
                "implicit": self.implicit, "value_references": self.value_references}


def _edge_dict(c: Caller) -> dict[str, Any]:
    return {"from": c.node.id, "to": c.calls.id, "via": c.via.id if c.via else None, "kind": c.kind,
            "confidence": c.confidence, "resolved_by": c.resolved_by, "citations": c.citations}


@dataclass
class ImpactResult:
    repo: str
    commit: str | None
    root: str | None
    depth: int
    targets: list[Target]
    callers: list[Caller]                            # depth 1..depth, tests included (flagged)
    importers: list[Caller]                          # file targets: importing files, depth 1..depth
    tests: list[Caller]                              # is_test callers at any depth up to test_depth
    entry_points: list[Caller]
    completeness: Completeness
    resolution: Resolved | None = None               # how a symbol/file:line target was chosen
    test_depth: int = DEFAULT_TEST_DEPTH
    diff: dict[str, Any] | None = None               # for --diff / --staged: command and hunks
    notes: list[str] = field(default_factory=list)
    edges: list[Caller] = field(default_factory=list)   # every caller -> callee edge walked (for trees)
    removed: list[Removed] = field(default_factory=list)   # --diff: definitions of REV the indexed commit lacks

    def by_depth(self, items: list[Caller] | None = None) -> dict[int, list[Caller]]:
        out: dict[int, list[Caller]] = defaultdict(list)
        for c in self.callers if items is None else items:
            out[c.depth].append(c)
        return dict(sorted(out.items()))

    @property
    def impacted(self) -> int:
        """What --fail-on counts: non-test callers and non-test importing files within the depth, and the non-test
        callers still calling a definition the diff removed (each node once)."""
        counted = {c.node.id for c in (*self.callers, *self.importers)}
        broken = {c.node.id for r in self.removed for c in r.callers if not c.node.is_test} - counted
        return sum(1 for c in self.callers if not c.node.is_test) + \
            sum(1 for c in self.importers if not c.node.is_test) + len(broken)

    def to_dict(self) -> dict[str, Any]:
        return {
            "repo": self.repo, "commit": self.commit, "root": self.root, "depth": self.depth,
            "test_depth": self.test_depth,
            "targets": [t.to_dict() for t in self.targets],
            "resolution": self.resolution.to_dict() if self.resolution else None,
            "diff": self.diff,
            "callers": {str(d): [c.to_dict() for c in cs] for d, cs in self.by_depth().items()},
            "importers": {str(d): [c.to_dict() for c in cs] for d, cs in self.by_depth(self.importers).items()},
            "entry_points": [c.to_dict() for c in self.entry_points],
            "tests": [c.to_dict() for c in self.tests],
            "counts": {"targets": len(self.targets), "callers": len(self.callers),
                       "non_test_callers": sum(1 for c in self.callers if not c.node.is_test),
                       "importers": len(self.importers), "tests": len(self.tests),
                       "entry_points": len(self.entry_points), "impacted": self.impacted},
            "completeness": self.completeness.to_dict(),
            "notes": self.notes,
        } | ({"removed": [r.to_dict() for r in self.removed]} if self.diff is not None else {})


# -- targets ------------------------------------------------------------------------------------------------------
def _git(root: str, *args: str) -> str:
    """git's output, its bytes that are not UTF-8 (a Latin-1 source file's lines, a file name) kept as surrogates
    (``_unquote`` spells such a path as the index does): a diff of a Latin-1 file was a UnicodeDecodeError."""
    try:
        proc = subprocess.run(["git", "-c", "core.quotePath=false", *args], cwd=root, capture_output=True,
                              check=False)
    except OSError as exc:
        raise SourceError(f"cannot run git in {root}: {exc}") from exc
    if proc.returncode != 0:
        raise SourceError(f"git {' '.join(args)} failed in {root}: "
                          f"{proc.stderr.decode('utf-8', 'replace').strip()}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def _commit_of(root: str, rev: str) -> str:
    """The SHA of the commit ``rev`` names in the checkout at ``root``. ``rev`` comes from the API and the CLI:
    never let git read it as an option (``--output=FILE`` makes `git diff` write a file)."""
    if not rev.strip():       # `^{commit}` alone names HEAD: an unset $BASE would diff HEAD against itself
        raise InputError("not a git revision: an empty one", hint="e.g. --diff HEAD~1 or --diff main")
    if rev.startswith("-"):
        raise InputError(f"not a git revision: {rev!r} (a revision may not start with '-')")
    if "\0" in rev:        # no revision holds one, and the OS refuses it in an argument (ValueError)
        raise InputError(f"not a git revision: {rev!r} (a revision may not contain a NUL character)")
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").strip()
    except SourceError as exc:
        raise InputError(f"not a commit of the indexed checkout: {rev!r}") from exc


def _unquote(path: str) -> str:
    """A path as a diff writes it (C-quoted when it holds a quote, a backslash or a control character, its other
    bytes raw under core.quotePath=false) as the index spells it: a byte that is not UTF-8 as ``\\xe9``."""
    raw = path.encode("utf-8", "surrogateescape")
    if len(raw) >= 2 and raw.startswith(b'"') and raw.endswith(b'"'):
        raw = codecs.escape_decode(raw[1:-1])[0]
    return raw.decode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class Hunk:
    start: int
    end: int
    blank: frozenset[int] = frozenset()      # lines of the range that are blank (never module-level targets)
    gap_of: frozenset[int] = frozenset()     # a count-0 hunk: the non-blank lines it removes, on the other side


def parse_diff(text: str, side: str) -> tuple[dict[str, list[Hunk]], list[str]]:
    """Changed line ranges per path from ``git diff -U0`` output, on the ``new`` or ``old`` side.

    A hunk that only removes lines on that side (count 0) touches the lines around the gap: [n, n+1]; one
    whose lines (on either side) are all blank is skipped. Returns (hunks by path, notes about files that
    exist only on the other side)."""
    ranges: dict[str, list[Hunk]] = defaultdict(list)
    notes: list[str] = []
    old_path = new_path = None
    ours, theirs = ("+", "-") if side == "new" else ("-", "+")
    current: dict[str, Any] | None = None

    def flush() -> None:
        if current is None or current["path"] is None:
            return
        if _cr_only(current, "ours"):
            ranges[current["path"]].extend(_cr_hunks(current))
            return
        start, count = current["start"], current["count"]
        if count == 0:
            if all(not t.strip() for t in current["theirs"]):
                return
            removed = frozenset(current["other"] + i for i, t in enumerate(current["theirs"]) if t.strip())
            ranges[current["path"]].append(Hunk(max(start, 1), start + 1, gap_of=removed))
            return
        blank = frozenset(start + i for i, t in enumerate(current["ours"]) if not t.strip())
        if len(blank) == count and all(not t.strip() for t in current["theirs"]):
            return
        ranges[current["path"]].append(Hunk(start, start + count - 1, blank))

    for line in _diff_lines(text):
        if line.startswith("diff --git "):
            flush()
            current = None
        elif line.startswith("--- ") and current is None:
            p = line[4:].rstrip("\t")
            old_path = None if p == "/dev/null" else _unquote(p).removeprefix("a/")
        elif line.startswith("+++ ") and current is None:
            p = line[4:].rstrip("\t")
            new_path = None if p == "/dev/null" else _unquote(p).removeprefix("b/")
            if (new_path if side == "new" else old_path) is None:
                gone = old_path if side == "new" else new_path
                notes.append(f"{gone}: only on the {'old' if side == 'new' else 'new'} side of the diff "
                             f"({'deleted' if side == 'new' else 'added'}), not in the indexed snapshot")
        elif line.startswith("@@ "):
            flush()
            m = _HUNK.match(line)
            if not m:
                current = None
                continue
            start, count = (int(m[3]), int(m[4] or 1)) if side == "new" else (int(m[1]), int(m[2] or 1))
            current = {"path": new_path if side == "new" else old_path, "start": start, "count": count,
                       "other": int(m[1]) if side == "new" else int(m[3]), "ours": [], "theirs": [],
                       "last": None, "no_eol": set()}
        elif current is not None and line[:1] == ours:
            current["ours"].append(line[1:])
            current["last"] = "ours"
        elif current is not None and line[:1] == theirs:
            current["theirs"].append(line[1:])
            current["last"] = "theirs"
        elif current is not None and line.startswith("\\") and current["last"]:
            current["no_eol"].add(current["last"])         # "\ No newline at end of file": of the line before
    flush()
    return dict(ranges), notes


def _diff_lines(text: str) -> list[str]:
    """A diff's lines: split at LF alone, as git counts lines (str.splitlines also splits at a form feed, a lone
    CR, U+2028 ...: a changed line starting with a form feed read as a blank one, and its hunk was skipped)."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _cr_only(hunk: dict[str, Any], side: str) -> bool:
    """Whether ``side`` of the hunk is a whole file whose lines end in lone CRs (classic Mac OS): one line to
    git, and the lines the indexer counts (discovery.decode gives it LFs)."""
    lines = hunk[side]
    return len(lines) == 1 and "\r" in lines[0] and side in hunk["no_eol"] and \
        (side == "theirs" or hunk["start"] == 1)


def _cr_hunks(hunk: dict[str, Any]) -> list[Hunk]:
    """The hunks of a file git sees as one line of lone-CR-separated lines, in the indexer's lines: the two
    sides diffed again, line by line (git's hunk made every change one at line 1, its first definition)."""
    ours, cr_theirs = hunk["ours"][0].split("\r"), _cr_only(hunk, "theirs")
    theirs = hunk["theirs"][0].split("\r") if cr_theirs else hunk["theirs"]
    other = 1 if cr_theirs else hunk["other"]
    out = []
    for tag, j1, j2, i1, i2 in difflib.SequenceMatcher(None, theirs, ours, autojunk=False).get_opcodes():
        if tag == "equal" or all(not t.strip() for t in theirs[j1:j2] + ours[i1:i2]):
            continue
        if i1 == i2:
            removed = frozenset(other + j for j in range(j1, j2) if theirs[j].strip())
            out.append(Hunk(max(i1, 1), i1 + 1, gap_of=removed))
        else:
            out.append(Hunk(i1 + 1, i2, frozenset(i + 1 for i in range(i1, i2) if not ours[i].strip())))
    return out


# the diff parse_diff reads, whatever the user's git config: a/ and b/ prefixes (diff.mnemonicPrefix made them
# c/ and i/, diff.noprefix none: every changed file "not indexed", the verdict COMPLETE), the files' own text (a
# textconv filter's lines are not the indexed ones), no color, no external diff tool
_DIFF = ("diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
         "--relative")


def _diff_targets(graph: Graph, repo: str, info: dict[str, Any], rev: str | None,
                  staged: bool) -> tuple[list[Target], dict[str, Any], list[str], list[Removed]]:
    root, commit = info.get("root"), info.get("commit")
    if not commit:
        raise InputError(f"{repo} was indexed from a directory without git: --diff / --staged need a git checkout")
    if not root or not Path(root).is_dir():
        raise SourceError(f"the indexed root of {repo} ({root}) is not there any more",
                          hint="re-index the checkout, or run from a machine that has it")
    check_commit(root, commit)       # gone (history rewritten): 409 commit_missing, not git's words as a 400
    base = None
    # --relative: paths relative to the indexed directory, as the graph's are, when it is a subdirectory of the
    # work tree (they were the top level's: every changed file "not indexed", and the verdict COMPLETE)
    if staged:
        args, side = [*_DIFF, "--cached", commit, "--"], "old"
    else:
        base = _commit_of(root, "HEAD" if rev is None else rev)
        args, side = [*_DIFF, base, commit, "--"], "new"
    text = _git(root, *args)
    ranges, notes = parse_diff(text, side)
    head = _git(root, "rev-parse", "HEAD").strip()
    if head != commit:
        notes.append(f"the checkout's HEAD ({head[:12]}) is not the indexed commit ({commit[:12]}): lines are "
                     f"those of the indexed commit")
    if staged:
        notes.append("staged changes are mapped through the indexed (old-side) lines; code they add that is not "
                     "in the index has no callers in the graph yet")
    diff_info = {"command": "git " + " ".join(args), "side": side,
                 "hunks": {p: [[h.start, h.end] for h in hs] for p, hs in sorted(ranges.items())}}
    files = {}
    for path in ranges:
        rows = graph.run("symbol_lookup_file", repo=repo, path=path, suffix="/" + path)
        exact = [r for r in rows if r["exact"]]
        if exact:
            files[path] = node_ref(exact[0]["node"], repo, commit)
        else:
            notes.append(f"{path}: changed but not indexed (skipped or not a parsed file)")
    found = symbols_in_lines(graph, repo, commit,
                             [(p, h.start, h.end) for p, hs in ranges.items() if p in files for h in hs])
    # --staged maps the indexed (old-side) lines: what it removes is among the targets, with its callers
    removed = _removed_definitions(graph, repo, root, base, commit, text, notes) if base else []
    # a hunk that only deletes whole definitions touches no neighbour (deleting B made C, below it, a target)
    gone = {(r.path, line) for r in removed for line in range(r.start_line, r.end_line + 1)}
    chosen: dict[str, Target] = {}
    for path, hs in sorted(ranges.items()):
        if path not in files:
            continue
        for h in hs:
            if h.gap_of and side == "new" and all((path, line) in gone for line in h.gap_of):
                continue
            s, e = h.start, h.end
            syms = found.get((path, s, e), [])
            module_lines = []
            for line in range(s, e + 1):
                node = innermost(syms, line)
                if node is None:
                    if line not in h.blank:
                        module_lines.append(line)
                elif node.id not in chosen:
                    where = f"{path}:{s}-{e}" if e > s else f"{path}:{s}"
                    chosen[node.id] = Target(node, f"diff touches {where}")
            if module_lines and files[path].id not in chosen:
                chosen[files[path].id] = Target(files[path],
                                                f"diff touches module-level code at {path}:{module_lines[0]}")
    return list(chosen.values()), diff_info, notes, removed


def _targets(graph: Graph, repo: str, info: dict[str, Any], target: str | None, rev: str | None, staged: bool,
             ) -> tuple[list[Target], Resolved | None, dict[str, Any] | None, list[str], list[Removed]]:
    commit = info.get("commit")
    if (rev is not None or staged) and target:
        raise InputError("give either a TARGET or --diff/--staged, not both")
    if rev is not None and staged:     # --staged ran alone, --diff REV silently dropped
        raise InputError("give either --diff REV or --staged, not both (--staged diffs the index against the "
                         "indexed commit)")
    if rev is not None or staged:
        targets, diff_info, notes, removed = _diff_targets(graph, repo, info, rev, staged)
        return targets, None, diff_info, notes, removed
    if not target:
        raise InputError("nothing to analyse: give a TARGET (symbol, file:line or file path), --diff REV or --staged")
    res = resolve_endpoint(graph, repo, target, commit=commit, allow_file=True)
    if res.node.label == "File" and res.how == "file":
        syms = symbols_in_lines(graph, repo, commit, [(res.node.path, 1, 10**9)]).get((res.node.path, 1, 10**9), [])
        targets = [Target(res.node, res.reason + " (its module-level code and importers)")]
        targets += [Target(s, f"defined in {res.node.path}") for s in syms]
        return targets, res, None, [], []
    targets = [Target(res.node, res.reason)]
    targets += [Target(v, f"another definition of {v.qualified_name} in {v.path} (overload or redefinition)")
                for v in res.variants]
    return targets, res, None, [], []


# -- definitions a diff removes -----------------------------------------------------------------------------------
# resolutions by a repository-unique name and nothing else (resolve.py's _NAME_ONLY). A removed definition of that
# name kept it from being unique at REV, so such an edge into another definition of the name is one the removal
# made: global_unique among top-level definitions, method_unique among methods when no top-level one has the name
_BY_UNIQUE_NAME = ("global_unique", "method_unique")
_OWN_OBJECT = frozenset({"self", "cls", "this", "super()", "super"})


def parse_removals(text: str) -> tuple[dict[str, list[tuple[int, int]]], dict[str, str | None]]:
    """The old-side line ranges ``git diff -U0`` output removes, by old path, and the old paths it takes away
    whole: deleted (None) or renamed (to the new path). A copy's hunks remove nothing from its source."""
    removed: dict[str, list[tuple[int, int]]] = defaultdict(list)
    gone: dict[str, str | None] = {}
    old: str | None = None
    copy = deleted = in_hunks = False
    for line in _diff_lines(text):
        if line.startswith("diff --git "):
            old, copy, deleted, in_hunks = None, False, False, False
        elif line.startswith("@@ "):
            in_hunks = True
            m = _HUNK.match(line)
            count = int(m[2]) if m and m[2] is not None else 1
            if m and old is not None and not copy and count:
                removed[old].append((int(m[1]), int(m[1]) + count - 1))
        elif in_hunks:
            continue                          # hunk lines ("--- x" may be a removed line "-- x")
        elif line.startswith("rename from "):
            old = _unquote(line[len("rename from "):])
            gone[old] = None
        elif line.startswith("rename to ") and old is not None:
            gone[old] = _unquote(line[len("rename to "):])
        elif line.startswith("copy from "):
            copy = True
        elif line.startswith("deleted file mode"):
            deleted = True
        elif line.startswith("--- "):
            p = line[4:].rstrip("\t")
            if p != "/dev/null":
                old = _unquote(p).removeprefix("a/")
                if deleted:
                    gone[old] = None
    return dict(removed), gone


def _blobs(root: str, commit: str, paths: Iterable[str]) -> dict[str, bytes]:
    """The contents of ``paths`` at ``commit`` (a SHA), read by one ``git cat-file --batch`` (no option, no
    path is ever an argument); a path that is no file there is left out. Paths are the indexed directory's
    (``./``: relative to ``root``, which may be a subdirectory of the work tree)."""
    wanted = [p for p in paths if "\n" not in p and "\r" not in p]
    if not wanted:
        return {}
    try:
        proc = subprocess.run(["git", "cat-file", "--batch"], cwd=root, capture_output=True, check=False,
                              input="".join(f"{commit}:./{p}\n" for p in wanted).encode("utf-8"))
    except OSError as exc:
        raise SourceError(f"cannot run git in {root}: {exc}") from exc
    if proc.returncode != 0:
        raise SourceError(f"git cat-file --batch failed in {root}: {proc.stderr.decode('utf-8', 'replace').strip()}")
    out, pos, found = proc.stdout, 0, {}
    for path in wanted:
        end = out.find(b"\n", pos)
        if end < 0:
            break
        header = out[pos:end].split(b" ")
        pos = end + 1
        if len(header) == 3 and re.fullmatch(rb"[0-9a-f]{40,64}", header[0]) and header[2].isdigit():
            size = int(header[2])
            if header[1] == b"blob":
                found[path] = out[pos:pos + size]
            pos += size + 1                                    # the contents and their newline
    return found


def _definitions_of(path: str, data: bytes) -> list[Any] | None:
    """The definitions the indexer would extract from ``data`` at ``path`` (graphrag_code.extract), or None for a
    file it would not parse (no language, a text format, binary, minified, generated, too large)."""
    from .config import DEFAULT_MAX_FILE_BYTES
    from .discovery import content_skip_reason, decode
    from .extract import extract
    from .languages import refine_language

    language = language_for_path(path)
    if language is None or len(data) > DEFAULT_MAX_FILE_BYTES:
        return None
    language = refine_language(language, path, data)
    if language not in LANGUAGES or content_skip_reason(path, data) is not None:
        return None
    text, _ = decode(data)
    return extract(text.encode("utf-8"), language).definitions


def _definitions_at(path: str, data: bytes, commit: str, notes: list[str]) -> list[Any] | None:
    try:
        return _definitions_of(path, data)
    except Exception as exc:  # a grammar crash on one file must not lose the rest of the answer
        notes.append(f"{path}: its definitions at {commit[:12]} could not be read ({type(exc).__name__}); what "
                     f"the diff removes there is not listed")
        return None


def _removed_definitions(graph: Graph, repo: str, root: str, base: str, commit: str, text: str,
                         notes: list[str]) -> list[Removed]:
    """The definitions of ``base`` (REV) that the diff ``text`` removes: those overlapping removed old-side lines
    (every one of a file deleted or renamed away) whose qualified name the indexed file at that path lacks, each
    with the callers at the indexed commit that still call its name (``_callers_of_removed``). A definition moved
    to another file or renamed is removed under its old name: callers that still name it there break."""
    from .languages import is_test_path

    lines, gone = parse_removals(text)
    paths = sorted({p for p in (*lines, *gone) if language_for_path(p) in LANGUAGES})
    if not paths:
        return []
    defs = {p: found for p, data in _blobs(root, base, paths).items()
            if (found := _definitions_at(p, data, base, notes))}
    if not defs:
        return []
    renamed = {p: gone[p] for p in defs if gone.get(p)}
    rows = {r["path"]: r for r in graph.run("defined_names", repo=repo, paths=sorted({*defs, *renamed.values()}))}
    present = {p: set(r["names"]) for p, r in rows.items() if r["indexed"] and p in defs}
    unindexed = _blobs(root, commit, [p for p in defs if p not in present])   # there, but skipped by the indexer
    for path, data in unindexed.items():
        present[path] = {d.qualified_name for d in _definitions_at(path, data, commit, notes) or []}
    removed: list[Removed] = []
    for path, found in sorted(defs.items()):
        whole = path not in present
        language = language_for_path(path) or ""
        seen: set[str] = set()
        for d in found:
            qualified = d.qualified_name or d.name
            if not d.name or qualified in seen or qualified in present.get(path, ()):
                continue
            if not whole and not any(d.start_line <= e and d.end_line >= s for s, e in lines.get(path, [])):
                continue
            seen.add(qualified)
            spec = LANGUAGES.get(language)
            is_test = is_test_path(language, path) or bool(spec and spec.test_name.match(d.name))
            new_path = renamed.get(path)
            moved_to = new_path if new_path and qualified in rows.get(new_path, {}).get("names", ()) else None
            removed.append(Removed(d.name, qualified, d.kind, path, d.start_line, d.end_line, base, is_test, whole,
                                   moved_to=moved_to, top_level=d.parent is None))
    _callers_of_removed(graph, repo, commit, removed)
    return removed


def _from_file(u: UnresolvedCall, r: Removed) -> bool:
    """Whether a call the graph binds to a library (``external:util``: ``from util import helper``, no file of
    that name at the indexed commit) may be bound to the removed definition's file or to it (``use function
    App\\helper``): the module's last name is the file's or the definition's."""
    return _last_segment(u.reason.removeprefix("external:")) in (posixpath.splitext(posixpath.basename(r.path))[0],
                                                                  r.name)


def _callers_of_removed(graph: Graph, repo: str, commit: str, removed: list[Removed]) -> None:
    """Fill each removed definition's callers from what the graph says at the indexed commit: unresolved calls
    of its name (not bound to an external module; for a definition that is no method, not on self / this), and
    calls resolution binds by that name alone to another definition of it in the same language."""
    names = sorted({r.name for r in removed if not _DUNDER.match(r.name)})    # dunders: the language calls them
    if not names:
        return
    found: dict[tuple[int, str, str, str], RemovedCaller] = {}
    for row in graph.run("unresolved_named", repo=repo, names=names):
        u = parse_unresolved(row["call"], node_ref(row["node"], repo, commit))
        if u is None or u.reason == "external:builtins":
            continue
        for i, r in enumerate(removed):
            if not _names_any(u.name, {r.name}) or _DUNDER.match(r.name) or u.external and not _from_file(u, r):
                continue
            if r.kind != "method" and u.receiver in _OWN_OBJECT:
                continue                         # `self.foo()` is no call of a function foo
            key = (i, u.node.id, "unresolved", u.label)
            c = found.setdefault(key, RemovedCaller(u.node, "unresolved", u.label, [], u.reason))
            c.lines.append(u.line)
            if u.reason not in c.reason.split(", "):
                c.reason += f", {u.reason}"
    for row in graph.run("calls_by_unique_name", repo=repo, names=names, methods=list(_BY_UNIQUE_NAME)):
        callee = node_ref(row["callee"], repo, commit)
        caller = node_ref(row["caller"], repo, commit)
        for i, r in enumerate(removed):
            if r.name != callee.name or language_for_path(callee.path) != language_for_path(r.path):
                continue
            if not (r.top_level or (row["resolved_by"] == "method_unique" and r.kind == "method")):
                continue
            key = (i, caller.id, "rebound", callee.id)
            found.setdefault(key, RemovedCaller(caller, "rebound", r.name, sorted(row["lines"] or []),
                                                row["resolved_by"], callee, row["confidence"]))
    for (i, *_), c in sorted(found.items(), key=lambda kv: (kv[0][0], kv[1].node.path, kv[1].lines)):
        c.lines = sorted(set(c.lines))
        removed[i].callers.append(c)


def _still_called(completeness: Completeness, removed: list[Removed]) -> None:
    """A removed definition that callers still call makes the answer no complete one: those callers are impacted
    (listed under ``removed``) and the graph cannot tell where their calls go now."""
    called = [r for r in removed if r.callers]
    if not called:
        return
    sites = sum(len(c.lines) for r in called for c in r.callers)
    nodes = {c.node.id for r in called for c in r.callers}
    named = ", ".join(r.qualified_name for r in called[:5]) + (" ..." if len(called) > 5 else "")
    reason = (f"{len(called)} definition(s) the diff removed ({named}) are still called: {sites} call site(s) in "
              f"{len(nodes)} caller(s) name them, unresolved now or bound by name alone to another definition; "
              f"those callers are impacted")
    if completeness.complete:
        completeness.reasons.pop(0)          # "no unresolved call ... has the name of the target": not the answer
        completeness.verdict = "lower_bound"
    completeness.reasons.insert(0, reason)


# -- entry points -------------------------------------------------------------------------------------------------
def entry_point_reasons(node: NodeRef, row: dict[str, Any]) -> list[str]:
    """Why a caller is an entry point: nothing calls it, it is main / __main__ / module code, a route or CLI
    command (decorator or name), or exported public API of a package entry file."""
    if node.is_test:
        return []
    reasons = []
    if node.label == "File":
        reasons.append("__main__" if row.get("main_guard") else "module code")
        return reasons
    head = row.get("head") or ""
    implicit = _DUNDER.match(node.name) or _PROPERTY.search(head)
    if not row.get("callers_in") and not row.get("dispatch_in") and not implicit:
        reasons.append("uncalled")
    if node.name == "main":
        reasons.append("main")
    decorators = "\n".join(ln for ln in head.splitlines()[:8] if ln.lstrip().startswith("@"))
    if _ROUTE_DECORATOR.search(decorators) or (node.kind == "function" and _ROUTE_NAME.search(node.name)):
        reasons.append("route")
    if _CLI_DECORATOR.search(decorators) or _CLI_NAME.search(node.name):
        reasons.append("cli")
    exported = row.get("exported")
    file_name = node.path.rsplit("/", 1)[-1]
    if exported and not node.name.startswith("_") and (file_name in _PACKAGE_ENTRY or not node.path.endswith(".py")):
        reasons.append("public api")
    return reasons


# -- the walk -----------------------------------------------------------------------------------------------------
def analyze_impact(graph: Graph, repo: str, target: str | None = None, *, diff: str | None = None,
                   staged: bool = False, depth: int = DEFAULT_DEPTH,
                   test_depth: int = DEFAULT_TEST_DEPTH) -> ImpactResult:
    """Transitive callers (and importers, for files) of ``target`` or of what a diff touches, up to ``depth``."""
    if depth < 1:
        raise InputError(f"depth must be at least 1, not {depth}")
    test_depth = max(test_depth, depth)
    info = repository(graph, repo)
    commit = info.get("commit")
    targets, resolution, diff_info, notes, removed = _targets(graph, repo, info, target, diff, staged)
    walk = _walk_callers(graph, repo, commit, targets, test_depth, notes)
    best = walk.best
    callers = sorted((c for c in best.values() if c.depth <= depth), key=lambda c: (c.depth, c.node.is_test, c.node.id))
    tests = sorted((c for c in best.values() if c.node.is_test), key=lambda c: (c.depth, c.node.id))
    if walk.frontier and walk.level >= test_depth:
        notes.append(f"tests were searched up to depth {test_depth}; {len(walk.frontier)} caller(s) at that depth "
                     f"have callers of their own")
    entry_points = [c for c in callers if c.entry_point]
    at_bound = [c for c in callers if c.depth == depth and c.has_callers and not c.node.is_test]
    if at_bound:
        notes.append(f"{len(at_bound)} caller(s) at depth {depth} are called in turn (raise --depth to see more)")
    importers = _walk_importers(graph, repo, commit, [t.node for t in targets if t.node.label == "File"], depth)
    tests_by_id = {c.node.id for c in tests}
    tests += [c for c in importers if c.node.is_test and c.node.id not in tests_by_id]
    edges_shown = [e for e in walk.edges if e.depth <= depth]
    completeness = _completeness(graph, repo, commit, targets, callers, edges_shown, depth, walk.truncated)
    _still_called(completeness, removed)
    return ImpactResult(repo, commit, info.get("root"), depth, targets, callers, importers, tests, entry_points,
                        completeness, resolution, test_depth, diff_info, notes, edges_shown, removed)


@dataclass
class _CallerWalk:
    """Callers found walking up from the targets: each one's best edge at its depth, every edge, and where the
    walk stopped (the last level's frontier, the level, whether it hit MAX_VISITED)."""
    best: dict[str, Caller]
    edges: list[Caller]
    frontier: list[str]
    level: int
    truncated: bool


def _walk_callers(graph: Graph, repo: str, commit: str | None, targets: list, test_depth: int,
                  notes: list[str]) -> _CallerWalk:
    """Breadth-first up the CALLS edges (and dispatch to overrides), one ``callers_step`` a level."""
    target_ids = {t.node.id for t in targets}
    nodes: dict[str, NodeRef] = {t.node.id: t.node for t in targets}
    best: dict[str, Caller] = {}
    edges: list[Caller] = []
    seen: set[tuple] = set()
    frontier = sorted(target_ids)
    truncated = False
    level = 0
    while frontier and level < test_depth:
        level += 1
        nxt: list[str] = []
        for r in graph.run("callers_step", ids=frontier):
            node = node_ref(r["caller"], repo, commit)
            nodes.setdefault(node.id, node)
            via = node_ref(r["via"], repo, commit) if r["via"] else None
            key = (node.id, r["target"], r["kind"], via.id if via else None)
            if key in seen:
                continue    # an override's edge the resolver wrote and the same dispatch found by the query
            seen.add(key)
            c = Caller(node, level, nodes[r["target"]], r["kind"], sorted(r["lines"] or []), r["confidence"],
                       r["resolved_by"], via, entry_point_reasons(node, {**r, "exported": r["caller"].get("exported")}),
                       bool(r["callers_in"] or r["dispatch_in"]))
            edges.append(c)
            if node.id in target_ids:
                continue
            prior = best.get(node.id)
            if prior is None:
                best[node.id] = c
                nxt.append(node.id)
            elif prior.depth == level and _strength(c) > _strength(prior):
                best[node.id] = c      # of the edges found at its depth, cite the most certain one
        frontier = sorted(set(nxt))
        if len(best) > MAX_VISITED:
            truncated = True
            notes.append(f"stopped walking up after {len(best)} callers (at depth {level})")
            break
    return _CallerWalk(best, edges, frontier, level, truncated)


def _walk_importers(graph: Graph, repo: str, commit: str | None, file_targets: list[NodeRef],
                    depth: int) -> list[Caller]:
    """The files importing the target files, transitively up to ``depth``."""
    importers: list[Caller] = []
    seen = {n.id for n in file_targets}
    frontier, lvl = [n.id for n in file_targets], 0
    by_id = {n.id: n for n in file_targets}
    while frontier and lvl < depth:
        lvl += 1
        nxt = []
        for r in graph.run("importers_step", ids=frontier):
            node = node_ref(r["importer"], repo, commit)
            by_id.setdefault(node.id, node)
            if node.id in seen:
                continue
            seen.add(node.id)
            importers.append(Caller(node, lvl, by_id[r["target"]], "import", sorted(r["lines"] or []), None, None))
            nxt.append(node.id)
        frontier = nxt
    return importers


def _strength(c: Caller) -> tuple:
    return (c.kind == "call", c.confidence or 0.0, -(c.lines[0] if c.lines else 0))


def _names_any(called: str, names: set[str]) -> bool:
    """An unresolved call's name is one of ``names``, or is a prefix (``visit_*``: a method looked up by a built
    name) one of them starts with."""
    if called.endswith("*"):
        return any(n.startswith(called[:-1]) for n in names)
    return called in names


def _completeness(graph: Graph, repo: str, commit: str | None, targets: list[Target], callers: list[Caller],
                  edges: list[Caller], depth: int, truncated: bool) -> Completeness:
    """The verdict, from unresolved same-name calls; ``edges``: every caller edge walked within the depth."""
    inner = [c.node for c in callers if c.depth < depth and c.node.label == "Symbol"]
    families = _constructor_families(graph, [*(t.node for t in targets), *inner])
    target_ids = {t.node.id for t in targets}
    # constructing the class (or a subclass) runs its constructor: an unresolved call of that name may too
    target_names = {t.node.name for t in targets if t.node.label == "Symbol" and t.node.name} | {
        n for i, f in families.items() if i in target_ids for n, _ in f.names} | {
        m for t in targets if (m := _mangled(t.node))}
    inner_names = {n.name for n in inner if n.name} | {
        n for i, f in families.items() if i not in target_ids for n, _ in f.names} | {
        m for n in inner if (m := _mangled(n))}
    aliases = _alias_names(graph, repo, [t.node for t in targets], inner)
    target_names |= {a for t in targets for a in aliases.get(t.node.id, ())}
    inner_names |= {a for n in inner for a in aliases.get(n.id, ())}
    inner_names -= target_names
    same, deeper, external = _unresolved_of(graph, repo, commit, target_names, inner_names)
    low = [c for c in edges if c.confidence is not None and c.confidence < LOW_CONFIDENCE]
    dispatch = [c for c in edges if c.kind == "dispatch" or (c.kind == "constructor" and c.via is not None
                                                             and c.via.id != c.calls.id.rsplit(".", 1)[0])]
    # the callers' own non-call references can only turn "complete" into "lower bound": searched when needed
    settled = bool(same or deeper or truncated)
    implicit, refs, unchecked = _implicit_uses(graph, repo, [t.node for t in targets], inner,
                                               search_callers=not settled, families=families)
    implicit = list(dict.fromkeys(implicit))      # overloads of one name: one line for them all
    reasons = list(implicit) + _reference_reasons(refs, unchecked)
    if same:
        names_hit = sorted({u.name for u in same})
        reasons.append(f"{len(same)} unresolved call(s) named {', '.join(names_hit)} may be callers the graph misses")
    if deeper:
        reasons.append(f"{len(deeper)} unresolved call(s) named like an intermediate caller may add callers at "
                       f"depth 2+")
    if truncated:
        reasons.append("the walk was cut (too many callers)")
    verdict = "lower_bound" if reasons else "complete"
    if not reasons:
        reasons.append("no unresolved call in the repository has the name of the target or of a caller within "
                       "the depth")
    reasons += _edge_caveats(edges, external, low, dispatch)
    return Completeness(verdict, reasons, same, deeper, external, low, dispatch, truncated, implicit, refs)


def _alias_names(graph: Graph, repo: str, *groups: list[NodeRef]) -> dict[str, set[str]]:
    """The other names a JavaScript/TypeScript function is reached by (`req.get = req.header = function
    header()`: `get`), by symbol id, from its file's stored facts: an unresolved `this.get()` may call it."""
    nodes = [n for g in groups for n in g
             if n.label == "Symbol" and language_for_path(n.path) in SCRIPT_LANGUAGES]
    if not nodes:
        return {}
    by_place = {(n.path, n.qualified_name, n.start_line): n.id for n in nodes}
    out: dict[str, set[str]] = defaultdict(set)
    for row in graph.run("file_facts", repo=repo, paths=sorted({n.path for n in nodes})):
        facts = json.loads(row["facts"] or "{}")
        defs = facts.get("defs") or []
        for i, other in facts.get("aliases") or []:
            node_id = by_place.get((row["path"], defs[i][2], defs[i][4])) if i < len(defs) else None
            if node_id is not None:
                out[node_id].add(other.rsplit(".", 1)[-1])
    return out


def _unresolved_of(graph: Graph, repo: str, commit: str | None, target_names: set[str],
                   inner_names: set[str]) -> tuple[list[UnresolvedCall], list[UnresolvedCall], int]:
    """The unresolved calls naming a target (``same``) or a caller within the depth (``deeper``), and how many
    named either but went into an external module."""
    same: list[UnresolvedCall] = []
    deeper: list[UnresolvedCall] = []
    external = 0
    both = target_names | inner_names
    for r in graph.run("unresolved_named", repo=repo, names=sorted(both)) if both else ():
        u = parse_unresolved(r["call"], node_ref(r["node"], repo, commit))
        if u is None or not _names_any(u.name, both):
            continue
        if u.external:
            external += 1
        elif _names_any(u.name, target_names):
            same.append(u)
        else:
            deeper.append(u)
    return same, deeper, external


def _reference_reasons(refs: list[dict[str, Any]], unchecked: int) -> list[str]:
    """Why the non-call references found (``_implicit_uses``) make the answer a lower bound."""
    reasons = []
    for kind, reason in _BY_TEXT.items():
        found = [r for r in refs if r["kind"] == kind]
        if found:
            reasons.append(reason.format(n=len(found), names=", ".join(sorted({r["name"] for r in found}))))
    refs = [r for r in refs if r["kind"] not in _BY_TEXT]
    classes = [r for r in refs if r["role"] == "class"]
    if classes:
        reasons.append(f"{len(classes)} non-call reference(s) to a class whose construction runs a constructor "
                       f"within the depth ({', '.join(sorted({r['name'] for r in classes}))}): a class handed on "
                       f"as a value is constructed where the graph does not follow it")
    for role in ("target", "caller"):
        what = "the target" if role == "target" else "callers within the depth"
        for kind, result, where in (("generator", "iterator", "iterated"), ("coroutine", "coroutine", "awaited")):
            handed = [r for r in refs if r["role"] == role and r["kind"] == kind]
            if handed:
                named = ", ".join(sorted({r["name"] for r in handed}))
                reasons.append(f"{len(handed)} call(s) of {kind}(s) among {what} ({named}) keep, return or hand on "
                               f"the {result}: the body runs where that is {where}, which the graph does not follow")
        mine = [r for r in refs if r["role"] == role and r["kind"] not in ("generator", "coroutine")]
        if mine:
            named = ", ".join(sorted({r["name"] for r in mine}))
            reasons.append(f"{len(mine)} non-call reference(s) to {what} ({named}): passed, stored or decorating "
                           f"as a value; calls made through them are in the graph only where a parameter it is "
                           f"handed to is called, or a library function that calls it (sorted, re.sub) takes it")
    if unchecked:
        reasons.append(f"{unchecked} caller name(s) were not searched for non-call references (too many)")
    return reasons


def _edge_caveats(edges: list[Caller], external: int, low: list[Caller], dispatch: list[Caller]) -> list[str]:
    """What may make the callers found more than the real ones: uncertain edges, dispatch, reflection."""
    caveats = []
    if external:
        caveats.append(f"{external} same-name call(s) into external modules were not counted")
    if low:
        caveats.append(f"{len(low)} call edge(s) walked have confidence < {LOW_CONFIDENCE}: they may be false")
    if dispatch:
        caveats.append(f"{len(dispatch)} call edge(s) reach a callee only through dynamic dispatch (a base-class "
                       f"method it overrides, or an override of the placeholder it is): they may not reach it at "
                       f"run time")
    looked_up = [c for c in edges if c.resolved_by == "reflective"]
    if looked_up:
        caveats.append(f"{len(looked_up)} call edge(s) reach a callee through a method looked up by a built name "
                       f"(getattr(self, \"visit_\" + kind)): each method of that name prefix may run there, or not")
    return caveats


def _constructor_families(graph: Graph, nodes: Iterable[NodeRef]) -> dict[str, ConstructorFamily]:
    """The Python ``__init__`` and Ruby ``initialize`` methods among ``nodes``, each with its
    ``ConstructorFamily``: an ancestor's ``cls(...)`` may construct the class or a subclass (its own and its
    subclasses' are calls the graph has, to the class they are in); ``type(self)(...)`` /
    ``self.__class__(...)`` (Ruby: ``self.class.new``) anywhere in the family may too."""
    language = {n.id: lang for n in nodes if n.kind == "method"
                and (lang := language_for_path(n.path or "")) in _CONSTRUCTORS and n.name == _CONSTRUCTORS[lang]}
    families = {}
    for row in graph.run("constructor_family", ids=sorted(language)) if language else []:
        lang = language[row["id"]]
        dynamic = sorted({m["name"] for m in row["methods"] if _builds_its_class(m["text"] or "", lang, m["above"])})
        families[row["id"]] = ConstructorFamily(sorted((c["name"], c["path"]) for c in row["classes"]), dynamic)
    return families


def _builds_its_class(text: str, language: str, above: bool) -> bool:
    """Whether a method's text constructs a class known only at run time: its own (``type(self)(...)``,
    ``self.class.new``) or, in an ancestor's class method, whichever it is called on (``cls(...)``)."""
    code = code_only(text, language)
    if language == "ruby":
        return bool(_RUBY_RUNTIME_CLASS_CALL.search(code))
    return bool(_RUNTIME_CLASS_CALL.search(code) or (above and _CLS_CALL.search(code)))


