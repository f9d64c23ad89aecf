"""The REST service (Flask). Thin: each route validates its input against the endpoint's declared schema,
calls one library function and returns JSON. Errors are mapped to statuses in one handler.

The endpoint table ENDPOINTS is the single source for validation, the OpenAPI document and the index page.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import math
import re
import shlex
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, jsonify, request
from werkzeug.exceptions import HTTPException

from . import __version__
from .api_schemas import RESPONSE_SCHEMAS
from .config import ANSWER_SOURCES, SCHEMA_VERSION, IndexSettings, Neo4jSettings, Settings, check_repo_name
from .db import Graph, Recorder
from .errors import (Ambiguous, Busy, ConfigError, DatabaseUnavailable, GraphragError, IndexingError, InputError,
                     NotFound, check_text, small_int)
from .rerankers import uses_llm as uses_llm_reranker
from .search import GLOB_PATTERN, KINDS, LANGUAGE_NAMES

log = logging.getLogger("graphrag_code.api")
MAX_REQUEST_BYTES = 64 * 1024
WIRE_MAX_BYTES = 16 * MAX_REQUEST_BYTES     # what `serve`'s waitress reads of a body at most (1 MiB)


# -- declared request schemas ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    type: type | tuple[type, ...]
    required: bool = False
    description: str = ""
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    min_length: int | None = None
    nullable: bool = True        # optional fields: null means "not given"
    choices: tuple[str, ...] | None = None
    pattern: str | None = None       # a regular expression the value must match (re.search: anchor it)
    pattern_problem: str = ""        # what a value that does not match is told
    blank: bool = False              # a value of spaces is a value (a glob); else only non-blank text is


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    summary: str
    body: dict[str, Field] = field(default_factory=dict)
    query: dict[str, Field] = field(default_factory=dict)
    example: dict[str, Any] | None = None
    one_of_required: tuple[str, ...] = ()     # the body must give exactly one of these


_SEARCH_FIELDS = {
    "query": Field(str, True, "An identifier, a stack trace, an error message or a question", max_length=4000),
    "repo": Field(str, description="Only this repository", max_length=200),
    "k": Field(int, description="Number of hits", minimum=1, maximum=100),
    "path": Field(str, description="Glob on paths, e.g. src/*/auth/*", max_length=500, min_length=1,
                  pattern=GLOB_PATTERN, blank=True,
                  pattern_problem="must be a glob whose every '[' is closed by a ']'"),
    "language": Field(str, description="Only this language", choices=LANGUAGE_NAMES),
    "kind": Field(str, description="Only this kind of symbol or chunk", choices=KINDS),
    "include_tests": Field(bool, description="Default: only when the query is about tests"),
    "hops": Field(int, description="Graph expansion hops (default: 2 inside a small repository, else 1)",
                  minimum=0, maximum=2),
    "vectors": Field(bool, description="Use the vector channel (default true when vectors exist)"),
    "with_text": Field(bool, description="Include each hit's code (default true)"),
    "debug": Field(bool, description="Include Cypher statements, parameters and stage timings"),
}

# paths, impact and source read one repository; with a single one indexed (or readable) it need not be named
_ONE_REPO = Field(str, description="Default: the only indexed repository (the only one the token may read)",
                  max_length=200)

# what paths.resolve_endpoint takes without allow_file (find_paths): no file paths, no retrieval
_ENDPOINT_FORMS = ("A symbol id (path#Qualified.name), a qualified or bare name (OrderService.cancel, cancel), "
                   "file:line (the innermost symbol there), or words spelling an identifier ('cancel order' "
                   "finds cancel_order, cancelOrder)")

ENDPOINTS: dict[str, Endpoint] = {
    "healthz": Endpoint("GET", "/healthz", "Liveness: the process answers"),
    "readyz": Endpoint("GET", "/readyz", "Readiness: Neo4j reachable, schema current, embedder loadable"),
    "search": Endpoint("POST", "/v1/search", "Hybrid search over indexed code", _SEARCH_FIELDS,
                       example={"query": "where is the refresh token expiry checked?", "k": 5}),
    "ask": Endpoint("POST", "/v1/ask", "A cited answer: every [N] resolved to path:start-end at the indexed commit", {
        "question": Field(str, True, "The question", max_length=4000),
        "repo": Field(str, description="Only this repository", max_length=200),
        "k": Field(int, description=f"Sources retrieved (default {ANSWER_SOURCES})", minimum=1, maximum=50),
        "llm": Field(bool, description="true: require the LLM; false: extractive answer; absent: LLM when a key "
                                       "is set, else extractive"),
        "debug": Field(bool, description="Include retrieval statements and timings")},
        example={"question": "where is JWT expiry validated?", "repo": "shop"}),
    "paths": Endpoint("POST", "/v1/paths", "How does X reach Y: the k best call paths with call-site citations", {
        "repo": _ONE_REPO,
        "source": Field(str, True, _ENDPOINT_FORMS, max_length=500),
        "target": Field(str, True, _ENDPOINT_FORMS, max_length=500),
        "max_hops": Field(int, minimum=1, maximum=10), "k": Field(int, minimum=1, maximum=16)},
        example={"source": "refresh_route", "target": "sign"}),
    "impact": Endpoint("POST", "/v1/impact", "What breaks if X changes: transitive callers, entry points, tests", {
        "repo": _ONE_REPO,
        "target": Field(str, description="Symbol, file:line or file path", max_length=500, min_length=1,
                        nullable=False),
        "diff": Field(str, description="A git revision: the symbols its diff touches", max_length=200,
                      min_length=1, nullable=False),
        "depth": Field(int, minimum=1, maximum=10)}, example={"target": "sign", "depth": 2},
        one_of_required=("target", "diff")),
    "repos_list": Endpoint("GET", "/v1/repositories", "Indexed repositories with commit, counts and versions"),
    "repos_index": Endpoint("POST", "/v1/repositories", "Index or re-index a path on the server (asynchronous job)", {
        "path": Field(str, True, "Directory on the server", max_length=1000),
        "name": Field(str, description="Repository id", max_length=200)}, example={"path": "/srv/repos/shop"}),
    "repos_delete": Endpoint("DELETE", "/v1/repositories/<path:repo>",
                             "Delete an indexed repository from the graph (one indexed from where this server may "
                             "index)"),
    "job": Endpoint("GET", "/v1/jobs/<job_id>", "An indexing job: state, progress, summary or error"),
    "symbol": Endpoint("GET", "/v1/symbols/<path:symbol_id>", "A symbol's metadata, callers and callees"),
    "source": Endpoint("GET", "/v1/source", "Lines of an indexed file at the indexed commit", query={
        "repo": _ONE_REPO, "path": Field(str, True, max_length=1000),
        "start": Field(int, True, minimum=1), "end": Field(int, True, minimum=1)}),
}


def validate(fields: dict[str, Field], data: Any, where: str = "body") -> dict[str, Any]:
    """Check a JSON body or query string against declared fields; raise InputError naming the field."""
    if not isinstance(data, dict):
        raise InputError(f"the request {where} must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        err = InputError(f"unknown field {unknown[0]!r}; expected some of {sorted(fields)}")
        err.field = unknown[0]
        raise err
    out = {}
    for name, spec in fields.items():
        if name in data and data[name] is None and not spec.nullable:
            err = InputError(f"{name!r} must not be null")
            err.field = name
            raise err
        if name not in data or data[name] is None:
            if spec.required:
                err = InputError(f"{name!r} is required")
                err.field = name
                raise err
            continue
        value = data[name]
        if where == "query" and spec.type is int and re.fullmatch(r"-?[0-9]+", str(value)):
            number = small_int(str(value))      # negative too, so that start=-3 is told its minimum, not its type
            if number is None:
                err = InputError(f"{name!r} is out of range ({len(str(value))} digits)")
                err.field = name
                raise err
            value = number
        ok = isinstance(value, spec.type) and not (spec.type is int and isinstance(value, bool))
        problem = None if ok else f"must be {getattr(spec.type, '__name__', spec.type)}"
        if ok and spec.minimum is not None and value < spec.minimum:
            problem = f"must be ≥ {spec.minimum}"
        if ok and spec.maximum is not None and value > spec.maximum:
            problem = f"must be ≤ {spec.maximum}"
        if ok and spec.max_length is not None and len(value) > spec.max_length:
            problem = f"must be at most {spec.max_length} characters"
        if ok and isinstance(value, str) and not (value if spec.blank else value.strip()) and (
                spec.required or spec.min_length):
            problem = "must not be empty"
        if ok and isinstance(value, str):
            check_text(value, name)     # JSON's "\ud800" decodes to a lone surrogate: no database call takes it
        if ok and spec.choices and value not in spec.choices:
            problem = f"must be one of {', '.join(spec.choices)} (got {value!r})"
        if ok and spec.pattern and not re.search(spec.pattern, value):     # as JSON Schema reads a pattern
            problem = spec.pattern_problem or f"must match {spec.pattern}"
        if problem:
            err = InputError(f"{name!r} {problem}")
            err.field = name
            raise err
        out[name] = value
    return out


class Forbidden(InputError):
    http_status = 403
    code = "forbidden"


class Conflict(InputError):
    http_status = 409
    code = "conflict"


# -- jobs ---------------------------------------------------------------------------------------------------------
@dataclass
class Job:
    id: str
    path: str
    name: str | None
    state: str = "queued"               # queued | running | done | failed
    stage: str = ""
    done: int = 0
    total: int = 0
    summary: dict[str, Any] | None = None     # the index summary; "vectors": the vector fill after it
    error: dict[str, str] | None = None
    warnings: list[str] = field(default_factory=list)   # a done job's shortfalls (vectors not filled)
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _under(path: Path, roots: tuple[Path, ...]) -> bool:
    """``path`` (resolved) is one of ``roots`` or inside one."""
    return any(path == r.resolve() or r.resolve() in path.parents for r in roots)


class JobRunner:
    """Indexing jobs in background threads, one at a time per repository name. With an embedder a job then fills
    the repository's vectors, as `graphrag-code index` does; without one it says why it did not."""

    def __init__(self, graph: Graph, settings: IndexSettings, embedder: Any = None, *,
                 no_embedder: str = "this server has no embedder", cache_path: Path | None = None) -> None:
        self.graph, self.settings = graph, settings
        self.embedder, self.no_embedder, self.cache_path = embedder, no_embedder, cache_path
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def submit(self, path: str, name: str | None, allowed: tuple[Path, ...]) -> Job:
        from .indexer import default_repo_name

        if not allowed:
            raise Forbidden("indexing over the API is off", hint="start the server with GRAPHRAG_INDEX_ROOTS=/srv/repos")
        if "\0" in path:       # no file name holds one, and the OS refuses it (ValueError from resolve)
            err = InputError(f"not a directory on the server: {path!r} (a path may not contain a NUL character)")
            err.field = "path"
            raise err
        root = Path(path).resolve()
        if not _under(root, allowed):
            err = Forbidden(f"{path} is outside the directories this server may index")
            err.field = "path"
            raise err
        if not root.is_dir():
            err = InputError(f"not a directory on the server: {path}")
            err.field = "path"
            raise err
        try:
            repo = check_repo_name(default_repo_name(root) if name is None else name)
        except InputError as err:
            err.field = "name" if name is not None else "path"
            raise
        self._check_same_root(repo, root, "name" if name is not None else "path")
        with self._lock:
            running = next((j for j in self.jobs.values() if j.state in ("queued", "running")
                            and (j.name or default_repo_name(Path(j.path))) == repo), None)
            if running is not None:
                err = Conflict(f"repository {repo!r} is being indexed already (job {running.id})",
                               hint=f"wait for GET /v1/jobs/{running.id} to end")
                err.field = "name" if name is not None else "path"
                raise err
            job = Job(uuid.uuid4().hex[:16], str(root), repo)
            self.jobs[job.id] = job
        threading.Thread(target=self._run, args=(job,), daemon=True, name=f"index-{job.id}").start()
        return job

    def _check_same_root(self, repo: str, root: Path, field_name: str) -> None:
        """Conflict (409) when ``repo`` names a repository indexed from another directory: the job would replace
        it, possibly one this server may not touch (DELETE refuses those)."""
        from .indexer import indexed_elsewhere

        elsewhere = indexed_elsewhere(self.graph, repo, root)
        if elsewhere is not None:
            err = Conflict(f"repository {repo!r} was indexed from {elsewhere}: indexing {root} under that name "
                           f"would replace it", hint="index under another 'name'")
            err.field = field_name
            raise err

    def delete(self, repo: str, root: str | None, allowed: tuple[Path, ...]) -> int:
        """Delete ``repo`` (indexed from ``root``) from the graph: only where this server may index, never while
        a job indexes it; returns the nodes deleted."""
        from .indexer import delete_repository

        if not allowed:
            raise Forbidden("changing the graph over the API is off",
                            hint="start the server with GRAPHRAG_INDEX_ROOTS=/srv/repos")
        if not root or not _under(Path(root).resolve(), allowed):
            raise Forbidden(f"repository {repo!r} was indexed from {root}, outside the directories this server "
                            f"may index", hint="delete it with `graphrag-code delete` on the server")
        with self._lock:          # no job of this name starts meanwhile (submit takes the lock)
            if any(j.state in ("queued", "running") and j.name == repo for j in self.jobs.values()):
                raise Conflict(f"repository {repo!r} is being indexed: delete it when the job has ended")
            return delete_repository(self.graph, repo)

    def _run(self, job: Job) -> None:
        from .indexer import index_repository

        def progress(stage: str, done: int, total: int) -> None:
            job.stage, job.done, job.total = stage, done, total

        job.state = "running"
        try:
            summary = index_repository(self.graph, Path(job.path), name=job.name, settings=self.settings,
                                       progress=progress)
        except GraphragError as exc:        # the stage stays where it failed
            job.state, job.error = "failed", {"code": exc.code, "message": exc.message}
        except Exception as exc:  # a bug: keep the service up and say so in the job
            log.exception("indexing job %s crashed", job.id)
            job.state, job.error = "failed", {"code": "internal_error", "message": exc.__class__.__name__}
        else:
            job.summary = summary.to_dict()
            try:
                job.summary["vectors"] = self._fill_vectors(job, summary.repo, progress)
            except IndexingError as exc:    # the repository was deleted meanwhile: nothing of the job is left
                job.state, job.error = "failed", {"code": exc.code, "message": exc.message}
            else:
                job.stage, job.state = "done", "done"
        job.finished_at = time.time()

    def _fill_vectors(self, job: Job, repo: str, progress: Callable[[str, int, int], None]) -> dict[str, Any]:
        """The vector fill after the index committed: {"status": "filled", counts...}, "skipped" with the reason, or
        "failed" with the error. A failure keeps the job done (the index is there; search runs without vectors
        until a fill) and says so in its warnings; but IndexingError (the repository was deleted meanwhile, so
        the index is not there) is raised."""
        from .embeddings import EmbeddingCache
        from .vectors import fill_embeddings

        if self.embedder is None:
            return {"status": "skipped", "reason": self.no_embedder}
        progress("embed", 0, 0)
        try:
            with EmbeddingCache(self.cache_path) as cache:      # the cache `index` and `embed` share
                return {"status": "filled", **fill_embeddings(self.graph, repo, self.embedder, cache,
                                                              progress=progress)}
        except IndexingError:
            raise
        except GraphragError as exc:
            error = {"code": exc.code, "message": exc.message}
        except Exception as exc:  # a bug: the index result stands all the same
            log.exception("filling the vectors of job %s crashed", job.id)
            error = {"code": "internal_error", "message": exc.__class__.__name__}
        job.warnings.append(f"indexed, but the vectors were not filled ({error['message']}): search runs without "
                            f"them until `graphrag-code embed --repo {shlex.quote(repo)}` or another indexing job fills them")
        return {"status": "failed", "error": error}


