"""The optional language-server pass: ask a real language server where the callee of each call site is defined.

Tree-sitter resolution is name based; a language server follows aliases, re-exports, typed receivers and
interfaces. For every call site of the files it is given, the pass sends ``textDocument/definition`` at the
called name (UTF-16 column, as LSP wants), maps the answer back to an indexed symbol **by file and line range**
(names differ between servers and our qualified names), and asks ``textDocument/implementation`` too when the
definition lands on an interface or abstract method. The answers are stored on the File node, one per call
site, and the resolver (``resolve.py``) turns them into CALLS edges with ``resolved_by: lsp``.

An answer per call site (aligned with ``FileFacts.calls``):

- ``None``                      not asked, an error or a timeout: the tree-sitter resolution stands
- ``["none"]``                  asked, no definition found: the tree-sitter resolution stands unless it is a
                                guess by a unique name only (``global_unique``, ``method_unique``)
- ``["sym", [ids], [impl_ids]]`` indexed symbols (several for conditional definitions) and, when the definition
                                is an interface or abstract method, the implementations the server knows
- ``["ext", [modules]]``        outside the repository (standard library, a dependency)
- ``["var", path, [ids]]``      in the repository but not a definition we index (a variable, a parameter,
                                a class attribute); for Python, the functions and classes the server infers the
                                variable holds (``textDocument/typeDefinition``: ``context_class = Context``
                                makes ``self.context_class()`` a construction of ``Context``)

A dunder site (``CallSite.implicit == "dunder"``: a `with` item, a `for` loop's iterable, `k in obj`, `len(obj)`,
`obj[k]`) is asked ``textDocument/typeDefinition`` at its object's name instead, and answered ``["sym", [class
ids], []]``: the resolver takes those classes' dunder method. Only dunders some class of the repository defines
are asked about: the others cannot land on an indexed method (a dict's `__getitem__`). An object that is a call
(`with self.make_context(args) as ctx:`) is left to names, which read the callee's return annotation: the
server's type at the called name would be the function's.

Robustness: start-up and per-request timeouts, a server that dies is restarted once and then skipped, the
total time is bounded (files left unasked keep their tree-sitter edges), and a file whose working-tree content
differs from the indexed blob is not asked about (the server would read other lines than we indexed).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import posixpath
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .discovery import git_blob_sha
from .resolve import FileFacts, implicit_of

if TYPE_CHECKING:
    from . import lsp_servers

# a member declared in a PHP class's doc comment (`* @method parent() ?AbstractBlock`, `* @property-read int $x`)
_PHP_DOC_MEMBER = re.compile(rb"\s*\*\s*@(?:method|property(?:-read|-write)?)\b")
# our language key -> the server that serves it (one TypeScript server for JS/TS/TSX, one clangd for C/C++)
SERVER_GROUPS = {"python": "python", "javascript": "typescript", "typescript": "typescript", "tsx": "typescript",
                 "go": "go", "c": "cpp", "cpp": "cpp", "php": "php"}
_CONTAINERS_OF_ABSTRACT = {"interface", "trait", "protocol"}
_IDENT = re.compile(r"#?[A-Za-z_$][\w$]*")    # `#dispatch`: a JavaScript private name is its `#` and the rest
_OVERLOAD = re.compile(rb"\s*@(?:\w+\.)?overload\b")
_DEF = re.compile(rb"\s*(?:async\s+)?def\b")
# `maker = build`, `handler: Callable = module.build`: a variable that is another name (group 2: its last part)
_ALIAS = re.compile(rb"\s*(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*)\s*(?:#.*)?$")
_CRASH_AFTER_TIMEOUTS = 3
_METHOD_NOT_FOUND = -32601   # JSON-RPC error code of a request the server does not implement
_PARALLEL = {"jedi-language-server": 2}    # server processes per server (see _shards)
# servers where one callHierarchy/outgoingCalls per function replaces the definition requests. Measured
# (bench_lsp.py): gopls answers every call site of cobra alike either way with half the requests, 9% faster;
# pyright answers click 2.4x faster that way; tsserver (rxjs) is 9% slower that way and clangd (lz4) 28% slower
# and sees through macros: they stay per call; jedi has none.
_HIERARCHY = {"gopls", "pyright"}
_CODE_POINT_SERVERS = {"jedi-language-server"}
# where a definition that lands on a variable is followed by typeDefinition: jedi's answer is its inference of
# what the variable holds (a class or a function), which is what the call runs
_INFER_VARIABLES = {"python"}
# bump when the shape or meaning of stored answers changes: stored answers of another format are asked again
ANSWER_FORMAT = 12     # 12: "dirty" answers, checkout files not indexed are external, header and stdlib module names
_COUNTERS = {"sym": "symbol", "ext": "external", "var": "variable"}

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class LspSettings:
    languages: tuple[str, ...] = ("all",)    # our language keys, or "all": every language whose server is installed
    request_timeout: float = 10.0
    startup_timeout: float = 180.0
    budget_seconds: float = 1800.0
    call_hierarchy: bool = True               # one outgoingCalls per function where the server has it

    def wants(self, language: str) -> bool:
        return language in SERVER_GROUPS and ("all" in self.languages or language in self.languages)


@dataclass
class GroupReport:
    server: str = ""
    files: int = 0
    call_sites: int = 0
    asked: int = 0
    symbol: int = 0
    external: int = 0
    variable: int = 0
    no_answer: int = 0
    unmapped: int = 0                       # answers in a file edited since it was indexed (asked again later)
    errors: int = 0
    implementations: int = 0
    inferred: int = 0                       # variables whose value the server inferred (a class, a function)
    definition_requests: int = 0
    hierarchy_requests: int = 0             # prepareCallHierarchy (each followed by one outgoingCalls)
    hierarchy_refused: int = 0              # prepareCallHierarchy answered with an error: asked per call instead
    from_hierarchy: int = 0                 # call sites answered by outgoingCalls
    restarts: int = 0
    seconds: float = 0.0
    startup_seconds: float = 0.0            # the servers' start-up (the longest of parallel ones), in `seconds`
    skipped: str = ""          # why the whole group was skipped (no server installed, start-up failed...)

    @property
    def seconds_per_1k(self) -> float | None:
        """Asking time per 1,000 call sites, start-up left out (on a small run it made '1943 s per 1k')."""
        return round(1000 * max(0.0, self.seconds - self.startup_seconds) / self.asked, 1) if self.asked else None


@dataclass
class LspReport:
    groups: dict[str, GroupReport] = field(default_factory=dict)
    files_not_asked: dict[str, list[str]] = field(default_factory=dict)    # reason -> paths
    seconds: float = 0.0
    budget_exhausted: bool = False

    def to_dict(self) -> dict:
        return {"seconds": round(self.seconds, 2), "budget_exhausted": self.budget_exhausted,
                "groups": {g: {**r.__dict__, "seconds": round(r.seconds, 2), "seconds_per_1k_calls": r.seconds_per_1k}
                           for g, r in sorted(self.groups.items())},
                "files_not_asked": {k: len(v) for k, v in sorted(self.files_not_asked.items())}}


class _ServerDied(Exception):
    pass


class _OutOfTime(Exception):
    """The pass's time budget ran out in the middle of a file: that file stays unasked."""


