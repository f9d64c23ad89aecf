"""CALLS precision and recall of tree-sitter alone vs tree-sitter + language server, against hand-checked call sites.

    .venv/bin/python eval/lsp_handcheck.py sample --repo rxjs --n 60 --seed 1    # index twice, write the sample
                                                            # (again: the same call sites, re-answered)
    .venv/bin/python eval/lsp_handcheck.py score --repo rxjs                     # after filling ``truth``
    .venv/bin/python eval/lsp_handcheck.py clean                                 # drop the hc-* repos from Neo4j
    .venv/bin/python eval/lsp_handcheck.py fetch --repo lz4                      # (sample does it too) offline corpus

The repositories are the table ``REPOS``: name -> corpus directory under ``eval/.corpus`` and the languages the
LSP pass is asked for. rxjs, cobra and express come from ``eval/corpus.py``; lz4 (C) is fetched here: the pinned
PyPI sdist of ``lz4`` (``pip download --no-deps --no-binary :all:``, sha256 checked), of which the bundled lz4
library (``lz4libs/``) and the C extension sources (``lz4/**/*.c``) are kept (about 14k lines of C). ninja (C++)
is fetched the same way: the PyPI sdist ``ninja==1.13.0`` bundles ninja's own sources (``ninja-upstream/``), of
which ``src/*.cc``, ``src/*.h`` and the vendored headers ``src/third_party/`` (emhash, rapidhash) are kept, paths
from ``ninja-upstream/`` (``src/build.cc``); left out: the tests, perftests and bench (``*_test.cc``,
``test.cc/.h``...), the Windows-only sources (``*-win32.cc``; the POSIX build compiles ``*-posix.cc``) and the
re2c inputs ``*.in.cc`` (``lexer.cc``/``depfile_parser.cc`` are generated from them and kept): 77 files, about
17k lines. MobX (TypeScript) is the npm tarball ``mobx@6.13.5`` (``npm pack``), its ``src/`` without ``.d.ts`` files
(57 files, about 8k lines). league/commonmark 2.3.9 (PHP) is Debian's package ``php-league-commonmark``
(``apt-get download``, sha256 checked), its ``usr/share/php/League/CommonMark/`` (283 files, about 19k lines; the
packages it uses, league/config and others, are not there: calls into them count as outside the repository). ``fetch`` is idempotent: it does nothing when the kept tree already has the pinned
digest.

``sample`` indexes ``eval/.corpus/<repo>`` twice, as ``hc-<repo>-ts`` (tree-sitter only) and ``hc-<repo>-lsp``
(with the language-server pass), picks N call sites (seeded) from non-test source files whose callee name is
defined somewhere in the repository, and writes ``eval/lsp_handcheck/<repo>.jsonl``, one row per call site::

    {path, line, column, caller, name, receiver, code,
     tree_sitter: [ids | "unresolved:<reason>"], lsp: [ids | "external:<module>" | "unresolved:<reason>"],
     tree_sitter_by / lsp_by: {id: resolved_by}, truth: null, note: ""}

Ids carry no repository prefix (``src/internal/Observable.ts#Observable.subscribe``). The LSP pass's cost (from
the index summary) goes to ``eval/lsp_handcheck/<repo>.cost.json``. If the jsonl already exists, ``sample``
keeps the ``truth``/``note`` of rows whose (path, line, column) is sampled again and refuses to drop filled rows
unless ``--force``.

``truth`` is filled by hand: the list of in-repository callees of that call site (``[]`` when the callee is
outside the repository or not statically knowable). ``score`` then compares both modes with it.

Scoring conventions:
- Only in-repository targets count (``external:*`` / ``unresolved:*`` are "no in-repo edge").
- A constructor call ``new X()`` may be answered with the class ``X`` or with ``X.constructor`` (the language
  server returns both); both are normalised to the class, so neither mode is penalised for the choice.
- precision = |mode ∩ truth| / |mode| summed over sites; recall = |mode ∩ truth| / |truth| summed over sites.
- C/C++: the truth of a call to a function declared in a header and defined in a .c file is the definition in
  the .c file. As in the resolver, a clangd answer that lands on something we do not index (a prototype, a
  macro) leaves the tree-sitter edge standing (``resolve._LSP_DEFER_TO_NAMES``), and the LSP column does too.
- C++: a constructor call (``new X(...)``, ``X(...)``) may be answered with the class or with its in-class
  constructor ``X.X`` (same file); both fold to the class. An out-of-line constructor (``Builder::Builder`` in
  build.cc, id ``src/build.cc#Builder.Builder``) is its own target. A call of a virtual method through a base
  pointer or reference has as truth the declared method plus every override in the corpus (what may run).
- PHP: a call on a receiver declared with an interface has as truth the interface's method plus every
  implementation in the corpus, as for C++'s virtual calls; ``new X()`` is the class ``X`` (``X.__construct`` folds
  into it), plus the constructor it inherits when it declares none (``Node.__construct`` for ``new BlockQuote()``):
  that one runs. Labelled blind to both modes first, by the stricter rule (only bodies that run: no interface
  method, no inherited constructor); the README gives both scores.
- ``.h`` files are parsed with the C grammar (``languages.py``): in a C++ header, classes and inline methods
  get wrong qualified names (``src/graph.h#in_edge`` for ``Node::in_edge``, ``src/state.h#depth.Pool`` for
  ``struct Pool``). The truth uses the indexed node that stands for the callee's definition (its name, its
  range holding the definition) however misnamed; a callee with no such node gets the id a correct parse
  would give, which neither mode can answer.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent
ROOT = EVAL_DIR.parent
CORPUS_DIR = EVAL_DIR / ".corpus"
OUT_DIR = EVAL_DIR / "lsp_handcheck"
sys.path.insert(0, str(ROOT))

from graphrag_code.paths import parse_unresolved            # noqa: E402 - after the path set-up
from graphrag_code.resolve import symbol_ids   # noqa: E402



@dataclass(frozen=True)
class Fetch:
    """A pinned PyPI sdist or npm tarball, of which the files matching ``include`` and no ``exclude`` are kept
    (paths relative to its root, or to its subdirectory ``root``, which becomes the corpus root)."""
    spec: str                     # pinned: pip requirement "lz4==4.3.3", npm package "mobx@6.13.5"
    sha256: str                   # of the downloaded archive
    include: tuple[str, ...]      # fnmatch patterns ('*' spans '/'), relative to ``root``
    tree_sha256: str              # digest of the kept tree (see _tree_digest): fetch is a no-op when it matches
    exclude: tuple[str, ...] = ()
    root: str = ""                # a directory of the sdist ("ninja-upstream"): only files under it, paths from it
    registry: str = "pypi"        # "pypi" (pip download), "npm" (npm pack) or "apt" (apt-get download: a .deb)


@dataclass(frozen=True)
class Repo:
    corpus: str                   # directory under eval/.corpus
    lsp_languages: tuple[str, ...]
    fetch: Fetch | None = None    # None: built by eval/corpus.py


REPOS: dict[str, Repo] = {
    "rxjs": Repo("rxjs", ("typescript", "javascript", "tsx")),
    "cobra": Repo("cobra", ("go",)),
    "express": Repo("express", ("javascript",)),
    "lz4": Repo("lz4", ("c", "cpp"), Fetch(
        "lz4==4.3.3", "01fe674ef2889dbb9899d8a67361e0c4a2c833af5aeb37dd505727cf5d2a131e",
        ("lz4libs/*.c", "lz4libs/*.h", "lz4/*.c"),
        tree_sha256="ee4e8a1ecee0a969887ec85f1baf1062aa8129d3682f02ad2e0d047e60115456")),
    "ninja": Repo("ninja", ("cpp", "c"), Fetch(
        "ninja==1.13.0", "4a40ce995ded54d9dc24f8ea37ff3bf62ad192b547f6c7126e7e25045e76f978", root="ninja-upstream",
        include=("src/*.cc", "src/*.h", "src/third_party/*.h", "src/third_party/*.hpp"),
        exclude=("src/*_test.cc", "src/*_perftest.cc", "src/test.cc", "src/test.h", "src/hash_collision_bench.cc",
                 "src/*-win32.cc", "src/*.in.cc"),
        tree_sha256="313496a5bd5b004c4ea5bc554757ffc0253407e2dcf60830701f556d96ffd9cd")),
    "commonmark": Repo("commonmark", ("php",), Fetch(
        "php-league-commonmark=2.3.9-1+deb12u1", "c702ba9fbe6727f011f25eba2bdb89871b56f37d811092e51089816df8eecd81",
        ("*.php",), root="usr/share/php/League/CommonMark", registry="apt",
        tree_sha256="b492b34486cf898dfb857a011fa954cee8f1289a013dc5c4941443945366a4c5")),
    "mobx": Repo("mobx", ("typescript", "javascript", "tsx"), Fetch(
        "mobx@6.13.5", "b85a7f765065c081724a7c49e91f59950151607b2f1c5a77c8ec4231f7129a1b", ("src/*",),
        exclude=("*.d.ts",), registry="npm",
        tree_sha256="b5ea6b97367e3936499cbdad79e4a72078b503b3090e2df1476e90f8e08eae0d")),
}
LSP_LANGUAGES = {name: r.lsp_languages for name, r in REPOS.items()}
# a C/C++ constructor id: path#[Outer.]X.X[~n] (the class X's constructor, defined in the same file)
_CPP_CONSTRUCTOR = re.compile(r"^([^#]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx)#(?:[\w.~]+\.)?(\w+))\.\2(?:~\d+)?$")


def repo_names(repo: str) -> tuple[str, str]:
    return f"hc-{repo}-ts", f"hc-{repo}-lsp"


def corpus_path(repo: str) -> Path:
    return CORPUS_DIR / REPOS[repo].corpus


# -- fetch ----------------------------------------------------------------------------------------------------
def _tree_digest(root: Path) -> str:
    """sha256 over the sorted (path, sha256 of content) of every file under ``root``."""
    h = hashlib.sha256()
    for p in sorted(q for q in root.rglob("*") if q.is_file()):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def fetch(repo: str, force: bool = False) -> Path:
    """Put the pinned corpus of ``repo`` into eval/.corpus (idempotent); repos of eval/corpus.py must be there."""
    r, dest = REPOS[repo], corpus_path(repo)
    if r.fetch is None:
        if not dest.is_dir():
            raise SystemExit(f"{dest} is missing: run .venv/bin/python eval/corpus.py --only {r.corpus}")
        return dest
    f = r.fetch
    if dest.is_dir() and not force and (not f.tree_sha256 or _tree_digest(dest) == f.tree_sha256):
        return dest
    with tempfile.TemporaryDirectory(prefix="hc-fetch-") as tmp:
        if f.registry == "npm":
            subprocess.run(["npm", "pack", "--silent", "--pack-destination", tmp, f.spec], check=True,
                           stdout=subprocess.DEVNULL)
        elif f.registry == "apt":
            download = ["apt-get", "download", "-q", f.spec]
            if subprocess.run(download, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
                # a fresh machine may have no package lists yet (apt-get update needs root, as here)
                subprocess.run(["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
                subprocess.run(download, check=True, cwd=tmp, stdout=subprocess.DEVNULL)
        else:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                            "--disable-pip-version-check", "-q", "-d", tmp, f.spec], check=True)
        archives = [p for p in Path(tmp).iterdir() if p.name.endswith((".tar.gz", ".tgz", ".zip", ".deb"))]
        if len(archives) != 1:
            raise SystemExit(f"{f.registry} {f.spec}: expected one archive, got {[p.name for p in archives]}")
        digest = hashlib.sha256(archives[0].read_bytes()).hexdigest()
        if digest != f.sha256:
            raise SystemExit(f"{archives[0].name}: sha256 {digest}, pinned {f.sha256}")
        staging, archive = Path(tmp) / "tree", archives[0]
        if archive.suffix == ".deb":       # its files as a tar (members ./usr/share/...)
            archive = Path(tmp) / "deb.tar"
            with archive.open("wb") as out:
                subprocess.run(["dpkg-deb", "--fsys-tarfile", str(archives[0])], check=True, stdout=out)
        with tarfile.open(archive) as tar:
            for m in tar.getmembers():
                rel = m.name.split("/", 1)[1] if "/" in m.name else ""
                if f.root:
                    if not rel.startswith(f.root.rstrip("/") + "/"):
                        continue
                    rel = rel[len(f.root.rstrip("/")) + 1:]
                if not m.isfile() or not any(fnmatch.fnmatch(rel, pat) for pat in f.include) or \
                        any(fnmatch.fnmatch(rel, pat) for pat in f.exclude):
                    continue
                out = staging / rel
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(tar.extractfile(m).read())
        got = _tree_digest(staging)
        if f.tree_sha256 and got != f.tree_sha256:
            raise SystemExit(f"{f.spec}: kept tree digest {got}, pinned {f.tree_sha256}")
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(staging, dest)
    n = sum(1 for _ in dest.rglob("*") if _.is_file())
    print(f"[hc] fetched {f.spec} into {dest.relative_to(ROOT)}: {n} files, tree sha256 {got}", file=sys.stderr)
    return dest


def _ordered(targets: list[str], by: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """A site's answer sorted: the edges come back in no fixed order, and a re-answered sample should differ only
    where an answer did."""
    return sorted(targets), dict(sorted(by.items()))


def cmd_fetch(args) -> None:
    print(fetch(args.repo, force=args.force))


# -- indexing -------------------------------------------------------------------------------------------------
def index(graph, repo: str, name: str, lsp: bool) -> tuple[dict, dict]:
    from graphrag_code.config import IndexSettings
    from graphrag_code.indexer import index_repository

    settings = IndexSettings(lsp_languages=LSP_LANGUAGES[repo] if lsp else ())
    started = time.perf_counter()
    summary = index_repository(graph, corpus_path(repo), name=name, settings=settings).to_dict()
    print(f"[hc] indexed {name} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
    return graph.run("repo_dump", repo=name)[0], summary


class Dump:
    """One mode's graph, indexed for per-call-site lookups."""

    def __init__(self, dump: dict, repo_name: str) -> None:
        self.prefix = repo_name + ":"
        self.files: dict[str, dict] = {}
        self.sym_name: dict[str, str] = {}
        self.unresolved: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
        for n in dump["nodes"]:
            p = n["props"]
            if "File" in n["labels"]:
                self.files[p["path"]] = p
            if "Symbol" in n["labels"]:
                self.sym_name[p["id"]] = p["name"]
            for entry in p.get("unresolved_calls") or []:
                u = parse_unresolved(entry, None)
                if u:
                    self.unresolved[(p["id"], u.line)].append((u.label, u.reason))
        # other names a definition is called by (`res.set = res.header = function header() {}`: `set`)
        self.aliases: dict[str, set[str]] = defaultdict(set)
        for path, p in self.files.items():
            facts = json.loads(p["facts"]) if p.get("facts") else {}
            ids = self.ids(path, facts.get("defs") or []) if facts.get("aliases") else []
            for i, alias in facts.get("aliases") or []:
                self.aliases[ids[i]].add(alias.rsplit(".", 1)[-1])
        self.edges: dict[tuple[str, int], list[tuple[str, str, str]]] = defaultdict(list)
        for e in dump["edges"]:
            if e["type"] in ("CALLS", "CALLS_EXTERNAL"):
                for line in e["props"].get("lines") or []:
                    self.edges[(e["src"], line)].append((e["type"], e["dst"], e["props"].get("resolved_by")))

    def strip(self, sid: str) -> str:
        return sid[len(self.prefix):] if sid.startswith(self.prefix) else sid

    def facts(self, path: str) -> dict:
        return json.loads(self.files[path]["facts"])

    def lsp_answers(self, path: str) -> list:
        raw = self.files[path].get("lsp")
        return (json.loads(raw).get("answers") or []) if raw else []

    def ids(self, path: str, defs: list) -> list[str]:
        """Symbol ids of a file's defs, as the resolver makes them (a repeated name gets ``~2``, ``~3``)."""
        return symbol_ids(self.prefix[:-1], path, defs)

    def site(self, path: str, k: int, use_lsp: bool) -> tuple[list[str], dict[str, str]]:
        """The targets one mode gives call site ``k`` of ``path``: in-repo ids, external:<m>, unresolved:<r>."""
        facts = self.facts(path)
        defs, calls = facts["defs"], facts["calls"]
        caller, name, receiver, line = calls[k][:4]
        src = self.ids(path, defs)[caller] if caller is not None else self.prefix + path
        if use_lsp:
            # the server's answer for exactly this call site (answers are aligned with facts.calls), applied
            # the way the resolver applies it; overrides it added (lsp_hierarchy) come from the edges at that line.
            # A variable's answer is read from the edges (and unresolved calls) at that line like a names-only
            # call: the resolver may follow it (what it holds, a registry, the methods implementing a property)
            answers = self.lsp_answers(path)
            answer = answers[k] if k < len(answers) else None
            if answer and answer[0] == "ext":
                return [f"external:{m}" for m in answer[1]], {}
            if answer and answer[0] == "sym":
                found = [d for d in answer[1] if d in self.sym_name]
                if found:
                    by = {self.strip(d): "lsp" if len(found) == 1 else "lsp_alt" for d in found}
                    impls = [i for i in answer[2] if i in self.sym_name and i not in found]
                    by.update({self.strip(i): "lsp_impl" if len(impls) == 1 else "lsp_impls" for i in impls})
                    here = {dst for etype, dst, rb in self.edges.get((src, line), []) if etype == "CALLS"}
                    for etype, dst, rb in self.edges.get((src, line), []):
                        # overrides the hierarchy added; a union's other members' methods (the server names one)
                        if rb in ("lsp_hierarchy", "union") and self.sym_name.get(dst) == name:
                            by.setdefault(self.strip(dst), rb)
                    # what the resolver kept of the answer: a placeholder's edge went to its overrides, an
                    # interface (never called) got none
                    by = {d: rb for d, rb in by.items() if self.prefix + d in here}
                    if by:
                        return list(by), by
        # CALLS edges at (caller, line): attribute to this call by the target's name when the line has several
        same_line = [c for c in calls if c[0] == caller and c[3] == line]
        names_on_line = {c[1] for c in same_line}
        def matches(dst: str, n: str) -> bool:
            return self.sym_name.get(dst) == n or n in self.aliases.get(dst, ()) or \
                dst.endswith(f"#{n}.constructor") or dst.endswith(f".{n}.constructor")

        out, by = [], {}
        here = [(dst, rb) for etype, dst, rb in self.edges.get((src, line), []) if etype == "CALLS"]
        named = any(matches(dst, name) for dst, _ in here)
        for dst, rb in here:
            # ours when it is the only call of the caller on that line, when the target has the call's name (or
            # is also assigned to that name), or when its name matches no call on the line (an alias the graph
            # does not know) and none of the line's targets has this call's name: then every such call gets it
            # (`new this.actionCtor(this, work).schedule()`: `Action.schedule` is the call of `schedule`, the
            # class `Action` the construction's)
            if len(same_line) == 1 or matches(dst, name) or \
                    not named and not any(matches(dst, n) for n in names_on_line):
                sid = self.strip(dst)
                if sid not in by:
                    out.append(sid)
                    by[sid] = rb
        if not out:
            label = f"{receiver}.{name}" if receiver else name
            reasons = [r for lab, r in self.unresolved.get((src, line), []) if lab == label]
            if reasons:
                out = [f"unresolved:{reasons[0]}"]
            elif not use_lsp and any(t == "CALLS_EXTERNAL" for t, _, _ in self.edges.get((src, line), [])):
                out = ["external:?"]
            else:
                out = ["unresolved:?"]
        return out, by