# -- the app ------------------------------------------------------------------------------------------------------
@dataclass
class ApiConfig:
    tokens: frozenset[str] = frozenset()
    host: str = "127.0.0.1"
    neo4j: Neo4jSettings = field(default_factory=Neo4jSettings.from_env)
    index: IndexSettings = field(default_factory=IndexSettings)
    embedder_loader: Callable[[], Any] | None = None    # returns an embedder or raises; None: vectors off
    reranker_loader: Callable[[], Any] | None = None    # returns a reranker (or None: off) or raises
    # directories under which POST /v1/repositories may index (none: indexing over the API is off)
    index_roots: tuple[Path, ...] = ()
    # the embedding cache indexing jobs share with `graphrag-code index` / `embed` (None: an in-memory one)
    embedding_cache: Path | None = field(default_factory=lambda: Settings().state_dir / "embeddings.sqlite")
    # tokens limited to some repositories (a token in ``tokens`` but not here may read every repository)
    token_repos: dict[str, frozenset[str]] = field(default_factory=dict)
    extra_endpoints: Callable[[Flask, "ApiContext"], None] | None = None
    # answers that may call the LLM at once (None: no limit); `serve` keeps one thread of its pool for the rest,
    # since an answer may wait on the LLM up to GRAPHRAG_LLM_DEADLINE and /healthz queued behind such waits
    llm_slots: int | None = None


