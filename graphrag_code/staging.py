"""One file's bytes to the rows the indexer stages and the facts resolution reads.

``stage_file`` is pure (no database, no shared state), so ``StagePool`` can run it in worker processes for a
stream of files while the indexer's own process reads blobs and hands batches to Neo4j: on Django the per-file
work is ~17 s of a full index's ~36 s, nearly all of it Python holding the GIL (parse, tags query, chunks,
search text, secret scan), which threads cannot spread over cores. Results come back in the files' order, so
rows, ids and facts are the same with or without workers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import multiprocessing
import posixpath
import re
import tomllib
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from . import discovery, secrets
from .chunking import chunk_file, file_chunks
from .config import EXTRACTOR_VERSION, IndexSettings, available_cores
from .extract import extract
from .languages import LANGUAGES, is_test_path, parse_go_mod, refine_language
from .models import FileExtraction
from .resolve import FileFacts, file_id, symbol_ids
from .textutil import search_text

# below this many bytes to parse, starting worker processes (~0.5 s each, an import of the grammars) costs more
# than it saves: an incremental run of a few files stays in this process
PARALLEL_MIN_BYTES = 2_000_000
# files go to a worker in batches of about this many bytes (fewer round trips), at most _BATCH_FILES of them
_BATCH_BYTES = 256_000
_BATCH_FILES = 64


def extractor_key(settings: IndexSettings) -> str:
    """What makes two extractions of the same blob equal: the extractor version and the chunk budget.
    A file whose stored key differs is parsed again."""
    return f"{EXTRACTOR_VERSION}:{settings.chunk_tokens}"


@dataclass(frozen=True)
class StageContext:
    """What every file's rows share: the repository, the run that stages them, the settings."""

    repo: str
    run: str
    settings: IndexSettings


@dataclass
class StagedFile:
    """What one file contributes: rows for the staged nodes and facts for resolution; or the reason it is
    skipped (``skip``, with no rows)."""

    path: str
    rows: list[dict] = field(default_factory=list)
    facts: FileFacts | None = None
    warnings: list[str] = field(default_factory=list)
    secret_kinds: list[str] = field(default_factory=list)    # one per redacted secret (never the value)
    skip: str | None = None


def stage_file(f: discovery.SourceFile, data: bytes, ctx: StageContext, *, parse: bool = True) -> StagedFile:
    """Skip check, secret redaction, decoding, extraction, chunks and rows of one file. ``parse=False`` indexes
    the file as file-level chunks without its grammar (for a file whose parse crashed a worker process)."""
    reason = discovery.content_skip_reason(f.path, data, include_generated=ctx.settings.include_generated)
    if reason is not None:
        return StagedFile(f.path, skip=reason[0])
    original = data
    data, findings = secrets.redact_bytes(data)
    warnings = []
    if findings:
        warnings.append(f"{len(findings)} secret(s) redacted before indexing")
    text, replaced = discovery.decode(data)
    if replaced:
        warnings.append("invalid UTF-8: undecodable bytes replaced with U+FFFD; lines unchanged")
    language = refine_language(f.language, f.path, data)
    if language != f.language:
        f = dataclasses.replace(f, language=language)
    if parse:
        extraction = extract_file(f.language, text, ctx.settings.chunk_tokens, f.path)
    else:
        extraction = _file_level(f.language, text, ctx.settings.chunk_tokens,
                                 "the parser crashed its process on this file; indexed as file chunks")
    warnings.extend(extraction.warnings)
    _blob_offsets(extraction, original, text)
    staged = file_rows(f, text, extraction, warnings, len(findings), ctx)
    staged.secret_kinds = [x.kind for x in findings]
    return staged


def _blob_offsets(ex: FileExtraction, original: bytes, text: str) -> None:
    """Definitions' byte offsets as offsets into the file's own bytes, the blob at the indexed commit (they were
    the parsed text's: after a BOM, an invalid byte or a redacted secret they cut the blob mid-token)."""
    if not ex.definitions:
        return
    mapped = discovery.OffsetMap(original, text.encode("utf-8"))
    if mapped.identity:
        return
    for d in ex.definitions:
        d.start_byte, d.end_byte = mapped(d.start_byte), mapped(d.end_byte, end=True)


