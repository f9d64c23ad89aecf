"""Fetch the pinned codebases the golden question set is written against into ``eval/.corpus/<name>/``.

Each codebase is one pinned release fetched with its registry's ordinary client (pip, npm, go, mvn), trimmed to
the source the questions are about, and committed to a fresh git repository with a fixed author, committer, date
and file mode, so the commit SHA -- and with it every path and line number in ``eval/golden.jsonl`` -- is the
same on every machine. The expected commit of every codebase is pinned below and checked after each build.

    python eval/corpus.py                 # fetch what is missing or wrong (idempotent), print a summary
    python eval/corpus.py --only flask,cobra
    python eval/corpus.py --force         # rebuild from scratch
    python eval/corpus.py --list          # what is there: files and lines per codebase (no network)
    python eval/corpus.py --list --files  # ... and per file

Self-contained on purpose: nothing is imported from the rest of the project (nor from ``bench/``).
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent
CORPUS_DIR = EVAL_DIR / ".corpus"
MARKER = "eval-corpus.json"      # kept inside .git/ so it is not part of the committed tree

# One fixed identity, date and branch for every commit: same tree + same metadata => same commit SHA.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "graphrag-eval", "GIT_AUTHOR_EMAIL": "eval@graphrag.invalid",
    "GIT_COMMITTER_NAME": "graphrag-eval", "GIT_COMMITTER_EMAIL": "eval@graphrag.invalid",
    "GIT_AUTHOR_DATE": "2024-06-01T00:00:00+0000", "GIT_COMMITTER_DATE": "2024-06-01T00:00:00+0000",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0",
}
GIT_OPTS = ["-c", "core.autocrlf=false", "-c", "core.filemode=true", "-c", "commit.gpgsign=false",
            "-c", "init.defaultBranch=main", "-c", "core.hooksPath=/dev/null"]


@dataclass(frozen=True)
class Codebase:
    name: str
    language: str
    registry: str            # pypi | npm | go | maven
    spec: str                # what the registry client is asked for
    version: str
    include: tuple[str, ...]            # fnmatch patterns on paths relative to the package root ('*' spans '/')
    exclude: tuple[str, ...] = ()
    dest_prefix: str = ""               # where the kept files go inside the corpus repository
    archive_sha256: str | None = None   # of the downloaded archive (None for go: the module cache is verified
                                        # by go itself against go.sum / sum.golang.org)
    go_sum: str | None = None           # go's h1: hash of the module
    commit: str | None = None           # the expected commit SHA of the built corpus repository


CODEBASES: dict[str, Codebase] = {c.name: c for c in (
    Codebase("flask", "python", "pypi", "flask==3.0.3", "3.0.3",
             include=("src/flask/*", "tests/*"), exclude=("*.pyc", "*/__pycache__/*"),
             archive_sha256="ceb27b0af3823ea2737928a4d99d125a06175b8512c445cbd9a9ce200ef76842",
             commit="7b266e66106596ce804259b55653a22171339774"),
    Codebase("click", "python", "pypi", "click==8.1.7", "8.1.7",
             include=("src/click/*", "tests/*"), exclude=("*.pyc", "*/__pycache__/*"),
             archive_sha256="ca9853ad459e787e2192211578cc907e7594e294c7ccc834310722b41b9ca6de",
             commit="80c0d862011a9596b5ba156be013f1be2eb169e0"),
    Codebase("express", "javascript", "npm", "express@4.21.2", "4.21.2",
             include=("index.js", "lib/*"),
             archive_sha256="fc43a91e7dc7affb53c6ad7123a4f35485ed3c45226ae7a3847b7738e783e008",
             commit="955b0f169bed289ccae73032a290701e51925b27"),
    Codebase("cobra", "go", "go", "github.com/spf13/cobra@v1.8.1", "v1.8.1",
             include=("*.go", "go.mod"), exclude=("site/*",),
             go_sum="h1:e5/vxKd/rZsfSJMUX1agtjeTDf+qv1/JdBF8gg5k9ZM=",
             commit="e7201d4dbd859472e07a35547972979a8dc97024"),
    Codebase("gson", "java", "maven", "com.google.code.gson:gson:2.11.0:jar:sources", "2.11.0",
             include=("com/google/gson/*",), dest_prefix="gson/src/main/java/",
             archive_sha256="49a853f71bc874ee1898a4ad5009b57d0c536e5a998b3890253ffbf4b7276ad3",
             commit="8c4dc4dd36cff64b30032e53a83c1a10846c619d"),
    Codebase("rxjs", "typescript", "npm", "rxjs@7.8.1", "7.8.1",
             include=("src/*",), exclude=("*.d.ts", "*.js", "*.json"),
             archive_sha256="c532167725ab7d085123209156c93cef22f2479cb9c8527060f1cd903aa9d149",
             commit="bac8d8ad72da1c14a1bcbe1f804169d4fb812f6f"),
)}


# ---------------------------------------------------------------------------------------------------------------
def _run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr.strip()[-2000:]}")
    return proc.stdout


def _git(args: list[str], repo: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
    env.update(GIT_ENV)
    return _run(["git", *GIT_OPTS, *args], cwd=repo, env=env)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _only_file(directory: Path) -> Path:
    files = [p for p in directory.iterdir() if p.is_file()]
    if len(files) != 1:
        raise SystemExit(f"expected exactly one downloaded archive in {directory}, got {[p.name for p in files]}")
    return files[0]


def _extract(archive: Path, into: Path) -> Path:
    """Unpack an archive; return its single top-level folder (``flask-3.0.3/``, ``package/``) or ``into``."""
    into.mkdir(parents=True)
    if archive.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive) as tf:
            tf.extractall(into, filter="data")
    elif archive.suffix in (".zip", ".jar"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(into)
    else:
        raise SystemExit(f"unknown archive type: {archive}")
    entries = list(into.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else into


def _check_archive(cb: Codebase, archive: Path) -> str:
    digest = _sha256(archive)
    if cb.archive_sha256 and digest != cb.archive_sha256:
        raise SystemExit(f"{cb.name}: {archive.name} has sha256 {digest}, expected {cb.archive_sha256}")
    return digest


def fetch(cb: Codebase, work: Path) -> tuple[Path, dict]:
    """Download the pinned release with the registry's own client; return its unpacked root and provenance."""
    dl = work / "download"
    dl.mkdir(parents=True)
    prov: dict = {"registry": cb.registry, "spec": cb.spec}
    if cb.registry == "pypi":
        _run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
              "--disable-pip-version-check", "-q", "-d", str(dl), cb.spec])
        archive = _only_file(dl)
        prov.update(archive=archive.name, sha256=_check_archive(cb, archive))
        return _extract(archive, work / "x"), prov
    if cb.registry == "npm":
        out = _run(["npm", "pack", cb.spec, "--json", "--pack-destination", str(dl)], cwd=dl)
        archive = dl / json.loads(out)[0]["filename"]
        prov.update(archive=archive.name, sha256=_check_archive(cb, archive),
                    integrity=json.loads(out)[0].get("integrity"))
        return _extract(archive, work / "x"), prov
    if cb.registry == "go":
        env = {**os.environ, "GO111MODULE": "on", "GOFLAGS": "-mod=mod"}
        info = json.loads(_run(["go", "mod", "download", "-json", cb.spec], cwd=dl, env=env))
        if info.get("Error"):
            raise SystemExit(f"go mod download {cb.spec}: {info['Error']}")
        if cb.go_sum and info.get("Sum") != cb.go_sum:
            raise SystemExit(f"{cb.name}: go module sum {info.get('Sum')}, expected {cb.go_sum}")
        root = work / "x"
        shutil.copytree(info["Dir"], root, symlinks=True)   # the module cache is read-only; copies are made
        prov.update(sum=info.get("Sum"))                      # writable in _normalise
        return root, prov
    if cb.registry == "maven":
        _run(["mvn", "-q", "-B", "dependency:copy", f"-Dartifact={cb.spec}", f"-DoutputDirectory={dl}"], cwd=dl)
        archive = _only_file(dl)
        prov.update(archive=archive.name, sha256=_check_archive(cb, archive))
        return _extract(archive, work / "x"), prov
    raise SystemExit(f"unknown registry {cb.registry}")