@dataclass
class ApiContext:
    config: ApiConfig
    graph: Graph
    jobs: JobRunner
    embedder: Any = None
    embedder_error: str | None = None
    reranker: Any = None
    reranker_error: str | None = None
    schema_ready: bool = False
    llm_slots: threading.BoundedSemaphore | None = None

    def ensure_schema(self) -> None:
        """Indexes exist before the first query, even on a database nothing was indexed into yet (once per
        process; retried on the next request while Neo4j is away)."""
        if not self.schema_ready:
            self.graph.ensure_schema(self.config.index.embedding_model, self.config.index.embedding_dim)
            self.schema_ready = True


def parse_tokens(spec: str) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """`GRAPHRAG_API_TOKENS`: comma-separated tokens; `token=repo1|repo2` limits a token to those repositories.
    ConfigError, naming the entry by its position and never echoing a token, for an entry with no token
    (`=shop`: "" would match a request without one) or with nothing after `=` (an unset `$REPOS` in a template
    must not grant every repository)."""
    tokens, limited = set(), {}
    for position, item in enumerate((part.strip() for part in spec.split(",")), 1):
        if not item:
            continue
        token, eq, repos = (part.strip() for part in item.partition("="))
        if not token:
            raise ConfigError(f"GRAPHRAG_API_TOKENS: entry {position} has no token before '='",
                              hint="write token or token=repo1|repo2")
        names = frozenset(r.strip() for r in repos.split("|") if r.strip())
        if eq and not names:
            raise ConfigError(f"GRAPHRAG_API_TOKENS: entry {position} has no repository after '='",
                              hint="name the repositories (token=repo1|repo2), or drop '=' to let the token "
                                   "read every repository")
        tokens.add(token)
        if eq:
            limited[token] = names
    return frozenset(tokens), limited


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_listen(config: ApiConfig) -> None:
    """Raises ConfigError when the API would listen beyond loopback without tokens."""
    if not config.tokens and not is_loopback(config.host):
        raise ConfigError(f"refusing to serve on {config.host} without API tokens",
                          hint="set GRAPHRAG_API_TOKENS=token1,token2 or bind to 127.0.0.1")


