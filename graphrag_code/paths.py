"""How does X reach Y: call paths between two symbols of an indexed repository, with honest uncertainty.

The library behind ``graphrag-code path X Y`` (and the future ``/v1/paths``)::

    result = find_paths(graph, "shop", "OrderService.cancel", "save_row", max_hops=8, k=3)
    result.paths[0].hops[0].citations   # ["app/service.py:20"]

Endpoints (:func:`resolve_endpoint`) may be a symbol id (``repo:path#Q.name`` or ``path#Q.name``), a
qualified name or its suffix (``OrderService.cancel``, ``service.OrderService.cancel``), a bare name,
``file:line`` (the innermost symbol containing the line; module-level code gives the file) or a phrase whose
words are joined into identifier spellings (``cancel order`` -> ``cancel_order``, ``cancelOrder``,
``CancelOrder``); finding code by description is ``search``'s job. Unknown symbols and files are NotFound.
Every resolution says which node was chosen and why; ambiguous ones list the candidates and pick the best
(exact qualified name > suffix > name, non-test > test) while saying so.

Paths are found by two Cypher statements (``call_paths``: over CALLS; ``call_paths_dispatch``: with one
dynamic-dispatch step from a base-class method to an override of it in a subclass) using Neo4j's ``SHORTEST``
path selector, then ranked here by number of hops, then by the product of the hops' confidences. Each hop
cites its call-site line(s) as ``path:line`` at the indexed commit. When no path exists within the bound the
result carries the frontier: how many symbols X reaches per depth, and the unresolved or low-confidence calls
along the way that could hide a path (those whose called name is Y's name first). Nothing is guessed.
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import asdict, dataclass, field
from typing import Any

from .db import Graph
from .errors import InputError, NotFound, small_int

DEFAULT_MAX_HOPS = 8
MAX_HOPS_LIMIT = 10          # the quantifier bound written in cypher/call_paths*.cypher
MAX_K = 16                   # SHORTEST 16 in cypher/call_paths*.cypher (per source/target pair)
LOW_CONFIDENCE = 0.6         # edges below this are reported as weak
DISPATCH_FACTOR = 0.5        # a call to a base method reaches a given override only for some receivers
CONTAINER_KINDS = frozenset({"class", "interface", "struct", "trait", "enum", "impl", "module"})
_KIND_RANK = {"function": 0, "method": 0, "macro": 0, "class": 1, "interface": 1, "struct": 1, "trait": 1, "enum": 2}
_FILE_LINE = re.compile(r"^(?P<path>[^\s#]+?):(?P<line>\d+)$")
# a path with spaces or '#' (`dir with space/my file.js:2`, `src/a#b.py:1`): file:line only when an indexed
# file has exactly that path, since a phrase or an id may end in ':<digits>' too
_NUMBERED = re.compile(r"([^\s#:]+?)~(?:\d+|impl(?:~\d+)?)")     # Q.name~2: one of a name's definitions in a file
_ANY_FILE_LINE = re.compile(r"^(?P<path>[^\n]+?):(?P<line>\d+)$")
_UNRESOLVED = re.compile(r"^(?P<label>.*)@(?P<line>\d+):(?P<reason>.*)$", re.S)
_CODE_SUFFIXES = (".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".go", ".java",
                  ".rs", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".rb", ".cs", ".php")


# -- records ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NodeRef:
    """A symbol (or a file, for module-level code) with its provenance: repository, commit, path, lines, id."""

    id: str
    repo: str
    commit: str | None
    path: str
    name: str
    qualified_name: str | None
    kind: str
    start_line: int | None
    end_line: int | None
    is_test: bool
    label: str                      # "Symbol" | "File"
    unresolved: tuple[str, ...] = field(default=(), compare=False, repr=False)   # raw unresolved_calls

    @property
    def display(self) -> str:
        if self.label == "File":
            return f"{self.path} (module code)"
        return self.qualified_name or self.name

    @property
    def location(self) -> str:
        """``path:start-end`` (a file: its path)."""
        if self.start_line is None:
            return self.path
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["unresolved"]
        return {**out, "display": self.display, "location": self.location}


def node_ref(row: dict[str, Any], repo: str, commit: str | None) -> NodeRef:
    is_file = row.get("label") == "File"
    return NodeRef(id=row["id"], repo=row.get("repo") or repo, commit=commit, path=row.get("path") or "",
                   name=row.get("name") or "", qualified_name=row.get("qualified_name"),
                   kind=row.get("kind") or ("file" if is_file else "symbol"),
                   start_line=row.get("start_line"), end_line=row.get("end_line"),
                   is_test=bool(row.get("is_test")), label="File" if is_file else "Symbol",
                   unresolved=tuple(row.get("unresolved_calls") or ()))


@dataclass(frozen=True)
class UnresolvedCall:
    """A call site resolution could not pin to a definition: ``receiver.name@line:reason`` on ``node``."""

    node: NodeRef
    label: str                      # "receiver.name" as written
    name: str
    receiver: str | None
    line: int
    reason: str                     # unknown | dynamic | self-unknown | ambiguous:N | external:<module> | ...

    @property
    def citation(self) -> str:
        return f"{self.node.path}:{self.line}"

    @property
    def external(self) -> bool:
        return self.reason.startswith("external:")

    def to_dict(self) -> dict[str, Any]:
        return {"in": self.node.to_dict(), "call": self.label, "name": self.name, "receiver": self.receiver,
                "line": self.line, "reason": self.reason, "citation": self.citation}


def parse_unresolved(entry: str, node: NodeRef) -> UnresolvedCall | None:
    """Parse ``receiver.name@line:reason``; None for base-class entries ("inherits X@3:unknown") and junk."""
    m = _UNRESOLVED.match(entry)
    if not m or m["label"].startswith(("inherits ", "implements ")):
        return None
    label = m["label"]
    receiver, _, name = label.rpartition(".")
    return UnresolvedCall(node, label, name, receiver or None, int(m["line"]), m["reason"])


@dataclass
class Resolved:
    """What an endpoint text resolved to, how, and which other candidates there were."""

    query: str
    node: NodeRef
    # id | exact_qualified | suffix_qualified | module_qualified | name | file_line | module_code | file | phrase
    how: str
    reason: str
    candidates: list[NodeRef] = field(default_factory=list)   # every candidate considered, best first
    ambiguous: bool = False
    members: list[NodeRef] = field(default_factory=list)      # for a class: its methods (searched too)
    # other definitions of the same qualified name in the same file (overloads, redefinitions): searched too
    variants: list[NodeRef] = field(default_factory=list)

    @property
    def nodes(self) -> list[NodeRef]:
        """Everything the endpoint stands for: the chosen node, its same-name variants, a class's members."""
        return [self.node, *self.variants, *self.members]

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "chosen": self.node.to_dict(), "how": self.how, "reason": self.reason,
                "ambiguous": self.ambiguous, "candidates": [c.to_dict() for c in self.candidates],
                "variants": [v.id for v in self.variants], "members": [m.id for m in self.members]}


