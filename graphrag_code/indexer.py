"""Index a repository snapshot into Neo4j: stage the changed files invisibly, resolve cross-file edges over the
whole repository, then swap the new snapshot in with one transaction.

Readers only ever see the previous snapshot or the new one: staged nodes carry the :Pending label (outside
every index readers use) until the final transaction deletes the replaced files, promotes the staged ones,
rewrites the edges that changed and moves the repository's commit. A crash or ``kill -9`` before that
commit leaves the previous snapshot untouched; the next run first clears what the dead run staged.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import shlex
import signal
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from . import discovery, lsp, staging
from .config import SCHEMA_VERSION, IndexSettings, check_repo_name
from .db import Graph, Tx
from .errors import DatabaseUnavailable, GraphragError, IndexingError, InputError, TransactionTooLarge, check_text
from .resolve import FileFacts, Resolution, file_id, resolve, symbol_ids
from .resolve_parallel import processes_for
from .staging import extractor_key

Progress = Callable[[str, int, int], None]   # (stage, done, total)
_EDGE_TYPES = ("CALLS", "CALLS_EXTERNAL", "IMPORTS", "INHERITS", "IMPLEMENTS")
_FACTS_BATCH = 500
# a file with more staged rows than FILE_SLICE_ROWS (a generated module of thousands of definitions) is staged in
# slices of the write batch, one transaction each: all 60,001 rows of a 0.9 MB file of 30,000 functions in one took
# over 1 GiB on the server, and a statement's time grows faster than its rows (8,000 functions: slices of 5,000
# rows 39 s, of 1,000 rows 7.0 s, of 500 rows 5.7 s)
FILE_SLICE_ROWS = 2000
_EDGE_BATCH = 5000
# a swap in several transactions renews its lease with each; a run that finds it older than this takes over
# from a dead run (one transaction of a swap takes well under a second at the default batch size)
SWAP_LEASE_SECONDS = 30.0


@dataclass
class IndexSummary:
    repo: str
    root: str
    commit: str | None
    snapshot_id: str
    dirty: bool = False
    files_indexed: int = 0          # files in the live snapshot after this run
    files_parsed: int = 0           # files read and parsed by this run (new or changed)
    files_unchanged: int = 0
    files_deleted: int = 0
    files_renamed: int = 0
    symbols: int = 0
    chunks: int = 0
    edges: dict[str, int] = field(default_factory=dict)
    edges_created: int = 0
    edges_deleted: int = 0
    unresolved_calls: int = 0
    resolution: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, list[str]] = field(default_factory=dict)      # reason -> paths
    warnings: list[dict[str, str]] = field(default_factory=list)      # {path, warning}
    secrets: dict[str, int] = field(default_factory=dict)             # kind -> count (never values)
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    lsp: dict | None = None            # the language-server pass's report, when it ran
    swap_transactions: int = 0         # 1: the swap was one transaction; more: too large for one (docs/design.md)
    recovered: bool = False            # this run completed a swap in several transactions that another run left
    workers: int = 0                   # worker processes that parsed the files (0: the indexer's own process)
    resolve_processes: int = 1         # processes that shared the call-site resolution (resolve_parallel)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _crash_point(name: str) -> None:
    """Fault injection for the crash-safety tests: GRAPHRAG_CRASH_AT=<name> kills the process right here."""
    if os.environ.get("GRAPHRAG_CRASH_AT") == name:
        os.kill(os.getpid(), signal.SIGKILL)


@dataclass
class _Diff:
    """The writes of a swap besides promotion: edges to create and delete, unresolved lists, edge digests."""

    creates: list[tuple[str, str, str]]
    deletes: list[tuple[str, str, str]]
    unresolved: list[dict]
    digests: list[dict]


def _file_slices(rows: list[dict], size: int) -> list[tuple[list[dict], list[str]]]:
    """A file's staged rows in slices of at most ``size``, each with the ids of the owners it names from earlier
    slices: a row whose owner is in its own slice keeps the owner's position there (``owner``), one whose owner
    was staged before names it by position in those ids (``owner_ref``). A row's owner always comes before it."""
    out = []
    for start in range(0, len(rows), size):
        part: list[dict] = []
        refs: dict[str, int] = {}
        for row in rows[start:start + size]:
            owner = row["owner"]
            if owner is not None and owner < start:
                ref = refs.setdefault(rows[owner]["props"]["id"], len(refs))
                row = {**row, "owner": None, "owner_ref": ref}
            elif owner is not None:
                row = {**row, "owner": owner - start}
            part.append(row)
        out.append((part, list(refs)))
    return out


def _batched(tx: Tx, name: str, rows: list[dict], size: int) -> None:
    for start in range(0, len(rows), size):
        tx.run(name, rows=rows[start:start + size])