def create_app(config: ApiConfig | None = None) -> Flask:
    config = config or ApiConfig()
    check_listen(config)
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    graph = Graph(config.neo4j, retry_seconds=2.0)
    embedder, embedder_error = None, None
    if config.embedder_loader is not None:
        try:
            embedder = config.embedder_loader()
        except Exception as exc:
            embedder_error = str(exc)
    # indexing jobs fill vectors with the embedder searches use
    jobs = JobRunner(graph, config.index, embedder, cache_path=config.embedding_cache,
                     no_embedder=f"no embedder: {embedder_error}" if embedder_error else "this server has no embedder")
    ctx = ApiContext(config, graph, jobs, embedder=embedder, embedder_error=embedder_error,
                     llm_slots=threading.BoundedSemaphore(config.llm_slots) if config.llm_slots else None)
    if config.reranker_loader is not None:
        try:
            ctx.reranker = config.reranker_loader()
        except Exception as exc:   # searches run without it; /readyz says why
            ctx.reranker_error = str(exc)
    app.extensions["graphrag"] = ctx
    _install_hooks(app, ctx)
    _install_routes(app, ctx)
    if config.extra_endpoints:
        config.extra_endpoints(app, ctx)
    return app


def _error(status: int, code: str, message: str, field_name: str | None = None, **headers: str) -> Response:
    body = {"error": {"code": code, "message": message}}
    if field_name:
        body["error"]["field"] = field_name
    resp = jsonify(body)
    resp.status_code = status
    resp.headers.update(headers)
    return resp


def _install_hooks(app: Flask, ctx: ApiContext) -> None:
    @app.before_request
    def _auth_and_clock() -> Response | None:
        g.started = time.perf_counter()
        g.request_id = request.headers.get("X-Request-Id") or uuid.uuid4().hex[:12]
        if request.path not in ("/healthz", "/readyz", "/openapi.json", "/") and ctx.config.tokens:
            header = request.headers.get("Authorization", "")
            token = header[7:].strip() if header.lower().startswith("bearer ") else ""
            if not token or token not in ctx.config.tokens:    # no token never matches, whatever the set holds
                return _error(401, "unauthorized", "missing or invalid bearer token",
                              **{"WWW-Authenticate": "Bearer"})
            g.allowed_repos = ctx.config.token_repos.get(token)
        if request.path.startswith("/v1/"):
            ctx.ensure_schema()
        return None

    @app.after_request
    def _log(resp: Response) -> Response:
        ms = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        resp.headers["X-Request-Id"] = g.get("request_id", "")
        log.info(json.dumps({"request_id": g.get("request_id"), "method": request.method, "path": request.path,
                             "status": resp.status_code, "ms": round(ms, 1)}))
        return resp

    @app.errorhandler(GraphragError)
    def _graphrag_error(exc: GraphragError) -> Response:
        wait = getattr(exc, "retry_after", None)           # the LLM's own Retry-After, else ours
        headers = {"Retry-After": str(math.ceil(wait) if wait else 5)} if exc.http_status == 503 else {}
        message = exc.message + (f" ({exc.hint})" if exc.hint else "")
        if isinstance(exc, DatabaseUnavailable):
            message = _database_unavailable(exc)
        return _error(exc.http_status, exc.code, message, getattr(exc, "field", None), **headers)

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response:
        # keep the exception's own headers (Allow on 405) but not its HTML content type
        headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
        return _error(exc.code or 500, (exc.name or "error").lower().replace(" ", "_"), exc.description or "",
                      **headers)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response:
        log.exception("unhandled error on %s", request.path)
        return _error(500, "internal_error", "internal error; see the server log", )


