"""Hybrid retrieval: seeds from full-text, symbol-name, stack-trace, path and vector channels, reciprocal rank
fusion, graph expansion in Cypher, an optional reranker, typed hits that say which channel found them.

    analyze(query) -> seeds per channel -> RRF -> chunk details + filters -> expand 1-2 hops -> rerank -> top k
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol

from .db import Graph
from .errors import GraphragError, InputError, check_text
from .extract import DEFINITION_KINDS
from .languages import LANGUAGES, TEXT_FORMATS
from .query_analysis import QueryAnalysis, analyze
from .textutil import split_identifier

RRF_K = 60
DEFAULT_K = 10
SEED_LIMIT = 50
FULLTEXT_MAX_FETCH = 100_000    # deepest full-text look for one repository's hits among all repositories
NARROWED_MAX_SEEDS = 3200       # deepest look per channel for hits a path, language or kind filter keeps
EXPAND_SEEDS = 8
EXPAND_PER_SEED = 3
# weight of a neighbour relative to the seed that led to it
EXPANSION_WEIGHT = {"callee": 0.5, "caller": 0.4, "parent": 0.3, "subtype": 0.3, "implementation": 0.3,
                    "test": 0.4}
# graph expansion takes two hops when the search is inside one repository this small (in symbols)
SMALL_REPO_SYMBOLS = 1000
# "what calls X": the callers of the symbols named X are the answer, ranked just above X itself (plus what the
# channels found of them directly)
RELATION_SEEDS = 3
RELATION_LIMIT = 10
RELATION_WEIGHT = 1.05
_TOKEN = re.compile(r"\w+|[^\w\s]")
# RRF weight per channel: identifier / stack-trace queries trust exact channels more than the vector one
# (measured on the golden set: the vector weight between 0.5 and 1.5 moves Hit@5 by under a point)
MODULE_CHUNK_WEIGHT = 0.5
# code under examples/, benchmarks/ or docs/ uses the library more than it explains it: a fourth QA pass on this
# checkout saw bench/ tooling ranked above the implementation; unless the query asks for such code
SECONDARY_DIRS = frozenset({"example", "examples", "sample", "samples", "bench", "benchmark", "benchmarks", "docs"})
SECONDARY_WORDS = SECONDARY_DIRS | {"doc", "documentation", "demo", "demos"}
SECONDARY_WEIGHT = 0.5
# path channel: a path the query names (`lib/router/index.js`, `types.py`) picks at most PATH_FILES files
PATH_WEIGHT = 0.5
MESSAGE_WEIGHT = 2.0   # an error message found verbatim in the code: exact evidence, as a stack frame's location
PATH_FILES = 5
PATH_PREFILTER = 2000
LEXICAL_WEIGHTS = {"symbol": 1.5, "location": 2.0, "fulltext": 1.0, "message": MESSAGE_WEIGHT, "path": PATH_WEIGHT,
                   "vector": 0.6}
PROSE_WEIGHTS = {"symbol": 1.0, "location": 1.0, "fulltext": 1.0, "message": MESSAGE_WEIGHT, "path": PATH_WEIGHT,
                 "vector": 1.0}

# what a filter may name: the indexer's language (and text format) names, the kinds of symbols and of chunks
LANGUAGE_NAMES = tuple(sorted({*LANGUAGES, *TEXT_FORMATS}))
CHUNK_KINDS = frozenset({"symbol", "part", "header", "module", "file", "section", "operation"})
KINDS = tuple(sorted(DEFINITION_KINDS | CHUNK_KINDS))
# a path glob whose every '[' is closed by a ']' (fnmatch takes an unclosed one literally, which nobody means). A
# JSON Schema pattern too (re.search semantics, ECMA 262 syntax): no '[' without a ']' after it
GLOB_PATTERN = r"^(?![\s\S]*\[[^\]]*$)"


@dataclass
class Filters:
    repo: str | None = None
    path_glob: str | None = None
    language: str | None = None
    kind: str | None = None              # symbol kind (function, method, class, ...) or chunk kind
    include_tests: bool | None = None    # None: only when the query is about tests
    include_generated: bool = False

    def check(self) -> None:
        """InputError (``field`` as the API names it) for a filter that can match nothing indexed: an unknown
        language or kind (a typo would silently return no hits), an unclosed '[' in the path glob."""
        self.language = self.language.lower() if self.language else self.language    # `PYTHON` is python
        self.kind = self.kind.lower() if self.kind else self.kind
        if self.path_glob == "":
            err = InputError("empty path glob", hint="leave it out to search every path, or give one like 'src/*'")
            err.field = "path"
            raise err
        for name, value, known in (("language", self.language, LANGUAGE_NAMES), ("kind", self.kind, KINDS)):
            if value is not None and value not in known:
                err = InputError(f"unknown {name} {value!r}; expected one of {', '.join(known)}")
                err.field = name
                raise err
        if self.path_glob is not None and self.path_glob.startswith(("./", "/")):
            # paths are relative to the repository's root: `./main.py` and `/main.py` mean `main.py` (they matched
            # nothing, silently; tenth QA pass)
            self.path_glob = re.sub(r"^(?:\./|/)+", "", self.path_glob) or "*"
        if self.path_glob is not None and self.path_glob.startswith("../"):
            err = InputError(f"bad path glob {self.path_glob!r}: paths are relative to the repository's root, so "
                             f"'../' matches nothing", hint="e.g. 'src/*.py'")
            err.field = "path"
            raise err
        if self.path_glob is not None and not re.search(GLOB_PATTERN, self.path_glob):
            err = InputError(f"bad path glob {self.path_glob!r}: a '[' is not closed by a ']'",
                             hint="write [[] for a literal '['")
            err.field = "path"
            raise err


@dataclass
class Hit:
    """One retrieved chunk with its provenance and why it was retrieved."""

    id: str
    repo: str
    commit: str | None
    path: str
    start_line: int
    end_line: int
    score: float
    channels: dict[str, int] = field(default_factory=dict)   # channel -> rank in that channel (1-based)
    via: list[str] = field(default_factory=list)             # graph expansion: "callee of <symbol> (line 12)"
    symbol_id: str | None = None
    name: str | None = None
    qualified_name: str | None = None
    kind: str | None = None              # symbol kind, or the chunk kind for module/file/section chunks
    chunk_kind: str = ""
    language: str | None = None
    signature: str | None = None
    is_test: bool = False
    text: str = ""
    header: str = ""
    content_hash: str = ""

    @property
    def location(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    @property
    def tokens(self) -> int:
        return len(_TOKEN.findall(self.text))

    @property
    def shown_name(self) -> str:
        """The qualified name as its id spells it: a redefinition's `~2` (`View.as_view.view~2`) tells it from
        the first of its name, and `path`/`impact` take it back."""
        own = self.symbol_id.split("#", 1)[1] if self.symbol_id and "#" in self.symbol_id else ""
        return own if own.startswith(self.qualified_name or "") and own else (self.qualified_name or "")

    def to_dict(self, with_text: bool = True) -> dict[str, Any]:
        d = asdict(self)
        d["location"] = self.location
        if not with_text:
            d.pop("text")
        return d


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    analysis: QueryAnalysis
    channels_used: list[str]
    vectors: str                      # "used", "missing" (no vectors yet), "off"
    reranker: str
    timings: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def to_dict(self, with_text: bool = True) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_dict(with_text) for h in self.hits],
                "analysis": {"identifiers": self.analysis.identifiers, "locations": self.analysis.locations,
                             "paths": self.analysis.paths, "quoted": self.analysis.quoted,
                             "lexical_first": self.analysis.lexical_first, "about_tests": self.analysis.about_tests},
                "channels_used": self.channels_used, "vectors": self.vectors, "reranker": self.reranker,
                "timings": self.timings, "counts": self.counts, "notes": self.notes}


class QueryEmbedder(Protocol):
    model_id: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class Reranker(Protocol):
    name: str

    def rerank(self, analysis: QueryAnalysis, hits: list[Hit]) -> list[Hit]: ...


@dataclass
class SearchOptions:
    k: int = DEFAULT_K
    channels: tuple[str, ...] = ("fulltext", "symbol", "location", "path", "vector")
    hops: int | None = None                # graph expansion hops (0 = off; None: 2 on small repositories, else 1)
    rrf_k: int = RRF_K
    seed_limit: int = SEED_LIMIT


LEXICAL_CHANNELS = ("fulltext", "symbol", "location", "path")


def channels_for(embedder: object | None) -> tuple[str, ...]:
    """Every channel, the vector one only when there is an embedder to embed the query."""
    return LEXICAL_CHANNELS + (("vector",) if embedder is not None else ())


def rrf(rankings: dict[str, list[str]], k: int = RRF_K, weights: dict[str, float] | None = None) -> dict[str, float]:
    """Reciprocal rank fusion: sum over channels of weight / (k + rank); no score calibration needed."""
    fused: dict[str, float] = defaultdict(float)
    for channel, ids in rankings.items():
        w = (weights or {}).get(channel, 1.0)
        for rank, cid in enumerate(ids, 1):
            fused[cid] += w / (k + rank)
    return dict(fused)


class Searcher:
    def __init__(self, graph: Graph, embedder: QueryEmbedder | None = None, reranker: Reranker | None = None) -> None:
        self.graph, self.embedder, self.reranker = graph, embedder, reranker

    # -- channels -----------------------------------------------------------------------------------------------
    def _seeds(self, a: QueryAnalysis, repo: str | None, opts: SearchOptions, notes: list[str],
               timings: dict[str, float]) -> tuple[dict[str, list[str]], str]:
        rankings: dict[str, list[str]] = {}
        limit = opts.seed_limit
        vectors = "off"

        def timed(name: str, fn) -> None:
            t = time.perf_counter()
            ids = fn()
            timings[name] = round(time.perf_counter() - t, 4)
            if ids:
                rankings[name] = list(dict.fromkeys(ids))

        if "fulltext" in opts.channels:
            timed("fulltext", lambda: self._fulltext_seeds(a.lucene(), repo, limit))
            if a.phrases:      # part of the full-text family: exact words, where the index's analyzer drops some
                timed("message", lambda: self._message_seeds(a, repo, limit))
        if "symbol" in opts.channels and a.names:
            timed("symbol", lambda: [r["id"] for r in self.graph.run(
                "symbol_seeds", names=a.names, repo=repo, limit=limit)])
        if "path" in opts.channels and a.paths:
            timed("path", lambda: self._path_seeds(a, repo, limit))
        if "location" in opts.channels and a.locations:
            timed("location", lambda: [r["id"] for r in self.graph.run(
                "location_seeds", locations=[{**loc, "tails": _tails(loc["path"])} for loc in a.locations],
                repo=repo, limit=limit)])
        if "vector" in opts.channels:
            if self.embedder is None:
                notes.append("vector channel off: no embedder configured")
            else:
                from .vectors import embedding_status
                status = embedding_status(self.graph, repo, self.embedder.model_id) if repo else \
                    {"chunks": 1, "current": 1}   # across repositories: let the index answer
                if not status["current"]:
                    vectors = "missing"
                    notes.append("searched without vectors: no chunk has an embedding yet "
                                 "(run `graphrag-code embed`)")
                else:
                    vectors = "used"
                    if status["current"] < status["chunks"]:
                        notes.append(f"{status['chunks'] - status['current']} of {status['chunks']} chunks have "
                                     "no vector yet: the vector channel saw only the rest")
                    from .vectors import vector_search
                    timed("vector", lambda: [r["id"] for r in vector_search(self.graph, self.embedder, a.text,
                                                                             k=limit, repo=repo)])
        return rankings, vectors

    def _filtered_seeds(self, a: QueryAnalysis, filters: Filters, opts: SearchOptions, timings: dict[str, float]
                        ) -> tuple[dict[str, list[str]], bool, list[str], list[Hit]]:
        """The channels' seeds (rankings, whether vectors ran, notes) and the fused hits the filters keep."""
        notes: list[str] = []
        rankings, vectors = self._seeds(a, filters.repo, opts, notes, timings)
        fused = rrf(rankings, opts.rrf_k, LEXICAL_WEIGHTS if a.lexical_first else PROSE_WEIGHTS)
        t = time.perf_counter()
        pool = self._hits(sorted(fused, key=fused.get, reverse=True)[:opts.seed_limit], fused, rankings)
        timings["fetch"] = round(time.perf_counter() - t, 4)
        return rankings, vectors, notes, [h for h in pool if _keep(h, filters, a)]

    def _message_seeds(self, a: QueryAnalysis, repo: str | None, limit: int) -> list[str]:
        """Chunks holding an error message's word runs verbatim, ahead of the full-text index's hits: its
        analyzer drops stop words, and a message ("No such command 'deploy'") is often mostly stop words."""
        phrases = sorted({" ".join(p.lower().split()) for p in a.phrases})
        if not phrases:
            return []
        return [r["id"] for r in self.graph.run("message_chunks", phrases=phrases, repo=repo, limit=limit)]

    def _fulltext_seeds(self, query: str, repo: str | None, limit: int) -> list[str]:
        """The best ``limit`` full-text hits (of ``repo``). The index ranks every repository together, so when
        other repositories fill the top (a small repository next to large ones) it is asked again 8x deeper,
        until ``limit`` hits of ``repo`` are found, the index has no more, or FULLTEXT_MAX_FETCH."""
        fetch = limit * (4 if repo else 1)
        while True:
            row = self.graph.run("fulltext_seeds", query=query, fetch=fetch, limit=limit, repo=repo)[0]
            if len(row["ids"]) >= limit or row["fetched"] < fetch or fetch >= FULLTEXT_MAX_FETCH:
                return row["ids"]
            fetch = min(fetch * 8, FULLTEXT_MAX_FETCH)

    def _path_seeds(self, a: QueryAnalysis, repo: str | None, limit: int) -> list[str]:
        """Chunks of the files the query names by path (`lib/router/index.js`, `types.py`), the chunks whose
        names share the query's terms first. Only named paths seed: matching query words to path segments
        (`router` -> lib/router/*) lost 2-4 points of Hit@5 on the golden set, at every weight tried."""
        named = [p.lower() for p in a.paths]
        files = self.graph.run("path_files", paths=sorted(set(named)), repo=repo, limit=PATH_PREFILTER)
        picked = sorted({(f["repo"], f["path"]) for f in files if _names_path(f["path"], named)})[:PATH_FILES]
        if not picked:
            return []
        terms = {t for t in a.terms if len(t) >= 3}
        rows = self.graph.run("path_chunks", files=[{"repo": r, "path": p} for r, p in picked])

        def rank(r: dict) -> tuple:
            return (-len(terms & set(split_identifier(r["name"] or ""))), r["chunk_kind"] == "module", r["path"],
                    r["start_line"])
        return [r["id"] for r in sorted(rows, key=rank)][:limit]

    def _hops(self, opts: SearchOptions, filters: Filters) -> int:
        if opts.hops is not None:
            return opts.hops
        if not filters.repo:
            return 1
        rows = self.graph.run("repo_get", repo=filters.repo)   # the count indexing stored on the repository
        return 2 if rows and (rows[0]["repo"].get("symbols") or 0) <= SMALL_REPO_SYMBOLS else 1

    # -- pipeline -----------------------------------------------------------------------------------------------
    def search(self, query: str, filters: Filters | None = None, options: SearchOptions | None = None) -> SearchResult:
        if not query or not query.strip():
            raise InputError("empty query")
        if len(query) > 4000:
            raise InputError("query longer than 4000 characters")
        check_text(query, "query")
        filters, opts = filters or Filters(), options or SearchOptions()
        filters.check()
        # every channel gives at least k candidates, four times that when filters will drop most of them (the
        # index ranks all repositories, paths and languages together: `--language go` kept 1 hit of 3)
        narrowed = filters.path_glob or filters.language or filters.kind
        opts = replace(opts, seed_limit=max(opts.seed_limit, opts.k) * (4 if narrowed else 1))
        started = time.perf_counter()
        a = analyze(query)
        timings: dict[str, float] = {}
        rankings, vectors, notes, pool = self._filtered_seeds(a, filters, opts, timings)
        while narrowed and len(pool) < opts.k and opts.seed_limit < NARROWED_MAX_SEEDS and \
                any(len(ids) >= opts.seed_limit for ids in rankings.values()):
            # the filters kept fewer than k of the best seeds and a channel had more: 8x deeper (a path glob
            # kept none of 200 when 300 other files said the word more often; tenth QA pass)
            opts = replace(opts, seed_limit=min(opts.seed_limit * 8, NARROWED_MAX_SEEDS))
            rankings, vectors, notes, pool = self._filtered_seeds(a, filters, opts, timings)
        if narrowed and len(pool) < opts.k and any(len(ids) >= NARROWED_MAX_SEEDS for ids in rankings.values()):
            notes.append(f"the filters kept {len(pool)} of the best {NARROWED_MAX_SEEDS} seeds of each channel; "
                         f"more may match further down: a narrower query finds them")
        t = time.perf_counter()
        secondary_asked = bool(SECONDARY_WORDS.intersection(a.terms)) or any(_secondary(p) for p in a.paths)
        for h in pool:   # module-level code (imports, license headers, constants) rarely answers a question
            if h.chunk_kind == "module":
                h.score *= MODULE_CHUNK_WEIGHT
            if not secondary_asked and _secondary(h.path):
                h.score *= SECONDARY_WEIGHT
        if a.about_tests:   # "tests for X": the tests that mention X first, then X itself
            for h in pool:
                h.score *= 2.0 if h.is_test else 1.0
        timings["fetch"] = round(timings["fetch"] + time.perf_counter() - t, 4)
        hops = self._hops(opts, filters)
        if hops > 0 and pool:
            t = time.perf_counter()
            if a.relation:
                pool = self._relation(pool, a, filters)
            pool = self._expand(pool, hops, filters, a)
            timings["expand"] = round(time.perf_counter() - t, 4)
        pool = self._shown_parts(_best_part_per_symbol(pool), name_only=len(a.text.split()) <= 2)
        reranker = "none"
        if self.reranker is not None and pool:
            t = time.perf_counter()
            try:
                pool = self.reranker.rerank(a, [*pool])
                reranker = self.reranker.name
            except GraphragError as exc:   # a reranker is an improvement, never a reason to lose the results
                notes.append(f"reranker {self.reranker.name} failed, fused order kept: {exc}")
            timings["rerank"] = round(time.perf_counter() - t, 4)
        timings["total"] = round(time.perf_counter() - started, 4)
        counts = {f"seeds_{c}": len(ids) for c, ids in rankings.items()}
        counts["candidates"] = len(pool)
        return SearchResult(query, pool[:opts.k], a, list(rankings), vectors, reranker, timings, counts, notes)

    def _hits(self, ids: list[str], scores: dict[str, float], rankings: dict[str, list[str]]) -> list[Hit]:
        if not ids:
            return []
        rows = {r["id"]: r for r in self.graph.run("chunks_by_id", ids=ids)}
        hits = []
        for cid in ids:
            r = rows.get(cid)
            if r is None:
                continue
            channels = {c: ranked.index(cid) + 1 for c, ranked in rankings.items() if cid in ranked}
            hits.append(_hit(r, scores.get(cid, 0.0), channels))
        return hits

    def _shown_parts(self, pool: list[Hit], name_only: bool) -> list[Hit]:
        """A hit whose chunk is punctuation alone (a long class's closing `}`, found by its path's and name's
        words), or a later part of a definition a query of its name alone found (`Gson`: a comment deep in the
        class), shows the definition's first part instead: its signature."""
        bare = {h.id: f"{h.symbol_id}::chunk" for h in pool if h.symbol_id and (
            not re.search(r"\w", h.text) or name_only and "symbol" in h.channels and h.chunk_kind == "part")}
        if not bare:
            return pool
        firsts = {r["id"]: r for r in self.graph.run("chunks_by_id", ids=sorted(set(bare.values())))}
        return [_hit(firsts[bare[h.id]], h.score, h.channels) if bare.get(h.id) in firsts else h for h in pool]

    def _relation(self, pool: list[Hit], a: QueryAnalysis, filters: Filters) -> list[Hit]:
        """The question asks for the callers (or callees) of a symbol it names: bring them in, above it."""
        names = {n.lower() for n in a.names}
        named = [h for h in sorted(pool, key=lambda h: h.score, reverse=True)
                 if h.symbol_id and ((h.name or "").lower() in names or (h.qualified_name or "").lower() in names)]
        # "what calls Context.invoke?": the symbols of that qualified name, not every `invoke` (BaseCommand's);
        # a qualified name suffix counts (`core.Context.invoke`, a Go receiver's `Command.execute`)
        qualified = {n.lower() for n in a.names if "." in n}
        exact = [h for h in named if any((h.qualified_name or "").lower() == q or
                                         (h.qualified_name or "").lower().endswith("." + q) for q in qualified)]
        named = exact or named
        seeds = {h.symbol_id: h for h in named[:RELATION_SEEDS]}
        if not seeds:
            return pool
        rows = self.graph.run("relation_neighbors", seeds=list(seeds), rel=a.relation, limit=RELATION_LIMIT)
        by_id = {h.id: h for h in pool}
        fetched = {h.id: h for h in self._hits([r["id"] for r in rows if r["id"] not in by_id], {}, {})}
        for r in rows:
            seed = seeds[r["seed"]]
            hit = by_id.get(r["id"]) or fetched.get(r["id"])
            if hit is None or not _keep(hit, filters, a) or hit.symbol_id in seeds:
                continue
            if hit.id not in by_id:
                hit.score = 0.0
                by_id[hit.id] = hit
            hit.score += seed.score * RELATION_WEIGHT
            hit.channels[f"graph:{r['rel']}"] = 1
            hit.via.append(_via(r, seed))
        return list(by_id.values())

    def _expand(self, pool: list[Hit], hops: int, filters: Filters, a: QueryAnalysis) -> list[Hit]:
        by_id = {h.id: h for h in pool}
        direct = set(by_id)
        frontier = sorted(pool, key=lambda h: h.score, reverse=True)[:EXPAND_SEEDS]
        for hop in range(1, hops + 1):
            seeds = {h.symbol_id: h for h in frontier if h.symbol_id}
            if not seeds:
                break
            rows = self.graph.run("expand_neighbors", seeds=list(seeds), per_seed=EXPAND_PER_SEED,
                                  tests=_tests_included(filters, a))
            new_ids = [r["id"] for r in rows if r["id"] not in by_id]
            fetched = {h.id: h for h in self._hits(list(dict.fromkeys(new_ids)), {}, {})}
            next_frontier = []
            for r in rows:
                seed = seeds[r["seed"]]
                weight = EXPANSION_WEIGHT[r["rel"]] / hop
                why = _via(r, seed)
                hit = by_id.get(r["id"])
                if hit is None:
                    hit = fetched.get(r["id"])
                    if hit is None or not _keep(hit, filters, a):
                        continue
                    hit.score = 0.0
                    by_id[hit.id] = hit
                    next_frontier.append(hit)
                if hit.id not in direct:   # expansion adds neighbours below their seed; it never reorders
                    hit.score = max(hit.score, seed.score * weight)   # what the channels found directly
                hit.channels.setdefault(f"graph:{r['rel']}", hop)   # the nearest hop that reached it
                if why not in hit.via:
                    hit.via.append(why)
            frontier = next_frontier[:EXPAND_SEEDS]
        return list(by_id.values())