# -- positions ---------------------------------------------------------------------------------------------------
def utf16_column(line: bytes, byte_column: int) -> int:
    """LSP counts columns in UTF-16 code units; tree-sitter counts bytes."""
    return len(line[:byte_column].decode("utf-8", "replace").encode("utf-16-le")) // 2


def identifier_at(line: str, utf16_col: int) -> str:
    """The identifier starting at an LSP column of ``line`` ('' when there is none)."""
    units, index = 0, 0
    while index < len(line) and units < utf16_col:
        units += 2 if ord(line[index]) > 0xFFFF else 1
        index += 1
    m = _IDENT.match(line, index)
    return m.group(0) if m else ""


def module_of(path: str) -> str:
    """A readable name for a definition outside the repository: a Python module, an npm package, a Go import
    path, a C header, a PHP extension or Composer package."""
    p = path.replace(os.sep, "/")
    # jedi's typeshed, or pyright's bundled `typeshed-fallback` (inside node_modules: checked first)
    typeshed = re.search(r"/typeshed(?:-fallback)?/(?:stdlib/|stubs/[^/]+/|third_party/)"
                         r"(?:(?:2and3|2|3(?:\.\d+)?)/)?(.*)$", p)
    for marker in ("/site-packages/", "/dist-packages/"):
        if typeshed or marker in p:
            rest = typeshed.group(1) if typeshed else p.split(marker, 1)[1]
            rest = re.sub(r"\.pyi?$", "", rest).removesuffix("/__init__")
            return rest.replace("/", ".")
    stdlib = re.search(r"/lib/python\d(?:\.\d+)?/(.*)\.pyi?$", p)     # the interpreter's own library
    if stdlib:
        return stdlib.group(1).removesuffix("/__init__").replace("/", ".")
    builtin_ts = re.search(r"/node_modules/typescript/lib/(lib\.[\w.]+?)\.d\.ts$", p)
    if builtin_ts:              # the language's own declarations (`console.log`: typescript/lib.dom)
        return "typescript/" + builtin_ts.group(1)
    php_stub = re.search(r"/node_modules/intelephense/lib/stub/([^/]+)/", p)
    if php_stub:                # PHP's own functions and classes, by extension (`strlen`: php/Core)
        return "php/" + php_stub.group(1)
    if "/vendor/" in p and p.endswith(".php"):       # a Composer package: vendor/<vendor>/<package>/...
        return "/".join(p.rsplit("/vendor/", 1)[1].split("/")[:2])
    if "/node_modules/" in p:
        parts = p.rsplit("/node_modules/", 1)[1].split("/")
        return "/".join(parts[:2]) if parts[0].startswith("@") else parts[0]
    if "/pkg/mod/" in p:
        rest = p.split("/pkg/mod/", 1)[1]
        head, _, tail = rest.partition("@")
        return head + ("/" + tail.split("/", 1)[1].rsplit("/", 1)[0] if tail.count("/") > 1 else "")
    if p.endswith(".go") and "/src/" in p:
        return p.rsplit("/src/", 1)[1].rsplit("/", 1)[0]
    if "/include/" in p:
        # the header as code includes it: `c++/12/cstdio` is `cstdio`, `x86_64-linux-gnu/bits/x.h` is `bits/x.h`
        return re.sub(r"^(?:c\+\+/[\d.]+/|[a-z0-9_]+-linux-gnu/)+", "", p.rsplit("/include/", 1)[1])
    return re.sub(r"\.[^./]+$", "", p.rsplit("/", 1)[-1])