@dataclass
class Hop:
    """One step of a path: a call (cited at its call-site lines) or a dynamic-dispatch step (cited at the
    subclass's inheritance line)."""

    caller: NodeRef
    callee: NodeRef
    kind: str                       # "call" | "dispatch"
    lines: list[int]
    confidence: float
    resolved_by: str
    citations: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.caller.to_dict(), "to": self.callee.to_dict(), "kind": self.kind, "lines": self.lines,
                "confidence": self.confidence, "resolved_by": self.resolved_by, "citations": self.citations}


@dataclass
class CallPath:
    hops: list[Hop]

    @property
    def length(self) -> int:
        return len(self.hops)

    @property
    def confidence(self) -> float:
        return round(math.prod(h.confidence for h in self.hops), 4)

    @property
    def weak_hops(self) -> list[Hop]:
        return [h for h in self.hops if h.confidence < LOW_CONFIDENCE or h.kind == "dispatch"]

    def key(self) -> tuple[str, ...]:
        return tuple([self.hops[0].caller.id] + [h.callee.id for h in self.hops])

    def to_dict(self) -> dict[str, Any]:
        return {"length": self.length, "confidence": self.confidence, "hops": [h.to_dict() for h in self.hops],
                "nodes": list(self.key()), "weak_hops": [i for i, h in enumerate(self.hops) if h in self.weak_hops]}


@dataclass
class Frontier:
    """Where the graph reaches from X when it does not reach Y, and what could hide a path."""

    max_hops: int
    per_depth: dict[int, int]                  # depth -> number of nodes first reached at that depth
    reached: int
    cut_at_bound: bool                         # nodes at the bound: a longer path may exist
    suspects: list[UnresolvedCall]             # unresolved calls in reached nodes whose name is Y's name
    unresolved: list[UnresolvedCall]           # every other non-external unresolved call in reached nodes
    external_unresolved: int                   # calls into external modules (cannot reach Y), counted only
    weak_edges: list[dict[str, Any]]           # low-confidence edges on the shortest paths of the frontier
    target_callers: list[NodeRef]              # who calls Y directly (the other side)

    def to_dict(self) -> dict[str, Any]:
        return {"max_hops": self.max_hops, "per_depth": {str(k): v for k, v in sorted(self.per_depth.items())},
                "reached": self.reached, "cut_at_bound": self.cut_at_bound,
                "suspects": [u.to_dict() for u in self.suspects],
                "unresolved": [u.to_dict() for u in self.unresolved],
                "external_unresolved": self.external_unresolved, "weak_edges": self.weak_edges,
                "target_callers": [n.to_dict() for n in self.target_callers]}


