"""Chunk vectors in Neo4j: filled after the graph is written (graph and full-text search are usable before
they finish), and searched through the vector index ``chunk_embedding``.

``fill_embeddings`` streams: a reader thread pages through the chunks that lack a vector of the embedder's
model (keyset paging on the id index, one page ahead), the calling thread embeds (cache first), and a writer
thread stores each page with ``UNWIND`` while the next one is embedded. Memory stays bounded by a few pages
whatever the repository's size; onnxruntime releases the GIL, so database round trips overlap model time.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from .db import Graph
from .embeddings import EmbeddingCache, Embedder, embed_cached, embedding_text
from .errors import ConfigError, DatabaseError, DatabaseUnavailable, IndexingError, SchemaMismatch

Progress = Callable[[str, int, int], None]   # (stage, done, total), as the indexer's
DEFAULT_FILL_BATCH = 256                     # chunks per page read, embedded and written together
_QUEUE_PAGES = 2
# the driver's retries during a fill: it resumes where it stopped, so Neo4j going away ends it soon (the reader's
# and the writer's statements each waited out the 15 s of an indexing job's retries: 19-33 s, seventh QA pass)
FILL_RETRY_SECONDS = 3.0
_DONE = object()


def _id_range(repo: str) -> tuple[str, str]:
    """Every node id of ``repo`` starts with ``repo + ':'`` (names may not contain ':'), so the ids lie in
    the half-open string range [repo + ':', repo + ';')."""
    return f"{repo}:", f"{repo};"


def embedding_status(graph: Graph, repo: str, model_id: str | None = None) -> dict:
    """{chunks, with_vector, current, missing, models}: ``current`` counts vectors of ``model_id``."""
    rows = graph.run("embedding_counts", repo=repo, model_id=model_id)
    row: dict[str, Any] = rows[0] if rows else {"chunks": 0, "with_vector": 0, "current": 0, "models": []}
    return {"chunks": row["chunks"], "with_vector": row["with_vector"], "current": row["current"],
            "missing": row["chunks"] - row["current"], "models": {m: n for m, n in row["models"]}}


def _dimension(embedder: Embedder, cache: EmbeddingCache | None) -> int:
    """The embedder's dimension. A model whose session is not made yet (``load_embedder(lazy=True)``) is not
    loaded for it when the cache holds a vector of its model id: its texts may all be there."""
    if not getattr(embedder, "loaded", True) and cache is not None:
        known = cache.dimension(embedder.model_id)
        if known:
            return known
    return embedder.dim


def _check_dimensions(graph: Graph, embedder: Embedder, cache: EmbeddingCache | None) -> None:
    rows = graph.run("meta_get", key="schema")
    if not rows:
        raise ConfigError("the graph has no schema yet: index a repository before filling embeddings")
    dim, made = rows[0]["embedding_dim"], _dimension(embedder, cache)
    if dim != made:
        raise SchemaMismatch(f"the vector index chunk_embedding has {dim} dimensions, the embedder "
                             f"{embedder.model_id} makes {made}; vectors of two models never mix",
                             hint="use the model the graph was built for, or drop the graph and re-index")


def _check_live(graph: Graph, repo: str, counts: dict[str, int]) -> None:
    """IndexingError when ``repo`` was deleted (or a delete started) while its vectors were filled: its chunks
    vanish from under the reader and the writer, which would otherwise end as though all had their vectors."""
    if not graph.run("repo_live", repo=repo)[0]["live"]:
        raise IndexingError(f"repository {repo!r} was deleted while its vectors were filled; the fill stopped "
                            f"after {counts['written']} vectors, which went with it",
                            hint="index it again to re-create it")


class _Worker(threading.Thread):
    """A daemon thread whose exception is kept and re-raised in the caller."""

    def __init__(self, target: Callable[[], None], name: str) -> None:
        super().__init__(name=name, daemon=True)
        self._work = target
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._work()
        except BaseException as exc:   # handed to the caller, which re-raises it
            self.error = exc


def _put(q: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Put unless the pipeline is stopping; False when it is."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.2)
            return True
        except queue.Full:
            continue
    return False


def _hand_over(q: queue.Queue[Any], item: Any, worker: _Worker) -> None:
    """Put for ``worker`` to take, re-raising its error if it died instead of taking."""
    while True:
        if worker.error is not None:
            raise worker.error
        try:
            q.put(item, timeout=0.2)
            return
        except queue.Full:
            continue


def _get(q: queue.Queue[Any], workers: list[_Worker]) -> Any:
    """Get, but fail fast (re-raising its error) if a worker died instead of producing."""
    while True:
        try:
            return q.get(timeout=0.2)
        except queue.Empty:
            for w in workers:
                if w.error is not None:
                    raise w.error
                if not w.is_alive() and q.empty():
                    return _DONE


class _Fill:
    """One fill's pipeline: a reader thread pages through the chunks lacking a vector, the caller embeds each
    page (``embed_pages``), a writer thread stores it; counts and seconds inside database calls are kept."""

    def __init__(self, graph: Graph, repo: str, embedder: Embedder, batch: int) -> None:
        self.graph, self.repo, self.embedder, self.batch = graph, repo, embedder, batch
        self.stop = threading.Event()
        self.pages: queue.Queue[Any] = queue.Queue(maxsize=_QUEUE_PAGES)
        self.writes: queue.Queue[Any] = queue.Queue(maxsize=_QUEUE_PAGES)
        self.counts = {"read": 0, "written": 0, "stale": 0}
        self.busy = {"read": 0.0, "write": 0.0}   # seconds inside database calls (the threads' lifetimes overlap)
        self.hits = self.model_texts = 0
        self.model_seconds = 0.0

    def read(self) -> None:
        """The reader thread: keyset pages of chunks lacking a vector of the model, then _DONE."""
        cursor, upper = _id_range(self.repo)
        while not self.stop.is_set():
            t0 = time.perf_counter()
            rows = self.graph.run("chunks_missing_embeddings", repo=self.repo, model_id=self.embedder.model_id,
                                  after=cursor, upper=upper, limit=self.batch)
            self.busy["read"] += time.perf_counter() - t0
            if not rows:
                _check_live(self.graph, self.repo, self.counts)      # no page left, or no repository left?
                break
            self.counts["read"] += len(rows)
            cursor = rows[-1]["id"]
            if not _put(self.pages, rows, self.stop):
                return
        _put(self.pages, _DONE, self.stop)

    def write(self) -> None:
        """The writer thread: store each embedded page (``UNWIND``) until _DONE or the stop."""
        while True:
            try:
                item = self.writes.get(timeout=0.2)
            except queue.Empty:
                if self.stop.is_set():
                    return
                continue
            if item is _DONE:
                return
            t0 = time.perf_counter()
            try:
                written = self.graph.run("set_embeddings", rows=item, model_id=self.embedder.model_id)[0]["written"]
            except DatabaseError as exc:
                # a chunk deleted between the statement's MATCH and its vector write fails the procedure
                # (EntityNotFoundException): a delete under way says so; anything else is Neo4j's error. Not
                # when Neo4j is away: asking would only wait out the driver's retries a second time.
                if not isinstance(exc, DatabaseUnavailable):
                    _check_live(self.graph, self.repo, self.counts)
                raise
            self.busy["write"] += time.perf_counter() - t0
            self.counts["written"] += written
            self.counts["stale"] += len(item) - written
            if written < len(item):                  # re-indexed meanwhile (new chunk ids), or deleted?
                _check_live(self.graph, self.repo, self.counts)

    def embed_pages(self, reader: _Worker, writer: _Worker, cache: EmbeddingCache | None, report: Progress,
                    total: int) -> None:
        """Embed each page the reader hands over (the cache first) and hand it to the writer; the progress is
        the chunks embedded so far (the reader reads ahead: its count ran to 100% long before the end)."""
        embedded = 0
        while True:
            rows = _get(self.pages, [reader])
            if rows is _DONE:
                break
            texts = [embedding_text(r) for r in rows]
            result = embed_cached(self.embedder, cache, texts)
            self.hits += result.hits
            self.model_texts += result.model_texts
            self.model_seconds += result.model_seconds
            page = [{"id": r["id"], "content_hash": r["content_hash"], "vector": v}
                    for r, v in zip(rows, result.vectors)]
            _hand_over(self.writes, page, writer)
            embedded += len(rows)
            report("embed", min(embedded, total) if total else embedded, total)
        _hand_over(self.writes, _DONE, writer)

    def summary(self, total: int, seconds: float) -> dict[str, Any]:
        written, model_seconds, model_texts = self.counts["written"], self.model_seconds, self.model_texts
        return {
            "repo": self.repo, "model_id": self.embedder.model_id, "chunks_missing": total,
            "chunks_embedded": written, "chunks_changed_meanwhile": self.counts["stale"],
            "cache_hits": self.hits, "model_texts": model_texts,
            "seconds": round(seconds, 3),
            "chunks_per_s": round(written / seconds, 2) if seconds > 0 else 0.0,
            "model_seconds": round(model_seconds, 3),
            "model_chunks_per_s": round(model_texts / model_seconds, 2) if model_seconds > 0 else None,
            "embedder_busy": round(model_seconds / seconds, 3) if model_texts and seconds > 0 else None,
            "read_seconds": round(self.busy["read"], 3), "write_seconds": round(self.busy["write"], 3),
        }


def fill_embeddings(graph: Graph, repo: str, embedder: Embedder, cache: EmbeddingCache | None = None,
                    progress: Progress | None = None, batch: int = DEFAULT_FILL_BATCH) -> dict:
    """Give every chunk of ``repo`` a vector of ``embedder``'s model; returns counts and timings.

    Chunks with no vector, or a vector of another model id, are embedded (the cache first) and written as
    ``c.embedding`` (float32) + ``c.embedding_model``. Returned: chunks_missing (before), chunks_embedded
    (written), cache_hits, model_texts (texts the model ran), seconds, chunks_per_s, model_seconds (wall
    time inside the model), model_chunks_per_s, embedder_busy (model_seconds / seconds: how well the
    pipeline keeps the model fed), read_seconds / write_seconds (time inside database calls, overlapped
    with the model). A delete of ``repo`` meanwhile (from the CLI while an API job fills, or the other way
    round) stops the fill with IndexingError.
    """
    if batch < 1:
        raise ConfigError(f"fill batch must be at least 1 (got {batch})")
    total = embedding_status(graph, repo, embedder.model_id)["missing"]
    if total:                       # nothing to write, nothing to check: a lazy embedder stays unloaded
        _check_dimensions(graph, embedder, cache)
    report = progress or (lambda stage, done, total: None)
    started = time.perf_counter()
    report("embed", 0, total)       # the stage starts now: off a terminal, its first line is due 30 s from here
    fill = _Fill(graph, repo, embedder, batch)
    reader, writer = _Worker(fill.read, "embed-reader"), _Worker(fill.write, "embed-writer")
    with graph.retrying_at_most(FILL_RETRY_SECONDS):
        _run_fill(fill, reader, writer, cache, report, total)
    if reader.error is not None:
        raise reader.error
    seconds = time.perf_counter() - started
    report("embed", fill.counts["written"], total)
    return fill.summary(total, seconds)


def _run_fill(fill: _Fill, reader: _Worker, writer: _Worker, cache: EmbeddingCache | None, report: Progress,
              total: int) -> None:
    reader.start()
    writer.start()
    failed = True
    try:
        fill.embed_pages(reader, writer, cache, report, total)
        writer.join()
        if writer.error is not None:
            raise writer.error
        failed = False
    finally:
        fill.stop.set()
        # after an error a thread may be inside the driver's retries of a Neo4j that went away: daemons, they end
        # by themselves, and the error is reported now instead of up to 30 s later
        wait = 1.0 if failed else 30.0
        reader.join(timeout=wait)
        writer.join(timeout=wait)


def vector_search(graph: Graph, embedder: Embedder, query: str, k: int = 10, repo: str | None = None) -> list[dict]:
    """The ``k`` chunks nearest to ``query`` (vectors of this embedder's model only), best first:
    {id, repo, path, start_line, end_line, kind, qualified_name, score}. The index answers a global top-N,
    so with ``repo`` set it asks for 4k and, when the filters leave fewer than k, once more for 32k."""
    if k < 1:
        raise ConfigError(f"k must be at least 1 (got {k})")
    vector = embedder.embed([query])[0]
    rows = graph.run("vector_seeds", fetch=k * 4 if repo is not None else k, vector=vector, repo=repo,
                     model_id=embedder.model_id, k=k)
    if len(rows) < k:   # other repositories or another model's vectors took the places: look deeper once
        rows = graph.run("vector_seeds", fetch=k * 32, vector=vector, repo=repo, model_id=embedder.model_id, k=k)
    return rows
