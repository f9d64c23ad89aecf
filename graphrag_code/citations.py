"""Checking an answer's citations: the application, not the model, says where code is.

An answer cites sources by number, ``[N]`` (also ``[1, 2]`` or ``[1][2]``), outside code spans and fences.

* **Validity** – every ``[N]`` must name a source that was given. ``check`` lists the unknown ones; the
  answer is regenerated once with that error, then ``remove_citations`` strips what is still unknown.
* **Claims** – a *claim* is a sentence of at least ``CLAIM_MIN_WORDS`` (6) words that is not the refusal
  sentence and not a heading. Sentences are cut at ``.``/``!``/``?`` followed by white space and at line
  breaks; a citation written right after the full stop (``… token. [2]``) belongs to the sentence before.
  Headings: Markdown ``#`` lines, lines that are wholly bold/italic, and lines ending in ``:`` (a lead-in
  like "The flow is as follows:"). Fenced code blocks are never claims. A claim without a citation is
  listed in ``uncited``.
* **Prose locations** – line numbers the model writes itself ("lines 10-20", "line 45", "app.py:45" for
  a file type we index, "L10-L20", "#L10") are not trusted and are listed in ``prose_locations``. Only the application's resolved
  citations carry locations.
* **Resolution** – a cited source becomes a ``Citation``: ``path:start–end (symbol)`` with a permalink
  pinned to the indexed commit (GitHub ``#L10-L20``, GitLab ``#L10-20``, Bitbucket ``#lines-10:20``; a
  ``file://`` link for other remotes, no remote and plain directories). Before it is shown the cited lines
  are re-read at the indexed commit (``git show <commit>:./<path>`` in ``Repository.root``; a plain
  directory: the file on disk), redacted exactly as the indexer redacted them, and their sha1 compared with
  the chunk's ``content_hash``. A mismatch or an unreadable file/commit is ``status: "stale"`` with a
  ``reason`` and its lines are never shown. For a git repository whose commit still matches, a working-tree
  file that differs at those lines (edited, rewritten, committed since, deleted) keeps ``status: "ok"`` (the
  cited lines are verified at the indexed commit) and sets ``worktree_changed``; the rendered text says the
  working tree differs and what the link shows: a forge permalink the indexed commit, a ``file://`` link the
  working tree (with the ``git show`` command for the indexed lines).

``citation_metrics(answers)`` gives the evaluation its two numbers: validity (share of rendered citations
with status ok, which must be 100%) and coverage (share of claim sentences with at least one valid citation).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, unquote, urlsplit

from .languages import language_for_path
from .source import indexed_lines, is_safe_relative, lines_hash, same_text

REFUSAL = "The retrieved code does not answer this question."
CLAIM_MIN_WORDS = 6

_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_CITE = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")      # any number of digits: [12345] names no source either
_CITE_RUN = re.compile(r"^(?:\s*\[\d+(?:\s*,\s*\d+)*\])+")
# markers that look like citations and cite no one source: a range [1-3], a negative [-1] (not an index such as
# items[-1], which follows a name or a bracket), superscript digits [¹]
_CITE_RANGE = re.compile(r"\[\d+\s*[-–]\s*\d+\]|(?<![\w\])])\[[-–−]\s*\d+\]|\[[⁰¹²³⁴⁵⁶⁷⁸⁹]+\]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[A-Za-z0-9_]+(?:['’][A-Za-z]+)?")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_PROSE_LOCATION = re.compile(
    r"\blines?\s+\d+(?:\s*(?:-|–|—|to|through|and)\s*\d+)?"               # line 45, lines 10-20
    r"|(?-i:(?<![\w/#])L\d+(?:\s*[-–]\s*L?\d+)?\b)"                      # L10, L10-L20 (not "l2 cache")
    r"|(?-i:#L\d+(?:-L?\d+)?)"                                             # #L10-L20
    r"|(?<![\w.])(?P<file>[\w./-]*\w\.[A-Za-z]\w{0,9}):\d+(?:\s*[-–]\s*\d+)?",  # app.py:45, src/a.ts:10-20
    re.IGNORECASE)
_GIT_TIMEOUT = 30


# ---------------------------------------------------------------------------------------------------------
# The text of an answer

def _mask(line: str) -> str:
    """The line with inline code blanked out (same length), so ``a[1]`` in code is not a citation."""
    return _INLINE_CODE.sub(lambda m: " " * len(m.group()), line)


def _prose_lines(text: str) -> list[str]:
    """The answer's lines outside fenced code blocks."""
    out, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(line)
    return out