@dataclass
class PathResult:
    repo: str
    commit: str | None
    source: Resolved
    target: Resolved
    max_hops: int
    k: int
    paths: list[CallPath]
    frontier: Frontier | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.paths)

    def to_dict(self) -> dict[str, Any]:
        return {"repo": self.repo, "commit": self.commit, "source": self.source.to_dict(),
                "target": self.target.to_dict(), "max_hops": self.max_hops, "k": self.k, "found": self.found,
                "shortest": self.paths[0].length if self.paths else None,
                "paths": [p.to_dict() for p in self.paths],
                "frontier": self.frontier.to_dict() if self.frontier else None, "notes": self.notes}


# -- repository -----------------------------------------------------------------------------------------------------
def repository(graph: Graph, repo: str, *, complete: bool = True) -> dict[str, Any]:
    """The Repository node's properties (root, commit, ...); NotFound naming the indexed ones if absent, and
    (``complete``) when no run of it has completed yet: a query would find nothing, and say so as if it had
    looked."""
    rows = graph.run("repo_get", repo=repo)
    if not rows:
        known = [r["repo"]["id"] for r in graph.run("repo_list")]
        more = f" ... and {len(known) - 20} more; `graphrag-code status` lists them" if len(known) > 20 else ""
        raise NotFound(f"repository {repo!r} is not indexed",
                       hint=f"indexed: {', '.join(known[:20]) or 'none'}{more}; index it with "
                            f"`graphrag-code index PATH`")
    info = rows[0]["repo"]
    if complete and info.get("indexed_at") is None:
        again = f"index it again: `graphrag-code index {shlex.quote(info.get('root') or 'PATH')} --name {shlex.quote(repo)}`"
        if info.get("running"):
            why = f"a run ({info['running']}, started {info.get('run_started_at')}) has not finished"
            again = f"wait for it (`graphrag-code status`; a run that was killed shows here too), or {again}"
        elif info.get("last_failure"):
            why = f"the last run ({info.get('failed_run')}) failed at {info.get('failed_at')}: {info['last_failure']}"
        else:
            why = "its run stopped before it finished"
        raise NotFound(f"repository {repo!r} has no completed index yet: {why}", hint=again)
    return info


def default_repository(graph: Graph, cwd: str) -> str:
    """The repository to query when none is named: the one whose root contains ``cwd`` (deepest first), else
    the only one indexed. Several indexed from that same root (under different names) are ambiguous: refused."""
    from pathlib import Path

    here = Path(cwd).resolve()
    repos = [r["repo"] for r in graph.run("repo_list")]
    containing = [r for r in repos if r.get("root") and (here == Path(r["root"]) or Path(r["root"]) in here.parents)]
    if containing:
        deepest = max(len(r["root"]) for r in containing)
        best = sorted((r["id"], r["root"]) for r in containing if len(r["root"]) == deepest)
        if len(best) > 1:
            raise InputError(f"which repository? {len(best)} were indexed from {best[0][1]} "
                             f"({', '.join(b[0] for b in best)})",
                             hint="pass --repo NAME (`graphrag-code status` lists them)")
        return best[0][0]
    if len(repos) == 1:
        return repos[0]["id"]
    raise InputError("which repository? none of the indexed ones contains the current directory",
                     hint="pass --repo NAME (`graphrag-code status` lists them)")


# -- endpoint resolution ------------------------------------------------------------------------------------------
def _module_of(path: str) -> str:
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] in ("__init__", "index", "mod"):
        parts = parts[:-1]
    return ".".join(parts)


def _rank(node: NodeRef, how: str) -> tuple:
    score = {"id": 0, "exact_qualified": 0, "module_qualified": 1, "suffix_qualified": 2, "name": 3}[how]
    return (score, node.is_test, _KIND_RANK.get(node.kind, 3), node.path.count("/"), node.path,
            node.start_line or 0, node.id)


def _looks_like_path(text: str) -> bool:
    return "/" in text or text.endswith(_CODE_SUFFIXES)


def _find_files(graph: Graph, repo: str, commit: str | None, path: str) -> list[tuple[NodeRef, bool]]:
    return [(node_ref(r["node"], repo, commit), bool(r["exact"])) for r in _file_rows(graph, repo, path)]