# -- sample ---------------------------------------------------------------------------------------------------
def cmd_sample(args) -> None:
    from graphrag_code.db import Graph

    OUT_DIR.mkdir(parents=True, exist_ok=True)
    fetch(args.repo)
    ts_name, lsp_name = repo_names(args.repo)
    with Graph() as graph:
        _delete(graph, (ts_name, lsp_name))        # from scratch: an incremental run would not ask the server again
        ts_dump, ts_summary = index(graph, args.repo, ts_name, lsp=False)
        lsp_dump, lsp_summary = index(graph, args.repo, lsp_name, lsp=True)
    ts, ls = Dump(ts_dump, ts_name), Dump(lsp_dump, lsp_name)

    report = lsp_summary.get("lsp") or {}
    groups = report.get("groups") or {}
    cost = {"repo": args.repo, "lsp_languages": list(LSP_LANGUAGES[args.repo]),
            "lsp_stage_seconds": (lsp_summary.get("stage_seconds") or {}).get("lsp"),
            "seconds": report.get("seconds"),
            "call_sites_asked": sum(g.get("asked", 0) for g in groups.values()),
            "groups": groups,
            "index_seconds_total": {"tree_sitter": ts_summary.get("seconds"), "lsp": lsp_summary.get("seconds")},
            "resolution_tree_sitter": ts_summary.get("resolution"), "resolution_lsp": lsp_summary.get("resolution")}
    asked = cost["call_sites_asked"]
    cost["seconds_per_1k_call_sites"] = round(1000 * cost["seconds"] / asked, 2) if asked and cost["seconds"] else None
    (OUT_DIR / f"{args.repo}.cost.json").write_text(json.dumps(cost, indent=1) + "\n")
    print(f"LSP pass cost ({args.repo}): {cost['seconds']}s for {asked} call sites "
          f"= {cost['seconds_per_1k_call_sites']}s per 1k call sites")
    for g, r in groups.items():
        print(f"  {g}: {r.get('server')} files={r.get('files')} asked={r.get('asked')} symbol={r.get('symbol')} "
              f"external={r.get('external')} variable={r.get('variable')} no_answer={r.get('no_answer')} "
              f"errors={r.get('errors')} skipped={r.get('skipped')!r}")

    # eligible call sites: non-test source files; callee name defined somewhere in the repository
    defined = set()
    for path in ts.files:
        defined.update(d[0] for d in ts.facts(path)["defs"])
    eligible = []
    for path in sorted(ts.files):
        if ts.files[path].get("is_test") or ts.files[path].get("is_generated"):
            continue
        for k, c in enumerate(ts.facts(path)["calls"]):
            if c[1] in defined:
                eligible.append((path, k))
    out_path = OUT_DIR / f"{args.repo}.jsonl"
    old = {}
    if out_path.exists():
        for row in map(json.loads, filter(str.strip, out_path.read_text().splitlines())):
            old[(row["path"], row["line"], row.get("column"))] = row
    if old and not args.fresh:
        # the hand-checked sites again (the eligible population moves when the extractor changes)
        where = {(p, ts.facts(p)["calls"][k][3], ts.facts(p)["calls"][k][4]): (p, k)
                 for p in ts.files for k in range(len(ts.facts(p)["calls"]))}
        picked = [where[key] for key in old if key in where]
        print(f"re-asking the {len(picked)} sampled call sites of {out_path.name} ({len(old) - len(picked)} gone)",
              file=sys.stderr)
    else:
        rng = random.Random(args.seed)
        picked = rng.sample(eligible, min(args.n, len(eligible)))
        print(f"{len(eligible)} eligible call sites, sampled {len(picked)}", file=sys.stderr)
    picked = sorted(picked, key=lambda pk: (pk[0], ts.facts(pk[0])["calls"][pk[1]][3], pk[1]))
    rows = []
    for path, k in picked:
        facts = ts.facts(path)
        caller, name, receiver, line, column = facts["calls"][k][:5]
        code = (corpus_path(args.repo) / path).read_text(errors="replace").splitlines()[line - 1].strip()
        t_targets, t_by = _ordered(*ts.site(path, k, use_lsp=False))
        l_targets, l_by = _ordered(*ls.site(path, k, use_lsp=True))
        prev = old.pop((path, line, column), {})
        rows.append({"path": path, "line": line, "column": column,
                     "caller": symbol_ids("", path, facts["defs"])[caller][1:] if caller is not None else path,
                     "name": name, "receiver": receiver, "code": code,
                     "tree_sitter": t_targets, "lsp": l_targets, "tree_sitter_by": t_by, "lsp_by": l_by,
                     "truth": prev.get("truth"), "note": prev.get("note", "")})
    dropped = [r for r in old.values() if r.get("truth") is not None]
    if dropped and not args.force:
        raise SystemExit(f"{out_path} has {len(dropped)} hand-checked rows this sample would drop; use --force")
    out_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"wrote {len(rows)} rows to {out_path.relative_to(ROOT)}")
    if not args.keep:
        with Graph() as graph:
            _delete(graph, (ts_name, lsp_name))