def citation_numbers(fragment: str) -> list[int]:
    """The source numbers cited in a piece of prose (inline code ignored), in order, repeated ones once."""
    seen: dict[int, None] = {}
    for m in _CITE.finditer(_mask(fragment)):
        for n in m.group(1).split(","):
            seen.setdefault(int(n), None)
    return list(seen)


def _is_heading(line: str) -> bool:
    s = line.strip()
    if s.startswith("#"):
        return True
    if re.fullmatch(r"(\*\*|__|\*|_)[^*_].*\1:?", s):
        return True
    return s.endswith(":")


def _normalize(sentence: str) -> str:
    s = _CITE.sub("", sentence).strip().strip("\"'“”`*_ ").strip()
    return re.sub(r"\s+", " ", s).rstrip(". ").lower()


def is_refusal_sentence(sentence: str) -> bool:
    return _normalize(sentence) == _normalize(REFUSAL)


def sentences(text: str) -> list[str]:
    """The answer's sentences (outside code fences), each with the citations that follow it attached."""
    out: list[str] = []
    for line in _prose_lines(text):
        body = _BULLET.sub("", line).strip()
        if not body:
            continue
        if _is_heading(body):
            out.append(body)
            continue
        masked = _mask(body)
        cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(masked)), len(body)]
        for i, (a, b) in enumerate(pairwise(cuts)):
            part, mpart = body[a:b], masked[a:b]
            lead = _CITE_RUN.match(mpart)
            if lead and i > 0:   # "… token. [2] Next …": [2] closes the sentence before it
                out[-1] = out[-1] + " " + part[:lead.end()].strip()
                part = part[lead.end():]
            if part.strip():
                out.append(part.strip())
    return out


@dataclass
class Claim:
    sentence: str
    cites: list[int]


@dataclass
class Check:
    """What one answer text says about its sources."""

    cited: list[int]                    # valid source numbers, in order of first use
    unknown: list[int]                  # numbers that name no source
    claims: list[Claim]
    uncited: list[str]                  # claims without any citation
    prose_locations: list[str]
    refused: bool
    malformed: list[str] = field(default_factory=list)   # source markers that are no citation: [1-3]

    @property
    def valid(self) -> bool:
        return not self.unknown and not self.malformed


def is_claim(sentence: str) -> bool:
    if _is_heading(sentence) or is_refusal_sentence(sentence):
        return False
    return len(_WORD.findall(_CITE.sub(" ", sentence))) >= CLAIM_MIN_WORDS


def check(text: str, n_sources: int) -> Check:
    """Validate an answer text against sources numbered 1..n_sources."""
    numbers = citation_numbers("\n".join(_prose_lines(text)))
    cited = [n for n in numbers if 1 <= n <= n_sources]
    unknown = [n for n in numbers if not 1 <= n <= n_sources]
    claims = [Claim(s, citation_numbers(s)) for s in sentences(text) if is_claim(s)]
    uncited = [c.sentence for c in claims if not c.cites]
    # file:line only for file names we index (not host:port)
    locations = list(dict.fromkeys(m.group().strip() for line in _prose_lines(text)
                                   for m in _PROSE_LOCATION.finditer(_CITE.sub(" ", line))
                                   if not m.group("file") or language_for_path(m.group("file"))))
    whole = sentences(text)
    refused = bool(whole) and all(is_refusal_sentence(s) for s in whole)
    malformed = list(dict.fromkeys(m.group() for line in _prose_lines(text)
                                   for m in _CITE_RANGE.finditer(_mask(line))))
    return Check(cited, unknown, claims, uncited, locations, refused, malformed)