def _file_rows(graph: Graph, repo: str, path: str) -> list[dict[str, Any]]:
    path = path.removeprefix("./")
    return graph.run("symbol_lookup_file", repo=repo, path=path, suffix="/" + path)


def symbols_in_lines(graph: Graph, repo: str, commit: str | None,
                     ranges: list[tuple[str, int, int]]) -> dict[tuple[str, int, int], list[NodeRef]]:
    """Symbols overlapping each (path, start, end) range, outermost first."""
    out: dict[tuple[str, int, int], list[NodeRef]] = {}
    if not ranges:
        return out
    rows = graph.run("symbol_lookup_lines", repo=repo,
                     ranges=[{"path": p, "start": s, "end": e} for p, s, e in ranges])
    for r in rows:
        out.setdefault((r["path"], r["start"], r["end"]), []).append(node_ref(r["node"], repo, commit))
    for nodes in out.values():
        nodes.sort(key=lambda n: (n.start_line or 0, -(n.end_line or 0)))
    return out


def innermost(nodes: list[NodeRef], line: int) -> NodeRef | None:
    inside = [n for n in nodes if (n.start_line or 0) <= line <= (n.end_line or 0)]
    return min(inside, key=lambda n: ((n.end_line or 0) - (n.start_line or 0), -(n.start_line or 0)), default=None)


def members_of(graph: Graph, repo: str, commit: str | None, node: NodeRef) -> list[NodeRef]:
    """The symbols defined inside a container symbol (a class's methods, nested classes)."""
    if node.label != "Symbol" or node.kind not in CONTAINER_KINDS or node.start_line is None \
            or node.end_line is None:
        return []
    span = (node.path, node.start_line, node.end_line)
    found = symbols_in_lines(graph, repo, commit, [span])
    return [n for n in found.get(span, [])
            if n.id != node.id and n.id.startswith(node.id.split("~")[0] + ".")]


def _identifier_spellings(phrase: str) -> list[str]:
    words = [w for w in re.split(r"[^A-Za-z0-9_]+", phrase) if w]
    if not words:
        return []
    lower = [w.lower() for w in words]
    return list(dict.fromkeys(["_".join(lower), lower[0] + "".join(w.capitalize() for w in lower[1:]),
                               "".join(w.capitalize() for w in lower), "".join(lower)]))


def _by_name(graph: Graph, repo: str, commit: str | None, text: str) -> list[tuple[NodeRef, str]]:
    qualified = text.replace("::", ".").replace("->", ".")
    name = qualified.rsplit(".", 1)[-1]
    rows = graph.run("symbol_lookup_name", repo=repo, name=name, qualified=qualified, suffix="." + qualified,
                     limit=500)
    out = []
    for r in rows:
        node, how = node_ref(r["node"], repo, commit), r["match"]
        if how == "name" and "." in qualified:
            full = f"{_module_of(node.path)}.{node.qualified_name}"
            if full == qualified or full.endswith("." + qualified):
                how = "module_qualified"
        if how == "suffix_qualified" and "." not in qualified:
            how = "name"     # a bare name: ".name" suffix is no more than a name match
        out.append((node, how))
    return out


_HOW_TEXT = {"exact_qualified": "exact qualified name", "suffix_qualified": "qualified name ends with it",
             "module_qualified": "module path + qualified name match", "name": "name matches (qualifier ignored)"}


def _choose(query: str, cands: list[tuple[NodeRef, str]], what: str) -> Resolved:
    # definitions of one qualified name in one file (overloads, redefinitions) are one candidate: the last is
    # the one that runs (Python) or carries the body (TypeScript overloads); the others come along as variants
    groups: dict[tuple[str, str | None, bool], list[tuple[NodeRef, str]]] = {}
    for c in cands:
        # (a macro and a function of one name are two things, never overloads: Rust's `check!` and `check()`)
        groups.setdefault((c[0].path, c[0].qualified_name, c[0].kind == "macro"), []).append(c)
    reps = []
    for group in groups.values():
        group.sort(key=lambda c: c[0].start_line or 0)
        reps.append((group[-1], [g[0] for g in group[:-1]]))
    reps.sort(key=lambda r: _rank(*r[0]))
    (best, how), variants = reps[0]
    top = _rank(best, how)[:2]
    ties = [r[0][0] for r in reps if _rank(*r[0])[:2] == top]
    reason = f"{what}: {_HOW_TEXT.get(how, how)}"
    ambiguous = len(ties) > 1
    if ambiguous:
        reason += (f"; ambiguous: {len(ties)} candidates rank equally ({', '.join(t.id for t in ties[:6])}"
                   f"{', ...' if len(ties) > 6 else ''}); chose the first by kind and path")
    if variants:
        reason += (f"; {len(variants) + 1} definitions of {best.qualified_name} in {best.path} (overloads, "
                   f"redefinitions, a Ruby class method beside an instance method): all are searched, the last "
                   f"is shown")
    if not best.is_test and any(c.is_test for c, _ in cands):
        reason += "; non-test preferred over test candidates"
    if len(reps) > len(ties):
        reason += f"; {len(reps) - len(ties)} other candidate(s) rank lower"
    ordered = [best, *variants] + [r[0][0] for r in reps[1:]]
    return Resolved(query, best, how, reason, ordered, ambiguous, variants=variants)