def _select(cb: Codebase, root: Path) -> list[str]:
    kept = []
    for dirpath, _dirs, files in os.walk(root):
        for fn in files:
            rel = Path(dirpath, fn).relative_to(root).as_posix()
            if Path(dirpath, fn).is_symlink():
                continue
            if any(fnmatch.fnmatchcase(rel, p) for p in cb.include) and \
                    not any(fnmatch.fnmatchcase(rel, p) for p in cb.exclude):
                kept.append(rel)
    if not kept:
        raise SystemExit(f"{cb.name}: no files matched {cb.include}")
    return sorted(kept)


def _normalise(path: Path) -> None:
    """Fixed modes: directories 0755, files 0644 (git records only the executable bit, which we clear)."""
    for dirpath, dirs, files in os.walk(path):
        os.chmod(dirpath, 0o755)
        for fn in files:
            os.chmod(os.path.join(dirpath, fn), 0o644)


def _head(repo: Path) -> str | None:
    if not (repo / ".git").is_dir():
        return None
    try:
        return _git(["rev-parse", "--verify", "-q", "HEAD"], repo).strip() or None
    except SystemExit:
        return None


def _is_clean(repo: Path) -> bool:
    return _git(["status", "--porcelain", "--untracked-files=all"], repo).strip() == ""


