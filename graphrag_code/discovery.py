"""Which files of a repository get indexed, at which commit, and why the others do not.

Two kinds of source:

* **Git work tree** – the files come from ``git ls-tree`` of a commit, never from the work tree, so every
  path and line we cite exists at that commit. Uncommitted edits are not indexed; ``Snapshot.dirty`` says
  there are some so the CLI can warn. When ``root`` is the repository's top level the whole tree is
  indexed; when it is a subdirectory, only that subtree is, with paths relative to ``root``. A
  subdirectory that the enclosing repository does not track at HEAD (a project inside a dotfiles repo
  in ``$HOME``, an untracked folder) is read as a plain directory instead. A bare repository has no work tree
  and is refused (InputError): read as a directory it gave git's internal files and nothing to index.
* **Plain directory** – the tree on disk, honouring ``.gitignore`` files at every level. Blob ids are
  git's blob SHA-1, so they match what git would give for the same content.

Every file not indexed gets a ``Skip`` with a reason from ``SKIP_REASONS`` – except what ``.gitignore``
excludes, which is not part of the repository. Vendored and generated *directories* are reported once,
as a path ending in ``/``. Checks that need the bytes (``content_skip_reason``) are run by the indexer
after ``SourceReader.read``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import IO, Iterator
from urllib.parse import urlsplit, urlunsplit

import pathspec

from graphrag_code.config import DEFAULT_MAX_FILE_BYTES
from graphrag_code.errors import InputError, SourceError, SourceMoved
from graphrag_code.languages import language_for_path

SKIP_REASONS: dict[str, str] = {
    "vendored": "third-party code checked into the repository",
    "generated": "generated code (by path or by a 'generated' marker)",
    "minified": "minified or bundled JavaScript/CSS",
    "lockfile": "dependency lock file",
    "too-large": "larger than the max_file_bytes limit",
    "binary-type": "binary file by extension",
    "binary": "binary content (NUL byte near the start)",
    "secret-file": "file that usually holds credentials; never read",
    "unsupported": "an extension we neither parse nor chunk",
    "symlink": "symbolic link; never followed",
    "submodule": "git submodule; index it as its own repository",
    "unreadable": "could not be read, or not a regular file",
    "undecodable-path": "a file name that is not UTF-8: Neo4j stores text only (reported with \\x escapes)",
    "lfs-pointer": "a Git LFS pointer: the file's content is stored outside git (run `git lfs pull` first)",
}

# ---------------------------------------------------------------------------------------------------------
# Path rules

VENDORED_DIRS = frozenset({"vendor", "node_modules", "third_party", "bower_components", ".venv", "venv",
                           "site-packages", "Pods"})
GENERATED_DIRS = frozenset({"dist", "build", "target", "out", "__generated__"})
_VCS_DIRS = frozenset({".git", ".hg", ".svn"})
GENERATED_SUFFIXES = (".pb.go", "_pb2.py", "_pb2.pyi", "_pb2_grpc.py", ".pb.cc", ".pb.h", ".g.dart",
                      ".designer.cs")
MINIFIED_SUFFIXES = (".min.js", ".min.mjs", ".min.css", ".bundle.js", "-min.js")
LOCKFILE_NAMES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                            "poetry.lock", "pipfile.lock", "cargo.lock", "go.sum", "composer.lock",
                            "gemfile.lock", "uv.lock", "bun.lockb"})
BINARY_EXTENSIONS = frozenset("""
    .png .jpg .jpeg .gif .bmp .ico .icns .webp .tif .tiff .psd .heic .avif .xcf
    .zip .tar .gz .tgz .bz2 .xz .7z .rar .zst .lz4 .jar .war .ear .whl .egg .apk .ipa .deb .rpm .dmg .iso
    .woff .woff2 .ttf .otf .eot
    .mp3 .mp4 .m4a .wav .ogg .flac .aac .avi .mov .mkv .webm .wmv
    .pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods
    .so .dylib .dll .exe .a .o .obj .lib .class .pyc .pyo .pyd .wasm .bin
    .sqlite .sqlite3 .db .mdb .npy .npz .pkl .pickle .parquet .h5 .hdf5 .onnx .pt .pth .safetensors
