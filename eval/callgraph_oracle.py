"""Dynamic call-graph oracle: how accurate are the static CALLS edges, and how much of the real impact does
`impact` find? Measured on Python packages with their own test suites (``TARGETS``): click 8.1.7 (annotated
throughout; the default, and CI's gate), Python-Markdown 3.7 (partly annotated, processors registered by
name and run through base-class receivers) and 3.3.7 (the same code unannotated), and Jinja2 3.1.4 (a compiler:
node classes whose method names collide, visitors reached through ``getattr``).

    .venv/bin/python eval/callgraph_oracle.py              # click: fetch, record, index, evaluate; prints the report
    .venv/bin/python eval/callgraph_oracle.py --package all --compare --json eval/.corpus/oracle/report.json

Steps, per package (everything under eval/.corpus/oracle/, git-ignored):

1. ``pip download --no-deps --no-binary :all: click==8.1.7`` (the sdist, which carries the tests), extracted
   and committed to a git repository with a fixed identity and date, so the indexed commit is reproducible.
2. A child process runs the package's test suite (pytest, or unittest discovery for Markdown) with the sdist's
   copy first on ``sys.path`` under ``sys.setprofile`` (call events: callee code object -> calling frame and its
   current line) and ``sys.settrace`` restricted to the package's and the tests' code (executed lines). Only
   calls whose callee is in the package (``src/click``, ``markdown``) or ``tests/`` (the traced code) are kept.
3. The checkout is indexed as ``oracle-<name>-<version>`` (``-lsp`` with the language server) with
   ``index_repository``. A re-run parses nothing and keeps the edges unless the extractor version changed
   (bump it with any change to extraction or resolution, as ``config.EXTRACTOR_VERSION`` says).
4. Runtime calls are mapped to indexed symbols: the caller by the calling frame's code object (the module's
   code is the file; a decorator or default value runs in the scope around its definition, not in the
   definition whose line range holds it), for lambdas and comprehensions by the calling line (innermost symbol
   containing it, else the file's module-level code, as the extractor attributes call sites); the callee by its code object
   (innermost symbol containing ``co_firstlineno`` whose name is ``co_name``; lambdas/comprehensions are not
   definitions and are dropped, class bodies running at import are not calls and are dropped). A static edge to
   a class (``Foo()``) matches a runtime call of ``__init__``/``__new__``/``__post_init__`` of that class or an
   ancestor (via INHERITS), and such a runtime call matches a static edge to the class or a subclass.

Report (numbers only, nothing is tuned to them):

- CALLS precision per ``resolved_by``: over static edges from the package whose call-site line ran in the
  tests ("testable"), the share whose (caller, callee) pair was observed at run time. Constructor edges to
  classes with no Python-level __init__/__new__ anywhere up their in-repo ancestry cannot be observed and are
  counted apart; so are edges to generator functions (a ``yield`` in their own body; ``@contextmanager`` ones
  too): calling one runs none of its code, its frame first runs under whatever resumes it (``next()``,
  contextlib's ``__enter__``), never under the calling line; and edges into code the run could not call: outside
  the package and ``tests/`` (``examples/``, ``docs/``: not traced) or in a file of which no line ran
  (``_winconsole.py`` on Linux, ``tests/typing/`` which pytest never imports). A line counts as run when a frame
  other than a lambda's ran it: ``x = f(lambda: sys.stdin)`` at module level ran at import (before tracing), and
  the lambda running later does not make the call of ``f`` testable; nor does a call of a function make its
  ``def`` line (a decorated one's first decorator line) run: the decorator ran at import. An edge to an override that the tests never
  ran from that call site counts as wrong, although the code may run it (a processor no test registers).
- CALLS recall: over runtime (caller, callee) pairs inside the package (but those into generator functions,
  which record who resumed the generator, not who called it), the share the static graph has; misses
  are classified by what the static side has at the runtime call-site line(s): an unresolved call of that name
  (by reason), a call of that name resolved to another definition, or no call of that name at all (implicit
  calls: dunder methods, properties, callbacks held in variables, decorator wrappers).
- Impact recall at depth 1-3: for sampled targets with runtime callers, the share of their runtime transitive
  callers (inside the package, over the runtime pairs, up to depth d) that ``analyze_impact(depth=3)`` lists
  within depth d; and how often a "complete" verdict was in fact complete against the oracle.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent
ROOT = EVAL_DIR.parent
WORK = EVAL_DIR / ".corpus" / "oracle"
TESTS = "tests/"
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "graphrag-oracle", "GIT_AUTHOR_EMAIL": "oracle@graphrag.invalid",
    "GIT_COMMITTER_NAME": "graphrag-oracle", "GIT_COMMITTER_EMAIL": "oracle@graphrag.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+0000",
}
CONSTRUCTORS = ("__init__", "__new__", "__post_init__")
# bumped when what the recorder writes changes (the cached runtime-<package>-<version>.json is recorded anew);
# 2: a call event's own line (the `def` line, a decorated function's first decorator) no longer counts as run
RECORDER_VERSION = 2


@dataclass(frozen=True)
class Target:
    """A Python package whose sdist carries its test suite; its tests are the oracle."""
    name: str          # PyPI name (and import name)
    version: str
    pkg: str           # the package's directory in the sdist, with a trailing slash
    path_entry: str    # what goes first on sys.path so the tests import this copy ("" = the sdist's root)
    runner: str        # "pytest", "unittest" (discovery under tests/) or "django" (tests/runtests.py LABELS)
    note: str = ""
    deps: tuple[str, ...] = ()          # what the tests need besides the venv, pip-installed beside the checkout
    test_labels: tuple[str, ...] = ()   # runner "django": the test apps to run
    large: bool = False                 # not in --package all (minutes to record and index)

    @property
    def label(self) -> str:
        return f"{self.name}-{self.version}"

    @property
    def checkout(self) -> Path:
        return WORK / self.label

    @property
    def repo(self) -> str:
        return f"oracle-{self.label}"

    @property
    def deps_dir(self) -> Path:
        return WORK / f"deps-{self.label}"


TARGETS = {
    "click": Target("click", "8.1.7", "src/click/", "src", "pytest",
                    "annotated throughout (typing on parameters, returns and attributes)"),
    # Python-Markdown: class-based processors registered by name and reached through self.md / self.parser, only
    # partly annotated, unittest suite with no dependencies
    "markdown": Target("markdown", "3.7", "markdown/", "", "unittest",
                       "partly annotated; processors reached through untyped attributes"),
    # the same package before its annotations (3.5 added them): where names cannot type receivers
    "markdown-untyped": Target("markdown", "3.3.7", "markdown/", "", "unittest", "the same code unannotated"),
    # Jinja2: node classes overriding the same methods (as_const), visitors and a parser dispatching by built names
    # (getattr(self, f"visit_{...}")); pytest, MarkupSafe from our own virtualenv
    "jinja2": Target("jinja2", "3.1.4", "src/jinja2/", "src", "pytest",
                     "annotated; methods overridden in many node classes, visitors reached through getattr"),
    # Django: 474k lines, barely annotated, ORM querysets and managers built by metaclasses and descriptors; 30
    # of its test apps (about 8,000 tests: the ORM, forms, templates, URLs, requests, auth, sessions)
    "django": Target("django", "5.1.4", "django/", "", "django",
                     "unannotated, large; 30 test apps (ORM, forms, templates, URLs, HTTP, auth)",
                     deps=("asgiref==3.8.1", "sqlparse==0.5.2"),
                     test_labels=("basic", "queries", "lookup", "expressions", "aggregation", "annotations",
                                  "model_fields", "model_forms", "forms_tests", "template_tests",
                                  "urlpatterns_reverse", "utils_tests", "requests_tests", "responses",
                                  "middleware", "csrf_tests", "auth_tests", "sessions_tests", "signing",
                                  "validators", "serializers", "many_to_one", "many_to_many", "m2m_through",
                                  "custom_managers", "select_related", "prefetch_related", "transactions",
                                  "update", "delete"),
                     large=True),
}


# -- 1. fetch -------------------------------------------------------------------------------------------------------
def fetch(target: Target, force: bool = False) -> Path:
    checkout = target.checkout
    if checkout.joinpath(".git").is_dir() and not force and (not target.deps or target.deps_dir.is_dir()):
        return checkout
    downloads = WORK / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)

    def sdist() -> Path | None:          # `Markdown-3.3.7.tar.gz`: older sdists keep the project's capitals
        return next((p for p in downloads.glob("*.tar.gz") if p.name.lower() == f"{target.label}.tar.gz"), None)

    if sdist() is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                        f"{target.name}=={target.version}", "-d", str(downloads)], check=True)
    if checkout.exists():
        shutil.rmtree(checkout)
    with tarfile.open(sdist()) as tar:
        top = tar.getnames()[0].split("/")[0]
        tar.extractall(WORK, filter="data")
    if WORK / top != checkout:
        (WORK / top).rename(checkout)
    env = {**os.environ, **GIT_IDENTITY}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", f"{target.name} {target.version} sdist"]):
        subprocess.run(["git", *args], cwd=checkout, check=True, env=env)
    if target.deps:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target.deps_dir),
                        *target.deps], check=True)
    return checkout


# -- 2. record (runs in a child process) -------------------------------------------------------------------------
def _record_child(target: Target, root: str, out: str) -> None:
    import importlib
    import threading

    root = os.path.realpath(root) + os.sep
    pkg, tests = root + target.pkg.replace("/", os.sep), root + TESTS.replace("/", os.sep)
    sys.path.insert(0, root + target.path_entry)
    if target.deps:
        sys.path.insert(1, str(target.deps_dir))
    module = importlib.import_module(target.name)
    if not os.path.realpath(module.__file__).startswith(pkg):
        raise SystemExit(f"imported {target.name} from {module.__file__}, not from {pkg}")
    calls: set[tuple] = set()
    lines: set[tuple] = set()

    def profile(frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        fn = code.co_filename
        if not (fn.startswith(pkg) or fn.startswith(tests)):
            return
        back = frame.f_back
        if back is None:
            return
        bfn = back.f_code.co_filename
        if bfn.startswith(pkg) or bfn.startswith(tests):
            calls.add((bfn[len(root):], back.f_lineno, fn[len(root):], code.co_firstlineno, code.co_name,
                       back.f_code.co_firstlineno, back.f_code.co_name))

    def local(frame, event, arg):
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def trace(frame, event, arg):
        # a call's own line is not recorded as run: it is the `def` line, or a decorated function's first
        # decorator (Python 3.11), which ran when the module was imported, maybe before this trace began
        fn = frame.f_code.co_filename
        if frame.f_code.co_name == "<lambda>":
            return None           # its line ran as the lambda's body, not as the statement that made it
        if fn.startswith(pkg) or fn.startswith(tests):
            return local
        return None

    os.chdir(root)
    threading.setprofile(profile)
    threading.settrace(trace)
    sys.setprofile(profile)
    sys.settrace(trace)
    try:
        status = _run_tests(target, root, tests)
    finally:
        sys.setprofile(None)
        sys.settrace(None)
    Path(out).write_text(json.dumps({
        "pytest_status": int(status), "python": sys.version.split()[0],
        "calls": sorted(calls), "lines": sorted((f[len(root):], ln) for f, ln in lines)}))


def _run_tests(target: Target, root: str, tests: str) -> int:
    """The test suite's exit status (test modules are imported here, under tracing, like pytest's collection)."""
    if target.runner == "unittest":
        import io
        import unittest

        suite = unittest.defaultTestLoader.discover(tests, top_level_dir=root)
        result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
        print(f"[oracle] unittest: {result.testsRun} tests, {len(result.failures)} failures, "
              f"{len(result.errors)} errors, {len(result.skipped)} skipped", file=sys.stderr)
        return 0 if result.wasSuccessful() else 1
    if target.runner == "django":
        import runpy

        sys.argv = ["runtests.py", *target.test_labels, "--parallel", "1", "-v", "0"]
        sys.path.insert(0, tests.rstrip(os.sep))   # as `python tests/runtests.py` would: test_sqlite, the apps
        try:
            runpy.run_path(os.path.join(tests, "runtests.py"), run_name="__main__")
        except SystemExit as exc:
            return int(exc.code or 0)
        return 0
    import pytest

    return int(pytest.main([tests, "-q", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning"]))


def record(target: Target, force: bool = False) -> dict:
    out = WORK / f"runtime-{target.label}-{RECORDER_VERSION}.json"
    if not out.is_file() or force:
        started = time.perf_counter()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        key = next(k for k, t in TARGETS.items() if t is target)
        subprocess.run([sys.executable, __file__, "--record-child", key, str(target.checkout), str(out)],
                       check=False, env=env)
        print(f"[oracle] recorded the test suite in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return json.loads(out.read_text())


# -- 3. index -------------------------------------------------------------------------------------------------------
def index(graph, checkout: Path, repo: str, lsp: bool = False) -> tuple[dict, dict]:
    """Index the checkout as ``repo`` (with the Python language server when ``lsp``); returns the graph dump
    and the index summary."""
    from graphrag_code.config import IndexSettings
    from graphrag_code.indexer import index_repository

    # always run: unchanged files are not parsed again, but resolution is redone with the current resolver
    settings = IndexSettings(lsp_languages=("python",) if lsp else ())
    summary = index_repository(graph, checkout, name=repo, settings=settings)
    return graph.run("repo_dump", repo=repo)[0], summary.to_dict()


# -- 4. evaluate ----------------------------------------------------------------------------------------------------
class Symbols:
    def __init__(self, nodes: list[dict]) -> None:
        self.by_id = {}
        self.by_path: dict[str, list[dict]] = defaultdict(list)
        for n in nodes:
            p = n["props"]
            if "Symbol" in n["labels"]:
                self.by_id[p["id"]] = p
                self.by_path[p["path"]].append(p)
            elif "File" in n["labels"]:
                self.by_id[p["id"]] = p
        self.starts = {}
        for path, syms in self.by_path.items():
            syms.sort(key=lambda s: s["start_line"])
            self.starts[path] = [s["start_line"] for s in syms]

    def containing(self, path: str, line: int) -> list[dict]:
        syms = self.by_path.get(path, [])
        k = bisect.bisect_right(self.starts.get(path, []), line)
        return [s for s in syms[:k] if s["end_line"] >= line]

    def caller(self, repo: str, path: str, line: int, code_first: int | None = None,
               code_name: str | None = None) -> str:
        """The symbol that made a call from ``line``: the one whose code object ran it (``code_first``,
        ``code_name``: a decorator or a default value runs in the scope around the definition it belongs to,
        although its line is inside that definition's range), else the innermost symbol containing the line
        (lambdas and comprehensions have code objects of their own but are not definitions)."""
        if code_name == "<module>":
            return f"{repo}:{path}"
        if code_name is not None and not code_name.startswith("<"):
            inside = [s for s in self.containing(path, code_first) if s["name"] == code_name]
            if inside:
                return min(inside, key=lambda s: (s["end_line"] - s["start_line"], -s["start_line"]))["id"]
        inside = self.containing(path, line)
        if not inside:
            return f"{repo}:{path}"
        return min(inside, key=lambda s: (s["end_line"] - s["start_line"], -s["start_line"]))["id"]

    def callee(self, path: str, first: int, name: str) -> tuple[str | None, str]:
        if name.startswith("<"):
            return None, "not-a-definition"
        inside = [s for s in self.containing(path, first) if s["name"] == name]
        if not inside:
            return None, "unmapped"
        best = min(inside, key=lambda s: (s["end_line"] - s["start_line"], -s["start_line"]))
        if best["kind"] == "class":
            return None, "class-body"
        return best["id"], "ok"


def generator_functions(syms: "Symbols", root: Path) -> set[tuple[str, int]]:
    """(path, start_line) of the symbols that are generator functions: a ``yield`` in their own body (not in a
    nested function or lambda); ``@contextmanager`` ones among them."""
    import ast

    def yields(fn: ast.AST) -> bool:
        todo = list(ast.iter_child_nodes(fn))
        while todo:
            node = todo.pop()
            if isinstance(node, (ast.Yield, ast.YieldFrom)):
                return True
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                todo.extend(ast.iter_child_nodes(node))
        return False

    out = set()
    by_path: dict[str, list[dict]] = defaultdict(list)
    for sym in syms.by_id.values():
        if sym.get("kind") in ("function", "method"):
            by_path[sym["path"]].append(sym)
    for path, symbols in by_path.items():
        try:
            tree = ast.parse((root / path).read_text())
        except (OSError, SyntaxError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and yields(node):
                for sym in symbols:
                    if sym["name"] == node.name and sym["start_line"] <= node.lineno <= sym["end_line"]:
                        out.add((path, sym["start_line"]))
    return out


def _lower_bound_kinds(c) -> list[str]:
    """The kinds of reason behind a "lower bound" verdict (``impact.Completeness``), for the report."""
    kinds = []
    if c.unresolved_same_name:
        kinds.append("unresolved call of the target's name")
    if c.unresolved_deeper:
        kinds.append("unresolved call of a caller's name")
    if any("a class known only at run time" in note for note in c.implicit):
        kinds.append("constructor of a class a cls()/type(self)() may build")
    if any("which may keep the function" in note for note in c.implicit):
        kinds.append("decorated with a decorator that may keep it (a registry)")
    if any("a class known only at run time" not in note and "which may keep the function" not in note
           for note in c.implicit):
        kinds.append("dunder, property or file protocol (called without call syntax)")
    kinds += sorted({f"{r['kind']} reference to the {r['role']}" for r in c.value_references})
    if c.truncated:
        kinds.append("walk cut")
    return kinds or ["other"]


def evaluate(graph, target: Target, dump: dict, runtime: dict, n_targets: int, seed: int, repo: str,
             min_confidence: float = 0.0, examples: int = 5) -> dict:
    """The report; with ``min_confidence``, only CALLS edges at least that confident count (and ``n_targets``
    may be 0 to skip the impact part); ``examples`` missed pairs are listed per reason."""
    syms = Symbols(dump["nodes"])
    executed = {tuple(x) for x in runtime["lines"]}
    statuses: Counter[str] = Counter()
    rt_pairs: dict[tuple[str, str], set[int]] = defaultdict(set)    # (caller, callee) -> call-site lines
    for caller_path, line, callee_path, first, name, *calling_code in runtime["calls"]:
        callee, status = syms.callee(callee_path, first, name)
        statuses[status] += 1
        if callee is None:
            continue
        rt_pairs[(syms.caller(repo, caller_path, line, *calling_code), callee)].add(line)
    calls = [e for e in dump["edges"] if e["type"] == "CALLS" and e["props"].get("confidence", 1) >= min_confidence]
    classes = _Classes(dump["edges"], syms)
    generators = generator_functions(syms, target.checkout)
    precision = _calls_precision(target.pkg, calls, syms, classes, executed, set(rt_pairs), generators, examples)
    recall = _calls_recall(target.pkg, dump, calls, syms, classes, rt_pairs, generators, repo, examples)
    impact, sampled = _impact_recall(graph, target.pkg, rt_pairs, n_targets, seed, repo, examples)
    return {"package": target.label, "runtime": {"pytest_status": runtime["pytest_status"], "python": runtime["python"],
                        "call_events_distinct": len(runtime["calls"]), "mapping": dict(statuses),
                        "pairs": len(rt_pairs), "executed_lines": len(executed)},
            "static": {"calls_edges": len(calls)},
            "calls_precision": precision, "calls_recall": recall, "impact_recall": impact,
            "targets_sampled": sampled}


class _Classes:
    """The static class hierarchy (INHERITS / IMPLEMENTS edges): ancestors, descendants, constructors."""

    def __init__(self, edges: list[dict], syms: Symbols) -> None:
        self.syms = syms
        self.parents: dict[str, set[str]] = defaultdict(set)                  # class -> base classes
        self.children: dict[str, set[str]] = defaultdict(set)
        for e in edges:
            if e["type"] in ("INHERITS", "IMPLEMENTS"):
                self.parents[e["src"]].add(e["dst"])
                self.children[e["dst"]].add(e["src"])

    @staticmethod
    def _closure(start: str, step: dict[str, set[str]]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for b in step.get(todo.pop(), ()):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    def ancestors(self, cls: str) -> set[str]:
        return self._closure(cls, self.parents)

    def descendants(self, cls: str) -> set[str]:
        return self._closure(cls, self.children)

    def constructors(self, cls: str) -> set[str]:
        return {f"{a}.{m}" for a in self.ancestors(cls) for m in CONSTRUCTORS if f"{a}.{m}" in self.syms.by_id}


def _in_pkg(pkg: str, node_id: str) -> bool:
    return node_id.split(":", 1)[1].startswith(pkg)


def _calls_precision(pkg: str, calls: list[dict], syms: Symbols, classes: _Classes, executed: set,
                     rt_set: set[tuple[str, str]], generators: set, examples: int) -> dict:
    """Per resolved_by: static edges from the package whose call-site line ran, and how many the run showed."""
    ran_files = {path for path, _line in executed}
    prec: dict[str, Counter] = defaultdict(Counter)
    wrong_examples: dict[str, list[str]] = defaultdict(list)   # static edges the run never showed
    for e in calls:
        src_path = e["src"].split(":", 1)[1].split("#", 1)[0]
        if not src_path.startswith(pkg):
            continue
        by = e["props"].get("resolved_by", "?")
        prec[by]["edges"] += 1
        if not any((src_path, ln) in executed for ln in e["props"].get("lines", [])):
            continue
        dst = syms.by_id.get(e["dst"], {})
        if not dst.get("path", "").startswith((pkg, TESTS)) or dst.get("path") not in ran_files:
            # only calls into the package and tests/ are recorded, and only code that was loaded can be called: an
            # edge into examples/, docs/, a Windows-only module or a file pytest never imports cannot be seen
            prec[by]["unobservable_outside_traced_code"] += 1
            continue
        if (dst.get("path"), dst.get("start_line")) in generators:
            # a generator function: its frame first runs under whatever resumes it (next(), contextlib's
            # __enter__), never under the calling line, so the pair cannot be seen at run time
            prec[by]["unobservable_generator"] += 1
            continue
        if dst.get("kind") == "class":
            ctors = classes.constructors(e["dst"])
            if not ctors:
                prec[by]["unobservable_constructor"] += 1
                continue
            ok = any((e["src"], c) in rt_set for c in ctors) or (e["src"], e["dst"]) in rt_set
        else:
            ok = (e["src"], e["dst"]) in rt_set
        prec[by]["testable"] += 1
        prec[by]["confirmed"] += int(ok)
        if not ok and len(wrong_examples[by]) < examples:
            wrong_examples[by].append(f"{src_path}#{e['src'].split('#', 1)[-1]} -> {dst.get('path')}#"
                                      f"{e['dst'].split('#', 1)[-1]} @ {sorted(e['props'].get('lines', []))[:3]}")
    precision = {by: {**c, "precision": round(c["confirmed"] / c["testable"], 3) if c["testable"] else None,
                      **({"unconfirmed_examples": wrong_examples[by]} if wrong_examples[by] else {})}
                 for by, c in sorted(prec.items())}
    tot = Counter()
    for c in prec.values():
        tot.update(c)
    precision["ALL"] = {**tot, "precision": round(tot["confirmed"] / tot["testable"], 3) if tot["testable"] else None}
    return precision


def _calls_recall(pkg: str, dump: dict, calls: list[dict], syms: Symbols, classes: _Classes,
                  rt_pairs: dict[tuple[str, str], set[int]], generators: set, repo: str, examples: int) -> dict:
    """Of the runtime (caller, callee) pairs inside the package, how many a static edge has; why each miss."""
    static_pairs = {(e["src"], e["dst"]) for e in calls}
    unresolved = {n["props"]["id"]: n["props"].get("unresolved_calls") or [] for n in dump["nodes"]
                  if n["props"].get("unresolved_calls")}
    static_at: dict[tuple[str, int], list[str]] = defaultdict(list)    # (src, line) -> dst ids
    for e in calls:
        for ln in e["props"].get("lines", []):
            static_at[(e["src"], ln)].append(e["dst"])
    recall_c: Counter[str] = Counter()
    misses: Counter[str] = Counter()
    miss_examples: dict[str, list[str]] = defaultdict(list)
    for (src, dst), lines in sorted(rt_pairs.items()):
        if not (_in_pkg(pkg, src) and _in_pkg(pkg, dst)):
            continue
        if (syms.by_id[dst]["path"], syms.by_id[dst]["start_line"]) in generators:
            recall_c["generator_resumes"] += 1    # who resumed the generator, not who called it
            continue
        recall_c["runtime_pairs"] += 1
        name = syms.by_id[dst]["name"]
        cls = syms.by_id[dst]["parent_id"] if name in CONSTRUCTORS else None
        below = classes.descendants(cls) if cls is not None else set()
        if (src, dst) in static_pairs or any((src, d) in static_pairs for d in below):
            recall_c["found"] += 1
            continue
        names = {name} | {syms.by_id[d]["name"] for d in below if d in syms.by_id}
        why = _miss_reason(src, lines, names, unresolved, static_at, syms, repo)
        misses[why] += 1
        if len(miss_examples[why]) < examples:
            miss_examples[why].append(f"{src.split(':', 1)[1]} -> {dst.split(':', 1)[1]} @ {sorted(lines)[:3]}")
    syntactic = recall_c["runtime_pairs"] - misses["no call of that name at the call site"]
    return {"runtime_pairs": recall_c["runtime_pairs"], "found": recall_c["found"],
            "generator_resumes_left_out": recall_c["generator_resumes"],
            "recall": round(recall_c["found"] / recall_c["runtime_pairs"], 3) if recall_c["runtime_pairs"] else None,
            "recall_where_a_call_of_that_name_exists": round(recall_c["found"] / syntactic, 3) if syntactic else None,
            "misses": dict(misses.most_common()), "miss_examples": dict(miss_examples)}


def _miss_reason(src: str, lines: set[int], names: set[str], unresolved: dict, static_at: dict, syms: Symbols,
                 repo: str) -> str:
    """Why a runtime pair has no static edge: the call stayed unresolved (and why), the call went to another
    definition of that name, or no call of that name is at the call site."""
    from graphrag_code.paths import node_ref, parse_unresolved

    node = node_ref({**syms.by_id.get(src, {"id": src}), "label": "Symbol" if "#" in src else "File"}, repo, None)
    for entry in unresolved.get(src, []):
        u = parse_unresolved(entry, node)
        if u and u.line in lines and u.name in names:
            return "unresolved:" + u.reason.split(":")[0]
    others = [d for ln in lines for d in static_at.get((src, ln), []) if syms.by_id.get(d, {}).get("name") in names]
    return "resolved to another definition" if others else "no call of that name at the call site"


def _runtime_depths(rt_callers: dict[str, set[str]], t: str) -> dict[str, int]:
    """The runtime callers of ``t`` up to depth 3, each at the depth it was first reached."""
    runtime_depth: dict[str, int] = {}
    frontier, d = {t}, 0
    while frontier and d < 3:
        d += 1
        nxt = set()
        for x in frontier:
            for c in rt_callers.get(x, ()):
                if c not in runtime_depth and c != t:
                    runtime_depth[c] = d
                    nxt.add(c)
        frontier = nxt
    return runtime_depth


def _impact_recall(graph, pkg: str, rt_pairs: dict[tuple[str, str], set[int]], n_targets: int, seed: int,
                   repo: str, examples: int) -> tuple[dict, int]:
    """``impact`` on a seeded sample of targets with runtime callers: how many of those it finds at depth 1-3,
    and whether its 'complete' / 'lower_bound' verdicts were right. Returns the report and the sample's size."""
    from graphrag_code.impact import analyze_impact

    rt_callers: dict[str, set[str]] = defaultdict(set)
    for (src, dst) in rt_pairs:
        if _in_pkg(pkg, src) and _in_pkg(pkg, dst) and src != dst:
            rt_callers[dst].add(src)
    targets = sorted(t for t in rt_callers if "#" in t)
    sample = random.Random(seed).sample(targets, min(n_targets, len(targets)))
    agg = {d: Counter() for d in (1, 2, 3)}
    complete_claims = Counter()
    lower_why: Counter[str] = Counter()     # depth 1: what made each "lower bound" (a verdict may have several)
    wrong_complete: list[str] = []     # "complete" at depth 1 with a runtime caller missing: target <- callers
    started = time.perf_counter()
    for t in sample:
        runtime_depth = _runtime_depths(rt_callers, t)
        result = analyze_impact(graph, repo, t, depth=3, test_depth=3)
        static_depth = {c.node.id: c.depth for c in result.callers if _in_pkg(pkg, c.node.id)}
        for depth in (1, 2, 3):
            want = {c for c, dd in runtime_depth.items() if dd <= depth}
            got = {c for c, dd in static_depth.items() if dd <= depth}
            agg[depth]["runtime"] += len(want)
            agg[depth]["found"] += len(want & got)
            agg[depth]["targets"] += 1
            agg[depth]["targets_all_found"] += int(want <= got)
        verdict = result.completeness.verdict
        complete_claims[f"depth3_{verdict}"] += 1
        complete_claims[f"depth3_{verdict}_and_all_runtime_callers_found"] += int(set(runtime_depth) <= set(static_depth))
        direct = analyze_impact(graph, repo, t, depth=1, test_depth=1)
        want1 = {c for c, dd in runtime_depth.items() if dd == 1}
        got1 = {c.node.id for c in direct.callers if _in_pkg(pkg, c.node.id)}
        verdict = direct.completeness.verdict
        complete_claims[f"depth1_{verdict}"] += 1
        complete_claims[f"depth1_{verdict}_and_all_runtime_callers_found"] += int(want1 <= got1)
        if verdict == "lower_bound":
            for why in _lower_bound_kinds(direct.completeness):
                lower_why[f"{why} ({'every runtime caller found' if want1 <= got1 else 'a runtime caller missed'})"] += 1
        if verdict == "complete" and not want1 <= got1 and len(wrong_complete) < examples:
            wrong_complete.append(f"{t.split(':', 1)[1]} <- " + ", ".join(
                c.split(':', 1)[1] for c in sorted(want1 - got1)[:3]))
    impact = {str(d): {**c, "recall": round(c["found"] / c["runtime"], 3) if c["runtime"] else None,
                       "share_of_targets_fully_covered": round(c["targets_all_found"] / c["targets"], 3) if c["targets"] else None}
              for d, c in agg.items()}
    impact["verdicts"] = dict(sorted(complete_claims.items()))
    impact["wrong_complete_examples"] = wrong_complete
    impact["depth1_lower_bound_why"] = dict(lower_why.most_common())
    impact["seconds"] = round(time.perf_counter() - started, 1)
    return impact, len(sample)


def print_report(r: dict) -> None:
    rt = r["runtime"]
    pkg = r["package"]
    print(f"{pkg}: test suite exit status {rt['pytest_status']} (Python {rt['python']}); "
          f"{rt['call_events_distinct']} distinct call events into the package and its tests, mapped: {rt['mapping']}; "
          f"{rt['pairs']} (caller, callee) pairs")
    print(f"\nCALLS precision (static edges from {pkg} whose call-site line ran; confirmed = pair seen at run time)")
    header = ("resolved_by", "edges", "testable", "confirmed", "precision", "ctor-unobs", "gen-unobs", "untraced")
    print(f"  {header[0]:16s} {header[1]:>6s} {header[2]:>9s} {header[3]:>10s} {header[4]:>10s} {header[5]:>10s} "
          f"{header[6]:>9s} {header[7]:>9s}")
    for by, c in r["calls_precision"].items():
        p = "-" if c["precision"] is None else f"{c['precision']:.3f}"
        print(f"  {by:16s} {c.get('edges', 0):6d} {c.get('testable', 0):9d} {c.get('confirmed', 0):10d} {p:>10s} "
              f"{c.get('unobservable_constructor', 0):10d} {c.get('unobservable_generator', 0):9d} "
              f"{c.get('unobservable_outside_traced_code', 0):9d}")
    rc = r["calls_recall"]
    print(f"\nCALLS recall over runtime pairs inside {pkg}: {rc['found']}/{rc['runtime_pairs']} = {rc['recall']}"
          f"   (where the call site names the callee: {rc['recall_where_a_call_of_that_name_exists']}; "
          f"{rc.get('generator_resumes_left_out', 0)} pairs into generators left out)")
    for why, n in rc["misses"].items():
        print(f"  missed, {why}: {n}   e.g. {rc['miss_examples'].get(why, [''])[0]}")
    if not r["targets_sampled"]:
        return
    print(f"\nimpact recall ({r['targets_sampled']} targets with runtime callers; runtime callers inside {pkg})")
    for d in ("1", "2", "3"):
        c = r["impact_recall"][d]
        print(f"  depth <= {d}: {c['found']}/{c['runtime']} = {c['recall']}   targets fully covered: "
              f"{c['share_of_targets_fully_covered']}")
    v = r["impact_recall"]["verdicts"]
    for d in ("1", "3"):
        complete, right = v.get(f"depth{d}_complete", 0), v.get(f"depth{d}_complete_and_all_runtime_callers_found", 0)
        lower = v.get(f"depth{d}_lower_bound", 0)
        lower_found = v.get(f"depth{d}_lower_bound_and_all_runtime_callers_found", 0)
        print(f"  verdicts at depth {d}: 'complete' {complete} times, right (every runtime caller found) {right}; "
              f"'lower_bound' {lower} times, of which {lower_found} had in fact found every runtime caller")
    why = r["impact_recall"].get("depth1_lower_bound_why") or {}
    if why:
        print("  why 'lower_bound' at depth 1 (a verdict may have several reasons):")
        for reason, n in why.items():
            print(f"    {n:4d}  {reason}")

def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--record-child":
        _record_child(TARGETS[sys.argv[2]], sys.argv[3], sys.argv[4])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", type=int, default=200, help="impact targets sampled (seeded)")
    ap.add_argument("--package", choices=[*TARGETS, "all"], default="click",
                    help="whose test suite is the oracle: " + "; ".join(f"{k} {t.version} ({t.note})"
                                                                      for k, t in TARGETS.items()))
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--examples", type=int, default=5, help="missed runtime pairs (per reason) and unconfirmed static edges (per method) listed in the JSON")
    ap.add_argument("--refresh", action="store_true", help="fetch and record again")
    ap.add_argument("--json", type=Path, default=WORK / "report.json", help="where the report goes")
    ap.add_argument("--lsp", action="store_true", help="index with the Python language server pass (--lsp python)")
    ap.add_argument("--compare", action="store_true",
                    help="tree-sitter alone and tree-sitter + LSP, one after the other, side by side")
    ap.add_argument("--min-precision", type=float, help="exit 1 when a mode's CALLS precision is below this (CI)")
    ap.add_argument("--min-recall", type=float, help="exit 1 when a mode's CALLS recall is below this (CI)")
    ap.add_argument("--max-wrong-complete", type=int,
                    help="exit 1 when impact says 'complete' and misses a runtime caller more often than this, at "
                         "depth 1 or 3 (CI; needs --targets > 0)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from graphrag_code.db import Graph

    targets = [t for t in TARGETS.values() if not t.large] if args.package == "all" else [TARGETS[args.package]]
    modes = [False, True] if args.compare else [args.lsp]
    by_package: dict[str, dict[str, dict]] = {}
    with Graph() as graph:
        for target in targets:
            fetch(target, force=args.refresh)
            runtime = record(target, force=args.refresh)
            reports = by_package[target.label] = {}
            for lsp in modes:
                reports["tree-sitter + lsp" if lsp else "tree-sitter"] = _measure(graph, target, runtime, lsp, args)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    for label, reports in by_package.items():
        for name, report in reports.items():
            print(f"\n===== {label}: {name} =====")
            print_report(report)
        if len(reports) > 1:
            print_comparison(reports)
    flat = {f"{label}: {name}" if len(by_package) > 1 else name: r
            for label, reports in by_package.items() for name, r in reports.items()}
    args.json.write_text(json.dumps(flat if len(flat) > 1 else next(iter(flat.values())), indent=2))
    print(f"\nreport: {args.json}")
    failed = [f"{name}: {what} {got} < {floor}" for name, r in flat.items()
              for what, got, floor in (("precision", r["calls_precision"]["ALL"]["precision"], args.min_precision),
                                       ("recall", r["calls_recall"]["recall"], args.min_recall))
              if floor is not None and (got or 0) < floor]
    if args.max_wrong_complete is not None:
        for name, r in flat.items():
            verdicts = r["impact_recall"].get("verdicts") or {}
            if not r["targets_sampled"]:
                failed.append(f"{name}: no impact targets sampled for --max-wrong-complete")
            for d in (1, 3):
                wrong = verdicts.get(f"depth{d}_complete", 0) - verdicts.get(
                    f"depth{d}_complete_and_all_runtime_callers_found", 0)
                if wrong > args.max_wrong_complete:
                    failed.append(f"{name}: {wrong} wrong 'complete' verdicts at depth {d} > {args.max_wrong_complete}")
    if failed:
        raise SystemExit("call-graph gate failed: " + "; ".join(failed))


def _measure(graph, target: Target, runtime: dict, lsp: bool, args: argparse.Namespace) -> dict:
    """Index ``target`` (by names, or with the language server) and evaluate it against ``runtime``."""
    repo = target.repo + ("-lsp" if lsp else "")
    dump, summary = index(graph, target.checkout, repo, lsp)
    report = evaluate(graph, target, dump, runtime, args.targets, args.seed, repo, examples=args.examples)
    confident = evaluate(graph, target, dump, runtime, 0, args.seed, repo, min_confidence=0.7)
    report["confidence_at_least_0.7"] = {"precision": confident["calls_precision"]["ALL"]["precision"],
                                         "recall": confident["calls_recall"]["recall"]}
    report["lsp"] = summary.get("lsp")
    report["resolution"] = summary.get("resolution")
    return report


def print_comparison(reports: dict[str, dict]) -> None:
    """The headline numbers of each mode side by side, and what the language server cost."""
    names = list(reports)
    print("\n" + " " * 34 + "".join(f"{n:>20s}" for n in names))
    rows = [("CALLS precision (all)", lambda r: r["calls_precision"]["ALL"]["precision"]),
            ("CALLS testable edges", lambda r: r["calls_precision"]["ALL"].get("testable")),
            ("CALLS recall", lambda r: r["calls_recall"]["recall"]),
            ("recall where the site names it", lambda r: r["calls_recall"]["recall_where_a_call_of_that_name_exists"]),
            ("precision, confidence >= 0.7", lambda r: r["confidence_at_least_0.7"]["precision"]),
            ("recall, confidence >= 0.7", lambda r: r["confidence_at_least_0.7"]["recall"]),
            ("impact recall depth<=1", lambda r: r["impact_recall"]["1"]["recall"]),
            ("impact recall depth<=2", lambda r: r["impact_recall"]["2"]["recall"]),
            ("impact recall depth<=3", lambda r: r["impact_recall"]["3"]["recall"])]
    if not all(r["targets_sampled"] for r in reports.values()):
        rows = rows[:-3]
    for label, get in rows:
        print(f"  {label:32s}" + "".join(f"{get(reports[n])!s:>20s}" for n in names))
    for n, r in reports.items():
        for group, g in ((r.get("lsp") or {}).get("groups") or {}).items():
            print(f"  {n}: {group} server {g['server']}: {g['asked']} call sites in {g['seconds']}s "
                  f"= {g['seconds_per_1k_calls']} s per 1k; symbol {g['symbol']}, external {g['external']}, "
                  f"variable {g['variable']}, no answer {g['no_answer']}, errors {g['errors']}")
        lsp_stats = {k: v for k, v in (r.get("resolution") or {}).items() if k.startswith("lsp:")}
        if lsp_stats:
            print(f"  {n}: language server vs tree-sitter per call site: {lsp_stats}")


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