def _same_name_variants(graph: Graph, repo: str, commit: str | None, node: NodeRef) -> list[NodeRef]:
    """Other definitions of ``node``'s qualified name in its file (``id~2``, ``id~3``...)."""
    if node.label != "Symbol" or not node.qualified_name:
        return []
    rows = graph.run("symbol_lookup_name", repo=repo, name=node.name, qualified=node.qualified_name,
                     suffix="." + node.qualified_name, limit=500)
    found = [node_ref(r["node"], repo, commit) for r in rows]
    return sorted((n for n in found if n.path == node.path and n.qualified_name == node.qualified_name
                   and n.id != node.id and (n.kind == "macro") == (node.kind == "macro")),
                  key=lambda n: n.start_line or 0)


def _line_number(digits: str, text: str) -> int:
    """The line of a file:line endpoint; one of more digits than any file has lines is refused here (Python will
    not even read one over 4,300 digits)."""
    line = small_int(digits)
    if line is None:
        raise InputError(f"the line number in {text[:60]}{'…' if len(text) > 60 else ''} has {len(digits)} digits: "
                         f"no file has that many lines")
    return line


def resolve_endpoint(graph: Graph, repo: str, text: str, *, commit: str | None = None,
                     allow_file: bool = False) -> Resolved:
    """Resolve a user's endpoint text to one node of ``repo`` (see the module docstring for the forms)."""
    text = text.strip()
    if not text:
        raise InputError("empty symbol")
    m = _FILE_LINE.match(text)
    odd = None if m else _ANY_FILE_LINE.match(text)
    if odd and any(r["exact"] for r in _file_rows(graph, repo, odd["path"])):
        return _resolve_file_line(graph, repo, commit, text, odd["path"], _line_number(odd["line"], text))
    no_id = None
    if "#" in text:                                                  # an id, with or without "repo:"
        node_id = text if text.startswith(repo + ":") else f"{repo}:{text}"
        rows = graph.run("symbol_lookup_id", repo=repo, id=node_id)
        if rows:
            node = node_ref(rows[0]["node"], repo, commit)
            if node.label == "File" and allow_file:      # `h#sh.py` is a file's id too: as its path, every definition
                return Resolved(text, node, "file", "file path", [node])
            variants = _same_name_variants(graph, repo, commit, node)
            reason = "exact id" + (f"; {len(variants)} other definition(s) of {node.qualified_name} in {node.path} "
                                   f"(overloads or redefinitions) are searched too" if variants else "")
            return Resolved(text, node, "id", reason, [node, *variants], variants=variants)
        head = text.split("#", 1)[0]
        other = head.split(":", 1)[0] if ":" in head else None
        if other and not text.startswith(repo + ":"):      # another repository's id, given with --repo/repo
            raise NotFound(f"no symbol with id {text!r} in {repo}: that id names repository {other!r}",
                           hint=f"ids in {repo} start with '{repo}:'; pass the repository the id names")
        # not an id: a name with a `#` (`Store.#bump`, JavaScript's private methods) or a file:line of a path with one
        no_id = NotFound(f"no symbol with id {node_id!r} in {repo}", hint="and no symbol of that name")
    if m and _looks_like_path(m["path"]):
        return _resolve_file_line(graph, repo, commit, text, m["path"], _line_number(m["line"], text))
    if allow_file and _looks_like_path(text):
        files = _find_files(graph, repo, commit, text)
        if files:
            exact = [f for f, e in files if e]
            chosen = exact[0] if exact else files[0][0]
            reason = "file path" if exact else f"file path ends with /{text}"
            ambiguous = not exact and len(files) > 1
            if ambiguous:
                reason += (f"; ambiguous: {len(files)} files match ({', '.join(f.path for f, _ in files[:6])}); "
                           f"chose the shortest path")
            return Resolved(text, chosen, "file", reason, [f for f, _ in files], ambiguous)
    if re.search(r"\s", text):                                      # a phrase
        named = _by_name(graph, repo, commit, text)     # a test runner's test is named so: `it finds a query`
        if named:
            return _choose(text, named, "name")
        cands: list[tuple[NodeRef, str]] = []
        spellings = _identifier_spellings(text)
        for spelling in spellings:
            cands += [(n, "name") for n, h in _by_name(graph, repo, commit, spelling)
                      if h in ("name", "exact_qualified")]
        if not cands:       # words are only joined into identifiers here; finding code by meaning is search's job
            raise NotFound(f"no symbol matches the phrase {text!r} (tried {', '.join(spellings) or 'nothing'})",
                           hint=f"give a symbol name, id{', file:line or file path' if allow_file else ' or file:line'}"
                                f"; `search` finds code by description")
        resolved = _choose(text, list({c[0].id: c for c in cands}.values()),
                           f"phrase joined into an identifier ({', '.join(spellings)})")
        resolved.how = "phrase"
        return resolved
    numbered = _NUMBERED.fullmatch(text)
    if numbered:              # `TimestampSigner.unsign~3`, as search and impact show a repeated qualified name
        return _numbered(graph, repo, commit, text, numbered[1])
    cands = _by_name(graph, repo, commit, text)
    if not cands and no_id is not None:
        raise no_id
    if not cands:
        hint = "names are matched exactly (qualified name, its suffix, or the bare name); ids look like path#Q.name"
        if allow_file:
            hint += "; files are matched by path"
        raise NotFound(f"no symbol named {text!r} in {repo}", hint=hint)
    if re.search(r"\.|::|->", text) and all(how == "name" for _, how in cands):
        # `Nonexistent.__init__`: its qualifier matches none of them; answering for one of the symbols of that
        # bare name would answer another question (eighth QA pass: 39 `__init__`, the first chosen)
        named = sorted({n.qualified_name or n.name for n, _ in cands})
        raise NotFound(f"no symbol named {text!r} in {repo}: its qualifier matches none of the {len(cands)} "
                       f"symbol(s) named {text.replace('::', '.').replace('->', '.').rsplit('.', 1)[-1]!r}",
                       hint=f"name one of them: {', '.join(named[:8])}{', ...' if len(named) > 8 else ''} "
                            f"(or its id, path#Q.name)")
    return _choose(text, cands, "name")


