"""Fetch the benchmark corpora offline-reproducibly from package registries into ``bench/.corpus/<name>/``.

Every corpus is a pinned release fetched with the registry's ordinary client (pip, npm, go), extracted into its
own directory and committed to a fresh git repository with a fixed author, committer and date, so the commit
SHA (and every blob SHA) is the same on every machine and the indexer takes its git path.

    .venv/bin/python bench/corpus.py            # fetch what is missing (idempotent), print a summary
    .venv/bin/python bench/corpus.py --only flask,express
    .venv/bin/python bench/corpus.py --force    # rebuild everything from scratch

``combo100k`` copies several corpora into subfolders of one repository so that the repository holds
~100k-150k lines of files the indexer parses (code languages, not Markdown/YAML/JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
CORPUS_DIR = BENCH_DIR / ".corpus"
MARKER = ".bench-corpus.json"          # written into each finished corpus (committed too), last step

# One fixed identity and date for every corpus commit: same tree + same metadata => same commit SHA.
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "graphrag-bench", "GIT_AUTHOR_EMAIL": "bench@graphrag.invalid",
    "GIT_COMMITTER_NAME": "graphrag-bench", "GIT_COMMITTER_EMAIL": "bench@graphrag.invalid",
    "GIT_AUTHOR_DATE": "2024-01-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00+0000",
}


@dataclass(frozen=True)
class Source:
    name: str
    kind: str            # pypi | npm | go
    spec: str            # flask==3.0.3 | express@4.21.2 | github.com/spf13/cobra@v1.8.1
    include: tuple[str, ...] = ()   # keep only paths under these prefixes (relative to the package root)
    exclude: tuple[str, ...] = ()   # then drop paths under these prefixes


@dataclass(frozen=True)
class Corpus:
    name: str
    sources: tuple[Source, ...]
    combo: bool = False  # a combined corpus: each source in its own subfolder
    note: str = ""
    large: bool = False  # only when named (--only): too slow for the default run


FLASK = Source("flask", "pypi", "flask==3.0.3")
WERKZEUG = Source("werkzeug", "pypi", "werkzeug==3.0.3")
CLICK = Source("click", "pypi", "click==8.1.7")
REQUESTS = Source("requests", "pypi", "requests==2.32.3")
EXPRESS = Source("express", "npm", "express@4.21.2")
COBRA = Source("cobra", "go", "github.com/spf13/cobra@v1.8.1")
# pygments' 250 lexer modules (110k lines, a third of them generated keyword tables) would double the combo:
# its core package alone brings the combo from ~101k to ~113k lines.
PYGMENTS_CORE = Source("pygments", "pypi", "pygments==2.18.0", include=("pygments/",), exclude=("pygments/lexers/",))

CORPORA: dict[str, Corpus] = {c.name: c for c in (
    Corpus("flask", (FLASK,)),
    Corpus("werkzeug", (WERKZEUG,)),
    Corpus("click", (CLICK,)),
    Corpus("requests", (REQUESTS,)),
    Corpus("express", (EXPRESS,)),
    Corpus("cobra", (COBRA,)),
    Corpus("combo100k", (FLASK, WERKZEUG, CLICK, REQUESTS, EXPRESS, COBRA, PYGMENTS_CORE), combo=True,
           note="the six corpora plus pygments 2.18.0's core package (pygments/ without pygments/lexers/), "
                "each in its own subfolder"),
    # ~470k lines of Python: a swap too large for one transaction of the local server (1 GiB)
    Corpus("django", (Source("django", "pypi", "django==5.1.4"),), large=True,
           note="the whole sdist, tests and docs included"),
)}
QUICK = ("flask", "express")
DEFAULT = tuple(n for n, c in CORPORA.items() if not c.large)


# ---------------------------------------------------------------------------------------------------------------
def _run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()[-2000:]}")
    return proc.stdout


def _make_writable(root: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        for n in dirnames + filenames:
            p = Path(dirpath, n)
            if not p.is_symlink():
                p.chmod(p.stat().st_mode | stat.S_IWUSR | (stat.S_IXUSR if p.is_dir() else 0))
    root.chmod(root.stat().st_mode | stat.S_IWUSR)


def _single_top(directory: Path) -> Path:
    """An archive's one top-level folder (``flask-3.0.3/``, ``package/``), or the directory itself."""
    entries = [p for p in directory.iterdir()]
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else directory