# -- the pass ----------------------------------------------------------------------------------------------------
class _Sources:
    """File lines as the server sees them (the working tree), checked against the indexed blobs."""

    def __init__(self, root: Path, blobs: dict[str, str]) -> None:
        self.root, self.blobs = root, blobs
        self._lines: dict[str, list[bytes] | None] = {}

    def lines(self, path: str) -> list[bytes] | None:
        if path not in self._lines:
            try:
                data = (self.root / path).read_bytes()
            except OSError:
                data = None
            ok = data is not None and (path not in self.blobs or git_blob_sha(data) == self.blobs[path] or
                                       # a CRLF checkout (`eol=crlf`, core.autocrlf) of an LF blob: same lines
                                       b"\r\n" in data and git_blob_sha(data.replace(b"\r\n", b"\n")) == self.blobs[path])
            self._lines[path] = data.split(b"\n") if ok else None
        return self._lines[path]

    def utf8(self, path: str) -> bool:
        """Whether the server can read the file: multilspy opens files as UTF-8 and fails on anything else."""
        lines = self.lines(path)
        try:
            return lines is not None and bool(b"\n".join(lines).decode("utf-8") or True)
        except UnicodeDecodeError:
            return False


class _Asker:
    """Asks one running server about the call sites of one language group."""

    def __init__(self, group: str, root: Path, facts: dict[str, FileFacts], sources: _Sources,
                 settings: LspSettings, report: GroupReport, server: str = "") -> None:
        self.group, self.root, self.facts, self.sources = group, root.resolve(), facts, sources
        self.settings, self.report = settings, report
        self.server = None
        self.timeouts = 0
        self.deadline = float("inf")            # the pass's budget (run_lsp_pass), checked before each request
        self.out_of_time = False
        self.hierarchy = settings.call_hierarchy and server in _HIERARCHY
        # jedi-language-server hands LSP's UTF-16 columns to jedi, which counts code points: a call after an
        # emoji on its line was asked at the wrong place; its columns are converted both ways
        self.code_points = server in _CODE_POINT_SERVERS
        self.unsupported: set[str] = set()      # requests the server answered "method not found"
        # names of the repository's own code: an "external" answer in a package of one of these names is that
        # code seen through a stub or an installed copy (jedi's typeshed stubs of click, a header installed in
        # /usr/include). Python: top-level packages only (`myapp/logging.py` must not hide the stdlib's logging);
        # Go: none (gopls answers from the module, never from a copy of it)
        group_paths = [p for p, f in facts.items() if SERVER_GROUPS.get(f.language) == group]
        self.own_names = set() if group == "go" else {_top_module(p) for p in group_paths} if group == "python" \
            else {part.rsplit(".", 1)[0] for p in group_paths for part in p.split("/")}
        self.dunders = {d[0] for f in facts.values() if SERVER_GROUPS.get(f.language) == group
                        for d in f.defs if d[0].startswith("__") and d[1] == "method"}

    async def ask_file(self, path: str) -> list | None:
        f, lines = self.facts[path], self.sources.lines(path)
        answers: list = [None] * len(f.calls)
        sites: dict[int, tuple[int, int]] = {}          # call index -> (line0, UTF-16 column) of the called name
        for k, call in enumerate(f.calls):
            name, line, column = call[1], call[3], (call[4] if len(call) > 4 else None)
            if implicit_of(call) in ("callback", "decorator"):
                continue                  # a name handed to a call, a decorator: resolved by names (plain scope)
            if implicit_of(call) == "dunder":    # the site is the object's name: what type is it?
                if name not in self.dunders or (call[2] or "").endswith(")"):
                    continue              # `with f() as x:`: the name is the function's; names read its return type
                name = re.split(r"\.|\s", call[2] or "")[-1]
            if column is None or line - 1 >= len(lines) or not name or \
                    lines[line - 1][column:column + len(name.encode())] != name.encode():
                continue                  # the name is not where the extractor saw it (a redacted secret moved it)
            sites[k] = (line - 1, utf16_column(lines[line - 1], column))
        with self.server.open_file(path):
            if self.hierarchy:
                mixed = _mixed_receivers(f)
                await self._ask_hierarchy(path, f, lines, {k: v for k, v in sites.items() if not implicit_of(
                    f.calls[k]) and (f.calls[k][0], f.calls[k][2]) not in mixed}, answers)
            for k, (line0, col16) in sites.items():
                if answers[k] is None:
                    self.report.asked += 1
                    if implicit_of(f.calls[k]) == "dunder":
                        answers[k] = await self._object_type(path, line0, col16)
                        continue
                    self.report.definition_requests += 1
                    locations = await self._request("definition", path, line0, col16)
                    answers[k] = await self._answer(locations, path, line0, col16)
        return answers

    async def _object_type(self, path: str, line0: int, col16: int) -> list | None:
        """The classes the server infers the object of a `with` to be (``["sym", [class ids], []]``)."""
        classes = await self._symbols("typeDefinition", path, line0, col16)
        if classes is None:
            return None
        if not classes:
            self.report.no_answer += 1
            return ["none"]
        self.report.symbol += 1
        return ["sym", classes, []]

    async def _ask_hierarchy(self, path: str, f: FileFacts, lines: list[bytes], sites: dict[int, tuple[int, int]],
                             answers: list) -> None:
        """One ``outgoingCalls`` per function instead of one ``definition`` per call; the call sites it does not
        report (or reports with a range we cannot pin to one call) are asked one by one afterwards."""
        by_line: dict[int, list[tuple[int, int]]] = {}
        for k, (line0, col16) in sites.items():
            by_line.setdefault(line0, []).append((col16, k))
        uri = (self.root / path).as_uri()
        for caller in sorted({f.calls[k][0] for k in sites if f.calls[k][0] is not None}):
            at = _name_position(f.defs[caller], lines)
            if at is None:
                continue
            self.report.hierarchy_requests += 1
            items = await self._raw("textDocument/prepareCallHierarchy",
                                    {"textDocument": {"uri": uri}, "position": {"line": at[0], "character": at[1]}})
            if items is None and self.report.hierarchy_requests == 1:
                self.hierarchy = False            # not supported (or broken): per call from now on
                return
            if not items:
                continue
            outgoing = await self._raw("callHierarchy/outgoingCalls", {"item": items[0]}) or []
            for call in outgoing:
                to = call.get("to") or {}
                loc = {"absolutePath": _uri_path(to.get("uri", "")), "range": to.get("selectionRange") or to.get("range")}
                if not loc["range"] or self._conditional(self._classify(loc)):
                    continue              # a hierarchy names one of several definitions: asked per call below
                for rng in call.get("fromRanges") or []:
                    k = _site_in(rng, by_line)
                    if k is not None and answers[k] is None:
                        self.report.asked += 1
                        self.report.from_hierarchy += 1
                        answers[k] = await self._answer([loc], path, *sites[k])

    async def _raw(self, method: str, params: dict):
        return await self._guarded(self.server.server.send_request(method, params), method, params)

    async def _answer(self, locations: list | None, path: str, line0: int, col16: int) -> list | None:
        """What the server's locations for one call site mean (see the module docstring)."""
        if locations is None:
            return None                    # an error or a timeout: as if not asked
        if not locations:
            self.report.no_answer += 1
            return ["none"]
        found = [a for a in map(self._classify, locations) if a[0] != "doc"]
        if not found:
            self.report.no_answer += 1
            return ["none"]
        dirty = sorted({a[1] for a in found if a[0] == "dirty"})
        if dirty:
            # not knowable now: names resolve it, and the file is asked again once the working tree is clean
            self.report.unmapped += 1
            return ["dirty", dirty[0]]
        symbols = list(dict.fromkeys(a[1] for a in found if a[0] == "sym"))
        # `new X()`: servers name the class and its constructor; a call of a class is an edge to the class here
        symbols = [s for s in symbols if not (s.endswith((".constructor", ".__construct")) and
                                              s.rsplit(".", 1)[0] in symbols)]
        externals = sorted({a[1] for a in found if a[0] == "ext"})
        if any(m.split(".")[0].split("/")[0] in self.own_names for m in externals):
            # a library of the same name as the repository's own code (jedi bundles typeshed stubs of click,
            # an environment may hold an installed copy): the server looked in the wrong place
            self.report.no_answer += 1
            return ["none"]
        # several answers: conditional definitions (per platform, per version), kept in a stable order
        answer = ["sym", symbols, []] if symbols else ["ext", externals] if externals else found[0]
        if symbols and any(map(self._is_abstract, symbols)):
            impls = [i for i in await self._symbols("implementation", path, line0, col16) or [] if i not in symbols]
            answer[2] = impls
            self.report.implementations += bool(impls)
        if answer[0] == "var" and self.group in _INFER_VARIABLES:
            held = await self._symbols("typeDefinition", path, line0, col16) or []
            if not held:
                held = await self._aliased(locations)
            answer = ["var", answer[1], held]
            self.report.inferred += bool(held)
        counter = _COUNTERS[answer[0]]
        setattr(self.report, counter, getattr(self.report, counter) + 1)
        return answer

    async def _aliased(self, locations: list) -> list[str]:
        """The definitions a variable is an alias of, when each of its declarations is a plain ``name = other``
        (``maker = build``): ``typeDefinition`` names the class a variable holds, but pyright names nothing for
        a function. The name on the right is asked ``definition``; anything else (a call, a parameter) gives []."""
        held: set[str] = set()
        for loc in locations:
            rel = self._relative(loc)[1]
            lines = self.sources.lines(rel) if rel in self.facts else None
            start = loc["range"]["start"]
            if lines is None or start["line"] >= len(lines):
                return []
            line = lines[start["line"]]
            name = identifier_at(line.decode("utf-8", "replace"),
                                 self._column(rel, start["line"], start["character"], False))
            m = _ALIAS.match(line)
            if not name or m is None or m.group(1) != name.encode():
                return []
            col16 = utf16_column(line, m.start(2))
            held.update(await self._symbols("definition", rel, start["line"], col16) or [])
        return sorted(held)

    async def _symbols(self, what: str, path: str, line0: int, col16: int) -> list[str] | None:
        """The indexed symbols ``textDocument/<what>`` names at a position, sorted; None on an error."""
        locations = await self._request(what, path, line0, col16)
        if locations is None:
            return None
        return sorted({a[1] for a in map(self._classify, locations) if a[0] == "sym"})

    def _column(self, path: str, line0: int, column: int, to_server: bool) -> int:
        """A column as the server counts it (``to_server``) or as LSP does (UTF-16), from the other."""
        lines = self.sources.lines(path) if self.code_points else None
        if lines is None or line0 >= len(lines):
            return column
        text = lines[line0].decode("utf-8", "replace")
        if to_server:
            return len(text.encode("utf-16-le")[:2 * column].decode("utf-16-le", "ignore"))
        return len(text[:column].encode("utf-16-le")) // 2

    async def _request(self, what: str, path: str, line0: int, col16: int) -> list | None:
        if what in self.unsupported:
            return []
        col16 = self._column(path, line0, col16, to_server=True)
        if what == "definition":
            coro = self.server.request_definition(path, line0, col16)
        else:
            coro = self._locations(what, path, line0, col16)
        return await self._guarded(coro, what, f"{path}:{line0}:{col16}")

    async def _guarded(self, coro, what: str, where) -> list | None:
        """A request with the per-request timeout; None on an error or a timeout, [] for an empty answer."""
        if time.monotonic() > self.deadline:
            coro.close()
            raise _OutOfTime
        process = getattr(self.server.server, "process", None)
        if process is None or process.returncode is not None:
            coro.close()
            raise _ServerDied(f"the server exited (code {getattr(process, 'returncode', None)})")
        try:
            result = await _unless_exit(coro, process, self.settings.request_timeout)
            self.timeouts = 0
            return result or []
        except asyncio.TimeoutError:
            self.report.errors += 1
            self.timeouts += 1
            if self.timeouts >= _CRASH_AFTER_TIMEOUTS:
                raise _ServerDied(f"{self.timeouts} requests in a row timed out") from None
            return None
        except _ServerDied:
            raise
        except Exception as exc:           # a server error on one request (LSP error response, odd payload)
            if getattr(exc, "code", None) == _METHOD_NOT_FOUND:
                self.unsupported.add(what)     # jedi has no textDocument/implementation: not asked again
                return None
            if what == "textDocument/prepareCallHierarchy":
                # gopls refuses a hierarchy for what is no function ("X is not a function"): its calls are
                # asked one by one instead, so nothing was lost
                self.report.hierarchy_refused += 1
            else:
                self.report.errors += 1
            logging.getLogger(__name__).debug("lsp %s %s failed: %s", what, where, exc)
            return None

    async def _locations(self, method: str, path: str, line0: int, col16: int) -> list:
        """``textDocument/<method>`` (implementation, typeDefinition) as locations like multilspy's."""
        uri = (self.root / path).as_uri()
        raw = await self.server.server.send_request(
            f"textDocument/{method}", {"textDocument": {"uri": uri}, "position": {"line": line0, "character": col16}})
        raw = [raw] if isinstance(raw, dict) else (raw or [])
        out = []
        for item in raw:
            uri, rng = item.get("uri") or item.get("targetUri"), item.get("range") or item.get("targetSelectionRange")
            if uri and rng:
                out.append({"absolutePath": _uri_path(uri), "range": rng})
        return out

    def _relative(self, loc: dict) -> tuple[Path, str | None]:
        """A location's absolute path, and its path in the repository (None outside it)."""
        abs_path = Path(loc.get("absolutePath") or _uri_path(loc.get("uri", "")))
        try:
            return abs_path, abs_path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return abs_path, None

    def _classify(self, loc: dict) -> list:
        abs_path, rel = self._relative(loc)
        if rel is None:
            return ["ext", module_of(str(abs_path))]
        if rel not in self.facts:
            # inside the checkout but not indexed (node_modules, vendored or generated code, a virtualenv): code
            # outside the graph, an external module as any other
            return ["ext", module_of(str(abs_path))]
        if self.sources.lines(rel) is None:
            return ["dirty", rel]         # edited since it was indexed: its lines no longer locate a symbol
        start = loc["range"]["start"]
        symbol = self._symbol_at(rel, start["line"], self._column(rel, start["line"], start["character"], False))
        if symbol is None and self.group == "php":
            symbol = self._declaration_at(rel, start["line"], loc["range"]["end"]["line"])
            if symbol is None and _PHP_DOC_MEMBER.match(self.sources.lines(rel)[start["line"]]):
                # `@method parent() ?AbstractBlock` in a class's doc comment: a magic method's declared type,
                # not where any code is; the method the class inherits (names find it) is what runs
                return ["doc", rel]
        return ["sym", symbol] if symbol else ["var", rel]

    def _declaration_at(self, path: str, first0: int, last0: int) -> str | None:
        """The indexed definition whose lines are a declaration's whole range: intelephense answers with that
        (doc comment included, from its first line), not with the position of the name. Else the widest one
        inside the range that ends with it (a doc comment one of the two counts and the other does not)."""
        f = self.facts[path]
        exact = [i for i, d in enumerate(f.defs) if d[4] == first0 + 1 and d[5] == last0 + 1]
        inside = sorted((d[4], i) for i, d in enumerate(f.defs) if d[5] == last0 + 1 and first0 + 1 <= d[4])
        found = exact[-1] if exact else inside[0][1] if inside else None      # the innermost of equal ranges
        return f.ids[found] if found is not None else None

    def _symbol_at(self, path: str, line0: int, col16: int) -> str | None:
        """The innermost indexed definition of ``path`` whose range holds the line and whose name is the
        identifier the server pointed at."""
        lines = self.sources.lines(path)
        if lines is None or line0 >= len(lines):
            return None
        name = identifier_at(lines[line0].decode("utf-8", "replace"), col16)
        f = self.facts[path]
        holding = [(d[5] - d[4], i) for i, d in enumerate(f.defs) if d[4] <= line0 + 1 <= d[5]]
        found = next((i for _size, i in sorted(holding) if f.defs[i][0] == name), None)
        if found is None and self.group == "typescript" and name == "export":
            # an anonymous default export (`export default function (x) {`): the server points at `export`
            found = next((i for _size, i in sorted(holding) if f.defs[i][0] == "default" and
                          f.defs[i][4] == line0 + 1), None)
        if found is None and self.group == "typescript" and _names_a_function(lines[line0], name):
            # a definition indexed under another name, starting on that line: `module.exports = function query(`
            found = next((i for _size, i in sorted(holding) if f.defs[i][4] == line0 + 1), None)
        if found is None and self.group == "typescript":
            # an overload signature (not a definition we index) above the implementation it belongs to: the
            # next definition of its scope. No span in lines: a long doc comment may sit between (rxjs's `pipe`)
            scope = min(holding)[1] if holding else None
            below = [(d[4], i) for i, d in enumerate(f.defs) if d[3] == scope and d[4] > line0 + 1]
            found = next((i for _start, i in sorted(below)[:1] if f.defs[i][0] == name), None)
        if found is not None and self.group == "python":
            # `@overload` stubs (pyright names each of them): the implementation below them is what runs
            while found + 1 < len(f.defs) and f.defs[found + 1][0] == name and \
                    f.defs[found + 1][3] == f.defs[found][3] and _is_overload(lines, f.defs[found][4] - 1):
                found += 1
        if found is not None and self.group == "typescript":
            # of overloads indexed one by one (`reduce`, `reduce~2`, ...) the last one has the body that runs
            while found + 1 < len(f.defs) and f.defs[found + 1][0] == name and \
                    f.defs[found + 1][3] == f.defs[found][3]:
                found += 1
        return f.ids[found] if found is not None else None

    def _conditional(self, found: list) -> bool:
        """An answer naming a definition that has others of the same name in the same scope (defined per
        branch, or `@overload`-ed): the definition request names them all, a call hierarchy only one."""
        if found[0] != "sym":
            return False
        f = self.facts[found[1].split(":", 1)[1].split("#", 1)[0]]
        base = re.sub(r"~\d+$", "", found[1])     # the second `def f` of a scope is `f~2` (see symbol_ids)
        return any(i != found[1] and (i == base or i.startswith(base + "~")) for i in f.ids)

    def _is_abstract(self, symbol_id: str) -> bool:
        path = symbol_id.split(":", 1)[1].split("#", 1)[0]
        f = self.facts.get(path)
        if f is None or symbol_id not in f.ids:
            return False
        i = f.ids.index(symbol_id)
        d = f.defs[i]
        return i in f.abstract or d[1] in _CONTAINERS_OF_ABSTRACT or \
            (d[3] is not None and f.defs[d[3]][1] in _CONTAINERS_OF_ABSTRACT)