def _delete(graph, names) -> None:
    from graphrag_code.indexer import delete_repository

    for n in names:
        delete_repository(graph, n)
        print(f"[hc] deleted {n}", file=sys.stderr)


def cmd_remap(args) -> None:
    """After an extractor change renames symbols (a C++ header once parsed as C), point truths whose ids no longer
    exist at the one definition of the same name in the same file; the note says so. Needs ``sample --keep``."""
    from graphrag_code.db import Graph

    ts_name, _ = repo_names(args.repo)
    with Graph() as graph:
        ts = Dump(graph.run("repo_dump", repo=ts_name)[0], ts_name)
    ids = {ts.strip(i) for i in ts.sym_name}
    by_file_name: dict[tuple[str, str], list[str]] = defaultdict(list)
    for i in ids:
        path, qualified = i.split("#", 1)
        by_file_name[(path, qualified.rsplit(".", 1)[-1].split("~")[0])].append(i)
    out_path = OUT_DIR / f"{args.repo}.jsonl"
    rows = [json.loads(line) for line in out_path.read_text().splitlines() if line.strip()]
    changed = 0
    for row in rows:
        truth = []
        for t in row.get("truth") or []:
            if t in ids or "#" not in t:
                truth.append(t)
                continue
            path, qualified = t.split("#", 1)
            name = qualified.rsplit(".", 1)[-1].split("~")[0]
            hits = by_file_name.get((path, name), [])
            # a class and its constructors (`X`, `X.X`, `X.X~2`): scoring folds constructors into the class
            classes = [h for h in hits if h.split("#", 1)[1].split(".")[-1].split("~")[0] == name and
                       not h.split("#", 1)[1].startswith(f"{name}.{name}")]
            if len(hits) > 1 and len(classes) == 1 and all(h == classes[0] or h.split("#", 1)[1].startswith(
                    f"{name}.{name}") for h in hits):
                hits = classes
            if len(hits) != 1:
                raise SystemExit(f"{row['path']}:{row['line']}: truth {t} is gone and {len(hits)} candidates: {hits}")
            truth.append(hits[0])
            row["note"] = (row.get("note") or "") + f" [truth id remapped from {t} to {hits[0]} after an extractor change]"
            changed += 1
        if row.get("truth") is not None:
            row["truth"] = truth
    out_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"remapped {changed} truth ids in {out_path.relative_to(ROOT)}")