def _via(row: dict, seed: Hit) -> str:
    """How graph expansion reached a hit: "caller of Foo.bar (line 12)"."""
    lines = f" (line {', '.join(map(str, row['lines']))})" if row["lines"] else ""
    return f"{row['rel']} of {seed.shown_name or seed.id}{lines}"


def _best_part_per_symbol(hits: list[Hit]) -> list[Hit]:
    """Parts of one long definition, and the overloads of one name in one file (TypeScript / `@overload`
    signatures, then the implementation; Java's overloads, which crowded the top one by one), compete for one
    slot. The one a stack frame located wins (`Gson.java:1227` named another overload's lines); else parts keep
    the best-scoring part with words (never a class's closing `}` alone), overloads the longest (the
    implementation, which the others delegate to), scored as the best of them."""
    groups: dict[object, list[Hit]] = {}
    for h in sorted(hits, key=lambda h: h.score, reverse=True):
        key = (h.repo, h.path, h.qualified_name) if h.symbol_id and h.qualified_name else h.id
        groups.setdefault(key, []).append(h)
    out = []
    for members in groups.values():
        top = members[0]
        located = [m for m in members if "location" in m.channels]
        overloads = {m.symbol_id for m in members}
        keep = located[0] if located else max(members, key=lambda m: m.end_line - m.start_line) \
            if len(overloads) > 1 else ([m for m in members if re.search(r"\w", m.text)] or members)[0]
        keep.score = top.score
        for m in members:
            for c, rank in m.channels.items():
                keep.channels.setdefault(c, rank)
        out.append(keep)
    return out