def _database_unavailable(exc: DatabaseUnavailable) -> str:
    """What a client is told when Neo4j is away: the driver's words (the server's address, its resolution, the
    socket's errno) go to the server log, under the request's id (eighth QA pass)."""
    log.warning(json.dumps({"request_id": g.get("request_id"), "neo4j_unavailable": str(exc)}))
    return "Neo4j is unavailable; retry later (the server log has the cause under this request's id)"


def allowed_repos() -> frozenset[str] | None:
    """The repositories this request's token may read; None: every one."""
    return g.get("allowed_repos")


def check_repo(repo: str | None, field_name: str = "repo") -> None:
    """A token limited to some repositories must name one of them."""
    allowed = allowed_repos()
    if allowed is None:
        return
    if repo is None:
        err = Forbidden(f"this token may read only {sorted(allowed)}: name the repository")
    elif repo not in allowed:
        err = Forbidden(f"this token may not read repository {repo!r}")
    else:
        return
    err.field = field_name
    raise err


def check_indexed(graph: Graph, repo: str | None) -> None:
    """NotFound (404) for a named repository the graph does not hold, as impact and paths answer (a search of it
    would just find nothing). The hint points to the listing, which shows only what the token may read."""
    from .paths import repository

    if repo is None:
        return
    try:
        repository(graph, repo)
    except NotFound as err:
        err.hint, err.field = "GET /v1/repositories lists them", "repo"
        raise


def the_repo(graph: Graph, repo: str | None) -> str:
    """The repository a request reads: the one it names (if the token may read it), else the only one indexed
    that the token may read; Ambiguous (409) listing them when there are several, NotFound when there is none."""
    from .indexer import list_repositories

    if repo is not None:
        check_repo(repo)
        check_indexed(graph, repo)
        return repo
    allowed = allowed_repos()
    ids = [r["id"] for r in list_repositories(graph) if allowed is None or r["id"] in allowed]
    if len(ids) == 1:
        return ids[0]
    if ids:
        err: InputError = Ambiguous(f"which repository? {len(ids)} are indexed: name one "
                                    f"({', '.join(ids[:20])}{', ...' if len(ids) > 20 else ''})",
                                    hint="GET /v1/repositories lists them")
    else:
        err = NotFound("no repository is indexed" + (" that this token may read" if allowed is not None else ""),
                       hint="index one: POST /v1/repositories or `graphrag-code index PATH`")
    err.field = "repo"
    raise err


def _json_body(endpoint: Endpoint) -> dict[str, Any]:
    try:
        data = request.get_json(silent=True)
    except RecursionError:      # the decoder recurses once per level: thousands of [[[... are no request of ours
        raise InputError("the request body is malformed JSON: nested too deeply") from None
    if data is None and request.is_json:
        try:
            json.loads(request.get_data(cache=True))
        except ValueError as exc:             # the decoder's own words: where the body stops being JSON
            raise InputError(f"the request body is malformed JSON: {exc}") from None
        raise InputError("the request body must be a JSON object (it is null)")
    if data is None:
        raise InputError("the request body must be JSON (Content-Type: application/json)")
    return validate(endpoint.body, data)


def _install_routes(app: Flask, ctx: ApiContext) -> None:
    _install_service_routes(app, ctx)
    _install_question_routes(app, ctx)
    _install_graph_routes(app, ctx)
    _install_repository_routes(app, ctx)


def _install_service_routes(app: Flask, ctx: ApiContext) -> None:
    """Health, readiness, the OpenAPI document and the index page."""

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify({"status": "ok", "version": __version__})

    @app.get("/readyz")
    def readyz() -> Response:
        checks: dict[str, Any] = {}
        try:
            ctx.graph.verify()
            checks["neo4j"] = "ok"
            meta = ctx.graph.run("meta_get", key="schema")
            checks["schema"] = "ok" if not meta or meta[0]["schema_version"] == SCHEMA_VERSION else "mismatch"
        except GraphragError as exc:
            checks["neo4j"] = _database_unavailable(exc) if isinstance(exc, DatabaseUnavailable) else exc.message
        checks["embedder"] = "ok" if ctx.embedder is not None else (ctx.embedder_error or "off")
        checks["reranker"] = ctx.reranker.name if ctx.reranker is not None else (ctx.reranker_error or "off")
        ready = checks.get("neo4j") == "ok" and checks.get("schema") == "ok"
        resp = jsonify({"ready": ready, "checks": checks})
        resp.status_code = 200 if ready else 503
        if not ready:
            resp.headers["Retry-After"] = "5"
        return resp

    @app.get("/openapi.json")
    def openapi() -> Response:
        return jsonify(openapi_document())

    @app.get("/")
    def index_page() -> Response:
        return Response(index_html(request.host_url.rstrip("/"), auth=bool(ctx.config.tokens)), mimetype="text/html")