def _top_module(path: str) -> str:
    """The top-level Python package (or module) a file is imported under: ``src/click/core.py`` -> ``click``."""
    parts = path.split("/")
    while len(parts) > 1 and parts[0] in ("src", "lib", "python"):
        parts = parts[1:]
    return parts[0].rsplit(".", 1)[0] if len(parts) == 1 else parts[0]


def _mixed_receivers(f: FileFacts) -> set[tuple[int, str]]:
    """(function, variable) pairs of the variables a function assigns values of several kinds (``target =
    nodes.NSRef(...)`` in one branch, ``target = self.parse_primary()`` in another). A call hierarchy names one
    callee for ``target.can_assign()`` (pyright: the first declaration's), a ``definition`` request each member
    of the union: those sites are asked one by one."""
    return {(scope, var) for scope, values in f.var_types for var, value in values.items() if "|" in value}


def _is_overload(lines: list[bytes], start0: int) -> bool:
    """A Python definition starting (comments and decorators included) at ``start0`` is ``@overload``-ed."""
    for line in lines[start0:start0 + 20]:
        if _OVERLOAD.match(line):
            return True
        if _DEF.match(line):
            return False
    return False


def _names_a_function(line: bytes, name: str) -> bool:
    """``function name(`` / ``name<T>(`` on the line: the name of a function expression, not a parameter."""
    return re.search(rb"\bfunction\s*\*?\s*" + re.escape(name.encode()) + rb"\s*[(<]", line) is not None