def _hit(r: dict, score: float, channels: dict[str, int]) -> Hit:
    return Hit(id=r["id"], repo=r["repo"], commit=r["commit"], path=r["path"], start_line=r["start_line"],
               end_line=r["end_line"], score=score, channels=channels, symbol_id=r["symbol_id"], name=r["name"] or r["title"],
               qualified_name=r["qualified_name"] or r["title"], kind=r["symbol_kind"] or r["chunk_kind"],
               chunk_kind=r["chunk_kind"], language=r["language"], signature=r["signature"],
               is_test=bool(r["is_test"]), text=r["text"] or "", header=r["header"] or "",
               content_hash=r["content_hash"] or "")


def _tails(path: str) -> list[str]:
    """`home/u/proj/pkg/auth.py` -> itself, `u/proj/pkg/auth.py`, ..., `auth.py`: the indexed paths a stack
    trace's (absolute) path can name, looked up exactly by location_seeds."""
    segments = path.split("/")
    return ["/".join(segments[i:]) for i in range(len(segments)) if segments[i]]


def _names_path(path: str, named: list[str]) -> bool:
    """Whether the query names this file: its whole path or a tail of it (`router/index.js`, `types.py`)."""
    low = path.lower()
    return any(low == n or low.endswith("/" + n) for n in named)


def _secondary(path: str) -> bool:
    """Whether ``path`` lies under an examples/, benchmarks/ or docs/ directory (at any depth)."""
    return any(part.lower() in SECONDARY_DIRS for part in path.split("/")[:-1])


def _tests_included(f: Filters, a: QueryAnalysis) -> bool:
    return f.include_tests if f.include_tests is not None else a.about_tests


def _keep(h: Hit, f: Filters, a: QueryAnalysis) -> bool:
    if h.is_test and not _tests_included(f, a):
        return False
    if f.path_glob and not fnmatch.fnmatch(h.path, f.path_glob):
        return False
    if f.language and h.language != f.language:
        return False
    if f.kind and f.kind not in (h.kind, h.chunk_kind):
        return False
    return True