@contextlib.contextmanager
def _reranker_slot(ctx: ApiContext) -> Iterator[tuple[Any, str | None]]:
    """The reranker a search runs with, and a note when it runs without one. The LLM reranker waits on the LLM
    as an answer does, so it takes an answer slot (the thread kept free for /healthz and searches stays free);
    with every slot taken the search goes on in the fused order, at once."""
    slot = ctx.llm_slots if uses_llm_reranker(ctx.reranker) else None
    if slot is None:
        yield ctx.reranker, None
        return
    if not slot.acquire(blocking=False):
        yield None, (f"reranker {ctx.reranker.name} not run: all {ctx.config.llm_slots} answer slot(s) are "
                     f"waiting on the LLM (fused order)")
        return
    try:
        yield ctx.reranker, None
    finally:
        slot.release()


def _install_question_routes(app: Flask, ctx: ApiContext) -> None:
    """Search and cited answers."""
    from .search import Filters, Searcher, SearchOptions, channels_for

    @app.post("/v1/search")
    def search() -> Response:
        args = _json_body(ENDPOINTS["search"])
        check_repo(args.get("repo"))
        check_indexed(ctx.graph, args.get("repo"))
        recorder = Recorder()
        with ctx.graph.trace(recorder), _reranker_slot(ctx) as (reranker, skipped):
            use_vectors = args.get("vectors", True) and ctx.embedder is not None
            channels = channels_for(ctx.embedder if use_vectors else None)
            searcher = Searcher(ctx.graph, ctx.embedder if use_vectors else None, reranker)
            result = ctx.graph.consistent(lambda: searcher.search(
                args["query"], Filters(repo=args.get("repo"), path_glob=args.get("path"), language=args.get("language"),
                                       kind=args.get("kind"), include_tests=args.get("include_tests")),
                SearchOptions(k=args.get("k", 10), hops=args.get("hops"), channels=channels)))
        if skipped:
            result.notes.append(skipped)
        out = result.to_dict(with_text=args.get("with_text", True))
        if args.get("debug"):
            out["debug"] = {"statements": recorder.debug()}
        return jsonify(out)

    @app.post("/v1/ask")
    def ask() -> Response:
        from .answer import answer
        from .llm import LLMSettings

        args = _json_body(ENDPOINTS["ask"])
        check_repo(args.get("repo"))
        check_indexed(ctx.graph, args.get("repo"))
        # with llm:false no LLM setting is read (a bad one is no reason to refuse an extractive answer)
        uses_llm = args.get("llm") is not False and LLMSettings.from_env().configured
        if args.get("llm") is True and not uses_llm:
            err = InputError("this server has no LLM configured (ANTHROPIC_API_KEY); ask with llm=false or "
                             "leave llm out for an extractive answer")
            err.field = "llm"
            raise err
        use_vectors = ctx.embedder is not None
        channels = channels_for(ctx.embedder if use_vectors else None)
        recorder = Recorder()
        slot = ctx.llm_slots if uses_llm else None
        if slot is not None and not slot.acquire(blocking=False):
            raise Busy(f"all {ctx.config.llm_slots} answer slot(s) are waiting on the LLM",
                       hint='retry after a while, or ask with "llm": false for an extractive answer now')
        # the LLM reranker runs in this answer's slot, or, with "llm": false, not at all
        skipped = uses_llm_reranker(ctx.reranker) and args.get("llm") is False
        try:
            with ctx.graph.trace(recorder):
                result = answer(ctx.graph, args["question"], repo=args.get("repo"),
                                search_options=SearchOptions(k=args.get("k", ANSWER_SOURCES), channels=channels),
                                searcher=Searcher(ctx.graph, ctx.embedder if use_vectors else None,
                                                  None if skipped else ctx.reranker),
                                no_llm=args.get("llm") is False, require_llm=args.get("llm") is True,
                                no_llm_option='"llm": false')
        finally:
            if slot is not None:
                slot.release()
        if skipped:
            result.notes.append('reranker llm not run: no LLM call with "llm": false (fused order)')
        out = result.to_dict()
        if args.get("debug"):     # what `ask --explain` prints: the statements run and the stage timings
            out["debug"] = {"statements": recorder.debug(), "timings": result.timings}
        return jsonify(out)


