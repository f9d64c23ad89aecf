"""The one exception tree of graphrag-code.

Third-party errors (neo4j driver, tree-sitter, git, subprocess) are translated into these at the boundary
where they happen; the CLI maps them to exit codes and the API to HTTP statuses, each in one place.

    GraphragError                     base; ``exit_code`` and ``http_status`` say how front ends report it
    ├── ConfigError                   bad settings or arguments (exit 2; HTTP 500, the server's settings)
    │   └── InputError                malformed user input: a path that is not there, a bad option value (HTTP 400)
    │       ├── NotFound              a repository, symbol or file the graph does not hold (HTTP 404)
    │       └── Ambiguous             the request fits several things the graph holds: name one (HTTP 409)
    ├── QueryFileError                a .cypher or .scm file is malformed, or a call passes the wrong parameters
    ├── DatabaseError                 Neo4j failed (exit 3, HTTP 503)
    │   ├── DatabaseUnavailable       Neo4j cannot be reached: start it or check NEO4J_URI
    │   ├── SchemaMismatch            the graph was written by another schema / model version: reindex
    │   └── TransactionTooLarge       the server refused a transaction over its memory limit
    ├── LauncherError                 the local Neo4j could not be fetched, started or stopped
    ├── SourceError                   the repository could not be read (git failed, path missing)
    │   ├── CommitMissing             the indexed commit is gone from the repository: re-index (HTTP 409)
    │   └── SourceChanged             a plain directory's file changed on disk since it was indexed (HTTP 409)
    ├── Busy                          every answer slot of the API waits on the LLM (HTTP 503, retry later)
    ├── IndexingError                 indexing stopped; the previous graph of the repository is intact
    └── LLMError                      the LLM gave no usable answer: key rejected, bad request, malformed reply
        └── LLMUnavailable            no LLM to ask: key not set, unreachable, timed out, 429/5xx after retries
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import NoReturn


class GraphragError(Exception):
    """Base of every error graphrag-code raises on purpose."""

    exit_code = 1
    http_status = 500
    code = "internal_error"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  hint: {self.hint}" if self.hint else self.message


class ConfigError(GraphragError):
    exit_code = 2
    http_status = 500       # in the API a setting is the server's: the client can do nothing about it
    code = "bad_config"


class InputError(ConfigError):
    http_status = 400
    code = "bad_input"


class NotFound(InputError):
    http_status = 404
    code = "not_found"


class Ambiguous(InputError):
    """Valid on its face, but what it leaves out (e.g. the repository) has several answers in this graph."""

    http_status = 409
    code = "ambiguous"


class QueryFileError(GraphragError):
    code = "query_file"


class DatabaseError(GraphragError):
    exit_code = 3
    http_status = 503
    code = "database_error"


class DatabaseUnavailable(DatabaseError):
    code = "database_unavailable"


class SnapshotMoved(DatabaseError):
    """A swap committed under a read and deleted a node it was reading (Neo4j's EntityNotFound): read again."""
    code = "snapshot_moved"


class SchemaMismatch(DatabaseError):
    exit_code = 4
    http_status = 409
    code = "schema_mismatch"


class TransactionTooLarge(DatabaseError):
    """The server's transaction memory limit (dbms.memory.transaction.total.max) refused a transaction."""


class LauncherError(GraphragError):
    exit_code = 5
    code = "launcher_error"


class SourceError(GraphragError):
    exit_code = 2
    http_status = 400
    code = "source_error"


class CommitMissing(SourceError):
    """The commit a repository was indexed at is no longer in it (history rewritten, then garbage-collected).
    HTTP 409: the graph and the repository disagree; the request is fine, and re-indexing mends it."""

    http_status = 409
    code = "commit_missing"


class SourceChanged(SourceError):
    """A plain (non-git) repository's file changed or went away on disk since it was indexed (its lines now are
    not the indexed ones), or a git checkout moved away. HTTP 409, as CommitMissing: re-indexing mends it."""

    http_status = 409
    code = "source_changed"


class IndexingError(GraphragError):
    exit_code = 6
    code = "indexing_error"


class SourceMoved(IndexingError):
    """A file of a plain directory was deleted or edited while a run read it: the run stops (exit 6, an indexing
    failure, not bad input) and the next one, once the files stop changing, completes."""

    code = "source_moved"


class LLMError(GraphragError):
    """The Anthropic API answered but not usably: 401/403 (bad key), 400/404 (bad request or model), a
    malformed response. HTTP 502: the upstream we depend on failed."""

    exit_code = 7
    http_status = 502
    code = "llm_error"


class Busy(GraphragError):
    """The API is answering as many questions with the LLM as it allows at once (HTTP 503, Retry-After)."""

    http_status = 503
    code = "busy"


class LLMUnavailable(LLMError):
    """No LLM to ask: ANTHROPIC_API_KEY not set (when the LLM was required), the API unreachable, timed out, or
    still 429/5xx after the retries, or past the answer's deadline. HTTP 503: retry later or answer with --no-llm."""

    http_status = 503
    code = "llm_unavailable"


def check_text(value: str | None, what: str) -> str | None:
    """``value`` unchanged, or InputError (``field`` = ``what``) when it is not text UTF-8 can encode: lone
    surrogates, which undecodable command-line bytes become (\\xff -> \\udcff) and JSON escapes such as \\ud800
    make, would fail later inside the Neo4j driver, the tokenizer or git, reported as something else."""
    if value is None:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(value[exc.start])
        byte = f"an undecodable byte \\x{code - 0xDC00:02x}, or " if 0xDC80 <= code <= 0xDCFF else ""
        err = InputError(f"{what} is not valid UTF-8 text: \\u{code:04x} at character {exc.start + 1} ({byte}a "
                         f"lone surrogate)", hint="give text encoded as UTF-8")
        err.field = what
        raise err from None
    return value


def small_int(digits: str) -> int | None:
    """The number ``digits`` (optionally signed) writes, or None when it has more than 18 significant digits: no
    line, port or count needs that many, and Python reads no int of over 4,300 (a ValueError)."""
    return int(digits) if len(digits.lstrip("+-").lstrip("0")) <= 18 else None


def script_main(main: Callable[[], object]) -> NoReturn:
    """Run the ``main`` of an eval/ or bench/ script as the CLI runs a command: a GraphragError (Neo4j not
    running, a repository not indexed) ends it with ``error: ...`` on stderr and the error's exit code instead of
    a traceback. An int that ``main`` returns is the exit code; anything else (a report) exits 0."""
    try:
        result = main()
        code = result if isinstance(result, int) else 0
    except GraphragError as err:
        print(f"error: {err}", file=sys.stderr)
        code = err.exit_code
    raise SystemExit(code)

