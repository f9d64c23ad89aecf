"""Settings: defaults as named constants, overridable by environment variables and CLI options."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError, InputError, check_text
# the one parser of numeric settings: a value that is no number is a ConfigError naming the variable
from .llm import _env_number

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CYPHER_DIR = PROJECT_ROOT / "cypher"
QUERIES_DIR = Path(__file__).resolve().parent / "queries"

DEFAULT_NEO4J_URI = "bolt://127.0.0.1:7687"
ANSWER_SOURCES = 10     # sources `ask` retrieves unless told another number: the CLI's -k and the API's k
DEFAULT_NEO4J_USER = "neo4j"
DEFAULT_NEO4J_PASSWORD = "graphrag-code"
DEFAULT_BOLT_PORT = 7687
DEFAULT_HTTP_PORT = 7474
DEFAULT_STATE_DIR = PROJECT_ROOT / ".graphrag"

# Graph schema and extractor versions: bump the first when node/edge shapes change, the second when the
# extraction of the same file would give different symbols or edges. Either change means "reindex".
SCHEMA_VERSION = 1
EXTRACTOR_VERSION = 215     # 215: a review's mends: no external reason where a class of ours may answer; overload typing fixes; 214: a CRLF file's chunks hold lines without terminators; 213: eleventh QA pass: C++ out-of-line members in a namespace, overrides defined out of line; Rust module::Type::f(), Enum::Variant(); 212: TS string/number/boolean declare String/Number/Boolean; objects of JS global classes call their methods; 211: overloads: the fixed ones the arguments fit by type, else the variadic ones; arrays to varargs; 210: a receiver declared an array or a map calls the language's methods; 209: a test's parameter named as a pytest fixture is pytest's; 208: Go builtins and objects of imported packages' types are external; 207: C library functions of included headers and C++ std:: calls are external; 206: C# types of the System namespaces a file uses are external; string/object declare String/Object; nameof is no call; 205: Java/C# overloads of one arity told apart by what the arguments are; 204: why a call has no edge: a require declaring its name, Node's and the browser's global functions, a Python library beside a file of ours of its last name; 203: secrets: a relative file path after a password key is no password; 202: Rust use groups nested at any depth; a module receiver's type (`hir::Class::empty()`); a `use` of a re-exported name; 201: Ruby `new` in a class method makes an object of the class; 200: Ruby's own methods and classes are external:builtins; a Ruby module's call of a method it lacks is its includers'; `include Env` names the class's own module; 199: Java/C#/JS/TS constructors handing over (super(...), this(...), : base(...)) call; Java's java.lang names are external:java.lang; 198: a JS/TS decorator named without arguments is a call; 197: a review's mends (Ruby pattern bindings, PHP qualified catch types, JS/TS path aliases); 196: inside a Java/C#/C++ class its name is the class for a type lookup; 195: a C# using of a namespace of the repository imports its files; 194: a Ruby bare name is a call unless a local; 193: a Rust struct literal builds the struct, not its last impl; 192: C++ out-of-line members qualified by their whole scope, `using namespace`, C++ calling C; 191: secrets: URL passwords with a digit, connection-string passwords (tenth QA pass); 190: PHP catch variables typed by the class caught (resolution: why a call or base has no edge names the library or PHP's own); 189: PHP isset/empty/die are no call sites; 188: a call on calls typed a step at a time; long receivers elided; PHP arrows joined; 187: TS object literals declared of an interface implement its methods; 186: PHP narrowing on the right of && and ||, items of a subscripted array, @var above an assignment; 185: PHP doc-comment types (@param, @return, @var), self/static/parent returns, foreach items; 184: PHP untyped properties typed by what methods assign them, a property narrowed, narrowing in `?:`, dispatch below the narrowed class; 183: a method or attribute of a narrowed variable (`$v->f()->g()` after an assertInstanceOf); 182: PHP receivers typed by declared parameters, properties and return types; 181: --lsp: the overrides of an implemented abstract method the server left out, a property of the receiver's type; 180: PHP namespaced functions by `use function` and `\\Ns\\f()`; 179: Ruby class methods apart from instance methods of one name; 178: no receiver_name guess for a receiver declared a library type; 177: C# partial bases: INHERITS to every part; 176: symbol byte offsets into the blob; 175: calls in Rust macro arguments; 174: Ruby super calls; 173: TS member, C++ nested type visibility; 172: fifth QA pass (comments, C/C++, TS, exports)

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2-int8"
DEFAULT_EMBEDDING_DIM = 384
# the search rerankers (rerankers.make_reranker), named here so that the command line lists them without
# importing the search pipeline
RERANKERS = ("none", "structural", "cross-encoder", "llm")

DEFAULT_MAX_FILE_BYTES = 1_000_000
# counted as words and punctuation marks (about 1.5x a BPE count): ~1000 keeps most functions whole
DEFAULT_CHUNK_TOKENS = 1000
DEFAULT_WRITE_BATCH = 500


def check_repo_name(name: str) -> str:
    """``name`` if it can be a repository id, else InputError: node ids are ``repo:path#Qualified.name``, so a
    name may hold neither ':' nor '#'; it is also typed on command lines and shown in tables, so it has no control
    characters, no whitespace at either end and at most 200 characters ("org/repo" is fine, "." and ".." are not:
    URLs name it)."""
    check_text(name, "the repository name")      # a folder's name with an undecodable byte, when no --name
    if ":" in name or "#" in name:
        raise InputError(f"repository name {name!r} may not contain ':' or '#'")
    if not name.strip() or name != name.strip() or len(name) > 200 or not name.isprintable():
        raise InputError(f"repository name {name!r} must be 1-200 printable characters without whitespace at "
                         f"either end")
    if any(part in (".", "..") for part in name.split("/")):
        # /v1/repositories/<name>: HTTP clients resolve `.` and `..` away, so no client could name it there
        raise InputError(f"repository name {name!r} may not be (or have a /-part that is) '.' or '..'")
    return name


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return value if value else default


@dataclass(frozen=True)
class Neo4jSettings:
    uri: str = DEFAULT_NEO4J_URI
    user: str = DEFAULT_NEO4J_USER
    password: str = DEFAULT_NEO4J_PASSWORD
    database: str | None = None

    @classmethod
    def from_env(cls) -> "Neo4jSettings":
        return cls(
            uri=_env("NEO4J_URI", DEFAULT_NEO4J_URI),
            user=_env("NEO4J_USER", DEFAULT_NEO4J_USER),
            password=_env("NEO4J_PASSWORD", DEFAULT_NEO4J_PASSWORD),
            database=os.environ.get("NEO4J_DATABASE") or None,
        )

    @property
    def is_local_default(self) -> bool:
        """True when the URI points at the launcher's own server on this machine."""
        return self.uri in (DEFAULT_NEO4J_URI, "bolt://localhost:7687", "neo4j://127.0.0.1:7687",
                            "neo4j://localhost:7687")