def _name_position(d: list, lines: list[bytes]) -> tuple[int, int] | None:
    """(line0, UTF-16 column) of a definition's name: its first whole-word occurrence from the definition's first
    line, skipping comment lines (its range starts at the doc comment)."""
    word = re.compile(rb"(?<![\w$])" + re.escape(d[0].encode()) + rb"(?![\w$])")
    for line0 in range(d[4] - 1, min(d[5], d[4] + 30, len(lines))):
        text = lines[line0]
        if text.lstrip().startswith((b"//", b"/*", b"*", b"#")):
            continue
        m = word.search(text)
        if m:
            return line0, utf16_column(text, m.start())
    return None


def _site_in(rng: dict, by_line: dict[int, list[tuple[int, int]]]) -> int | None:
    """The call site a ``fromRange`` points at: the one whose name starts the range, else the only call site
    inside it on its line."""
    start, end = rng["start"], rng["end"]
    here = by_line.get(start["line"], [])
    exact = [k for col, k in here if col == start["character"]]
    if exact:
        return exact[0]
    inside = [k for col, k in here if col >= start["character"] and
              (end["line"] > start["line"] or col < end["character"])]
    return inside[0] if len(inside) == 1 else None


def _uri_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse
    return unquote(urlparse(uri).path)


async def _run_group(group: str, spec, paths: list[str], asker: _Asker, deadline: float,
                     results: dict[str, list], progress: Progress, done: list[int], total: int) -> None:
    """Start the server, ask file by file; a dead server is restarted once, then the group is given up."""
    pending = list(paths)
    for attempt in (1, 2):
        if time.monotonic() > deadline:
            asker.out_of_time = True
            return
        server = _servers().create_server(spec, str(asker.root), _quiet_logger())
        asker.server = server
        async with contextlib.AsyncExitStack() as stack:
            try:
                # start-up counts against the budget too
                started = time.monotonic()
                await asyncio.wait_for(stack.enter_async_context(server.start_server()),
                                       max(0.1, min(asker.settings.startup_timeout, deadline - time.monotonic())))
                asker.report.startup_seconds = max(asker.report.startup_seconds, time.monotonic() - started)
                workers = None
                while pending:
                    if time.monotonic() > deadline:
                        asker.out_of_time = True
                        return
                    answers = await asker.ask_file(pending[0])
                    # typescript-language-server outlives a dead tsserver and answers nothing from then on:
                    # that file's answers are not kept, the server is restarted and asked again
                    # (only there: gopls and clangd run short-lived children, `go list`, which would look alike)
                    alive = _has_workers(server) if group == "typescript" else None
                    if workers and alive is False:
                        raise _ServerDied("the server's worker process exited")
                    workers = alive if workers is None else workers
                    results[pending[0]] = answers
                    pending.pop(0)
                    done[0] += 1
                    progress("lsp", done[0], total)
                return
            except _OutOfTime:
                asker.out_of_time = True
                return
            except Exception as exc:       # start-up timeout, a dead server, a protocol error: restart once
                await _kill(server)
                if time.monotonic() > deadline:
                    asker.out_of_time = True
                    return                 # a start-up cut short by the budget is no failure of the server
                why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                if attempt == 2:
                    asker.report.skipped = f"server failed twice ({why}); tree-sitter edges kept for " \
                                           f"{len(pending)} file(s)"
                    return
                asker.report.restarts += 1
                logging.getLogger(__name__).warning("lsp: %s server failed (%s); restarting once", group, why)