def cmd_clean(args) -> None:
    from graphrag_code.db import Graph

    with Graph() as graph:
        _delete(graph, [n for r in REPOS for n in repo_names(r)])


# -- score ----------------------------------------------------------------------------------------------------
def _norm(target: str, fold_overloads: bool = False) -> str | None:
    """In-repo target id (constructor folded into its class), None for external/unresolved. With
    ``fold_overloads`` the overload signatures of a function (``f``, ``f~2``...) count as one target."""
    if target.startswith(("external:", "unresolved:")):
        return None
    target = re.sub(r"^hc-[\w-]+:", "", target)
    if fold_overloads:
        target = re.sub(r"~\d+$", "", target)
    m = _CPP_CONSTRUCTOR.match(target)
    if m:     # C++ `X.X`: in-class, the class X; out-of-line (X in a header), `<file.cc>#X`, still its own target
        return m.group(1)
    for constructor in (".constructor", ".__construct"):      # JavaScript/TypeScript, PHP
        if target.endswith(constructor):
            return target[: -len(constructor)]
    return target


def _targets(items, fold_overloads: bool = False) -> set[str]:
    return {t for t in (_norm(i, fold_overloads) for i in items or []) if t}


def score_rows(rows: list[dict], fold_overloads: bool = False) -> dict:
    res = {}
    checked = [r for r in rows if r.get("truth") is not None]

    def tg(items) -> set[str]:
        return _targets(items, fold_overloads)

    for mode in ("tree_sitter", "lsp"):
        tp = n_pred = n_truth = exact = 0
        for r in checked:
            pred, truth = tg(r[mode]), tg(r["truth"])
            tp += len(pred & truth)
            n_pred += len(pred)
            n_truth += len(truth)
            exact += pred == truth
        res[mode] = {"precision": tp / n_pred if n_pred else None, "recall": tp / n_truth if n_truth else None,
                     "edges": n_pred, "correct_edges": tp, "truth_edges": n_truth, "sites_exact": exact}
    res["sites"] = len(checked)
    res["sites_unchecked"] = len(rows) - len(checked)
    res["sites_in_repo_truth"] = sum(1 for r in checked if tg(r["truth"]))
    res["sites_disagree"] = sum(1 for r in checked if tg(r["tree_sitter"]) != tg(r["lsp"]))
    return res


