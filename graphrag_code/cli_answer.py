"""`graphrag-code ask`: a thin command over ``answer.answer``. Registered in cli.py (``main.add_command``).

Errors are graphrag_code errors and reach the group's one handler: ``LLMError`` / ``LLMUnavailable`` (exit 7)
for the LLM, ``DatabaseError`` (exit 3) for Neo4j, ``InputError`` (exit 2) for bad input.
"""

from __future__ import annotations

import json

import click

from .cli_cypher import print_explain
from .config import ANSWER_SOURCES, Neo4jSettings
from .db import Graph, Recorder
from .errors import check_text
from .llm import MAX_LLM_RETRIES


@click.command("ask")
@click.argument("question")
@click.option("--repo", help="Only this repository (default: all indexed).")
@click.option("--llm/--no-llm", "use_llm", default=None,
              help="--no-llm: an extractive answer (ranked sources and call chains, nothing generated). "
                   "--llm: require the LLM (error when ANTHROPIC_API_KEY is not set). Default: the LLM when "
                   "ANTHROPIC_API_KEY is set, else extractive with a note.")
@click.option("--model", help="Anthropic model (default: GRAPHRAG_LLM_MODEL or claude-sonnet-5-5).")
@click.option("--max-tokens", type=click.IntRange(1), help="Longest answer in output tokens (default 1024).")
@click.option("--context-window", type=click.IntRange(1000),
              help="The model's context window in tokens; sources fill at most 35% of it (default 1000000).")
@click.option("--timeout", type=click.FloatRange(min=0.1), help="Seconds to wait for the LLM (default 60).")
@click.option("--max-retries", type=click.IntRange(0, MAX_LLM_RETRIES), help="Retries on 429/5xx/connection errors (default 2).")
@click.option("-k", "--top", "k", type=click.IntRange(1, 50), default=ANSWER_SOURCES, show_default=True,
              help="Sources to retrieve.")
@click.option("--no-vectors", is_flag=True, help="Do not use the vector channel.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--explain", is_flag=True, help="Also list the Cypher statements run, the sources and the LLM calls.")
def ask_command(question: str, repo: str | None, use_llm: bool | None, model: str | None, max_tokens: int | None,
                context_window: int | None, timeout: float | None, max_retries: int | None, k: int,
                no_vectors: bool, as_json: bool, explain: bool) -> None:
    """Answer QUESTION about the indexed code. Every [N] in the answer names a retrieved source; each citation
    is re-read at the indexed commit and shown as path:start–end (symbol) with a permalink, or marked stale."""
    from .answer import answer
    from .llm import LLMSettings
    from .rerankers import make_reranker, reranker_name
    from .search import Searcher, SearchOptions, channels_for

    check_text(question, "QUESTION")
    check_text(repo, "--repo")
    # --no-llm reads no LLM setting: a bad one is no reason to refuse an answer that uses none
    settings = None if use_llm is False else LLMSettings.from_env(
        model=model, max_tokens=max_tokens, context_window=context_window, timeout=timeout, max_retries=max_retries)
    embedder, why = _embedder(not no_vectors)
    # nor does it call the LLM to rerank (GRAPHRAG_RERANKER=llm): the answer goes in the fused order
    skip_llm_reranker = use_llm is False and reranker_name() == "llm"
    reranker = None if skip_llm_reranker else make_reranker(None)
    recorder = Recorder()
    with Graph(Neo4jSettings.from_env(), tracer=recorder) as graph:
        if repo is not None:     # --repo "" too: "not indexed", not every repository
            from .paths import repository
            repository(graph, repo)      # NotFound, as `impact` says, instead of answering from nothing
        result = answer(graph, question, repo=repo, searcher=Searcher(graph, embedder, reranker),
                        search_options=SearchOptions(k=k, channels=channels_for(embedder)),
                        llm=settings, no_llm=use_llm is False, require_llm=use_llm is True)
    if why:
        result.notes.insert(0, why)
    if skip_llm_reranker:
        result.notes.append("reranker llm not run: no LLM call with --no-llm (fused order)")
    if as_json:
        out = result.to_dict()
        if explain:
            out["debug"] = {"statements": recorder.debug()}
        click.echo(json.dumps(out, indent=2, default=str))
        return
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    click.echo(result.render())
    summary = f"\n[{result.mode}"
    if result.mode == "llm" and result.llm:
        summary += (f": {result.llm['model']}, {result.llm['calls']} call(s), tokens in {result.tokens['input']}"
                    f" / out {result.tokens['output']}")
    click.echo(summary + f", {len(result.citations)} citation(s), {result.timings.get('total', 0):.2f}s]")
    if explain:
        click.echo("\nSources (n, tokens, category, location, channels):", err=True)
        for s in result.sources:
            h = s.hit
            click.echo(f"  [{s.n}] {s.tokens:6d} {s.category:14s} {h.location}  "
                       + ", ".join(f"{c}#{r}" for c, r in h.channels.items()), err=True)
        click.echo(f"sources ~{result.tokens.get('sources_estimate')} of a {result.tokens.get('budget')}-token budget, "
                   f"whole prompt ~{result.tokens.get('prompt_estimate')} (estimates: UTF-8 bytes / 2.5)", err=True)
        if result.llm and settings is not None:
            click.echo(f"LLM: {result.llm['model']} at {settings.endpoint}, "
                       f"{result.llm['calls']} call(s), {result.llm['retries']} retries, regenerated "
                       f"{result.llm['regenerated']}, stop {result.llm['stop_reason']}, tokens in "
                       f"{result.tokens['input']} / out {result.tokens['output']}, request ids "
                       f"{', '.join(result.llm['request_ids']) or '-'}", err=True)
        print_explain(recorder)
        click.echo("stage timings: " + ", ".join(f"{k} {v * 1000:.1f}ms" for k, v in result.timings.items()),
                   err=True)


def _embedder(enabled: bool):
    """The configured query embedder, or None with the reason (as `search` does)."""
    if not enabled:
        return None, None
    from .embeddings import try_load_embedder
    return try_load_embedder()