def _numbered(graph: Graph, repo: str, commit: str | None, text: str, base: str) -> Resolved:
    """The definition an id suffix ``~N`` numbers among those of its qualified name in one file (an id's
    ``path#Q.name~N`` without the path): one per file that has it, the best ranked when several do."""
    found = sorted(((n, how) for n, how in _by_name(graph, repo, commit, base)
                    if (n.id.partition("#")[2] == text or n.id.partition("#")[2].endswith("." + text))),
                   key=lambda c: _rank(*c))
    if not found:
        raise NotFound(f"no symbol named {text!r} in {repo}",
                       hint=f"~N numbers the definitions of one qualified name in one file; `impact {base}` "
                            f"lists the ones there are")
    node = found[0][0]
    reason = f"name: {text} is {node.id.partition('#')[2]} in {node.path}"
    if len(found) > 1:
        reason += (f"; ambiguous: {len(found)} files have it ({', '.join(n.path for n, _ in found[:6])}); "
                   f"chose the first")
    return Resolved(text, node, "id", reason, [n for n, _ in found], len(found) > 1)


def _resolve_file_line(graph: Graph, repo: str, commit: str | None, text: str, path: str, line: int) -> Resolved:
    rows = _file_rows(graph, repo, path)
    if not rows:
        raise NotFound(f"no indexed file {path!r} in {repo}")
    files = [(node_ref(r["node"], repo, commit), bool(r["exact"])) for r in rows]
    exact = [f for f, e in files if e]
    file = exact[0] if exact else files[0][0]
    lines = next(r["node"]["lines"] for r in rows if r["node"]["id"] == file.id)
    if not 1 <= line <= (lines or line):
        raise InputError(f"line {line} is outside {file.path} (lines 1-{lines})")
    notes = "" if exact else f" (path ends with /{path})"
    ambiguous = not exact and len(files) > 1
    if ambiguous:
        notes += (f"; ambiguous: {len(files)} files match ({', '.join(f.path for f, _ in files[:6])}); "
                  f"chose the shortest path")
    found = symbols_in_lines(graph, repo, commit, [(file.path, line, line)]).get((file.path, line, line), [])
    node = innermost(found, line)
    if node is None:
        return Resolved(text, file, "module_code", f"line {line} of {file.path} is in no definition: the file's "
                                                    f"module-level code{notes}", [file], ambiguous)
    enclosing = [n for n in found if n.id != node.id and (n.end_line or 0) >= line]
    reason = f"innermost symbol containing line {line} of {file.path}{notes}"
    if enclosing:
        reason += f" (inside {', '.join(n.display for n in enclosing)})"
    variants = _same_name_variants(graph, repo, commit, node)
    if variants:
        reason += (f"; {len(variants)} other definition(s) of {node.qualified_name} in {node.path} (overloads or "
                   f"redefinitions) are searched too")
    return Resolved(text, node, "file_line", reason, [node, *enclosing], ambiguous, variants=variants)