def cmd_score(args) -> None:
    path = OUT_DIR / f"{args.repo}.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    res = score_rows(rows)
    folded = score_rows(rows, fold_overloads=True)
    cost_path = OUT_DIR / f"{args.repo}.cost.json"
    cost = json.loads(cost_path.read_text()) if cost_path.exists() else {}
    if args.json:
        print(json.dumps({"repo": args.repo, **res, "overloads_folded": folded, "lsp_cost": cost}, indent=1))
        return

    def pct(x):
        return "  -  " if x is None else f"{100 * x:5.1f}%"

    ts, ls = res["tree_sitter"], res["lsp"]
    print(f"{args.repo}: {res['sites']} hand-checked call sites ({res['sites_unchecked']} unchecked), "
          f"{res['sites_in_repo_truth']} with an in-repo truth, modes disagree at {res['sites_disagree']}")
    print(f"  {'':28}{'tree-sitter':>14}{'tree-sitter+LSP':>18}")
    print(f"  {'precision':28}{pct(ts['precision']):>14}{pct(ls['precision']):>18}")
    print(f"  {'recall':28}{pct(ts['recall']):>14}{pct(ls['recall']):>18}")
    e_ts, e_ls = f"{ts['edges']} ({ts['correct_edges']})", f"{ls['edges']} ({ls['correct_edges']})"
    print(f"  {'in-repo edges (correct)':28}{e_ts:>14}{e_ls:>18}")
    fts, fls = folded["tree_sitter"], folded["lsp"]
    print(f"  {'precision, overloads folded':28}{pct(fts['precision']):>14}{pct(fls['precision']):>18}")
    print(f"  {'recall, overloads folded':28}{pct(fts['recall']):>14}{pct(fls['recall']):>18}")
    print(f"  {'truth edges':28}{ts['truth_edges']:>14}{ls['truth_edges']:>18}")
    print(f"  {'sites exactly right':28}{ts['sites_exact']:>14}{ls['sites_exact']:>18}")
    print(f"  {'sites with in-repo truth':28}{res['sites_in_repo_truth']:>14}{res['sites_in_repo_truth']:>18}")
    print(f"  {'sites where modes disagree':28}{res['sites_disagree']:>14}{res['sites_disagree']:>18}")
    if cost:
        print(f"  LSP pass: {cost.get('seconds')}s for {cost.get('call_sites_asked')} call sites "
              f"= {cost.get('seconds_per_1k_call_sites')}s per 1k call sites "
              f"({', '.join(g.get('server', '') for g in (cost.get('groups') or {}).values())})")
    if args.update_baseline or args.gate:
        _baseline(args.repo, res["lsp"], update=args.update_baseline)
    if args.verbose:
        for r in rows:
            if r.get("truth") is None:
                continue
            t, p1, p2 = _targets(r["truth"]), _targets(r["tree_sitter"]), _targets(r["lsp"])
            if p1 != t or p2 != t:
                print(f"\n  {r['path']}:{r['line']} {r['code'][:90]}\n    truth={sorted(t)}\n"
                      f"    ts{'✓' if p1 == t else '✗'}={r['tree_sitter']}\n    lsp{'✓' if p2 == t else '✗'}={r['lsp']}"
                      f"\n    note: {r.get('note', '')}")