class _StageWriter:
    """Writes staged batches (``stage_nodes``) on a second thread while the caller parses the next files: the
    driver waits on the socket without the GIL, so Python's work and Neo4j's overlap on two cores instead of
    taking turns. At most two batches wait (bounded memory); the first failure stops the writes and is raised
    in the caller at its next ``put`` or at ``close``."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.pending: queue.Queue[tuple[list[dict], dict] | None] = queue.Queue(maxsize=2)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._loop, name="graphrag-stage-writer", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while (job := self.pending.get()) is not None:
            if self.error is None:
                rows, linked = job
                try:
                    if linked:
                        self.graph.run("stage_nodes_linked", rows=rows, **linked)
                    else:
                        self.graph.run("stage_nodes", rows=rows)
                except BaseException as exc:   # handed to the caller's thread
                    self.error = exc

    def put(self, rows: list[dict], linked: dict | None = None) -> None:
        """Queue ``rows`` for ``stage_nodes``, or with ``linked`` ({owner_ids, repo, run}) for
        ``stage_nodes_linked``."""
        if self.error is not None:
            raise self.error
        self.pending.put((rows, linked or {}))

    def close(self) -> None:
        """Wait for the batches still queued; raise the writer's failure, if any."""
        self.pending.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error


class _Run:
    def __init__(self, graph: Graph, snap: "discovery.Snapshot", repo: str, settings: IndexSettings,
                 progress: Progress | None) -> None:
        self.graph, self.snap, self.repo, self.settings = graph, snap, repo, settings
        self.progress = progress or (lambda stage, done, total: None)
        self.run_id = uuid.uuid4().hex[:12]
        self.summary = IndexSummary(repo=repo, root=str(snap.root), commit=snap.commit,
                                    snapshot_id=snap.snapshot_id, dirty=snap.dirty)
        self.skipped: dict[str, list[str]] = defaultdict(list)
        self.secret_counts: Counter[str] = Counter()
        self.facts: dict[str, FileFacts] = {}
        self.staged_nodes: dict[str, int] = {}      # path -> nodes staged for it (the swap's size)
        self.live_nodes: dict[str, int] = {}        # path -> live nodes the swap deletes for it (its size too)
        self.timer = time.perf_counter()

    def _lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.summary.stage_seconds[stage] = round(now - self.timer, 3)
        self.timer = now

    # -- staging ------------------------------------------------------------------------------------------------
    def stage(self, files: list["discovery.SourceFile"]) -> set[str]:
        """Read, parse and stage ``files``; returns the paths that made it into the new snapshot."""
        workers = self.settings.workers
        if workers is None:
            workers = staging.auto_workers(sum(f.size for f in files))
        self.summary.workers = workers
        ctx = staging.StageContext(self.repo, self.run_id, self.settings)
        with staging.StagePool(ctx, workers).start() as pool:
            return self._stage_with(files, pool)

    def _stage_with(self, files: list["discovery.SourceFile"], pool: staging.StagePool) -> set[str]:
        kept: set[str] = set()
        batch: list[dict] = []
        writer = _StageWriter(self.graph)   # after the pool's fork: a forked worker holds no copy of it
        try:
            with discovery.SourceReader(self.snap) as reader:
                for n, staged in enumerate(pool.map((f, reader.read(f)) for f in files), 1):
                    if staged.skip is not None:
                        self.skipped[staged.skip].append(staged.path)
                    else:
                        self._keep(staged, writer, batch)
                        kept.add(staged.path)
                    if len(batch) >= self.settings.write_batch:
                        writer.put(batch[:])
                        batch.clear()
                    self.progress("parse", n, len(files))
                # before the reader: a pool forked again after a worker died (once git had started) holds git's
                # stdin, and git would wait for that copy to close too
                pool.close()
            if batch:
                writer.put(batch)
        finally:
            writer.close()
        return kept

    def _keep(self, staged: staging.StagedFile, writer: _StageWriter, batch: list[dict]) -> None:
        """Add a parsed file's rows to ``batch`` (or, for a huge file, queue them in slices of their own)."""
        self.staged_nodes[staged.path] = len(staged.rows)
        if len(staged.rows) > FILE_SLICE_ROWS:
            # one transaction for all of a huge file's rows could outgrow the server's memory
            if batch:
                writer.put(batch[:])
                batch.clear()
            for rows, owner_ids in _file_slices(staged.rows, self.settings.write_batch):
                writer.put(rows, {"owner_ids": owner_ids, "repo": self.repo, "run": self.run_id}
                           if owner_ids else None)
        else:
            for row in staged.rows:   # owners by position: such a file's rows share a batch
                if row["owner"] is not None:
                    row["owner"] += len(batch)
            batch.extend(staged.rows)
        assert staged.facts is not None
        self.facts[staged.path] = staged.facts
        self.secret_counts.update(staged.secret_kinds)
        self.summary.files_parsed += 1
        for w in staged.warnings:
            self.summary.warnings.append({"path": staged.path, "warning": w})

    def report(self, started: float, counts: dict | None = None) -> None:
        """Fill the summary's skips, secrets, live counts (counted in the graph unless given) and total time
        (every run ends here)."""
        s = self.summary
        s.skipped = {k: sorted(v) for k, v in sorted(self.skipped.items())}
        s.secrets = dict(self.secret_counts)
        if counts is None:
            row = self.graph.run("repo_counts", repo=self.repo)[0]
            counts = {"symbols": row["symbols"], "chunks": row["chunks"], "edges": dict(row["edge_pairs"]),
                      "unresolved_calls": self.graph.run("unresolved_total", repo=self.repo)[0]["total"]}
        s.symbols, s.chunks = counts["symbols"], counts["chunks"]
        s.edges = dict(sorted(counts["edges"].items()))
        s.unresolved_calls = counts["unresolved_calls"]
        s.seconds = round(time.perf_counter() - started, 3)

    # -- resolution and swap ------------------------------------------------------------------------------------
    def load_facts(self, paths: list[str]) -> None:
        for start in range(0, len(paths), _FACTS_BATCH):
            for row in self.graph.run("file_facts", repo=self.repo, paths=paths[start:start + _FACTS_BATCH]):
                facts = json.loads(row["facts"])
                lsp = json.loads(row["lsp"]) if row["lsp"] else None
                self.facts[row["path"]] = FileFacts(row["path"], row["language"], **facts, lsp=lsp,
                                                    ids=symbol_ids(self.repo, row["path"], facts["defs"]))

    def swap(self, touched: set[str], resolution: Resolution, props: dict, live_digests: dict[str, str | None],
             lsp_rows: list[dict] | None = None) -> tuple[int, int, dict]:
        """Replace the live snapshot: in one transaction, or in several when it is too large for one (over
        ``swap_max_rows`` rows, or refused by the server's transaction memory limit). Returns the edges created
        and deleted and the new snapshot's counts, which are stored on the repository with it."""
        new = {k: _norm(v) for k, v in resolution.edges.items()}
        diff = self._diff(touched, new, resolution.unresolved, live_digests)
        # what it deletes counts as what it promotes does: replacing a file of 50k definitions deleted 100k nodes
        # in the transaction that promoted as many again, over the server's 1 GiB
        self.live_nodes = self._live_nodes(touched & set(live_digests))
        size = sum(self.staged_nodes.values()) + sum(self.live_nodes.values()) + len(diff.creates) + \
            len(diff.deletes) + len(diff.unresolved)
        if size <= self.settings.swap_max_rows:
            try:
                counts = self._swap_once(touched, diff, new, resolution, props, lsp_rows)
                self.summary.swap_transactions = 1
                return len(diff.creates), len(diff.deletes), counts
            except TransactionTooLarge as exc:   # rolled back whole: the live snapshot is as it was
                self.summary.warnings.append({"path": "", "warning": f"the swap ({size} rows) was too large for "
                                              f"one transaction on this server ({exc.message.split(': ')[-1]}); "
                                              f"applied in several"})
        counts = self._swap_batched(touched, diff, new, resolution, props, lsp_rows)
        return len(diff.creates), len(diff.deletes), counts

    def _swap_once(self, touched: set[str], diff: "_Diff", new: dict, resolution: Resolution, props: dict,
                   lsp_rows: list[dict] | None) -> dict:
        with self.graph.transaction() as tx:
            claimed = tx.run("repo_claim", repo=self.repo, run=self.run_id)
            self._claim(claimed[0] if claimed else None)
            if touched:
                tx.run("delete_files", repo=self.repo, paths=sorted(touched))
            tx.run("promote", repo=self.repo, run=self.run_id)
            _crash_point("swap")
            self._writes(tx, diff, new, resolution, lsp_rows, 0, len(diff.creates) + len(diff.deletes))
            return self._finish(tx, resolution, props)

    def _swap_batched(self, touched: set[str], diff: "_Diff", new: dict, resolution: Resolution, props: dict,
                      lsp_rows: list[dict] | None) -> dict:
        """The swap in transactions of about ``swap_batch_rows`` rows: a committed lease first, then each group
        of files replaced whole (deleted and promoted together), then the edge and list writes, then the counts
        and the commit. Readers meanwhile see each file old or new and some edges missing; a run that dies leaves
        the lease, and the next run completes the repository (docs/design.md)."""
        batch = max(1, self.settings.swap_batch_rows)
        # explicit transactions throughout: the driver would retry a refused one (a "transient" error) in vain
        with self.graph.transaction() as tx:
            self._beat(tx)                    # the lease, committed before anything changes
        try:
            return self._swap_batches(touched, diff, new, resolution, props, lsp_rows, batch)
        except IndexingError:      # overtaken: the repository belongs to the later run now
            raise
        except Exception:
            try:
                self.graph.run("swap_expire", repo=self.repo, run=self.run_id)
            except Exception:      # Neo4j away: the lease runs out by itself
                pass
            raise

    def _live_nodes(self, paths: set[str]) -> dict[str, int]:
        """The live nodes each of ``paths`` holds (what replacing or removing it deletes)."""
        rows = [row for start in range(0, len(paths), _FACTS_BATCH) for row in self.graph.run(
            "file_node_counts", repo=self.repo, paths=sorted(paths)[start:start + _FACTS_BATCH])]
        return {row["path"]: row["nodes"] for row in rows}

    def _groups(self, paths: list[str], batch: int) -> list[list[str]]:
        """``paths`` in groups of about ``batch`` rows (nodes deleted + nodes promoted), in order; a file over
        ``batch`` rows alone is a group of its own (replaced in slices)."""
        groups, group, rows = [], [], 0
        for path in paths:
            weight = max(1, self.staged_nodes.get(path, 0) + self.live_nodes.get(path, 0))
            if group and rows + weight > batch:
                groups.append(group)
                group, rows = [], 0
            group.append(path)
            rows += weight
        return groups + ([group] if group else [])

    def _replace_group(self, group: list[str], touched: set[str], batch: int) -> int:
        """Delete the live nodes of a group of files and promote their staged ones: in one transaction (readers
        see each file old or new), or, for one file too large for that, in slices of ``batch`` nodes (readers
        see it in part meanwhile). Returns the transactions used."""
        rows = sum(self.staged_nodes.get(p, 0) + self.live_nodes.get(p, 0) for p in group)
        if len(group) > 1 or rows <= batch:
            with self.graph.transaction() as tx:
                self._beat(tx)
                if deleted := [p for p in group if p in touched]:
                    tx.run("delete_files", repo=self.repo, paths=deleted)
                tx.run("promote_files", repo=self.repo, run=self.run_id, paths=group, limit=rows + 1)
            return 1
        deleting = self._in_slices("delete_file_slice", "deleted", batch, path=group[0]) if group[0] in touched else 0
        return deleting + self._in_slices("promote_files", "promoted", batch, run=self.run_id, paths=group)

    def _in_slices(self, statement: str, key: str, batch: int, **params: Any) -> int:
        """Run ``statement`` (limited to ``batch`` nodes) in transactions of its own until it does less than
        that; returns the transactions used."""
        transactions = 0
        while True:
            with self.graph.transaction() as tx:
                self._beat(tx)
                done = tx.run(statement, repo=self.repo, limit=batch, **params)[0][key]
            transactions += 1
            _crash_point(f"swap_slice_{key}")
            if done < batch:
                return transactions

    def _swap_batches(self, touched: set[str], diff: "_Diff", new: dict, resolution: Resolution, props: dict,
                      lsp_rows: list[dict] | None, batch: int) -> dict:
        groups = self._groups(sorted(touched | set(self.staged_nodes)), batch)
        transactions = 1
        for n, group in enumerate(groups):
            transactions += self._replace_group(group, touched, batch)
            if n == len(groups) // 2:
                _crash_point("swap_batched")
        for start in range(0, max(len(diff.creates) + len(diff.deletes), 1), batch):
            with self.graph.transaction() as tx:
                self._beat(tx)
                self._writes(tx, diff, new, resolution, lsp_rows, start, batch)
            transactions += 1
        with self.graph.transaction() as tx:
            self._beat(tx)
            counts = self._finish(tx, resolution, props)
        self.summary.swap_transactions = transactions + 1
        return counts

    def _beat(self, tx: Tx) -> None:
        """Renew this run's lease on the repository (``swap_beat``); stop, rolling the transaction back, unless
        the repository still belongs to the run."""
        rows = tx.run("swap_beat", repo=self.repo, run=self.run_id, at=time.time())
        self._claim(rows[0] if rows else None)

    def _writes(self, tx: Tx, diff: "_Diff", new: dict, resolution: Resolution, lsp_rows: list[dict] | None,
                start: int, size: int) -> None:
        """The swap's writes besides promotion: edge deletes, then creates, ``start:start + size`` of them; the
        first slice also upserts the modules edges may point at and stores language-server answers, the last
        writes the unresolved lists and edge digests."""
        ops = len(diff.deletes) + len(diff.creates)
        if start == 0:
            _batched(tx, "file_lsp_set", lsp_rows or [], _FACTS_BATCH)
            tx.run("modules_upsert", names=sorted(resolution.external_modules))
        end = start + size
        self._edges(tx, "delete", diff.deletes[start:end], new)
        self._edges(tx, "create", diff.creates[max(0, start - len(diff.deletes)):max(0, end - len(diff.deletes))], new)
        if end >= ops:
            _batched(tx, "unresolved_set", diff.unresolved, _EDGE_BATCH)
            _batched(tx, "file_digests_set", diff.digests, _EDGE_BATCH)

    def _finish(self, tx: Tx, resolution: Resolution, props: dict) -> dict:
        """Count the new snapshot and make it the live one (the last statements of a swap)."""
        row = tx.run("repo_counts", repo=self.repo)[0]
        counts = {"symbols": row["symbols"], "chunks": row["chunks"], "edges": dict(sorted(row["edge_pairs"])),
                  "unresolved_calls": sum(len(v) for v in resolution.unresolved.values())}
        tx.run("repo_finish", repo=self.repo, run=self.run_id,
               props={**props, **counts, "edges": json.dumps(counts["edges"])})
        return counts

    def _claim(self, row: dict | None) -> None:
        """Stop unless this run is still the repository's latest: a run that started later has read the graph
        as it was and will write its own snapshot, so this one's must not land (``index_repository`` then
        deletes what this run staged)."""
        if row is None or row.get("deleting"):     # gone, or repo_mark_deleted: a delete has started
            raise IndexingError(f"repository {self.repo!r} was deleted while this run indexed it; nothing was "
                                f"written", hint="index it again to re-create it")
        running = row.get("running")
        if running != self.run_id:
            raise IndexingError(f"another index run of {self.repo!r} (run {running}) started while this one "
                                f"(run {self.run_id}) ran; the later run's snapshot replaces this one's",
                                hint="let that run finish, then check with `graphrag-code status`")

    def _diff(self, touched: set[str], new: dict[tuple[str, str, str], dict], unresolved: dict[str, list[str]],
              live_digests: dict[str, str | None]) -> _Diff:
        """What the swap changes. Only files whose edge digest changed are read back and diffed: a live file
        with the same digest keeps its edges, except those into ``touched`` files, which went with their nodes
        and are made again; a touched or new file has none left."""
        owner = self._owners()
        digests = _edge_digests(self.repo, owner, new, unresolved)
        clean = {p for p, d in digests.items() if p not in touched and live_digests.get(p, "") == d}
        stale = sorted(p for p in live_digests if p in digests and p not in touched and p not in clean)
        existing, old_unresolved = self._existing(stale, len(live_digests), owner)
        alive = {k: v for k, v in existing.items() if owner.get(k[2], _path_of(k[2], self.repo)) not in touched}
        creates = [k for k, v in new.items() if (owner.get(k[2]) in touched if owner.get(k[1]) in clean
                                                 else alive.get(k) != v)]
        updates = [{"id": i, "calls": c} for i, c in unresolved.items() if owner.get(i) not in clean
                   and (owner.get(i) in touched or old_unresolved.get(i) != c)]
        updates += [{"id": i, "calls": []} for i in old_unresolved if i not in unresolved]
        return _Diff(creates=creates, deletes=[k for k, v in alive.items() if new.get(k) != v], unresolved=updates,
                     digests=[{"id": file_id(self.repo, p), "digest": d} for p, d in sorted(digests.items())
                              if p not in clean])

    def _owners(self) -> dict[str, str]:
        """The file path of every file and symbol id of the new snapshot."""
        owner = {}
        for path, facts in self.facts.items():
            owner[file_id(self.repo, path)] = path
            owner.update(dict.fromkeys(facts.ids, path))
        return owner

    def _existing(self, paths: list[str], live: int, owner: dict[str, str]) -> tuple[dict, dict]:
        """The live edges and unresolved call lists leaving the files and symbols of ``paths``: by file, or in
        one scan of the repository when most of its files are asked for (docs/design.md, "Indexing runs")."""
        if len(paths) > live / 2:
            wanted = set(paths)
            rows = [r for r in self.graph.run("edges_of_repo", repo=self.repo)
                    if owner.get(r["id"], _path_of(r["id"], self.repo)) in wanted]
        else:
            rows = [r for start in range(0, len(paths), _FACTS_BATCH)
                    for r in self.graph.run("edges_of_files", repo=self.repo, paths=paths[start:start + _FACTS_BATCH])]
        edges = {(e["type"], r["id"], e["dst"]): _norm(e["props"]) for r in rows for e in r["edges"]}
        return edges, {r["id"]: r["calls"] for r in rows if r["calls"]}

    @staticmethod
    def _edges(tx: Tx, action: str, keys: list[tuple[str, str, str]], props: dict) -> None:
        by_type: dict[str, list[dict]] = defaultdict(list)
        for etype, src, dst in keys:
            row = {"src": src, "dst": dst}
            if action == "create":
                row["props"] = props[(etype, src, dst)]
            by_type[etype].append(row)
        for etype in _EDGE_TYPES:
            _batched(tx, f"edges_{etype.lower()}_{action}", by_type.get(etype, []), _EDGE_BATCH)


