"""The one path to Neo4j: every statement runs through ``Graph.run`` / ``Tx.run`` by name, with a tracer hook.

Driver errors are translated here into graphrag_code.errors; nothing above this module imports ``neo4j``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import neo4j
from neo4j import exceptions as neo4j_errors

from . import cypher
from .config import SCHEMA_VERSION, Neo4jSettings
from .errors import (ConfigError, DatabaseError, DatabaseUnavailable, GraphragError, SchemaMismatch,
                     SnapshotMoved, TransactionTooLarge, small_int)


@dataclass
class TraceEvent:
    name: str
    params: dict[str, Any]
    seconds: float
    rows: int
    description: str = ""

    def short_params(self, limit: int = 5) -> dict[str, Any]:
        """Parameters for logs and --explain: long lists (rows, vectors) are cut."""
        out = {}
        for k, v in self.params.items():
            if isinstance(v, list) and len(v) > limit:
                out[k] = [*v[:limit], f"... {len(v) - limit} more"]
            else:
                out[k] = v
        return out


Tracer = Callable[[TraceEvent], None]
T = TypeVar("T")


@dataclass(eq=False)
class Recorder:
    """A tracer that keeps every event: what ``--explain`` prints and the API's debug field shows."""

    events: list[TraceEvent] = field(default_factory=list)

    def __call__(self, event: TraceEvent) -> None:
        self.events.append(event)

    def debug(self) -> list[dict[str, Any]]:
        """The statements run, as `--explain --json` and the API's `debug` field show them."""
        return [{"name": e.name, "description": e.description, "rows": e.rows, "ms": round(e.seconds * 1000, 2),
                 "params": e.short_params(3)} for e in self.events]


_BOLT_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def _translate(exc: Exception, name: str) -> DatabaseError:
    if isinstance(exc, neo4j_errors.IncompleteCommit):   # a ServiceUnavailable, but the outcome is what matters
        return DatabaseUnavailable(f"the connection to Neo4j broke while {name} was committing: whether it "
                                   f"committed is unknown ({exc})",
                                   hint="check the server (`graphrag-code neo4j status`), then run the command "
                                        "again: an index run starts over from the repository's last committed "
                                        "state")
    if isinstance(exc, (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired, ConnectionError, OSError)):
        return DatabaseUnavailable(f"Neo4j is not reachable ({exc.__class__.__name__}: {exc})",
                                   hint="start it with `graphrag-code neo4j start` or check NEO4J_URI")
    if isinstance(exc, neo4j_errors.AuthError):
        return DatabaseError(f"Neo4j refused the credentials: {exc}", hint="check NEO4J_USER / NEO4J_PASSWORD")
    if isinstance(exc, neo4j_errors.Neo4jError) and "MemoryPoolOutOfMemoryError" in (exc.code or ""):
        return TransactionTooLarge(f"{name}: {exc.code}: {exc.message}",
                                   hint="every open transaction shares dbms.memory.transaction.total.max: wait for "
                                        "other jobs on the server, give it more (`graphrag-code neo4j start --heap "
                                        "4g --tx-memory 3g`), or, for an index swap, lower GRAPHRAG_SWAP_MAX_ROWS / "
                                        "GRAPHRAG_SWAP_BATCH_ROWS")
    if isinstance(exc, neo4j_errors.Neo4jError) and exc.code == "Neo.TransientError.General.DatabaseUnavailable":
        # the server answers while its database starts (or stops): away, for the client as for the retries
        return DatabaseUnavailable(f"Neo4j's database is not available ({name}: {exc.message})",
                                   hint="it may be starting: retry in a few seconds (`graphrag-code neo4j status`)")
    if isinstance(exc, neo4j_errors.Neo4jError) and exc.code == "Neo.ClientError.Statement.EntityNotFound":
        return SnapshotMoved(f"{name}: an index run replaced what this read was reading ({exc.message})",
                             hint="run it again")
    if isinstance(exc, neo4j_errors.Neo4jError):
        return DatabaseError(f"{name}: {exc.code}: {exc.message}")
    return DatabaseError(f"{name}: {exc.__class__.__name__}: {exc}")