def remove_citations(text: str, bad: Iterable[int], malformed: Iterable[str] = ()) -> str:
    """The text without citations of the given numbers (``[1, 7]`` becomes ``[1]``) and without the given
    malformed markers (``[1-3]``), outside code."""
    bad, malformed = set(bad), set(malformed)

    def fix(m: re.Match[str]) -> str:
        keep = [n.strip() for n in m.group(1).split(",") if int(n) not in bad]
        return f"[{', '.join(keep)}]" if keep else ""

    out, fenced = [], False
    for line in text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            pieces = re.split(r"(`[^`\n]*`)", line)
            line = "".join(p if p.startswith("`") else _CITE.sub(fix, _CITE_RANGE.sub(
                lambda m: "" if m.group() in malformed else m.group(), p)) for p in pieces)
            line = re.sub(r"[ \t]+([.,;:!?])", r"\1", re.sub(r"(?<=\S)[ \t]{2,}", " ", line)).rstrip()
        out.append(line)
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------
# Permalinks

def _remote_parts(remote_url: str) -> tuple[str, str] | None:
    """(host, owner/repo path) of a remote URL: https, ssh:// and scp-like ``git@host:owner/repo.git``."""
    url = remote_url.strip()
    m = re.fullmatch(r"(?:[\w.-]+@)?([\w.-]+):(?!//)([^\s]+)", url)
    if m and "://" not in url:
        host, path = m.group(1), m.group(2)
    else:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https", "ssh", "git", "git+ssh", "ssh+git") or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    path = path.strip("/").removesuffix(".git").strip("/")
    return (host.lower(), path) if host and path.count("/") >= 1 else None


def blob_url(remote_url: str | None, commit: str | None, repo_path: str, start: int, end: int) -> str | None:
    """A web link to lines start..end of repo_path at commit, for GitHub, GitLab and Bitbucket remotes."""
    if not remote_url or not commit:
        return None
    parts = _remote_parts(remote_url)
    if parts is None:
        return None
    host, path = parts
    file_path = quote(repo_path, safe="/")
    if "github" in host:
        return f"https://{host}/{path}/blob/{commit}/{file_path}#L{start}" + (f"-L{end}" if end != start else "")
    if "gitlab" in host:
        return f"https://{host}/{path}/-/blob/{commit}/{file_path}#L{start}" + (f"-{end}" if end != start else "")
    if "bitbucket" in host:
        return f"https://{host}/{path}/src/{commit}/{file_path}#lines-{start}" + (f":{end}" if end != start else "")
    return None


def file_url(root: str, path: str, start: int, end: int) -> str:
    return Path(root, path).as_uri() + f"#L{start}" + (f"-L{end}" if end != start else "")


# ---------------------------------------------------------------------------------------------------------
# Re-reading the cited lines

class Cited(Protocol):
    """What a citation needs of a retrieved chunk (``search.Hit`` has it)."""

    id: str
    repo: str
    commit: str | None
    path: str
    start_line: int
    end_line: int
    qualified_name: str | None
    content_hash: str