def _edge_digests(repo: str, owner: dict[str, str], edges: dict[tuple[str, str, str], dict],
                  unresolved: dict[str, list[str]]) -> dict[str, str]:
    """Per file path, a hash of the edges and unresolved call sites leaving its file and symbols (every path of
    ``owner`` gets one, also when nothing leaves it). Ids enter it without the repository's name, so that a
    repository indexed under another name has the same digests."""
    prefix = repo + ":"
    cut = len(prefix)

    def rel(node_id: str) -> str:
        return node_id[cut:] if node_id.startswith(prefix) else node_id

    # repr of tuples, not JSON: the same text for the same values in half the time (a 100k-line repository's
    # digests: 0.13 s against 0.25 s, the largest part of a 3-file change's swap besides Neo4j's own)
    parts: dict[str, list[str]] = defaultdict(list)
    for (etype, src, dst), props in edges.items():
        fields = sorted((k, rel(v) if isinstance(v, str) else v) for k, v in props.items())   # via: an id too
        parts[owner.get(src, "")].append(repr((etype, rel(src), rel(dst), fields)))
    for node, calls in unresolved.items():
        parts[owner.get(node, "")].append(repr(("?", rel(node), calls)))
    return {path: hashlib.sha1("\n".join(sorted(parts.get(path, ()))).encode("utf-8")).hexdigest()
            for path in set(owner.values())}