def is_ready(cb: Codebase) -> bool:
    repo = CORPUS_DIR / cb.name
    head = _head(repo)
    if head is None or not (repo / ".git" / MARKER).is_file():
        return False
    pinned = cb.commit if cb.commit and cb.commit != "PENDING" else None
    return (pinned is None or head == pinned) and _is_clean(repo)


def build(cb: Codebase, force: bool = False) -> str:
    repo = CORPUS_DIR / cb.name
    if not force and is_ready(cb):
        return "ok"
    CORPUS_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".build-{cb.name}-", dir=CORPUS_DIR) as tmp:
        work = Path(tmp)
        root, prov = fetch(cb, work)
        stage = work / "repo"
        for rel in _select(cb, root):
            dst = stage / (cb.dest_prefix + rel)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / rel, dst)
        _normalise(stage)
        _git(["init", "-q", "-b", "main", str(stage)], work)
        _git(["add", "-A", "-f", "."], stage)
        _git(["commit", "-q", "--no-verify", "-m", f"{cb.name} {cb.version} ({cb.spec}), trimmed for eval"], stage)
        head = _git(["rev-parse", "HEAD"], stage).strip()
        if cb.commit and cb.commit != "PENDING" and head != cb.commit:
            raise SystemExit(f"{cb.name}: built commit {head}, expected {cb.commit} -- the release or the "
                             f"selection changed; golden.jsonl line numbers would no longer be trustworthy")
        prov.update(name=cb.name, version=cb.version, language=cb.language, commit=head)
        (stage / ".git" / MARKER).write_text(json.dumps(prov, indent=2, sort_keys=True) + "\n")
        if repo.exists():
            shutil.rmtree(repo)
        stage.rename(repo)
    return "built" if cb.commit != "PENDING" else "built (commit not pinned yet)"


# ---------------------------------------------------------------------------------------------------------------
def tracked_files(name: str) -> list[str]:
    repo = CORPUS_DIR / name
    return [p for p in _git(["ls-files", "-z"], repo).split("\0") if p]


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def describe(name: str, per_file: bool = False) -> dict:
    cb = CODEBASES[name]
    repo = CORPUS_DIR / name
    info: dict = {"name": name, "language": cb.language, "version": cb.version, "spec": cb.spec,
                  "present": _head(repo) is not None}
    if not info["present"]:
        return info
    files = tracked_files(name)
    rows = [(p, count_lines((repo / p).read_bytes())) for p in files]
    info.update(commit=_head(repo), files=len(rows), lines=sum(n for _, n in rows),
                code_lines=sum(n for p, n in rows if not _is_test(p)),
                test_lines=sum(n for p, n in rows if _is_test(p)),
                pinned=(cb.commit == _head(repo)))
    if per_file:
        info["per_file"] = rows
    return info


def _is_test(path: str) -> bool:
    p = path.lower()
    return p.startswith("tests/") or p.endswith("_test.go") or "/test/" in p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="comma-separated codebase names (default: all)")
    ap.add_argument("--force", action="store_true", help="rebuild even when present and correct")
    ap.add_argument("--list", action="store_true", help="describe what is present; fetch nothing")
    ap.add_argument("--files", action="store_true", help="with --list: lines per file")
    ap.add_argument("--json", action="store_true", help="with --list: JSON output")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(CODEBASES)
    unknown = [n for n in names if n not in CODEBASES]
    if unknown:
        ap.error(f"unknown codebase(s) {unknown}; known: {', '.join(CODEBASES)}")

    if not args.list:
        for n in names:
            print(f"{n:8} {CODEBASES[n].spec:48} {build(CODEBASES[n], force=args.force)}", flush=True)

    infos = [describe(n, per_file=args.files) for n in names]
    if args.json:
        print(json.dumps(infos, indent=2))
        return 0 if all(i["present"] for i in infos) else 1
    print(f"\n{'name':8} {'language':10} {'version':8} {'files':>5} {'lines':>7} {'code':>7} {'tests':>7}  commit")
    for i in infos:
        if not i["present"]:
            print(f"{i['name']:8} {i['language']:10} {i['version']:8}  (missing: run python eval/corpus.py)")
            continue
        flag = "" if i["pinned"] else "  (NOT the pinned commit)"
        print(f"{i['name']:8} {i['language']:10} {i['version']:8} {i['files']:5} {i['lines']:7} "
              f"{i['code_lines']:7} {i['test_lines']:7}  {i['commit'][:12]}{flag}")
        for path, n in i.get("per_file", []):
            print(f"    {n:7}  {path}")
    present = [i for i in infos if i["present"]]
    print(f"{'total':8} {'':10} {'':8} {sum(i['files'] for i in present):5} {sum(i['lines'] for i in present):7}")
    return 0 if len(present) == len(infos) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:          # `--list | head`
        sys.stderr.close()
        sys.exit(0)