def extract_file(lang: str, text: str, budget: int, path: str = "") -> FileExtraction:
    """Definitions, references and chunks of a decoded file; a grammar failure falls back to file chunks.
    ``path`` tells a manifest by its name (Cargo.toml)."""
    try:
        if lang in LANGUAGES:
            result = extract(text.encode("utf-8"), lang)
        else:
            result = FileExtraction(language=lang, parse_status="text")
            if lang == "gomod":
                result.go_module = parse_go_mod(text)[0]
            elif lang == "toml" and posixpath.basename(path) == "Cargo.toml":
                result.rust_crate = _crate_name(text)
        result.chunks = chunk_file(text.encode("utf-8"), text, lang, result.definitions, budget)
    except Exception as exc:  # a grammar crash must not lose the file: fall back to file-level chunks
        result = _file_level(lang, text, budget, f"extraction failed ({exc.__class__.__name__}: {exc}); "
                                                 f"indexed as file chunks")
    return result


_RUST_TEST_ATTRIBUTE = re.compile(r"#\[(?:[\w:]+::)?test\b|#\[cfg\(test\)\]")


def _rust_tests(ex: FileExtraction, text: str) -> set[int]:
    """Rust definitions that are tests by their attributes: `#[test]` (`#[tokio::test]`) on a function, and
    everything inside a `#[cfg(test)]` module (unit tests live beside the code, not under tests/)."""
    lines = text.split("\n")
    marked: set[int] = set()
    for i, d in enumerate(ex.definitions):
        head = "\n".join(lines[d.start_line - 1:(d.body_start_line or d.start_line)])
        if _RUST_TEST_ATTRIBUTE.search(head) or (d.parent is not None and d.parent in marked):
            marked.add(i)                  # parents come before their children
    return marked


def _crate_name(text: str) -> str:
    """The crate a Cargo.toml builds (`[package] name`, `-` as `_`, as code names it), or "" (a workspace)."""
    try:
        name = tomllib.loads(text).get("package", {}).get("name")
    except (tomllib.TOMLDecodeError, AttributeError):
        return ""
    return name.replace("-", "_") if isinstance(name, str) else ""


def _file_level(lang: str, text: str, budget: int, warning: str) -> FileExtraction:
    result = FileExtraction(language=lang, parse_status="failed")
    lines = text.split("\n")
    result.chunks = file_chunks(lines[:-1] if lines and lines[-1] == "" else lines, budget)
    result.warnings.append(warning)
    return result


def file_rows(f: discovery.SourceFile, text: str, ex: FileExtraction, warnings: list[str], redactions: int,
              ctx: StageContext) -> StagedFile:
    """The file's staged rows: the File first, its symbols in order, then its chunks. A row's ``owner`` is the
    position of its owner among these rows."""
    repo, path = ctx.repo, f.path
    facts_dict = ex.facts()
    ids = symbol_ids(repo, path, facts_dict["defs"])
    fid = file_id(repo, path)
    is_test = is_test_path(f.language, path)
    base = {"repo": repo, "path": path, "blob": f.blob, "language": f.language, "run": ctx.run,
            "is_test": is_test, "is_generated": bool(getattr(f, "is_generated", False))}
    rows = [{"owner": None, "rel": None, "kind": "File", "props": {
        **base, "id": fid, "name": posixpath.basename(path), "size": f.size,
        "lines": text.count("\n") + (0 if text.endswith("\n") or not text else 1),
        "parse_status": ex.parse_status, "warnings": warnings, "secrets_redacted": redactions,
        "extractor_version": extractor_key(ctx.settings),
        "facts": json.dumps(facts_dict, separators=(",", ":"))}}]
    marked = _rust_tests(ex, text) if f.language == "rust" else set()
    for i, d in enumerate(ex.definitions):
        test_symbol = is_test or bool(LANGUAGES[f.language].test_name.match(d.name)) or i in marked
        rows.append({"owner": 0 if d.parent is None else 1 + d.parent, "rel": "CONTAINS", "kind": "Symbol",
                     "props": {
            **base, "id": ids[i], "name": d.name, "qualified_name": d.qualified_name, "kind": d.kind,
            "signature": d.signature, "docstring": d.docstring, "start_line": d.start_line,
            "end_line": d.end_line, "start_byte": d.start_byte, "end_byte": d.end_byte,
            "visibility": d.visibility, "exported": d.exported, "is_test": test_symbol,
            "placeholder": d.placeholder or None,
            "parent_id": ids[d.parent] if d.parent is not None else None}})
    for c in ex.chunks:
        owner = ids[c.definition] if c.definition is not None else fid
        suffix = f"part{c.part}" if c.part > 1 else ("chunk" if c.definition is not None else f"L{c.start_line}")
        d = ex.definitions[c.definition] if c.definition is not None else None
        rows.append({"owner": 0 if c.definition is None else 1 + c.definition, "rel": "HAS_CHUNK",
                     "kind": "Chunk", "props": {
            **base, "id": f"{owner}::{suffix}", "kind": c.kind, "start_line": c.start_line,
            "end_line": c.end_line, "text": c.text, "header": c.header, "title": c.title, "part": c.part,
            "symbol_id": owner if d is not None else None,
            "name": d.name if d else c.title, "qualified_name": d.qualified_name if d else c.title,
            "content_hash": hashlib.sha1(c.text.encode("utf-8")).hexdigest(),
            "search_text": search_text(path, d.qualified_name if d else c.title, c.header, c.text)}})
    facts = FileFacts(path, f.language, ids=ids, **facts_dict)
    return StagedFile(path, rows, facts, warnings)