def _norm(props: dict) -> dict:
    return {k: (sorted(v) if isinstance(v, list) else v) for k, v in props.items()}


def _path_of(node_id: str, repo: str) -> str | None:
    prefix = repo + ":"
    if not node_id.startswith(prefix):
        return None
    return node_id[len(prefix):].split("#", 1)[0].split("::", 1)[0]


def default_repo_name(root: Path) -> str:
    return root.resolve().name or "repo"


def index_repository(graph: Graph, root: Path, *, name: str | None = None, settings: IndexSettings | None = None,
                     progress: Progress | None = None) -> IndexSummary:
    """Index ``root`` (a git checkout at HEAD, or a plain directory) as repository ``name``."""
    settings = settings or IndexSettings()
    root = Path(root)
    if not root.is_dir():
        raise InputError(f"not a directory: {root}")
    check_text(str(root.resolve()), "PATH")     # the root is stored as text (Neo4j): an undecodable byte is none
    started = time.perf_counter()
    snap = discovery.snapshot(root, max_file_bytes=settings.max_file_bytes,
                              include_generated=settings.include_generated)
    repo = default_repo_name(root) if name is None else name     # --name "" is refused, not the folder
    check_repo_name(repo)
    graph.verify()   # fail fast with a clear message instead of after the driver's retries
    run = _Run(graph, snap, repo, settings, progress)
    for s in snap.skipped:
        run.skipped[s.reason].append(s.path)
    previous, recovering = _begin(run, root)
    try:
        return _index_run(run, root, snap, started, previous, recovering)
    except BaseException as exc:
        _record_failure(run, exc)
        raise