@dataclass(frozen=True)
class IndexSettings:
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS
    write_batch: int = DEFAULT_WRITE_BATCH
    include_generated: bool = False
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_dim: int = DEFAULT_EMBEDDING_DIM
    # the language-server pass (lsp.py): () off; ("all",) every language whose server is installed; or names
    lsp_languages: tuple[str, ...] = ()
    lsp_budget_seconds: float = 1800.0
    lsp_request_timeout: float = 10.0
    lsp_call_hierarchy: bool = True       # one request per function where the server supports it
    # processes that parse changed files (staging.StagePool): None picks by cores and bytes to parse
    # (staging.auto_workers); 0 parses in the indexer's own process
    workers: int | None = field(default_factory=lambda: _env_workers())
    # A swap writing more than this many rows (staged nodes + edge and unresolved-list writes) is applied in
    # transactions of about swap_batch_rows each instead of one (which also bounds the deletes of staged nodes
    # a dead run left): a server refuses a transaction over its
    # dbms.memory.transaction.total.max (the local one: 1 GiB, a 470k-line repository's swap needs more).
    # See docs/design.md, "Swaps too large for one transaction".
    swap_max_rows: int = field(default_factory=lambda: _env_number("GRAPHRAG_SWAP_MAX_ROWS", 40000, int))
    swap_batch_rows: int = field(default_factory=lambda: _env_number("GRAPHRAG_SWAP_BATCH_ROWS", 10000, int))


def _env_workers() -> int | None:
    if not os.environ.get("GRAPHRAG_INDEX_WORKERS", "").strip():
        return None
    workers = _env_number("GRAPHRAG_INDEX_WORKERS", 0, int)
    if workers < 0:
        raise ConfigError(f"GRAPHRAG_INDEX_WORKERS={workers} is negative (0 parses in the indexer's process)")
    return workers


# a container's CPU limit (docker --cpus): cgroup v2's "quota period" file, or v1's two files
_CPU_MAX = Path("/sys/fs/cgroup/cpu.max")
_CFS_QUOTA, _CFS_PERIOD = Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us")


def available_cores() -> int:
    """The cores this process may use: its CPU affinity, bounded by a cgroup CPU quota (a container given two
    CPUs of a 16-core host may run on all 16, but only two at a time: four worker processes were slower there
    than one)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        if _CPU_MAX.exists():
            quota, period = _CPU_MAX.read_text().split()[:2]
        else:
            quota, period = _CFS_QUOTA.read_text().strip(), _CFS_PERIOD.read_text().strip()
        if quota not in ("max", "-1") and int(period) > 0:
            cores = min(cores, -(-int(quota) // int(period)))     # 1.5 CPUs: 2 processes
    except (OSError, ValueError):
        pass                                                   # no cgroup files: the affinity alone
    return max(1, cores)


@dataclass(frozen=True)
class Settings:
    neo4j: Neo4jSettings = field(default_factory=Neo4jSettings.from_env)
    index: IndexSettings = field(default_factory=IndexSettings)
    state_dir: Path = field(default_factory=lambda: Path(_env("GRAPHRAG_STATE_DIR", str(DEFAULT_STATE_DIR))))