""".split())
SECRET_NAMES = frozenset({".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".npmrc", ".pypirc",
                          "credentials.json", ".netrc", ".git-credentials", ".htpasswd"})
SECRET_EXTENSIONS = frozenset({".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".ppk"})


@dataclass(frozen=True)
class SourceFile:
    path: str            # posix, relative to the snapshot root
    blob: str            # git blob SHA-1 of the content
    size: int
    language: str        # from languages.language_for_path; files without one are skipped


@dataclass(frozen=True)
class Skip:
    path: str            # a file, or a directory ending in "/"
    reason: str          # a key of SKIP_REASONS
    detail: str = ""

    def __post_init__(self) -> None:
        # a name that is not UTF-8 (kept by surrogateescape) could not be printed or stored: show its bytes
        object.__setattr__(self, "path", printable_path(self.path))


def printable_path(path: str) -> str:
    """``path`` with the bytes of a name that is not UTF-8 as ``\\xe9`` escapes (unchanged when it is UTF-8)."""
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass
class Snapshot:
    root: Path
    is_git: bool
    commit: str | None           # full SHA of the indexed commit; None for a plain directory
    snapshot_id: str             # the commit, or a short hash over (path, blob) of the files
    branch: str | None = None
    remote_url: str | None = None
    dirty: bool = False          # the work tree has uncommitted changes to tracked files (not indexed)
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)

    def skip_counts(self) -> dict[str, int]:
        return dict(Counter(s.reason for s in self.skipped))


def _skipped_dir(parts: tuple[str, ...], include_generated: bool) -> tuple[int, str] | None:
    """(index of the first skipped directory component, reason), looking at directories only."""
    for i, part in enumerate(parts):
        if part in VENDORED_DIRS:
            return i, "vendored"
        if not include_generated and part in GENERATED_DIRS:
            return i, "generated"
    return None


def path_skip_reason(path: str, size: int | None, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
                     include_generated: bool = False) -> tuple[str, str] | None:
    """(reason, detail) when a regular file is not indexed because of its path or size, else None."""
    if printable_path(path) != path:
        return "undecodable-path", "file name is not UTF-8"
    p = PurePosixPath(path)
    hit = _skipped_dir(p.parts[:-1], include_generated)
    if hit:
        return hit[1], "/".join(p.parts[: hit[0] + 1]) + "/"
    name = p.name.lower()
    suffix = p.suffix.lower()
    if name in SECRET_NAMES or name.startswith(".env.") or suffix in SECRET_EXTENSIONS:
        return "secret-file", "may hold credentials; not read"
    if name in LOCKFILE_NAMES or suffix == ".lock":
        return "lockfile", ""
    if not include_generated and name.endswith(GENERATED_SUFFIXES):
        return "generated", "generated file name"
    if name.endswith(MINIFIED_SUFFIXES):
        return "minified", "minified file name"
    if suffix in BINARY_EXTENSIONS:
        return "binary-type", suffix
    if language_for_path(path) is None:
        return "unsupported", suffix or "no extension"
    if size is not None and size > max_file_bytes:
        return "too-large", f"{size} bytes > limit {max_file_bytes}"
    return None


# ---------------------------------------------------------------------------------------------------------
# Content rules

_GENERATED_MARKER = re.compile(
    rb"Code generated .{0,200}DO NOT EDIT|@generated|<auto-generated|autogenerated by|auto-generated by"
    rb"|This file was automatically generated|This file is automatically generated",
    re.IGNORECASE,
)
_MINIFIABLE_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".css", ".json"})


def content_skip_reason(path: str, data: bytes, *, include_generated: bool = False) -> tuple[str, str] | None:
    """(reason, detail) when the bytes show a file should not be indexed: binary, minified, generated."""
    if b"\0" in data[:8192]:
        return "binary", "NUL byte in the first 8 KiB"
    if len(data) < 1024 and data.startswith(b"version https://git-lfs.github.com/spec/"):
        return "lfs-pointer", "content not fetched"      # indexed as code, it was one of "syntax errors"
    if PurePosixPath(path).suffix.lower() in _MINIFIABLE_SUFFIXES:
        lines = data.count(b"\n") + 1
        longest = max(len(line) for line in data.split(b"\n"))
        if longest > 1000 and len(data) / lines > 300:
            return "minified", f"longest line {longest} chars"
    if not include_generated:
        head = b"\n".join(data[:1024].split(b"\n")[:5])
        marker = _GENERATED_MARKER.search(head)
        if marker:
            return "generated", marker.group().decode("utf-8", "replace")[:80]
    return None


def decode(data: bytes) -> tuple[str, bool]:
    """UTF-8 text without a BOM, and whether invalid bytes were replaced by U+FFFD (same line count). A file
    whose lines all end in a lone CR (classic Mac OS) gets LFs: tree-sitter and every line count here break
    lines at LF only, and such a file was one line whose symbols were all 1-1. A CR in a file that has LFs
    stays content (same length either way, so byte offsets hold)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data and b"\n" not in data:
        data = data.replace(b"\r", b"\n")
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        # "replace" never swallows an ASCII byte, so newlines and thus line numbers are kept.
        return data.decode("utf-8", "replace"), True


class OffsetMap:
    """Byte offsets in the text the indexer parsed back to offsets in the file's own bytes (the blob).

    The parsed text is the file without its BOM, with secrets redacted and invalid bytes as U+FFFD: all three
    keep the lines but move the bytes after them. A line that differs is aligned by what it shares with the
    original at its start and end (one redaction or invalid sequence per line is exact; an offset inside a
    replaced part goes to that part's start, or with ``end`` to its end)."""

    def __init__(self, original: bytes, parsed: bytes) -> None:
        self.bom = 3 if original.startswith(b"\xef\xbb\xbf") else 0
        body = original[self.bom:]
        if b"\r" in body and b"\n" not in body:
            body = body.replace(b"\r", b"\n")       # as decode() does: same length
        self.same = body == parsed
        if not self.same:
            self.parsed, self.original = parsed.split(b"\n"), body.split(b"\n")
            self.starts = _line_starts(self.parsed)
            self.original_starts = _line_starts(self.original)
        # lines that do not pair up (never, as every change keeps them): the BOM's shift alone
        self.shift_only = self.same or len(self.parsed) != len(self.original)

    @property
    def identity(self) -> bool:
        return self.same and not self.bom

    def __call__(self, offset: int, end: bool = False) -> int:
        if self.shift_only:
            return self.bom + offset
        i = bisect_right(self.starts, offset) - 1
        p, o, col = self.parsed[i], self.original[i], offset - self.starts[i]
        if p != o:
            prefix = len(os.path.commonprefix([p, o]))
            suffix = min(len(os.path.commonprefix([p[::-1], o[::-1]])), min(len(p), len(o)) - prefix)
            if col >= len(p) - suffix:
                col = len(o) - (len(p) - col)
            elif col > prefix:
                col = len(o) - suffix if end else prefix
        return self.bom + self.original_starts[i] + col


def _line_starts(lines: list[bytes]) -> list[int]:
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    return starts


def git_blob_sha(data: bytes) -> str:
    """The id git gives a blob with this content (``git hash-object``)."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------------------
# Git

def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    # An inherited GIT_DIR/GIT_WORK_TREE (e.g. when run from a git hook) would point git at another repo.
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"):
        env.pop(name, None)
    env["GIT_OPTIONAL_LOCKS"] = "0"   # `git status` must not take the index lock of a repo someone edits
    env["LC_ALL"] = "C"
    return env


def _git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    try:
        proc = subprocess.run(["git", *args], cwd=cwd, env=_git_env(), capture_output=True, check=False)
    except OSError as exc:
        raise SourceError(f"could not run git in {cwd}: {exc}", hint="install git and put it on PATH") from exc
    if check and proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip()
        raise SourceError(f"git {' '.join(args[:2])} failed in {cwd}: {err}")
    return proc


def _out(proc: subprocess.CompletedProcess[bytes]) -> str:
    return proc.stdout.decode("utf-8", "surrogateescape").strip()


def _git_prefix(root: Path) -> str | None:
    """root's path inside its git work tree ("" at the top level, "sub/dir/" below), or None if not in one."""
    if shutil.which("git") is None:
        if (root / ".git").exists():
            raise SourceError(f"{root} is a git repository but git is not installed", hint="install git")
        return None
    proc = _git(root, "rev-parse", "--is-inside-work-tree", "--show-prefix", check=False)
    if b"dubious ownership" in proc.stderr:
        # Reading it as a plain directory would silently index uncommitted files instead: stop and say why.
        raise SourceError(f"git refuses to read {root}: the repository belongs to another user",
                          hint=f"git config --global --add safe.directory {root}")
    lines = _out(proc).splitlines()
    if proc.returncode == 0 and lines and lines[0] == "false":
        _refuse_bare(root)
    if proc.returncode != 0 or not lines or lines[0] != "true":
        return None
    return lines[1] if len(lines) > 1 else ""


def _refuse_bare(root: Path) -> None:
    """InputError when root is (inside) a bare repository: read as a plain directory it gave git's own files
    (objects, refs, hooks), all skipped, and an empty index that looked like success."""
    lines = _out(_git(root, "rev-parse", "--is-bare-repository", "--absolute-git-dir", check=False)).splitlines()
    if len(lines) == 2 and lines[0] == "true":
        git_dir = Path(lines[1])
        where = "is a bare git repository" if git_dir == root else f"is inside the bare git repository {git_dir}"
        raise InputError(f"{root} {where}: it has no working tree to index",
                         hint=f"clone it (git clone {git_dir} DIR), then index DIR")


def _resolve_commit(root: Path, rev: str, prefix: str) -> str | None:
    """The commit SHA for rev, or None when a subdirectory root is not tracked at HEAD (read it as a dir)."""
    proc = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    if proc.returncode != 0:
        if rev == "HEAD" and prefix:
            return None
        if rev == "HEAD":
            raise SourceError(f"the git repository at {root} has no commits yet",
                              hint="commit the files first (git add -A && git commit), then index again")
        raise SourceError(f"unknown revision {rev!r} in {root}", hint="pass a branch, tag or commit SHA")
    commit = _out(proc)
    if prefix and _git(root, "cat-file", "-e", f"{commit}:{prefix}", check=False).returncode != 0:
        if rev == "HEAD":
            return None
        raise SourceError(f"{prefix} does not exist at {rev} in {root}")
    return commit


def _branch(root: Path, rev: str) -> str | None:
    ref = _out(_git(root, "rev-parse", "--symbolic-full-name", rev, check=False))
    return ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None


def _remote_url(root: Path) -> str | None:
    proc = _git(root, "remote", "get-url", "origin", check=False)
    url = _out(proc)
    if proc.returncode != 0 or not url:
        return None
    parts = urlsplit(url)
    if parts.scheme and "@" in parts.netloc:
        # https://user:token@host/... – the credentials must not reach the graph.
        parts = parts._replace(netloc=parts.netloc.rsplit("@", 1)[1])
        url = urlunsplit(parts)
    return url


def _ls_tree(root: Path, tree: str) -> Iterator[tuple[str, str, str, int | None]]:
    """(mode, object SHA, path, size) of every entry of a tree, recursively."""
    out = _git(root, "ls-tree", "-r", "-l", "-z", "--full-tree", tree).stdout
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, _kind, sha, size = meta.split()
        yield (mode.decode(), sha.decode(), raw_path.decode("utf-8", "surrogateescape"),
               None if size == b"-" else int(size))


def _git_snapshot(root: Path, commit: str, prefix: str, rev: str, max_file_bytes: int,
                  include_generated: bool) -> Snapshot:
    head = _out(_git(root, "rev-parse", "--verify", "--quiet", "HEAD", check=False))
    # The work tree only matters when we index what it was checked out from.
    dirty = head == commit and bool(_git(root, "status", "--porcelain", "--untracked-files=no",
                                         "--ignore-submodules=all", "--", ".").stdout.strip())
    snap = Snapshot(root=root, is_git=True, commit=commit, snapshot_id=commit, branch=_branch(root, rev),
                    remote_url=_remote_url(root), dirty=dirty)
    dir_skips: dict[str, tuple[str, int]] = {}
    tree = f"{commit}:{prefix}" if prefix else commit
    for mode, sha, path, size in _ls_tree(root, tree):
        if mode == "160000":
            snap.skipped.append(Skip(path, "submodule", f"commit {sha}"))
            continue
        hit = _skipped_dir(PurePosixPath(path).parts[:-1], include_generated)
        if hit:  # one Skip per vendored/generated directory, not one per file in it
            top = "/".join(PurePosixPath(path).parts[: hit[0] + 1]) + "/"
            reason, count = dir_skips.get(top, (hit[1], 0))
            dir_skips[top] = (reason, count + 1)
        elif mode == "120000":
            snap.skipped.append(Skip(path, "symlink", "symbolic link"))
        elif (why := path_skip_reason(path, size, max_file_bytes=max_file_bytes,
                                      include_generated=include_generated)):
            snap.skipped.append(Skip(path, *why))
        else:
            snap.files.append(SourceFile(path, sha, size or 0, language_for_path(path) or ""))
    snap.skipped += [Skip(d, reason, f"directory of {n} file{'s' if n != 1 else ''}")
                     for d, (reason, n) in dir_skips.items()]
    snap.files.sort(key=lambda f: f.path)
    snap.skipped.sort(key=lambda s: s.path)
    return snap


# ---------------------------------------------------------------------------------------------------------
# Plain directory

class _Ignores:
    """The .gitignore files met while walking down, applied like git: the deepest match wins."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []   # (directory prefix "a/b/", spec)

    def add(self, prefix: str, gitignore: Path) -> None:
        try:
            lines = gitignore.read_text("utf-8", "replace").splitlines()
        except OSError:
            return
        self._specs.append((prefix, pathspec.GitIgnoreSpec.from_lines(lines)))

    def ignored(self, rel: str, is_dir: bool) -> bool:
        result = False
        for prefix, spec in self._specs:
            if rel.startswith(prefix):
                include = spec.check_file(rel[len(prefix):] + ("/" if is_dir else "")).include
                if include is not None:
                    result = include
        return result


def _dir_snapshot(root: Path, max_file_bytes: int, include_generated: bool) -> Snapshot:
    snap = Snapshot(root=root, is_git=False, commit=None, snapshot_id="")
    ignores = _Ignores()
    pending = [""]
    while pending:
        prefix = pending.pop()
        directory = root / prefix if prefix else root
        if (directory / ".gitignore").is_file():
            ignores.add(prefix, directory / ".gitignore")
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            snap.skipped.append(Skip(prefix or "./", "unreadable", exc.strerror or str(exc)))
            continue
        for entry in entries:
            rel = prefix + entry.name
            if entry.name in _VCS_DIRS:
                continue
            if entry.is_symlink():   # never followed: it may point out of the root
                if not ignores.ignored(rel, False):
                    snap.skipped.append(Skip(rel, "symlink", f"-> {os.readlink(entry.path)}"))
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if ignores.ignored(rel, is_dir):
                continue
            if is_dir:
                hit = _skipped_dir((entry.name,), include_generated)
                if hit:
                    snap.skipped.append(Skip(rel + "/", hit[1], "directory"))
                else:
                    pending.append(rel + "/")
                continue
            _add_dir_file(snap, entry, rel, max_file_bytes, include_generated)
    snap.files.sort(key=lambda f: f.path)
    snap.skipped.sort(key=lambda s: s.path)
    digest = hashlib.sha1(b"".join(f"{f.path}\0{f.blob}\n".encode("utf-8", "surrogateescape")
                                   for f in snap.files))
    snap.snapshot_id = digest.hexdigest()[:16]
    return snap


def _add_dir_file(snap: Snapshot, entry: os.DirEntry[str], rel: str, max_file_bytes: int,
                  include_generated: bool) -> None:
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError as exc:
        snap.skipped.append(Skip(rel, "unreadable", exc.strerror or str(exc)))
        return
    if not stat.S_ISREG(st.st_mode):
        snap.skipped.append(Skip(rel, "unreadable", "not a regular file"))
        return
    why = path_skip_reason(rel, st.st_size, max_file_bytes=max_file_bytes, include_generated=include_generated)
    if why:
        snap.skipped.append(Skip(rel, *why))
        return
    try:
        data = Path(entry.path).read_bytes()
    except OSError as exc:
        snap.skipped.append(Skip(rel, "unreadable", exc.strerror or str(exc)))
        return
    snap.files.append(SourceFile(rel, git_blob_sha(data), len(data), language_for_path(rel) or ""))


# ---------------------------------------------------------------------------------------------------------

def snapshot(root: Path, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, include_generated: bool = False,
             rev: str = "HEAD") -> Snapshot:
    """The files to index under root, the skipped ones with their reasons, and the commit they come from."""
    root = Path(root).expanduser()
    if not root.is_dir():
        raise InputError(f"{root} is not a directory", hint="pass the path of a repository checkout")
    root = root.resolve()
    prefix = _git_prefix(root)
    commit = _resolve_commit(root, rev, prefix) if prefix is not None else None
    if commit is None:
        if rev != "HEAD":
            raise SourceError(f"{root} is not a git work tree, so rev={rev!r} cannot be used")
        return _dir_snapshot(root, max_file_bytes, include_generated)
    return _git_snapshot(root, commit, prefix or "", rev, max_file_bytes, include_generated)


class SourceReader:
    """Reads the bytes of snapshot files: through one ``git cat-file --batch`` process for git, from disk otherwise.

    Use as a context manager (or call ``close``). ``read`` is thread-safe; git reads are serialized.
    """

    def __init__(self, snap: Snapshot) -> None:
        self._snap = snap
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> "SourceReader":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def read(self, file: SourceFile) -> bytes:
        if self._snap.is_git:
            with self._lock:
                return self._read_blob(file)
        return self._read_disk(file)

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def _start(self) -> subprocess.Popen[bytes]:
        # stderr goes to a file: a pipe nobody drains could fill up and stall git.
        self._stderr = tempfile.TemporaryFile()
        try:
            return subprocess.Popen(["git", "cat-file", "--batch"], cwd=self._snap.root, env=_git_env(),
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
        except OSError as exc:
            raise SourceError(f"could not start git cat-file in {self._snap.root}: {exc}") from exc

    def _git_failure(self, file: SourceFile, what: str) -> SourceError:
        err = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            err = self._stderr.read().decode("utf-8", "replace").strip()
        self.close()
        return SourceError(f"reading {file.path} (blob {file.blob}) from git failed: {what}"
                           + (f": {err}" if err else ""))

    def _read_blob(self, file: SourceFile) -> bytes:
        if self._proc is None:
            self._proc = self._start()
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(file.blob.encode("ascii") + b"\n")
            stdin.flush()
            header = stdout.readline()
        except (OSError, ValueError) as exc:
            raise self._git_failure(file, str(exc)) from exc
        parts = header.split()
        if len(parts) == 2 and parts[1] == b"missing":
            raise self._git_failure(file, "object missing")
        if len(parts) != 3 or parts[1] != b"blob":
            raise self._git_failure(file, f"unexpected reply {header[:100]!r}")
        size = int(parts[2])
        data = stdout.read(size)
        if len(data) != size or stdout.read(1) != b"\n":
            raise self._git_failure(file, "truncated reply")
        return data

    def _read_disk(self, file: SourceFile) -> bytes:
        path = self._snap.root / file.path
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as fh:
                data = fh.read()
        except FileNotFoundError as exc:
            raise SourceMoved(f"{file.path} was deleted after the snapshot was taken (from {self._snap.root})",
                              hint="index again once the files stop changing") from exc
        except OSError as exc:
            raise SourceError(f"could not read {path}: {exc.strerror or exc}") from exc
        # Lines we cite must be the ones we hashed: a file edited since the snapshot is an error, not a guess.
        if git_blob_sha(data) != file.blob:
            raise SourceMoved(f"{file.path} changed since the snapshot was taken",
                              hint="index again once the files stop changing")
        return data