def _record_failure(run: _Run, exc: BaseException) -> None:
    """Mark the repository's run as failed (``repo_run_failed``), so that it does not show as running forever.
    Not when Neo4j is what failed: the statement would only wait out the driver's retries."""
    if isinstance(exc, DatabaseUnavailable):
        return
    if isinstance(exc, KeyboardInterrupt):
        message = "interrupted"
    else:    # the message without a hint: the hint to show with it is "index again"
        message = exc.message if isinstance(exc, GraphragError) else str(exc) or type(exc).__name__
    try:
        run.graph.run("repo_run_failed", repo=run.repo, run=run.run_id, message=message[:500], at=_now())
    except GraphragError:
        pass      # the run's own error is the one to report


def _index_run(run: _Run, root: Path, snap: "discovery.Snapshot", started: float, previous: list[dict],
               recovering: bool) -> IndexSummary:
    """index_repository once the run is registered."""
    graph, repo, settings = run.graph, run.repo, run.settings
    # edges made with and without language servers differ: switching modes re-resolves even on the same commit
    lsp_mode = ",".join(settings.lsp_languages) or None
    same_mode = not previous or previous[0]["repo"].get("lsp_mode") == lsp_mode
    run._lap("prepare")

    live_rows = graph.run("live_files", repo=repo)
    live = {r["path"]: (r["blob"], r["extractor_version"]) for r in live_rows}
    current = {f.path: f for f in snap.files}
    extractor = extractor_key(settings)
    changed = [f for f in snap.files if live.get(f.path) != (f.blob, extractor)]
    deleted = set(live) - set(current)
    live_blobs_gone = Counter(live[p][0] for p in deleted)
    run.summary.files_renamed = sum(1 for f in changed if f.path not in live and live_blobs_gone[f.blob] > 0)
    kept = run.stage(changed)
    _crash_point("staged")
    run._lap("parse_and_stage")

    unchanged = sorted(set(current) - {f.path for f in changed})
    touched = {f.path for f in changed if f.path in live} | deleted
    # a file skipped for its content (generated, minified, binary) is never live, so it is "changed" on every
    # run; skipped again and not live before, it changes nothing
    nothing = not kept and not touched
    if nothing and not settings.lsp_languages and same_mode and not recovering:
        # the same files with the same blobs: resolution is a pure function of them, so the edges stand;
        # only the repository's commit moves
        return _finish_noop(run, graph, snap, settings, extractor, len(unchanged), started, previous)
    run.load_facts(unchanged)
    lsp_rows = _lsp_stage(run, root, snap, kept, touched)
    if nothing and not lsp_rows and same_mode and not recovering:
        return _finish_noop(run, graph, snap, settings, extractor, len(unchanged), started, previous)
    processes = processes_for(settings.workers, sum(len(f.calls) for f in run.facts.values()))
    resolution = resolve(repo, run.facts, use_lsp=tuple(settings.lsp_languages or ()), processes=processes)
    run.summary.resolve_processes = processes
    run.summary.warnings += [{"path": "", "warning": w} for w in resolution.warnings]
    run._lap("resolve")

    props = _repo_props(snap, settings, extractor, len(kept) + len(unchanged), run.run_id)
    props["lsp_mode"] = lsp_mode
    props["lsp"] = ", ".join(f"{g}: {r['server']}" for g, r in run.summary.lsp["groups"].items() if r["asked"]) \
        if run.summary.lsp else None
    digests = {r["path"]: None if recovering else r["edges_digest"] for r in live_rows}
    created, removed, counts = _promote(run, touched, resolution, props, digests, lsp_rows)
    run._lap("swap")
    s = run.summary
    s.files_unchanged, s.files_deleted = len(unchanged), len(deleted)
    s.files_indexed = len(kept) + len(unchanged)
    s.edges_created, s.edges_deleted = created, removed
    s.resolution = dict(sorted(resolution.stats.items()))
    run.report(started, counts)
    graph.run("repo_set", repo=repo, props={"seconds": s.seconds})
    return s


def _begin(run: _Run, root: Path) -> tuple[list[dict], bool]:
    """Register the run (after a running swap of the repository ends) and clear what killed runs staged.
    Returns the repository's previous row (empty when new) and whether a swap in several transactions was left
    half-done, which this run completes."""
    graph, repo, settings = run.graph, run.repo, run.settings
    graph.ensure_schema(settings.embedding_model, settings.embedding_dim)
    previous = _wait_for_swap(graph, repo, run.progress)
    # a swap in several transactions that is not running any more left the repository partly updated: its
    # edge digests cannot be trusted, and "nothing changed" is no reason to stop
    recovering = bool(previous and previous[0]["repo"].get("swapping"))
    if recovering:
        run.summary.recovered = True
        run.summary.warnings.append({"path": "", "warning": f"run {previous[0]['repo']['swapping']} stopped in the "
                                     f"middle of a swap in several transactions; this run completes the repository"})
    if graph.run("repo_begin", repo=repo, name=repo, root=str(root.resolve()), run=run.run_id,
                 started_at=_now())[0]["deleting"]:
        raise IndexingError(f"repository {repo!r} is being deleted (or a delete stopped half-way)",
                            hint=f"let the delete finish, or run `graphrag-code delete {shlex.quote(repo)}` again; "
                                 f"then index")
    # repo_begin waits for the node's lock: a swap of another run may have committed meanwhile, and its snapshot,
    # not the one read before, is what this run builds on and reports (a no-op printed the old commit's counts)
    now = graph.run("repo_get", repo=repo)
    if _snapshot_run(now) != _snapshot_run(previous):
        previous = now
    while graph.run("pending_clear", repo=repo, limit=settings.swap_batch_rows)[0]["deleted"]:
        pass
    if recovering:      # a file the dead run was replacing in slices: removed whole, then indexed again as new
        for row in graph.run("partial_files", repo=repo):
            while graph.run("delete_file_slice", repo=repo, path=row["path"],
                            limit=settings.swap_batch_rows)[0]["deleted"]:
                pass
    return previous, recovering