def _install_graph_routes(app: Flask, ctx: ApiContext) -> None:
    """Call paths, impact, a symbol's detail and source lines at the indexed commit."""
    from .source import read_lines

    @app.post("/v1/paths")
    def paths() -> Response:
        from .paths import find_paths

        args = _json_body(ENDPOINTS["paths"])
        repo = the_repo(ctx.graph, args.get("repo"))
        extra = {k: args[k] for k in ("max_hops", "k") if k in args}
        return jsonify(ctx.graph.consistent(
            lambda: find_paths(ctx.graph, repo, args["source"], args["target"], **extra)).to_dict())

    @app.post("/v1/impact")
    def impact() -> Response:
        from .impact import analyze_impact

        args = _json_body(ENDPOINTS["impact"])
        if args.get("target") and args.get("diff"):     # said here: the library's message names CLI options
            raise InputError("give either a 'target' or a 'diff', not both")
        if not args.get("target") and not args.get("diff"):
            raise InputError("give a 'target' or a 'diff'")
        repo = the_repo(ctx.graph, args.get("repo"))
        extra = {"depth": args["depth"]} if "depth" in args else {}
        return jsonify(ctx.graph.consistent(lambda: analyze_impact(ctx.graph, repo, args.get("target"),
                                                                   diff=args.get("diff"), **extra)).to_dict())

    @app.get("/v1/symbols/<path:symbol_id>")
    def symbol(symbol_id: str) -> Response:
        check_repo(symbol_id.split(":", 1)[0], "symbol_id")
        rows = ctx.graph.consistent(lambda: ctx.graph.run("symbol_detail", id=symbol_id))
        if not rows:
            shown = symbol_id if len(symbol_id) <= 300 else f"{symbol_id[:300]}… ({len(symbol_id)} characters)"
            return _error(404, "not_found", f"no symbol {shown!r}")     # not a 100 KB id echoed back whole
        row = rows[0]
        sym = {k: v for k, v in row["symbol"].items() if k not in ("facts",)}
        return jsonify({"symbol": sym, "commit": row["commit"], "parent": row["parent"],
                        "callers": row["callers"], "callees": row["callees"]})

    @app.get("/v1/source")
    def source() -> Response:
        args = validate(ENDPOINTS["source"].query, request.args.to_dict(), "query")
        repo = the_repo(ctx.graph, args.get("repo"))
        rows = ctx.graph.run("file_get", repo=repo, path=args["path"])
        if not rows:
            return _error(404, "not_found", f"{args['path']!r} is not an indexed file of {repo!r}", "path")
        f = rows[0]
        chunks = ctx.graph.run("file_chunk_hashes", repo=repo, path=f["path"]) if not f["commit"] else None
        lines = read_lines(f["root"], f["commit"], f["path"], args["start"], args["end"], blob=f["blob"],
                           chunks=chunks)
        return jsonify({"repo": repo, "commit": f["commit"], "path": f["path"], "start": args["start"],
                        "end": args["end"], "lines": lines})


def _install_repository_routes(app: Flask, ctx: ApiContext) -> None:
    """Indexed repositories: list, index (a job), delete; the jobs."""
    from .indexer import list_repositories, repository_view

    @app.get("/v1/repositories")
    def repositories() -> Response:
        allowed = allowed_repos()
        return jsonify({"repositories": [repository_view(r) for r in list_repositories(ctx.graph)
                                         if allowed is None or r["id"] in allowed]})

    @app.post("/v1/repositories")
    def index_repo() -> Response:
        args = _json_body(ENDPOINTS["repos_index"])
        if allowed_repos() is not None:
            raise Forbidden("this token may not index repositories")
        job = ctx.jobs.submit(args["path"], args.get("name"), ctx.config.index_roots)
        resp = jsonify(job.to_dict())
        resp.status_code = 202
        resp.headers["Location"] = f"/v1/jobs/{job.id}"
        return resp

    @app.delete("/v1/repositories/<path:repo>")
    def delete_repo(repo: str) -> Response:
        if allowed_repos() is not None:
            raise Forbidden("this token may not delete repositories")
        rows = ctx.graph.run("repo_get", repo=repo)
        if not rows:
            raise NotFound(f"no indexed repository {repo!r}")
        deleted = ctx.jobs.delete(repo, rows[0]["repo"].get("root"), ctx.config.index_roots)
        return jsonify({"repo": repo, "deleted_nodes": deleted})

    @app.get("/v1/jobs/<job_id>")
    def job(job_id: str) -> Response:
        found = ctx.jobs.jobs.get(job_id)
        if found is None or (allowed_repos() is not None and found.name not in allowed_repos()):
            return _error(404, "not_found", f"no job {job_id!r}")
        return jsonify(found.to_dict())


# -- documents ----------------------------------------------------------------------------------------------------
_TYPES = {str: "string", int: "integer", bool: "boolean", float: "number", dict: "object", list: "array"}


def _schema(fields: dict[str, Field]) -> dict[str, Any]:
    props = {}
    for name, f in fields.items():
        p: dict[str, Any] = {"type": _TYPES.get(f.type, "string") if isinstance(f.type, type) else "string"}
        if f.description:
            p["description"] = f.description
        if f.minimum is not None:
            p["minimum"] = f.minimum
        if f.maximum is not None:
            p["maximum"] = f.maximum
        if f.max_length is not None:
            p["maxLength"] = f.max_length
        if f.min_length is not None or (f.required and f.type is str):
            p["minLength"] = f.min_length or 1
            if not f.blank and not f.pattern:
                p["pattern"] = r"\S"      # spaces alone are refused as empty
        if not f.required and f.nullable:
            p["nullable"] = True   # null means "not given"
        if f.choices:
            p["enum"] = list(f.choices) + ([None] if p.get("nullable") else [])   # OpenAPI 3.0: null listed too
        if f.pattern:
            p["pattern"] = f.pattern
        props[name] = p
    schema: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    required = [n for n, f in fields.items() if f.required]
    if required:
        schema["required"] = required
    return schema


# What each route can answer besides its success, and why: the handlers' statuses, nothing they cannot return.
# Every /v1 route: 401 (tokens), 409 (the graph was written by another schema version) and 503 (Neo4j away).
_V1 = {"401": "Missing or invalid token",
       "409": "The graph was written by another schema version: reindex",
       "503": "Neo4j unavailable; retry later"}
_BODY = {"400": "Invalid input", "413": "Request too large"}
_READER = {"403": "The token may not read that repository (or must name one)"}
_ONE_REPO_409 = "No 'repo' given and several repositories are indexed, or the graph was written by another schema " \
                "version: reindex"