def _shards(server: str, paths: list[str], facts: dict[str, FileFacts]) -> list[list[str]]:
    """Files split between the processes of one server, balanced by call sites. jedi answers one request at a
    time and starts in half a second: one process per core nearly halves the pass; the other servers (pyright
    too) keep a whole-project model (memory, start-up) and answer fast enough alone."""
    n = min(_PARALLEL.get(server, 1), os.cpu_count() or 1, len(paths)) or 1
    shards: list[list[str]] = [[] for _ in range(n)]
    load = [0] * n
    for path in sorted(paths, key=lambda p: -len(facts[p].calls)):
        i = load.index(min(load))
        shards[i].append(path)
        load[i] += len(facts[path].calls)
    return [sorted(shard) for shard in shards if shard]


async def _kill(server) -> None:
    """A failed server (hung, stopped, dead, or alive without its worker) gets no graceful shutdown: its process
    tree is killed first (SIGKILL also ends a stopped process, which SIGTERM does not), then multilspy cleans up."""
    process = getattr(server.server, "process", None)
    if process is not None and process.returncode is None:
        _kill_tree(process.pid)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(server.server.stop(), 10)


async def _unless_exit(coro, process, timeout: float):
    """``coro``'s result within ``timeout``; _ServerDied as soon as the server process exits (a request sent to a
    server that died would otherwise wait out its whole timeout)."""
    request, exited = asyncio.ensure_future(coro), asyncio.ensure_future(process.wait())
    try:
        done, _ = await asyncio.wait({request, exited}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        exited.cancel()
    if request in done:
        return request.result()
    request.cancel()
    if exited in done:
        raise _ServerDied(f"the server exited (code {process.returncode})")
    raise asyncio.TimeoutError


def _kill_tree(pid: int) -> None:
    import psutil
    with contextlib.suppress(psutil.Error):
        root = psutil.Process(pid)
        for p in [*root.children(recursive=True), root]:
            with contextlib.suppress(psutil.Error):
                p.kill()


def _has_workers(server) -> bool | None:
    """Whether the server process still has child processes (typescript-language-server's tsserver); None when
    it is gone or cannot be read."""
    import psutil
    process = getattr(server.server, "process", None)
    try:
        return bool(psutil.Process(process.pid).children()) if process is not None else None
    except psutil.Error:
        return None


def _quiet_logger():
    from multilspy.multilspy_logger import MultilspyLogger
    logging.getLogger("multilspy").setLevel(logging.WARNING)
    return MultilspyLogger()


def _servers():
    """``lsp_servers``, imported when a server is looked up: it imports multilspy (0.15 s), which a run without
    ``--lsp`` (most runs, and every command but ``index``) never needs."""
    from . import lsp_servers
    return lsp_servers


def server_id(spec: lsp_servers.ServerSpec) -> str:
    """What stored answers record as their server: another name or version means asking again."""
    return f"{spec.name} {spec.version}".strip()


def server_ids(root: Path, facts: dict[str, FileFacts], settings: LspSettings) -> dict[str, str]:
    """For each server group the files need: ``"name version"`` of the installed server, or ``"!why not"``."""
    groups = {SERVER_GROUPS[f.language] for f in facts.values() if settings.wants(f.language) and f.calls}
    out, servers = {}, _servers()
    for group in sorted(groups):
        spec = servers.find_server(group, root)
        out[group] = server_id(spec) if spec else "!" + servers.missing_reason(group)
    return out


def files_to_ask(facts: dict[str, FileFacts], changed: set[str], touched: set[str],
                 servers: dict[str, str] | None, settings: LspSettings) -> set[str]:
    """The files whose answers must be (re)made: changed files, files never asked by this server, and
    unchanged files whose answers may have moved: an answer pointing into a changed or deleted file, or a call
    whose name a changed file now defines. With ``servers=None``, only the unchanged files that changes made
    stale (for a run without the pass, which forgets their answers)."""
    moved = touched | changed
    new_names = {d[0] for p in changed if p in facts for d in facts[p].defs} | \
        {n for p in changed if p in facts for i in facts[p].imports for n in i[1:3] if n}   # re-exports
    stems, packages = _module_stems(moved), {posixpath.dirname(p) for p in moved if p.endswith(_PACKAGE_DIRS)}
    ask = set()
    for path, f in facts.items():
        if not settings.wants(f.language) or not f.calls:
            continue
        if servers is not None:
            server = servers.get(SERVER_GROUPS[f.language], "!")
            if server.startswith("!"):
                continue
            if path in changed or not f.lsp or f.lsp.get("server") != server \
                    or f.lsp.get("format") != ANSWER_FORMAT:
                ask.add(path)
                continue
        elif not f.lsp:
            continue
        elif f.lsp.get("format") != ANSWER_FORMAT:
            ask.add(path)                 # answers of an older shape: forget them
            continue
        if any(a and a[0] in ("sym", "var") and not moved.isdisjoint(_answer_paths(a)) for a in f.lsp["answers"]) or \
                any(a and a[0] == "dirty" for a in f.lsp["answers"]) or any(c[1] in new_names for c in f.calls) or \
                any(_module_stem(i[0]) in stems for i in f.imports) or \
                (path.endswith(_PACKAGE_DIRS) and posixpath.dirname(path) in packages):
            # an import of a changed file (a re-export moved, a field's type changed) or a Go/Java package
            # sibling of one: what its calls reach may have changed although nothing of theirs points there
            ask.add(path)
    return ask


_PACKAGE_DIRS = (".go", ".java")        # languages whose files see their directory's other files without imports


def _module_stem(module: str) -> str:
    """The last part of an import's module (``./lib/router`` -> ``router``, ``pkg.sub`` -> ``sub``)."""
    return re.split(r"[./\\]", module.rstrip("/"))[-1]


def _module_stems(paths: set[str]) -> set[str]:
    """Names an import of one of ``paths`` may end with: the file's name without extension, and its directory's
    name for a package entry (``pkg/__init__.py``, ``src/index.ts``, ``src/lib.rs``)."""
    stems = set()
    for p in paths:
        base = posixpath.basename(p).split(".", 1)[0]
        stems.add(base)
        if base in ("__init__", "index", "mod", "lib", "main"):
            stems.add(posixpath.basename(posixpath.dirname(p)))
    return stems - {""}


def _answer_paths(answer: list) -> set[str]:
    if answer[0] in ("var", "dirty"):
        return {answer[1]}
    return {target.split(":", 1)[1].split("#", 1)[0] for target in answer[1] + answer[2]}


def run_lsp_pass(root: Path, facts: dict[str, FileFacts], paths: Iterable[str], blobs: dict[str, str],
                 settings: LspSettings | None = None, progress: Progress | None = None
                 ) -> tuple[dict[str, dict], LspReport]:
    """Ask language servers about the call sites of ``paths``; returns ``{path: {"server", "answers"}}`` for
    every file asked, and a report of what was asked, answered, skipped and how long it took."""
    settings = settings or LspSettings()
    progress = progress or (lambda stage, done, total: None)
    report, started = LspReport(), time.monotonic()
    sources = _Sources(root, blobs)
    by_group: dict[str, list[str]] = {}
    for path in sorted(set(paths)):
        f = facts.get(path)
        if f is None or not settings.wants(f.language) or not f.calls:
            continue
        if sources.lines(path) is None:
            report.files_not_asked.setdefault("working tree differs from the indexed content", []).append(path)
            continue
        if not sources.utf8(path):
            # a server that cannot open one file would fail, restart and give up the whole language
            report.files_not_asked.setdefault("not UTF-8 (language servers read UTF-8 only)", []).append(path)
            continue
        by_group.setdefault(SERVER_GROUPS[f.language], []).append(path)
    out: dict[str, dict] = {}
    total, done = sum(map(len, by_group.values())), [0]
    deadline = started + settings.budget_seconds
    for group, group_paths in sorted(by_group.items()):
        rep = report.groups.setdefault(group, GroupReport(files=len(group_paths),
                                                          call_sites=sum(len(facts[p].calls) for p in group_paths)))
        spec = _servers().find_server(group, root)
        if spec is None:
            rep.skipped = _servers().missing_reason(group)
            report.files_not_asked.setdefault(f"no {group} language server", []).extend(group_paths)
            continue
        rep.server = server_id(spec)
        t0, results = time.monotonic(), {}
        shards = _shards(spec.name, group_paths, facts)
        askers = [_Asker(group, root, facts, sources, settings, rep, spec.name) for _ in shards]
        for asker in askers:
            asker.deadline = deadline

        async def run_shards() -> None:
            await asyncio.gather(*(_run_group(group, spec, shard, asker, deadline, results, progress, done, total)
                                   for shard, asker in zip(shards, askers)))
        asyncio.run(run_shards())
        rep.seconds = time.monotonic() - t0
        out_of_time = any(a.out_of_time for a in askers)
        for path in group_paths:
            if path in results:
                out[path] = {"server": rep.server, "format": ANSWER_FORMAT, "answers": results[path]}
            else:
                reason = "LSP time budget exhausted" if out_of_time else f"{group} server failed"
                report.files_not_asked.setdefault(reason, []).append(path)
        report.budget_exhausted |= out_of_time and any(p not in results for p in group_paths)
    report.seconds = time.monotonic() - started
    return out, report