# -- worker processes ---------------------------------------------------------------------------------------------
_worker_ctx: StageContext | None = None


def _init_worker(ctx: StageContext) -> None:
    global _worker_ctx
    _worker_ctx = ctx


def _stage_batch(batch: list[tuple[discovery.SourceFile, bytes]]) -> list[StagedFile]:
    assert _worker_ctx is not None
    return [stage_file(f, data, _worker_ctx) for f, data in batch]


def auto_workers(total_bytes: int) -> int:
    """Worker processes for a run that parses ``total_bytes``: one per core (at most 4) when there are at least
    two cores and enough to parse to pay for starting them, else 0 (parse in this process)."""
    cores = available_cores()
    if cores < 2 or total_bytes < PARALLEL_MIN_BYTES:
        return 0
    return min(cores, 4)


class StagePool:
    """``stage_file`` over a stream of (file, bytes), in order, in ``workers`` processes (0: in this process).

    At most two batches per worker are in flight, so memory stays bounded whatever the repository's size. A
    worker that dies (a grammar's segfault) is replaced once per batch: the batch's files are staged again one
    by one, and a file that kills a worker by itself is indexed as file chunks with a warning."""

    def __init__(self, ctx: StageContext, workers: int) -> None:
        self.ctx, self.workers = ctx, workers
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> "StagePool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def start(self) -> "StagePool":
        """Fork the workers now: before the caller starts threads of its own (see ``_executor``)."""
        if self.workers > 0:
            self._executor().submit(int).result()
        return self

    def _executor(self) -> ProcessPoolExecutor:
        # fork, not spawn: spawn (and forkserver) run the parent's __main__ script again in every worker, and a
        # script calling index_repository without an `if __name__ == "__main__"` guard indexed again in each
        # (seen while measuring). A forked worker runs only _stage_batch: tree-sitter, re, json, hashlib, none
        # of the locks the parent's other threads (driver, stage writer, a server's requests) may hold.
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("fork"),
                                             initializer=_init_worker, initargs=(self.ctx,))
        return self._pool

    def map(self, items: Iterable[tuple[discovery.SourceFile, bytes]]) -> Iterator[StagedFile]:
        if self.workers <= 0:
            for f, data in items:
                yield stage_file(f, data, self.ctx)
            return
        in_flight: deque[tuple[list[tuple[discovery.SourceFile, bytes]], ProcessPoolExecutor, Future]] = deque()
        for batch in _batches(items):
            in_flight.append((batch, *self._submit(batch)))
            while len(in_flight) > 2 * self.workers:
                yield from self._result(*in_flight.popleft())
        while in_flight:
            yield from self._result(*in_flight.popleft())

    def _submit(self, batch: list[tuple[discovery.SourceFile, bytes]]) -> tuple[ProcessPoolExecutor, Future]:
        pool = self._executor()
        try:
            return pool, pool.submit(_stage_batch, batch)
        except BrokenProcessPool:   # a worker died since the last submit: its batches are retried by _result
            self._drop(pool)
            pool = self._executor()
            return pool, pool.submit(_stage_batch, batch)

    def _result(self, batch: list[tuple[discovery.SourceFile, bytes]], pool: ProcessPoolExecutor,
                future: Future) -> list[StagedFile]:
        try:
            return future.result()
        except BrokenProcessPool:
            # every batch in flight in that pool is lost with it: each is staged again, file by file
            self._drop(pool)
            return [self._alone(f, data) for f, data in batch]

    def _alone(self, f: discovery.SourceFile, data: bytes) -> StagedFile:
        pool, future = self._submit([(f, data)])
        try:
            return future.result()[0]
        except BrokenProcessPool:
            self._drop(pool)
            return stage_file(f, data, self.ctx, parse=False)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        if pool is self._pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)


def _batches(items: Iterable[tuple[discovery.SourceFile, bytes]]) -> Iterator[list[tuple[discovery.SourceFile,
                                                                                         bytes]]]:
    batch: list[tuple[discovery.SourceFile, bytes]] = []
    size = 0
    for f, data in items:
        batch.append((f, data))
        size += len(data)
        if size >= _BATCH_BYTES or len(batch) >= _BATCH_FILES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch
