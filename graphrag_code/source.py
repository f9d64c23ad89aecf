"""Read indexed source back: the exact lines of a file at the commit the repository was indexed at."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

from . import secrets
from .discovery import decode, git_blob_sha
from .errors import CommitMissing, InputError, SourceChanged, SourceError


_REINDEX = "re-index the repository: `graphrag-code index` or POST /v1/repositories"


def is_safe_relative(path: str) -> bool:
    """Relative, no `..` or `.` segments, no NULs: safe to hand to the filesystem or git. A backslash is a
    separator only where the OS makes it one (Windows); elsewhere it is a character git allows in a name, and
    such an indexed file was cited as an "unsafe path" and refused by /v1/source (ninth QA pass)."""
    p = PurePosixPath(path)
    return bool(path) and not p.is_absolute() and ("\\" not in path or os.sep == "/") and "\x00" not in path \
        and all(part not in ("..", ".") for part in p.parts)


def safe_relative(path: str) -> str:
    """``path`` normalised, or InputError when it is not ``is_safe_relative``."""
    if not is_safe_relative(path):
        raise InputError(f"bad path {path!r}: must be relative to the repository root, without '..' or '.'",
                         hint="e.g. src/app.py")
    return str(PurePosixPath(path))


def indexed_lines(data: bytes) -> list[str]:
    """A file's lines exactly as the indexer chunked them: secrets redacted over the whole file, decoded, split
    at line feeds. A final newline ends the last line rather than starting another (as the File node's ``lines``
    counts); a CRLF line keeps its carriage return, which the chunks' content hashes cover."""
    text, _ = decode(secrets.redact_bytes(data)[0])
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_file_at(root: str, commit: str | None, path: str) -> bytes:
    """The bytes of ``path`` at ``commit`` (git) or in the directory (plain repositories, no symlinks out).
    ``./`` makes git read the path relative to ``root``, which may be a subdirectory of the work tree."""
    path = safe_relative(path)
    if commit:
        proc = subprocess.run(["git", "-C", root, "show", f"{commit}:./{path}"], capture_output=True, timeout=30)
        if proc.returncode != 0:
            check_commit(root, commit)     # git's own message ("exists on disk, but not in <sha>") misleads then
            raise SourceError(f"{path} is not readable at {commit[:12]}: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout
    base = Path(root).resolve()
    target = (base / path)
    real = Path(os.path.realpath(target))
    if base not in real.parents or target.is_symlink():
        raise InputError(f"{path} resolves outside the repository")
    try:
        return real.read_bytes()
    except OSError as exc:
        raise SourceError(f"{path} is not readable: {exc.strerror}") from exc


def check_commit(root: str, commit: str) -> None:
    """CommitMissing when ``commit`` is no longer in the repository at ``root`` (history rewritten, then
    garbage-collected), as the citations of `ask` say."""
    proc = subprocess.run(["git", "-C", root, "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True,
                          timeout=30)
    if not Path(root).is_dir():     # the checkout moved or was deleted: git's "cannot change to" was a 400
        raise SourceChanged(f"the indexed checkout {root} is not there any more", hint=_REINDEX)
    if proc.returncode != 0:
        raise CommitMissing(f"the indexed commit {commit[:12]} is no longer in the repository at {root}",
                            hint=_REINDEX)


def lines_hash(lines: list[str], start: int, end: int) -> str | None:
    """sha1 of lines start..end joined by newlines (the chunk's content_hash), or None when out of range."""
    if start < 1 or end < start or end > len(lines):
        return None
    return hashlib.sha1("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


def same_text(lines: list[str], start: int, end: int, content_hash: str) -> bool:
    """Whether lines start..end are the indexed ones: the same hash, or the same once their carriage returns are
    dropped: a CRLF checkout of LF lines (`text eol=crlf`, core.autocrlf; git calls such a checkout clean), and a
    CRLF file's chunks, indexed without them since extractor 214."""
    if lines_hash(lines, start, end) == content_hash:
        return True
    part = lines[start - 1:end]
    return any(line.endswith("\r") for line in part) and \
        lines_hash([line.removesuffix("\r") for line in part], 1, len(part)) == content_hash


def _vouched(lines: list[str], chunks: list[dict[str, Any]], start: int, end: int) -> bool:
    """Whether every line of start..end lies in a chunk whose indexed content hash its current lines still have,
    or, blank, between chunks (no chunk held it when indexed: it was blank) above an unchanged chunk, or below
    one with none after it: unmoved (ninth QA pass: a blank line between two unchanged functions was a 409)."""
    spans = sorted((c["start_line"], c["end_line"], bool(c.get("content_hash")) and
                    same_text(lines, c["start_line"], c["end_line"], c["content_hash"])) for c in chunks)

    def ok(n: int) -> bool:
        if any(a <= n <= b for a, b, good in spans if good):
            return True
        if any(a <= n <= b for a, b, _good in spans) or n > len(lines) or lines[n - 1].strip():
            return False
        below = [good for a, _b, good in spans if a > n]
        return below[0] if below else any(good for _a, b, good in spans if b < n)
    return all(ok(n) for n in range(start, end + 1))


def read_lines(root: str, commit: str | None, path: str, start: int, end: int, blob: str | None = None,
               chunks: list[dict[str, Any]] | None = None) -> list[str]:
    """Lines start..end (1-based, inclusive) as indexed: decoded and with secrets redacted, without their line
    terminators (LF or CRLF). A plain directory has no commit to read the indexed file from: with the indexed
    ``blob`` (its content hash) given, a file that changed or went away since is SourceChanged, never other
    lines under the indexed coordinates."""
    if start < 1 or end < start:
        raise InputError(f"bad line range {start}-{end}")
    plain = commit is None and blob is not None     # no commit to read the indexed file at: compare its hash
    try:
        data = read_file_at(root, commit, path)
    except SourceError:
        if plain and not (Path(root) / safe_relative(path)).exists():
            raise SourceChanged(f"{path} is gone from {root} since it was indexed", hint=_REINDEX) from None
        raise
    lines = indexed_lines(data)
    # a changed file's lines still stand where the indexed chunks over them are unchanged (``chunks``: their
    # ranges and content hashes), as ask's citations are checked; all of them otherwise (eighth QA pass)
    if plain and git_blob_sha(data) != blob and not _vouched(lines, chunks or [], start, end):
        raise SourceChanged(f"{path} changed on disk since it was indexed, and so did lines {start}-{end} "
                            f"(or what they are indexed with)", hint=_REINDEX)
    if end > len(lines):
        raise InputError(f"{path} has {len(lines)} lines; asked for {start}-{end}")
    # every line but an unterminated last one ended in "\n": a "\r" before it was part of the terminator
    terminated = len(lines) if data.endswith(b"\n") else len(lines) - 1
    return [line.removesuffix("\r") if n <= terminated else line
            for n, line in enumerate(lines[start - 1:end], start)]