@dataclass
class Citation:
    n: int
    id: str
    repo: str
    commit: str | None
    path: str
    start_line: int
    end_line: int
    symbol: str | None
    url: str | None
    status: str                          # "ok" | "stale"
    reason: str = ""                     # why stale, or what changed in the working tree
    worktree_changed: bool = False
    qualified: bool = False              # the sources span several repositories: the location names its own

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def location(self) -> str:
        span = f"{self.start_line}" if self.start_line == self.end_line else f"{self.start_line}–{self.end_line}"
        where = f"{self.repo}:{self.path}" if self.qualified else self.path
        return f"{where}:{span}" + (f" ({self.symbol})" if self.symbol else "")

    def render(self) -> str:
        """``[n] path:start–end (symbol)  url`` plus what the check found."""
        line = f"[{self.n}] {self.location}" + (f"  {self.url}" if self.url else "")
        if not self.ok:
            line += f"  [STALE: {self.reason}; lines not shown]"
        elif self.worktree_changed:    # status stays ok: the lines were verified at the indexed commit
            line += f"  [working tree differs ({self.reason}); {self.link_note()}]"
        return line

    def link_note(self) -> str:
        """What the link of a citation whose working tree changed shows: a forge permalink is pinned to the
        indexed commit; a file:// link opens the working tree, so say how to see the indexed text."""
        if self.url and not self.url.startswith("file:"):
            return "the link shows the indexed commit"
        commit = (self.commit or "")[:12]
        show = f"git show {commit}:./{self.path}"
        if self.url:        # -C the file's directory: the command works from anywhere, whatever the root's depth
            target = Path(unquote(urlsplit(self.url).path))
            show = f"git -C {shlex.quote(str(target.parent))} show {shlex.quote(f'{commit}:./{target.name}')}"
        return f"the link opens the working tree, not the indexed commit {commit}; `{show}` shows the indexed lines"

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        del d["qualified"]                  # shown in `rendered`; `repo` says it
        d["rendered"] = self.render()
        return d


@dataclass
class RepoInfo:
    id: str
    root: str | None
    commit: str | None
    remote_url: str | None

    @classmethod
    def from_props(cls, props: dict[str, Any]) -> "RepoInfo":
        return cls(props.get("id", ""), props.get("root"), props.get("commit"), props.get("remote_url"))


def _git(root: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    return subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, timeout=_GIT_TIMEOUT,
                          check=False)