def _extract_archive(archive: Path, dest: Path) -> Path:
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=".extract-"))
    if archive.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive) as tf:
            tf.extractall(tmp, filter="data")
    elif archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
    else:
        raise SystemExit(f"unknown archive type: {archive}")
    return tmp


def fetch_source(src: Source, dest: Path) -> None:
    """Put the pinned release's files into ``dest`` (which must not exist)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"bench-{src.name}-") as dl:
        dl_dir = Path(dl)
        if src.kind == "pypi":
            _run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                  "--disable-pip-version-check", "-q", "-d", str(dl_dir), src.spec])
            archives = [p for p in dl_dir.iterdir() if p.is_file()]
            if len(archives) != 1:
                raise SystemExit(f"expected one sdist for {src.spec}, got {archives}")
            tmp = _extract_archive(archives[0], dest)
            shutil.move(str(_single_top(tmp)), dest)
            shutil.rmtree(tmp, ignore_errors=True)
        elif src.kind == "npm":
            out = _run(["npm", "pack", src.spec, "--json", "--pack-destination", str(dl_dir)], cwd=dl_dir)
            filename = json.loads(out)[0]["filename"]
            tmp = _extract_archive(dl_dir / filename, dest)
            shutil.move(str(_single_top(tmp)), dest)   # npm tarballs hold package/
            shutil.rmtree(tmp, ignore_errors=True)
        elif src.kind == "go":
            out = _run(["go", "mod", "download", "-json", src.spec], cwd=dl_dir,
                       env={**os.environ, "GOFLAGS": "-mod=mod", "GO111MODULE": "on"})
            info = json.loads(out)
            if info.get("Error"):
                raise SystemExit(f"go mod download {src.spec}: {info['Error']}")
            shutil.copytree(info["Dir"], dest, symlinks=True)
        else:
            raise SystemExit(f"unknown source kind {src.kind}")
    _make_writable(dest)
    if src.include or src.exclude:
        _filter(dest, src.include, src.exclude)


def _filter(root: Path, include: tuple[str, ...], exclude: tuple[str, ...]) -> None:
    for dirpath, _dirs, filenames in os.walk(root):
        for n in filenames:
            rel = Path(dirpath, n).relative_to(root).as_posix()
            keep = (not include or rel.startswith(include)) and not rel.startswith(exclude)
            if not keep:
                Path(dirpath, n).unlink()
    for dirpath, _dirs, _files in sorted(os.walk(root), key=lambda t: -len(t[0])):
        if Path(dirpath) != root and not any(Path(dirpath).iterdir()):
            Path(dirpath).rmdir()


def _git_commit(repo: Path, message: str) -> str:
    env = {**os.environ, **GIT_IDENTITY}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    if not (repo / ".git").exists():
        _run(["git", "init", "-q", "-b", "main", str(repo)], env=env)
        # A fixed, local config: no hooks, no signing, no autocrlf, whatever the user's global config says.
        for key, value in (("commit.gpgsign", "false"), ("core.autocrlf", "false"), ("core.hooksPath", "/dev/null"),
                           ("user.name", GIT_IDENTITY["GIT_AUTHOR_NAME"]),
                           ("user.email", GIT_IDENTITY["GIT_AUTHOR_EMAIL"])):
            _run(["git", "config", key, value], cwd=repo, env=env)
    # -f: release archives can carry their own .gitignore (e.g. build/ or *.egg-info); the corpus is the release.
    _run(["git", "add", "-A", "-f", "."], cwd=repo, env=env)
    _run(["git", "commit", "-q", "--no-verify", "--allow-empty", "-m", message], cwd=repo, env=env)
    return _run(["git", "rev-parse", "HEAD"], cwd=repo, env=env).strip()


def count_lines(data: bytes) -> int:
    """Lines the way the indexer counts them on the File node (a last line without a newline counts)."""
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


def _indexed_stats(root: Path) -> dict:
    """What the indexer would parse: files / lines / bytes of code languages (tree-sitter) and of text formats."""
    sys.path.insert(0, str(BENCH_DIR.parent))
    from graphrag_code import discovery
    from graphrag_code.languages import LANGUAGES

    snap = discovery.snapshot(root)
    out = {"files": 0, "lines": 0, "bytes": 0, "text_files": 0, "by_language": {}}
    with discovery.SourceReader(snap) as reader:
        for f in snap.files:
            data = reader.read(f)
            if discovery.content_skip_reason(f.path, data) is not None:
                continue
            if f.language in LANGUAGES:
                lines = count_lines(data)
                out["files"] += 1
                out["lines"] += lines
                out["bytes"] += len(data)
                lang = out["by_language"].setdefault(f.language, {"files": 0, "lines": 0})
                lang["files"] += 1
                lang["lines"] += lines
            else:
                out["text_files"] += 1
    return out


def build(corpus: Corpus, force: bool = False) -> dict:
    """Build one corpus (idempotent: an existing, finished corpus is kept). Returns its marker info."""
    dest = CORPUS_DIR / corpus.name
    marker = dest / MARKER
    if marker.is_file() and not force:
        return json.loads(marker.read_text())
    if dest.exists():
        shutil.rmtree(dest)
    if corpus.combo:
        dest.mkdir(parents=True)
        for src in corpus.sources:
            single = CORPUS_DIR / src.name
            if src.name in CORPORA and (single / MARKER).is_file():   # reuse a fetched single corpus, minus .git
                shutil.copytree(single, dest / src.name, symlinks=True, ignore=shutil.ignore_patterns(".git", MARKER))
            else:
                fetch_source(src, dest / src.name)
    else:
        fetch_source(corpus.sources[0], dest)
    info = {"name": corpus.name, "sources": [s.spec for s in corpus.sources], "note": corpus.note}
    marker.write_text(json.dumps(info, indent=1) + "\n")
    info["commit"] = _git_commit(dest, f"bench corpus {corpus.name}: {', '.join(s.spec for s in corpus.sources)}")
    info["indexed"] = _indexed_stats(dest)
    return info


def ensure(names: list[str] | tuple[str, ...], force: bool = False, verbose: bool = True) -> dict[str, dict]:
    """Make sure the named corpora exist (singles first: combo100k reuses them). Returns name -> info."""
    order = sorted(names, key=lambda n: CORPORA[n].combo)
    if any(CORPORA[n].combo for n in names):   # fetch the singles once; the combo copies them
        order = [n for n in CORPORA if not CORPORA[n].combo and not CORPORA[n].large and n not in order] + order
    infos = {}
    for n in order:
        existed = (CORPUS_DIR / n / MARKER).is_file() and not force
        if verbose and not existed:
            print(f"[corpus] fetching {n} ...", file=sys.stderr, flush=True)
        infos[n] = build(CORPORA[n], force=force)
    return {n: infos[n] for n in names}


def describe(name: str) -> dict:
    root = CORPUS_DIR / name
    commit = _run(["git", "rev-parse", "HEAD"], cwd=root).strip()
    return {"name": name, "sources": [s.spec for s in CORPORA[name].sources], "commit": commit,
            **_indexed_stats(root)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated corpus names (default: all)")
    ap.add_argument("--force", action="store_true", help="delete and rebuild")
    args = ap.parse_args(argv)
    names = args.only.split(",") if args.only else list(DEFAULT)
    unknown = [n for n in names if n not in CORPORA]
    if unknown:
        ap.error(f"unknown corpus {unknown}; known: {', '.join(CORPORA)}")
    ensure(names, force=args.force)
    print(f"{'corpus':<11} {'files':>6} {'lines':>8} {'bytes':>10}  {'commit':<12} sources")
    for n in names:
        d = describe(n)
        print(f"{n:<11} {d['files']:>6} {d['lines']:>8} {d['bytes']:>10}  {d['commit'][:12]} {' '.join(d['sources'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