BASELINE = OUT_DIR / "baseline.json"
GATE_POINTS = 0.03


def _baseline(repo: str, lsp: dict, update: bool) -> None:
    """Record the LSP mode's precision / recall, or fail (exit 1) when either is more than 3 points below it."""
    base = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    if update:
        base[repo] = {"precision": round(lsp["precision"], 4), "recall": round(lsp["recall"], 4)}
        BASELINE.write_text(json.dumps(base, indent=1, sort_keys=True) + "\n")
        print(f"  baseline for {repo} written to {BASELINE.relative_to(ROOT)}")
        return
    if repo not in base:
        raise SystemExit(f"no baseline for {repo} in {BASELINE.relative_to(ROOT)}: run score --update-baseline")
    drops = [f"{k} {lsp[k]:.3f} < baseline {base[repo][k]:.3f} - {GATE_POINTS}" for k in ("precision", "recall")
             if lsp[k] is None or lsp[k] < base[repo][k] - GATE_POINTS]
    if drops:
        raise SystemExit(f"{repo}: the language-server mode regressed: " + "; ".join(drops))
    print(f"  gate: {repo} within {GATE_POINTS:.0%} of the baseline")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="index twice and write the call-site sample")
    s.add_argument("--repo", choices=sorted(REPOS), required=True)
    s.add_argument("--n", type=int, default=60)
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--keep", action="store_true", help="keep the hc-* repositories in Neo4j afterwards")
    s.add_argument("--force", action="store_true", help="overwrite hand-checked rows that are not sampled again")
    s.add_argument("--fresh", action="store_true",
                   help="draw a new sample (default when the jsonl exists: the same call sites again)")
    s.set_defaults(func=cmd_sample)
    c = sub.add_parser("score", help="precision / recall of both modes against the hand-checked truth")
    c.add_argument("--repo", choices=sorted(REPOS), required=True)
    c.add_argument("--json", action="store_true")
    c.add_argument("-v", "--verbose", action="store_true", help="list the sites where a mode is wrong")
    c.add_argument("--gate", action="store_true",
                   help="exit 1 when the LSP mode's precision or recall is > 3 points below baseline.json")
    c.add_argument("--update-baseline", action="store_true", help="record this score in baseline.json")
    c.set_defaults(func=cmd_score)
    m = sub.add_parser("remap", help="re-point truths whose symbol ids an extractor change renamed (after sample --keep)")
    m.add_argument("--repo", choices=sorted(REPOS), required=True)
    m.set_defaults(func=cmd_remap)
    d = sub.add_parser("clean", help="delete the hc-* repositories from Neo4j")
    d.set_defaults(func=cmd_clean)
    f = sub.add_parser("fetch", help="put a pinned corpus into eval/.corpus (idempotent; sample does it too)")
    f.add_argument("--repo", choices=sorted(REPOS), required=True)
    f.add_argument("--force", action="store_true", help="download and extract again")
    f.set_defaults(func=cmd_fetch)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    from graphrag_code.errors import script_main
    script_main(main)