class Verifier:
    """Resolves cited chunks into checked ``Citation`` objects; file reads are cached per (root, rev, path)."""

    def __init__(self, repos: dict[str, RepoInfo]) -> None:
        self.repos = repos
        self._files: dict[tuple[str, str | None, str], list[str] | str] = {}
        self._prefix: dict[str, str | None] = {}
        self._commits: dict[tuple[str, str], bool] = {}

    def citation(self, n: int, c: Cited) -> Citation:
        info = self.repos.get(c.repo) or RepoInfo(c.repo, None, c.commit, None)
        status, reason, worktree = self._verify(c, info)
        return Citation(n=n, id=c.id, repo=c.repo, commit=c.commit, path=c.path, start_line=c.start_line,
                        end_line=c.end_line, symbol=c.qualified_name, url=self._url(c, info), status=status,
                        reason=reason, worktree_changed=worktree, qualified=len(self.repos) > 1)

    # -- links --------------------------------------------------------------------------------------------------
    def _url(self, c: Cited, info: RepoInfo) -> str | None:
        if c.commit and info.root and info.remote_url:
            prefix = self._git_prefix(info.root)
            if prefix is not None:
                url = blob_url(info.remote_url, c.commit, prefix + c.path, c.start_line, c.end_line)
                if url:
                    return url
        return file_url(info.root, c.path, c.start_line, c.end_line) if info.root else None

    def _git_prefix(self, root: str) -> str | None:
        if root not in self._prefix:
            try:
                proc = _git(root, "rev-parse", "--show-prefix")
                self._prefix[root] = proc.stdout.decode("utf-8", "surrogateescape").strip() \
                    if proc.returncode == 0 else None
            except (OSError, subprocess.TimeoutExpired):
                self._prefix[root] = None
        return self._prefix[root]

    # -- checks -------------------------------------------------------------------------------------------------
    def _verify(self, c: Cited, info: RepoInfo) -> tuple[str, str, bool]:
        if not c.content_hash:
            return "stale", "the index holds no content hash for this chunk (re-index)", False
        if not is_safe_relative(c.path):
            return "stale", f"unsafe path {c.path!r} in the index", False
        if not info.root or not Path(info.root).is_dir():
            return "stale", f"repository root {info.root or '(unknown)'} is not on this machine", False
        if c.commit:
            lines = self._read(info.root, c.commit, c.path)
            if isinstance(lines, str):
                return "stale", lines, False
            if not same_text(lines, c.start_line, c.end_line, c.content_hash):
                return "stale", f"the lines at commit {c.commit[:12]} differ from the indexed chunk", False
            current = self._read(info.root, None, c.path)
            if isinstance(current, str):
                return "ok", "the file is gone from the working tree", True
            if not same_text(current, c.start_line, c.end_line, c.content_hash):
                return "ok", "the working-tree file differs at these lines", True
            return "ok", "", False
        lines = self._read(info.root, None, c.path)
        if isinstance(lines, str):
            return "stale", lines, False
        if not same_text(lines, c.start_line, c.end_line, c.content_hash):
            return "stale", "the file changed on disk since it was indexed", False
        return "ok", "", False

    def _read(self, root: str, commit: str | None, path: str) -> list[str] | str:
        """The file's indexed lines at commit (or on disk), or a string saying why they cannot be read."""
        key = (root, commit, path)
        if key not in self._files:
            self._files[key] = self._read_git(root, commit, path) if commit else self._read_disk(root, path)
        return self._files[key]

    def _read_git(self, root: str, commit: str, path: str) -> list[str] | str:
        try:
            ck = (root, commit)
            if ck not in self._commits:
                self._commits[ck] = _git(root, "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0
            if not self._commits[ck]:
                return f"commit {commit[:12]} is no longer in the repository at {root}"
            proc = _git(root, "show", f"{commit}:./{path}")
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"git could not be run in {root}: {exc}"
        if proc.returncode != 0:
            return f"{path} is not in commit {commit[:12]}"
        return indexed_lines(proc.stdout)

    @staticmethod
    def _read_disk(root: str, path: str) -> list[str] | str:
        base = Path(root)
        target = base / path
        try:
            real = Path(os.path.realpath(target))
            if Path(os.path.realpath(base)) not in real.parents:
                return f"{path} resolves outside the repository"
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as fh:
                return indexed_lines(fh.read())
        except FileNotFoundError:
            return f"{path} no longer exists"
        except OSError as exc:
            return f"{path} is not readable: {exc.strerror or exc}"


# ---------------------------------------------------------------------------------------------------------
# Evaluation

@dataclass
class _Counts:
    citations: int = 0
    ok: int = 0
    claims: int = 0
    covered: int = 0
    answers: int = 0
    refused: int = 0


def _field(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name)


def citation_metrics(answers: Iterable[Any]) -> dict[str, Any]:
    """Validity and coverage over answers (``answer.Answer`` objects or their ``to_dict()``).

    validity: rendered citations with status ok / all rendered citations (1.0 when there are none);
    coverage: claim sentences with at least one citation whose status is ok / all claim sentences (1.0 when
    there are none: a refusal makes no claim). Counts come along so runs can be pooled.
    """
    t = _Counts()
    for a in answers:
        t.answers += 1
        t.refused += bool(_field(a, "refused"))
        status = {}
        for c in _field(a, "citations"):
            n, st = (c["n"], c["status"]) if isinstance(c, dict) else (c.n, c.status)
            status[n] = st
            t.citations += 1
            t.ok += st == "ok"
        for claim in _field(a, "claims"):
            cites = claim["cites"] if isinstance(claim, dict) else claim.cites
            t.claims += 1
            t.covered += any(status.get(n) == "ok" for n in cites)
    return {"validity": t.ok / t.citations if t.citations else 1.0,
            "coverage": t.covered / t.claims if t.claims else 1.0,
            **asdict(t)}


__all__ = ["REFUSAL", "CLAIM_MIN_WORDS", "Check", "Claim", "Citation", "RepoInfo", "Verifier", "check",
           "remove_citations", "sentences", "is_claim", "citation_numbers", "blob_url", "file_url",
           "citation_metrics", "indexed_lines", "lines_hash"]