# -- paths --------------------------------------------------------------------------------------------------------
def _hops(nodes: list[dict], rels: list[dict], repo: str, commit: str | None) -> list[Hop]:
    by_id = {n["id"]: node_ref(n, repo, commit) for n in nodes}
    hops: list[Hop] = []
    i = 0
    while i < len(rels):
        r = rels[i]
        if r["type"] == "CALLS":
            caller, callee = by_id[r["src"]], by_id[r["dst"]]
            lines = sorted(r.get("lines") or [])
            # an edge the resolver gave an override (`self.validate()` in a base class) is dynamic dispatch too
            kind = "dispatch" if r.get("resolved_by") == "dispatch" else "call"
            hops.append(Hop(caller, callee, kind, lines, float(r.get("confidence") or 0.0),
                            r.get("resolved_by") or "?", [f"{caller.path}:{ln}" for ln in lines]))
            i += 1
            continue
        # CONTAINS (base class -> base method, walked backwards), INHERITS/IMPLEMENTS..., CONTAINS (sub -> override)
        j = i + 1
        while j < len(rels) and rels[j]["type"] in ("INHERITS", "IMPLEMENTS"):
            j += 1
        if r["type"] != "CONTAINS" or j >= len(rels) or rels[j]["type"] != "CONTAINS":
            raise ValueError(f"unexpected relationship sequence in a path: {[x['type'] for x in rels]}")
        base_method, override = by_id[r["dst"]], by_id[rels[j]["dst"]]
        inherit = rels[i + 1:j]
        confidence = round(math.prod(float(x.get("confidence") or 0.0) for x in inherit) * DISPATCH_FACTOR, 4)
        citations = [f"{by_id[x['src']].path}:{ln}" for x in inherit for ln in sorted(x.get("lines") or [])]
        chain = " -> ".join([by_id[inherit[-1]["src"]].display] + [by_id[x["dst"]].display for x in reversed(inherit)])
        lines = sorted({ln for x in inherit for ln in (x.get("lines") or [])})
        hops.append(Hop(base_method, override, "dispatch", lines, confidence, f"dispatch ({chain})", citations))
        i = j + 1
    return hops


def _endpoint_ids(res: Resolved) -> list[str]:
    return list(dict.fromkeys(n.id for n in res.nodes))


def find_paths(graph: Graph, repo: str, source: str, target: str, *, max_hops: int = DEFAULT_MAX_HOPS,
               k: int = 3) -> PathResult:
    """The ``k`` best call paths from ``source`` to ``target`` (ranked by hops, then product of confidences),
    or, when there is none within ``max_hops``, the frontier of what ``source`` reaches."""
    if not 1 <= max_hops <= MAX_HOPS_LIMIT:
        raise InputError(f"max hops must be between 1 and {MAX_HOPS_LIMIT}, not {max_hops}")
    if not 1 <= k <= MAX_K:
        raise InputError(f"k must be between 1 and {MAX_K}, not {k}")
    info = repository(graph, repo)
    commit = info.get("commit")
    src = resolve_endpoint(graph, repo, source, commit=commit)
    dst = resolve_endpoint(graph, repo, target, commit=commit)
    notes: list[str] = []
    for res in (src, dst):
        res.members = [m for n in (res.node, *res.variants) for m in members_of(graph, repo, commit, n)]
        if res.members:
            notes.append(f"{res.node.display} is a {res.node.kind}: paths from/to any of its {len(res.members)} "
                         f"members count")
    overrides = [node_ref(r["node"], repo, commit)
                 for r in graph.run("placeholder_overrides", ids=[n.id for n in (dst.node, *dst.variants)])]
    if overrides:   # calls that landed on a placeholder were resolved to its overrides: reaching one counts
        dst.members += overrides
        notes.append(f"{dst.node.display} only raises NotImplementedError (or is abstract): calls to it go to its "
                     f"{len(overrides)} override(s), and paths to any of them count")
    if src.node.id == dst.node.id:
        raise InputError(f"{source!r} and {target!r} resolve to the same node ({src.node.id})")
    # one endpoint may lie inside the other (a method and its class): the chosen nodes stay, the expansions give way
    sources = [i for i in _endpoint_ids(src) if i != dst.node.id]
    targets = [i for i in _endpoint_ids(dst) if i not in sources or i == dst.node.id]
    sources = [i for i in sources if i not in targets]
    found: dict[tuple[str, ...], CallPath] = {}
    for statement in ("call_paths", "call_paths_dispatch"):
        rows = graph.run(statement, sources=sources, targets=targets, max_hops=max_hops)
        for row in rows:
            path = CallPath(_hops(row["nodes"], row["rels"], repo, commit))
            if path.hops and path.length <= max_hops:
                key = path.key()
                if key not in found or found[key].confidence < path.confidence:
                    found[key] = path
    ranked = sorted(found.values(), key=lambda p: (p.length, -p.confidence, p.key()))
    result = PathResult(repo, commit, src, dst, max_hops, k, ranked[:k], notes=notes)
    if len(ranked) > k:
        notes.append(f"{len(ranked) - k} more path(s) found within {max_hops} hops (raise -k to see them)")
    if ranked:
        if any(p.weak_hops for p in result.paths):
            notes.append("some hops are uncertain (confidence < 0.6 or dynamic dispatch): the path may not run")
    else:
        result.frontier = frontier(graph, repo, commit, src, dst, max_hops)
    return result