_NOT_INDEXED = "The repository is not indexed (or no run of it has completed yet)"
RESPONSES: dict[str, tuple[str, dict[str, str]]] = {
    "healthz": ("200", {}),
    "readyz": ("200", {"503": "Not ready: Neo4j unreachable or the schema mismatched; retry later"}),
    "search": ("200", {**_V1, **_BODY, **_READER, "404": _NOT_INDEXED}),
    "ask": ("200", {**_V1, **_BODY, **_READER, "404": _NOT_INDEXED,
                    "500": "The server's LLM settings are invalid (code bad_config; `serve` refuses to start "
                           "with them)",
                    "502": "The LLM answered, but not usably (key rejected, bad request, malformed reply)",
                    "503": "Neo4j or the LLM unavailable, or every answer slot waiting on the LLM (busy); "
                           "retry later, or ask with llm=false"}),
    "paths": ("200", {**_V1, **_BODY, **_READER, "409": _ONE_REPO_409,
                      "404": "The repository, or a symbol or file named in 'source' / 'target', is not indexed "
                             "(or no run of the repository has completed yet)"}),
    "impact": ("200", {**_V1, **_BODY, **_READER, "409": _ONE_REPO_409,
                       "404": "The repository, or the symbol or file named in 'target', is not indexed (or no "
                              "run of the repository has completed yet)"}),
    "repos_list": ("200", _V1),
    "repos_index": ("202", {**_V1, **_BODY, "403": "Indexing over the API is off, the path is outside the "
                                                   "directories this server may index, or the token is limited "
                                                   "to repositories",
                            "409": "The name is taken by a repository indexed from another directory, or a job is "
                                   "indexing that repository already"}),
    "repos_delete": ("200", {**_V1, "403": "Deleting over the API is off, the repository was indexed from outside "
                                           "the directories this server may index, or the token is limited to "
                                           "repositories",
                             "404": "The repository is not indexed", "409": "A job is indexing the repository"}),
    "job": ("200", {**_V1, "404": "No such job (or not one this token may see)"}),
    "symbol": ("200", {**_V1, **_READER, "404": "No such symbol"}),
    "source": ("200", {**_V1, **_READER, "400": "Invalid input: a bad path or line range",
                       "404": "The repository or the file is not indexed",
                       "409": _ONE_REPO_409 + "; or the indexed commit is no longer in the repository (code "
                                              "commit_missing: re-index it); or, in a repository indexed from a "
                                              "plain directory, the file changed or went away on disk since (code "
                                              "source_changed: re-index it)"}),
}


def openapi_document() -> dict[str, Any]:
    error = {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "field": {"type": "string"}}}}}
    paths: dict[str, Any] = {}
    for name, ep in ENDPOINTS.items():
        path = ep.path.replace("<path:", "{").replace("<", "{").replace(">", "}")
        success, errors = RESPONSES[name]
        responses: dict[str, Any] = {success: {"description": "Job accepted" if success == "202" else "OK",
                                               "content": {"application/json": {"schema": RESPONSE_SCHEMAS[name]}}}}
        for status, description in sorted(errors.items()):
            # /readyz answers 503 with its checks, not an error
            schema = RESPONSE_SCHEMAS["readyz"] if name == "readyz" else error
            responses[status] = {"description": description, "content": {"application/json": {"schema": schema}}}
        op: dict[str, Any] = {"operationId": name, "summary": ep.summary, "responses": responses}
        if name in ("healthz", "readyz"):
            op["security"] = []
        params = [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
                  for p in _path_params(ep.path)]
        params += [{"name": n, "in": "query", "required": f.required, "schema": _schema({n: f})["properties"][n]}
                   for n, f in ep.query.items()]
        if params:
            op["parameters"] = params
        if ep.body:
            body_schema = _schema(ep.body)
            if ep.one_of_required:
                body_schema["oneOf"] = [{"required": [f]} for f in ep.one_of_required]
            op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body_schema}}}
        paths.setdefault(path, {})[ep.method.lower()] = op
    return {"openapi": "3.0.3",
            "info": {"title": "graphrag-code", "version": __version__,
                     "description": "Code-graph RAG over Neo4j with file:line provenance."},
            "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
            "security": [{"bearer": []}], "paths": paths}


def _path_params(path: str) -> list[str]:
    return [seg.strip("<>").split(":")[-1] for seg in path.split("/") if seg.startswith("<")]


def index_html(base: str, auth: bool = True) -> str:
    """The API's home page: every endpoint with a curl line to paste (the token header only when tokens are
    required; double quotes so that the shell expands $TOKEN)."""
    rows = []
    token = 'curl -H "Authorization: Bearer $TOKEN"' if auth else "curl"
    for ep in ENDPOINTS.values():
        path = ep.path.replace("<path:symbol_id>", "REPO:src/app.py%23main").replace("<job_id>", "JOB_ID")
        path = path.replace("<path:repo>", "REPO")
        if ep.method == "GET":
            url = f"{base}{path}" + ("?path=src/app.py&start=1&end=20" if ep.query else "")
            curl = f"{token} '{url}'"
        elif ep.method == "DELETE":
            curl = f"{token} -X DELETE '{base}{path}'"
        else:
            body = json.dumps(ep.example or {})
            curl = f"{token} -H 'Content-Type: application/json' -d '{body}' {base}{path}"
        rows.append(f"<tr><td><code>{ep.method} {ep.path}</code></td><td>{ep.summary}</td><td><pre>{curl}</pre></td></tr>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>graphrag-code API</title></head><body>"
            "<h1>graphrag-code API</h1><p>OpenAPI: <a href='/openapi.json'>/openapi.json</a>. Errors are "
            "<code>{error: {code, message, field}}</code>.</p><table border='1' cellpadding='4'>"
            + "".join(rows) + "</table></body></html>")