def _promote(run: _Run, touched: set[str], resolution: Resolution, props: dict, digests: dict[str, str | None],
             lsp_rows: list[dict] | None) -> tuple[int, int, dict]:
    """``run.swap``; a run overtaken by a later one (IndexingError) clears what it staged, and deletes what a
    swap in several transactions promoted of a repository deleted meanwhile."""
    graph, repo = run.graph, run.repo
    try:
        return run.swap(touched, resolution, props, digests, lsp_rows)
    except IndexingError:   # overtaken by a later run: what this one staged will never be promoted
        while graph.run("pending_clear_run", repo=repo, run=run.run_id,
                        limit=run.settings.swap_batch_rows)[0]["deleted"]:
            pass
        if not graph.run("repo_get", repo=repo):    # deleted meanwhile: a swap in several may have promoted some
            delete_repository(graph, repo)
        raise


def _snapshot_run(rows: list[dict]) -> str | None:
    return rows[0]["repo"].get("snapshot_run") if rows else None


def _wait_for_swap(graph: Graph, repo: str, progress: Progress) -> list[dict]:
    """The repository node once no other run is in the middle of a swap in several transactions (its lease is
    renewed by each of them; a lease older than SWAP_LEASE_SECONDS belongs to a dead run)."""
    lease = float(os.environ.get("GRAPHRAG_SWAP_LEASE_SECONDS", SWAP_LEASE_SECONDS))
    while True:
        rows = graph.run("repo_get", repo=repo)
        props = rows[0]["repo"] if rows else {}
        if not props.get("swapping") or time.time() - (props.get("swap_beat") or 0) > lease:
            return rows
        progress("waiting for another run's swap", 0, 0)
        time.sleep(0.5)


def _lsp_stage(run: _Run, root: Path, snap: "discovery.Snapshot", changed: set[str], touched: set[str]) -> list[dict]:
    """The language-server pass of a run (``--lsp``): ask about the files that need it and put the answers into
    the facts; returns the File rows whose stored answers change. A run without it forgets the stored answers
    its changes made stale, so that a later ``--lsp`` run asks again instead of trusting them."""
    settings = run.settings
    lsp_settings = lsp.LspSettings(languages=settings.lsp_languages or ("all",),
                                   request_timeout=settings.lsp_request_timeout,
                                   budget_seconds=settings.lsp_budget_seconds,
                                   call_hierarchy=settings.lsp_call_hierarchy)
    if not settings.lsp_languages:
        stale = lsp.files_to_ask(run.facts, changed, touched, None, lsp_settings)
        return [{"id": file_id(run.repo, p), "lsp": None} for p in sorted(stale)
                if p not in changed and run.facts[p].lsp]
    servers = lsp.server_ids(root, run.facts, lsp_settings)
    ask = lsp.files_to_ask(run.facts, changed, touched, servers, lsp_settings)
    answers, report = lsp.run_lsp_pass(root, run.facts, ask, {f.path: f.blob for f in snap.files},
                                       lsp_settings, run.progress)
    for group, reason in servers.items():
        if reason.startswith("!"):
            report.groups.setdefault(group, lsp.GroupReport()).skipped = reason[1:]
    rows = []
    for path in sorted(ask):
        # a file left unasked (budget, a failed server) must not keep answers its neighbours' changes made stale
        answer = run.facts[path].lsp = answers.get(path)
        if answer is not None or path not in changed:
            rows.append({"id": file_id(run.repo, path), "lsp": json.dumps(answer, separators=(",", ":"))
                         if answer is not None else None})
    run.summary.lsp = report.to_dict()
    run._lap("lsp")
    return rows


def _repo_props(snap: "discovery.Snapshot", settings: IndexSettings, extractor: str, files: int, run_id: str) -> dict:
    """The Repository node's properties a run sets when its snapshot goes live; ``snapshot_run``, the run's id,
    tells one snapshot from the next (``indexed_at`` has whole seconds)."""
    return {"commit": snap.commit, "snapshot_id": snap.snapshot_id, "snapshot_run": run_id, "branch": snap.branch,
            "remote_url": snap.remote_url, "indexed_at": _now(), "schema_version": SCHEMA_VERSION,
            "extractor_version": extractor, "embedding_model": settings.embedding_model,
            "dirty": snap.dirty, "files": files}


def _finish_noop(run: _Run, graph: Graph, snap: "discovery.Snapshot", settings: IndexSettings, extractor: str,
                 files: int, started: float, previous: list[dict]) -> IndexSummary:
    """Nothing indexed changed: move the commit, report the live counts (those the last swap stored with the
    snapshot, or counted when an older version indexed it)."""
    if not graph.run("repo_finish", repo=run.repo, run=run.run_id, props=_repo_props(snap, settings, extractor, files,
                                                                                         run.run_id)):
        now = graph.run("repo_get", repo=run.repo)
        run._claim(now[0]["repo"] if now else None)
    s = run.summary
    s.files_unchanged = s.files_indexed = files
    stored = previous[0]["repo"] if previous else {}
    counts = None
    if all(stored.get(k) is not None for k in ("symbols", "chunks", "edges", "unresolved_calls")):
        counts = {"symbols": stored["symbols"], "chunks": stored["chunks"], "edges": json.loads(stored["edges"]),
                  "unresolved_calls": stored["unresolved_calls"]}
    run._lap("noop")
    run.report(started, counts)
    return s


def indexed_elsewhere(graph: Graph, repo: str, root: Path) -> str | None:
    """Where the indexed repository ``repo`` was indexed from, when that is not ``root``; None when it is, or when
    ``repo`` is not indexed. index_repository replaces such a repository (benchmarks re-index a name from
    another checkout); the API and `graphrag-code index` ask first."""
    rows = graph.run("repo_get", repo=repo)
    indexed_from = rows[0]["repo"].get("root") if rows else None
    if not rows or (indexed_from and Path(indexed_from) == root.resolve()):
        return None
    return indexed_from or "an unknown directory"


def repository_view(props: dict[str, Any]) -> dict[str, Any]:
    """A Repository node's properties as `GET /v1/repositories` and `status --json` show them: ``edges`` (stored
    as a JSON string, Neo4j has no map properties) as an object; the counts a repository that never had a swap
    (nothing to index) lacks as 0 / {}."""
    out = {"files": 0, "symbols": 0, "chunks": 0, "unresolved_calls": 0, **props}
    edges = out.get("edges")
    out["edges"] = json.loads(edges) if isinstance(edges, str) else edges or {}
    return out


def list_repositories(graph: Graph) -> list[dict]:
    return [row["repo"] for row in graph.run("repo_list")]


def delete_repository(graph: Graph, repo: str) -> int:
    """Delete a repository's nodes in batches, then its own node; marked first, so that a run indexing it stops
    instead of promoting what the batches have not reached yet. Then the external modules only it imported
    (shared nodes, not counted among its own)."""
    graph.run("repo_mark_deleted", repo=repo)
    total = 0
    while n := graph.run("repo_delete", repo=repo, limit=10_000)[0]["deleted"]:
        total += n
    total += graph.run("repo_remove", repo=repo)[0]["removed"]
    while graph.run("modules_orphaned_delete", limit=10_000)[0]["deleted"]:
        pass
    return total