def _reach_forward(graph: Graph, sources: list[str], max_hops: int) -> list[dict]:
    """Every node the sources reach over CALLS within ``max_hops``, breadth first (``callees_step``, one query per
    level): {node, depth (the fewest calls), weak (the edges below LOW_CONFIDENCE on the first shortest walk that
    reached it)}. Each node is expanded once, so a dense call graph costs its edges, not its walks."""
    seen: dict[str, dict] = {s: {"node": None, "depth": 0, "weak": []} for s in sources}
    level, out = list(dict.fromkeys(sources)), []
    for depth in range(1, max_hops + 1):
        reached: dict[str, dict] = {}
        for r in graph.run("callees_step", ids=level):
            node = r["node"]
            if node["id"] in seen or node["id"] in reached:
                continue
            weak = list(seen[r["src"]]["weak"])
            if r["confidence"] is not None and r["confidence"] < LOW_CONFIDENCE:
                weak.append({"src": r["src"], "dst": node["id"], "lines": r["lines"], "confidence": r["confidence"],
                             "resolved_by": r["resolved_by"]})
            reached[node["id"]] = {"node": node, "depth": depth, "weak": weak}
        if not reached:
            break
        seen.update(reached)
        out.extend(reached.values())
        level = list(reached)
    return out


def frontier(graph: Graph, repo: str, commit: str | None, src: Resolved, dst: Resolved, max_hops: int) -> Frontier:
    """What ``src`` reaches within ``max_hops`` calls, and the calls along the way that could hide a path."""
    rows = _reach_forward(graph, _endpoint_ids(src), max_hops)
    per_depth: dict[int, int] = {}
    start = {n.id: n for n in src.nodes}
    reached: dict[str, NodeRef] = dict(start)
    weak: dict[tuple[str, str], dict] = {}
    for r in rows:
        node = node_ref(r["node"], repo, commit)
        if node.id in start:
            continue
        reached[node.id] = node
        per_depth[r["depth"]] = per_depth.get(r["depth"], 0) + 1
        for w in r["weak"]:
            weak[(w["src"], w["dst"])] = w
    target_names = {n.name for n in dst.nodes} - {""}
    if dst.node.label == "File":
        target_names = set()
    suspects, others, external = [], [], 0
    for node in reached.values():
        for entry in node.unresolved:
            u = parse_unresolved(entry, node)
            if u is None:
                continue
            if u.external:
                external += 1
            elif u.name in target_names:
                suspects.append(u)
            else:
                others.append(u)
    suspects.sort(key=lambda u: (u.node.path, u.line))
    others.sort(key=lambda u: (u.reason.split(":")[0] != "dynamic", u.node.path, u.line))
    callers = graph.run("callers_step", ids=[n.id for n in (dst.node, *dst.variants)])
    target_callers = sorted({r["caller"]["id"]: node_ref(r["caller"], repo, commit) for r in callers}.values(),
                            key=lambda n: n.id)
    return Frontier(max_hops, per_depth, len(reached) - len(start), per_depth.get(max_hops, 0) > 0,
                    suspects, others, external, sorted(weak.values(), key=lambda w: (w["src"], w["dst"])),
                    target_callers)
