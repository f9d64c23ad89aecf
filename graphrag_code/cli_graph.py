"""`graphrag-code path` and `graphrag-code impact`: thin commands over graphrag_code.paths / graphrag_code.impact.

Registered in cli.py as lazily loaded commands (``_LAZY_COMMANDS``: imported when run or listed). Each
command maps graphrag_code errors to their exit codes itself (as cli.GraphragGroup does), so it behaves the
same when invoked on its own.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .cli_cypher import print_explain
from .config import Neo4jSettings
from .db import Graph, Recorder
from .errors import GraphragError, NotFound, check_text
from .impact import DEFAULT_DEPTH, DEFAULT_TEST_DEPTH, Caller, ImpactResult, analyze_impact
from .paths import (
    DEFAULT_MAX_HOPS,
    MAX_HOPS_LIMIT,
    MAX_K,
    CallPath,
    NodeRef,
    PathResult,
    default_repository,
    find_paths,
    repository,
)


# `impact --fail-on N` found more than N impacted: a verdict for CI, not a failure, so neither 1 (an unhandled
# error) nor an error's code (2-7, errors.py); the README lists it with them
FAIL_ON_EXIT_CODE = 8


_FILE_ARG = re.compile(r"(?P<path>\.{1,2}(?:/.*)?|/.*?)(?P<line>:\d+)?")


def _from_cwd(graph: Graph, repo: str, text: str) -> str:
    """A file argument written as a path on this machine (``../app/x.py``, ``./x.py:12``, an absolute path) as
    the repository-relative path the graph has; any other text unchanged. (`./x.py` had matched any file ending
    in /x.py, and ``../`` and absolute paths nothing; eighth QA pass.)"""
    m = _FILE_ARG.fullmatch(text)
    if m is None or ("#" in text and not Path(m["path"]).is_file()):     # `./h#sh.py` is a file; ids have no ./
        return text
    root = repository(graph, repo, complete=False).get("root")
    if not root:
        return text
    place = Path(os.path.abspath(m["path"])).resolve()
    try:
        rel = place.relative_to(Path(root).resolve())
    except ValueError:
        raise NotFound(f"{m['path']} is {place}, outside {repo}'s indexed root {root}",
                       hint="name a file of the repository (a path relative to here, or to its root)") from None
    return rel.as_posix() + (m["line"] or "")


def _reports_errors(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphragError as err:
            click.echo(f"error: {err}", err=True)
            click.get_current_context().exit(err.exit_code)
    return wrapper


def _short(commit: str | None) -> str:
    return (commit or "")[:12] or "(no git)"


def _node_line(n: NodeRef) -> str:
    return f"{n.display}  ({n.kind}, {n.location}{', test' if n.is_test else ''})"


# -- path -----------------------------------------------------------------------------------------------------------
def _print_path(p: CallPath, rank: int) -> None:
    click.echo(f"#{rank}  {p.length} hop{'s' if p.length != 1 else ''}, confidence {p.confidence:.3f}")
    click.echo(f"    {p.hops[0].caller.display}  ({p.hops[0].caller.location})")
    for h in p.hops:
        where = ", ".join(h.citations) or "?"
        if h.kind == "dispatch":
            how = f"may dispatch to the override: {h.resolved_by} {h.confidence:.2f}"
            arrow = "=>"
        else:
            how = f"{h.resolved_by} {h.confidence:.2f}"
            arrow = "->"
        flag = "  [uncertain]" if h.confidence < 0.6 or h.kind == "dispatch" else ""
        click.echo(f"      {arrow} {h.callee.display:<40s} at {where:<28s} {how}{flag}")


def _print_path_result(r: PathResult) -> None:
    click.echo(f"{r.repo} @ {_short(r.commit)}")
    for label, res in (("from", r.source), ("to  ", r.target)):
        click.echo(f"{label}  {_node_line(res.node)}")
        click.echo(f"      chosen: {res.reason}")
        if res.ambiguous:
            others = [c for c in res.candidates if c.id != res.node.id]
            click.echo("      other candidates: " + "; ".join(f"{c.display} ({c.location})" for c in others[:8])
                       + (" ..." if len(others) > 8 else ""))
    for note in r.notes:
        click.echo(f"note: {note}")
    click.echo("")
    if r.paths:
        click.echo(f"{len(r.paths)} path{'s' if len(r.paths) != 1 else ''} within {r.max_hops} hops "
                   f"(ranked by hops, then product of confidences):")
        for i, p in enumerate(r.paths, 1):
            _print_path(p, i)
        return
    f = r.frontier
    assert f is not None
    click.echo(f"No call path from {r.source.node.display} to {r.target.node.display} within {r.max_hops} hops "
               f"in the graph.")
    depths = ", ".join(f"depth {d}: {n}" for d, n in sorted(f.per_depth.items())) or "nothing"
    click.echo(f"frontier: {r.source.node.display} reaches {f.reached} node(s) ({depths})"
               + ("; the search was cut at the bound: a longer path may exist" if f.cut_at_bound else
                  "; nothing further is reachable"))
    name = r.target.node.name
    if f.suspects:
        click.echo(f"could hide a path: {len(f.suspects)} unresolved call(s) named {name!r} in code reached from "
                   f"{r.source.node.display}:")
        for u in f.suspects:
            click.echo(f"  {u.label:<36s} at {u.citation:<28s} {u.reason}  (in {u.node.display})")
    else:
        click.echo(f"no unresolved call named {name!r} in the reached code")
    if f.unresolved:
        click.echo(f"other unresolved calls in the reached code ({len(f.unresolved)}; any could be a dynamic call "
                   f"into the path):")
        for u in f.unresolved[:15]:
            click.echo(f"  {u.label:<36s} at {u.citation:<28s} {u.reason}")
        if len(f.unresolved) > 15:
            click.echo(f"  ... {len(f.unresolved) - 15} more (--json)")
    if f.external_unresolved:
        click.echo(f"calls into external modules in the reached code: {f.external_unresolved} (not listed)")
    if f.weak_edges:
        click.echo(f"low-confidence edges on the way ({len(f.weak_edges)}):")
        for w in f.weak_edges[:10]:
            click.echo(f"  {w['src']} -> {w['dst']}  {w['resolved_by']} {w['confidence']}")
    if f.target_callers:
        click.echo(f"{r.target.node.display} is called directly by: "
                   + ", ".join(n.display for n in f.target_callers[:10])
                   + (" ..." if len(f.target_callers) > 10 else ""))
    else:
        click.echo(f"{r.target.node.display} has no resolved callers")
    hidden = len(f.suspects) + len(f.unresolved)
    # cut at the bound, the graph may hold a longer path: the verdict says so before anything else
    verdict = f"no path within {r.max_hops} hops (a longer one may exist: raise --depth)" if f.cut_at_bound \
        else "no path in the graph"
    click.echo(f"verdict: {verdict}" + (f"; {hidden} unresolved call(s) on the way could hide one (not guessed)"
                                        if hidden else "; nothing on the way is unresolved"))


@click.command("path")
@click.argument("source")
@click.argument("target")
@click.option("--repo", help="Repository id (default: the indexed repository containing the current directory).")
@click.option("--depth", "max_hops", type=click.IntRange(1, MAX_HOPS_LIMIT), default=DEFAULT_MAX_HOPS,
              show_default=True, help="Longest path searched, in call hops.")
@click.option("-k", "k", type=click.IntRange(1, MAX_K), default=3, show_default=True, help="How many best paths.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--explain", is_flag=True, help="Also list the Cypher statements run, with timings.")
@_reports_errors
def path_command(source: str, target: str, repo: str | None, max_hops: int, k: int, as_json: bool,
                 explain: bool) -> None:
    """How does SOURCE reach TARGET: the k best call paths, each hop cited as path:line.

    SOURCE and TARGET: a symbol id (path#Qualified.name), a qualified name or its suffix (OrderService.cancel),
    a bare name, or file:line (the innermost symbol containing the line). With no path the answer shows the
    frontier: what SOURCE reaches per depth and the unresolved calls that could hide a path.
    """
    for what, text in (("SOURCE", source), ("TARGET", target), ("--repo", repo)):
        check_text(text, what)
    recorder = Recorder()
    with Graph(Neo4jSettings.from_env(), tracer=recorder) as graph:
        repo = default_repository(graph, os.getcwd()) if repo is None else repo
        source, target = _from_cwd(graph, repo, source), _from_cwd(graph, repo, target)
        result = graph.consistent(lambda: find_paths(graph, repo, source, target, max_hops=max_hops, k=k))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _print_path_result(result)
    if explain:
        print_explain(recorder)


# -- impact ---------------------------------------------------------------------------------------------------------
def _how(c: Caller) -> str:
    if c.kind == "import":
        return "imports"
    how = f"{c.resolved_by} {c.confidence:.2f}" if c.confidence is not None else (c.resolved_by or "")
    if c.kind == "dispatch" and c.via is not None:
        how = f"dispatch via {c.via.display} ({how})"
    return how


def _flags(c: Caller) -> str:
    out = []
    if c.node.is_test:
        out.append("test")
    if c.entry_point:
        out.append("entry: " + ", ".join(c.entry_point))
    if (c.confidence is not None and c.confidence < 0.6) or c.kind == "dispatch":
        out.append("uncertain")
    return f"  [{'; '.join(out)}]" if out else ""


def _print_table(r: ImpactResult) -> None:
    groups = r.by_depth()
    non_test = sum(1 for c in r.callers if not c.node.is_test)
    click.echo(f"callers up to depth {r.depth}: {len(r.callers)} ({non_test} non-test)")
    for depth, callers in groups.items():
        click.echo(f"depth {depth}")
        for c in callers:
            at = ", ".join(c.citations) or c.node.path
            click.echo(f"  {c.node.display:<34s} {c.node.kind:<9s} -> {c.calls.display:<30s} at {at:<26s} "
                       f"{_how(c)}{_flags(c)}")
    if r.importers:
        click.echo(f"importing files up to depth {r.depth}: {len(r.importers)}")
        for depth, imps in r.by_depth(r.importers).items():
            for c in imps:
                click.echo(f"  {depth}  {c.node.path:<40s} imports {c.calls.path} at "
                           f"{', '.join(c.citations)}{'  [test]' if c.node.is_test else ''}")


def _print_tree(r: ImpactResult) -> None:
    children: dict[str, list[Caller]] = {}
    for e in r.edges:
        children.setdefault(e.calls.id, []).append(e)
    shown: set[str] = set()

    def walk(node_id: str, prefix: str, depth: int) -> None:
        kids = sorted(children.get(node_id, []), key=lambda c: (c.node.is_test, c.node.id))
        kids = [c for c in kids if c.node.id != node_id]
        for i, c in enumerate(kids):
            last = i == len(kids) - 1
            branch = "└── " if last else "├── "
            again = c.node.id in shown
            click.echo(f"{prefix}{branch}{c.node.display}  {', '.join(c.citations)}  {_how(c)}{_flags(c)}"
                       + ("  (see above)" if again else ""))
            if not again and depth < r.depth:
                shown.add(c.node.id)
                walk(c.node.id, prefix + ("    " if last else "│   "), depth + 1)
            shown.add(c.node.id)

    for t in r.targets:
        click.echo(f"{t.node.display}  ({t.node.location})")
        shown.add(t.node.id)
        walk(t.node.id, "", 1)


def _print_removed(r: ImpactResult) -> None:
    """--diff: the definitions of REV the indexed commit lacks, each with the callers that still call it."""
    base = _short(r.removed[0].commit)
    click.echo(f"removed by the diff: {len(r.removed)} definition(s) of {base} not in the indexed commit")
    quiet = [d for d in r.removed if not d.callers]
    for d in [d for d in r.removed if d.callers] + quiet[:12]:
        where = f"{d.citation} @ {base}" + (f" (file renamed to {d.moved_to})" if d.moved_to else
                                             " (file gone)" if d.file_gone else "")
        state = f"still called by {len({c.node.id for c in d.callers})}" if d.callers else "no caller left"
        click.echo(f"  {d.qualified_name:<34s} {d.kind:<9s} {where:<40s} {state}{'  [test]' if d.is_test else ''}")
        for c in d.callers[:15]:
            if c.kind == "unresolved" or c.now_calls is None:
                how = f"{c.call}  unresolved ({c.reason})"
            else:
                how = f"{c.call}  now bound by its name alone to {c.now_calls.display} ({c.now_calls.location})"
            click.echo(f"      {c.node.display:<32s} at {', '.join(c.citations):<26s} {how}"
                       f"{'  [test]' if c.node.is_test else ''}")
        if len(d.callers) > 15:
            click.echo(f"      ... {len(d.callers) - 15} more (--json)")
    if len(quiet) > 12:
        click.echo(f"  ... and {len(quiet) - 12} more with no caller left (--json)")


def _print_impact(r: ImpactResult, tree: bool) -> None:
    click.echo(f"impact in {r.repo} @ {_short(r.commit)}")
    if r.diff:
        click.echo(f"  {r.diff['command']}: {sum(len(v) for v in r.diff['hunks'].values())} hunk(s) in "
                   f"{len(r.diff['hunks'])} file(s)")
    shown = r.targets[:12]
    for t in shown:
        click.echo(f"target  {_node_line(t.node)}")
        click.echo(f"        {t.reason}")
    if len(r.targets) > len(shown):
        click.echo(f"... and {len(r.targets) - len(shown)} more targets (--json)")
    if not r.targets:
        click.echo("no indexed symbol is touched" + (f" (the diff removes {len(r.removed)} definition(s): below)"
                                                      if r.removed else ""))
    if r.resolution and r.resolution.ambiguous:
        others = [c for c in r.resolution.candidates if c.id != r.resolution.node.id]
        click.echo("        other candidates: " + "; ".join(f"{c.display} ({c.location})" for c in others[:8]))
    click.echo("")
    if tree:
        _print_tree(r)
    else:
        _print_table(r)
    click.echo("")
    if r.entry_points:
        click.echo(f"entry points reached ({len(r.entry_points)}):")
        for c in r.entry_points:
            click.echo(f"  {c.node.display:<34s} {c.node.location:<30s} {', '.join(c.entry_point)}  (depth {c.depth})")
    else:
        click.echo("entry points reached: none within the depth")
    if r.tests:
        click.echo(f"tests exercising the target ({len(r.tests)}, searched to depth {r.test_depth}):")
        for c in r.tests:
            click.echo(f"  {c.node.display:<34s} {c.node.location:<30s} depth {c.depth}")
    else:
        click.echo(f"tests exercising the target: none found (searched to depth {r.test_depth})")
    if r.removed:
        _print_removed(r)
    comp = r.completeness
    click.echo("")
    if comp.complete:
        click.echo(f"completeness: COMPLETE within the graph — {comp.reasons[0]}")
        rest = comp.reasons[1:]
    else:
        zero = " (0 callers is not certain)" if not r.callers else ""
        click.echo(f"completeness: LOWER BOUND — there may be more callers than listed{zero}")
        rest = comp.reasons
    for reason in rest:
        click.echo(f"  - {reason}")
    for u in comp.unresolved_same_name[:15]:
        click.echo(f"    {u.label:<36s} at {u.citation:<28s} {u.reason}  (in {u.node.display})")
    if len(comp.unresolved_same_name) > 15:
        click.echo(f"    ... {len(comp.unresolved_same_name) - 15} more (--json)")
    for u in comp.unresolved_deeper[:5]:
        click.echo(f"    {u.label:<36s} at {u.citation:<28s} {u.reason}  (named like a caller)")
    if len(comp.unresolved_deeper) > 5:
        click.echo(f"    ... {len(comp.unresolved_deeper) - 5} more (--json)")
    for ref in comp.value_references[:10]:
        click.echo(f"    {ref['citation']:<36s} {ref['kind']:<10s} {ref['text']}")
    if len(comp.value_references) > 10:
        click.echo(f"    ... {len(comp.value_references) - 10} more references (--json)")
    for note in r.notes:
        click.echo(f"note: {note}")


@click.command("impact")
@click.argument("target", required=False)
@click.option("--repo", help="Repository id (default: the indexed repository containing the current directory).")
@click.option("--diff", "rev", metavar="REV", help="Targets: the symbols `git diff -U0 REV <indexed commit>` touches.")
@click.option("--staged", is_flag=True, help="Targets: the symbols the staged changes touch (indexed lines).")
@click.option("--depth", type=click.IntRange(1, 10), default=DEFAULT_DEPTH, show_default=True,
              help="Transitive callers up to this many calls away.")
@click.option("--test-depth", type=click.IntRange(1, 20), default=DEFAULT_TEST_DEPTH, show_default=True,
              help="How far up to look for tests that exercise the target.")
@click.option("--tree", is_flag=True, help="Print callers as a tree under each target.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--fail-on", type=click.IntRange(0), metavar="N",
              help=f"Exit {FAIL_ON_EXIT_CODE} when more than N non-test callers (and importing files) are "
                   f"impacted (for CI).")
@click.option("--explain", is_flag=True, help="Also list the Cypher statements run, with timings.")
@_reports_errors
def impact_command(target: str | None, repo: str | None, rev: str | None, staged: bool, depth: int,
                   test_depth: int, tree: bool, as_json: bool, fail_on: int | None, explain: bool) -> None:
    """What is impacted by changing TARGET: transitive callers by depth, entry points, tests, and whether the
    answer is complete or a lower bound.

    TARGET: a symbol (name, qualified name, id), file:line, or a file path (its symbols and importers); or
    --diff REV / --staged for the symbols a git diff of the indexed checkout touches.
    """
    for what, text in (("TARGET", target), ("--repo", repo), ("--diff", rev)):
        check_text(text, what)
    recorder = Recorder()
    with Graph(Neo4jSettings.from_env(), tracer=recorder) as graph:
        repo = default_repository(graph, os.getcwd()) if repo is None else repo
        target = _from_cwd(graph, repo, target) if target is not None else None
        result = graph.consistent(lambda: analyze_impact(graph, repo, target, diff=rev, staged=staged, depth=depth,
                                                         test_depth=test_depth))
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2))
    else:
        _print_impact(result, tree)
    if explain:
        print_explain(recorder)
    if fail_on is not None and result.impacted > fail_on:
        click.echo(f"fail-on: {result.impacted} impacted > {fail_on}", err=True)
        click.get_current_context().exit(FAIL_ON_EXIT_CODE)