class Tx:
    """An explicit transaction: everything run through it commits together or not at all."""

    def __init__(self, graph: "Graph", tx: neo4j.Transaction) -> None:
        self._graph, self._tx = graph, tx

    def run(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self._graph._execute(self._tx.run, name, params)


def _uri_port(uri: str) -> int | None:
    """The port a URI names (``bolt://h:99999`` gives 99999), None when it names none or no number."""
    netloc = uri.partition("://")[2].split("/", 1)[0].split("?", 1)[0].rpartition("@")[2]
    host = netloc.rpartition("]")[2]
    port = host.rpartition(":")[2] if ":" in host else ""
    if not port.isdigit():
        return None
    number = small_int(port)
    return 10 ** 18 if number is None else number


class Graph:
    def __init__(self, settings: Neo4jSettings | None = None, tracer: Tracer | None = None,
                 retry_seconds: float = 15.0) -> None:
        """``retry_seconds`` bounds the driver's retries of a failed transaction: long for indexing jobs,
        short for the API, which should answer 503 quickly while Neo4j is away."""
        self.settings = settings or Neo4jSettings.from_env()
        self.retry_seconds = retry_seconds
        self.tracers: list[Tracer] = [tracer] if tracer else []
        self._local = threading.local()   # per-thread tracers: one request's --explain never sees another's
        scheme = self.settings.uri.partition("://")[0].lower() if "://" in self.settings.uri else None
        if scheme is not None and scheme not in _BOLT_SCHEMES:
            # the driver takes http(s):// too (a preview needing aiohttp): a traceback, exit 1 (eighth QA pass)
            raise ConfigError(f"bad NEO4J_URI {self.settings.uri!r}: graphrag-code talks Bolt "
                              f"({', '.join(s + '://' for s in _BOLT_SCHEMES)}), not {scheme}://"
                              + (" (that is the Browser's port)" if scheme.startswith("http") else ""),
                              hint="e.g. bolt://127.0.0.1:7687, neo4j://host:7687, neo4j+s://xxxx.databases.neo4j.io")
        port = _uri_port(self.settings.uri)
        if port is not None and not 0 < port < 65536:
            # the driver wraps it (99999 dials 34463): perhaps some other server (tenth QA pass)
            raise ConfigError(f"bad NEO4J_URI {self.settings.uri!r}: port {port} is not in 1-65535",
                              hint="e.g. bolt://127.0.0.1:7687, neo4j://host:7687, neo4j+s://xxxx.databases.neo4j.io")
        try:
            self._driver = neo4j.GraphDatabase.driver(
                self.settings.uri, auth=(self.settings.user, self.settings.password),
                # a frozen server (alive, silent) held each attempt for the driver's 60 s acquisition default
                connection_timeout=10, connection_acquisition_timeout=15, max_transaction_retry_time=retry_seconds,
                notifications_min_severity="OFF")
        except (ValueError, neo4j_errors.ConfigurationError) as exc:
            # a setting, not a server that is away: exit 2 / HTTP 500, not 3 / 503 with a retry
            raise ConfigError(f"bad NEO4J_URI {self.settings.uri!r}: {exc}",
                              hint="e.g. bolt://127.0.0.1:7687, neo4j://host:7687, neo4j+s://xxxx.databases.neo4j.io"
                              ) from exc

    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> "Graph":
        # fail at once when nothing answers (the CLI's commands open the graph this way), instead of the
        # driver retrying every first statement for retry_seconds; retries still cover Neo4j going away mid-job
        try:
            self.verify()
        except Exception:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def verify(self) -> None:
        try:
            self._driver.verify_connectivity()
        except Exception as exc:
            raise _translate(exc, "connect") from exc

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self.settings.database, max_transaction_retry_time=self.retry_seconds)

    @contextmanager
    def retrying_at_most(self, seconds: float) -> Iterator[None]:
        """Shorter retries for a while (every thread's statements): a job that can resume (the vector fill) stops
        soon when Neo4j goes away, rather than after each of its threads waited out the retries in turn."""
        before = self.retry_seconds
        self.retry_seconds = min(before, seconds)
        try:
            yield
        finally:
            self.retry_seconds = before

    def _execute(self, runner: Callable, name: str, params: dict[str, Any],
                 translate: bool = True) -> list[dict[str, Any]]:
        """``translate=False`` inside a managed transaction: the driver's own errors must reach the driver,
        which retries the transient ones (a deadlock, a database starting) and only those."""
        statement = cypher.load(name)
        statement.check(params)
        started, rows = time.perf_counter(), []
        try:
            for text in statement.texts:
                rows = [record.data() for record in runner(text, params)]
        except Exception as exc:
            if not translate:
                raise
            raise _translate(exc, name) from exc
        event = TraceEvent(name, params, time.perf_counter() - started, len(rows), statement.description)
        for tracer in [*self.tracers, *getattr(self._local, "tracers", ())]:
            tracer(event)
        return rows

    @contextmanager
    def trace(self, tracer: Tracer) -> Iterator[None]:
        """Send the statements this thread runs inside the block to ``tracer`` too (per request, in the API)."""
        stack = self._local.__dict__.setdefault("tracers", [])
        stack.append(tracer)
        try:
            yield
        finally:
            stack.pop()

    def run(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run a named statement in its own transaction (retried by the driver on transient errors: they were
        translated inside it, and so never retried; ninth QA pass: a deadlock between two runs ended one)."""
        def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
            return self._execute(tx.run, name, params, translate=False)
        try:
            with self._session() as session:
                return session.execute_write(work)
        except GraphragError:   # ours already (a missing Cypher file is no Neo4j failure)
            raise
        except Exception as exc:
            raise _translate(exc, name) from exc

    def consistent(self, read: Callable[[], T], attempts: int = 3) -> T:
        """``read()``, a request's several statements, on one snapshot of the repositories. Neo4j reads are read
        committed: statements, or the rows of one, that straddle a swap's commit mixed two commits (a hit of
        one commit's lines under the other's SHA; ninth QA pass). So the repositories' snapshot markers are read
        before and after, and a read a swap committed under is run again, as is one whose nodes a swap deleted
        under it (SnapshotMoved); at most ``attempts`` times in all. (A swap in several transactions is a
        documented mix of old and new files while it runs: retrying would not end it.)"""
        for attempt in range(1, attempts + 1):
            before = self.run("repo_versions")
            try:
                result = read()
            except SnapshotMoved:
                if attempt == attempts:
                    raise
                continue
            if self.run("repo_versions") == before:
                break
        return result

    def run_schema(self, name: str, /, **params: Any) -> None:
        """Schema statements cannot share a transaction with data: each runs auto-committed."""
        try:
            with self._session() as session:
                self._execute(lambda text, p: session.run(text, p), name, params)
        except GraphragError:   # ours already (a missing Cypher file is no Neo4j failure)
            raise
        except Exception as exc:
            raise _translate(exc, name) from exc

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        try:
            with self._session() as session, session.begin_transaction() as tx:
                yield Tx(self, tx)
                tx.commit()
        except GraphragError:   # ours already (a missing Cypher file is no Neo4j failure)
            raise
        except Exception as exc:
            raise _translate(exc, "transaction") from exc

    # -- schema -------------------------------------------------------------------------------------------------
    def ensure_schema(self, embedding_model: str, embedding_dim: int) -> None:
        """Create constraints and indexes, record versions, and refuse a graph written by another schema/model."""
        rows = self.run("meta_get", key="schema")
        if rows:
            meta = rows[0]
            if meta["schema_version"] != SCHEMA_VERSION:
                raise SchemaMismatch(
                    f"the graph has schema version {meta['schema_version']}, this graphrag-code writes "
                    f"{SCHEMA_VERSION}", hint="re-index: `graphrag-code index PATH --rebuild`")
            if (meta["embedding_model"], meta["embedding_dim"]) != (embedding_model, embedding_dim):
                raise SchemaMismatch(
                    f"the vector index holds {meta['embedding_model']} ({meta['embedding_dim']} dims), "
                    f"configured is {embedding_model} ({embedding_dim} dims); vectors of two models never mix",
                    hint="use the indexed model, or drop the graph and re-index with the new one")
        self.run_schema("schema", dimensions=embedding_dim)
        if not rows:
            self.run("meta_set", key="schema", schema_version=SCHEMA_VERSION,
                     embedding_model=embedding_model, embedding_dim=embedding_dim)
