"""`graphrag-code neo4j …`: start, stop and inspect the project's own local Neo4j server.

A thin layer over graphrag_code.neo4j_local; mount it with ``main.add_command(neo4j_group)``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import click

from graphrag_code import config
from graphrag_code.errors import GraphragError
from graphrag_code.neo4j_local import LocalNeo4j, ServerStatus, default_state_dir


def _fail(err: GraphragError) -> NoReturn:
    click.echo(f"error: {err}", err=True)
    sys.exit(err.exit_code)


def _env_port(name: str, default: int) -> int:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        click.echo(f"error: {name}={value!r} is not a port number", err=True)
        sys.exit(2)


def _state_dir(ctx: click.Context) -> Path:
    root = ctx.obj.get("state_dir") if ctx.obj else None
    return Path(root) / "neo4j" if root else default_state_dir()


def _server(ctx: click.Context, **kwargs: Any) -> LocalNeo4j:
    kwargs.setdefault("bolt_port", _env_port("GRAPHRAG_BOLT_PORT", config.DEFAULT_BOLT_PORT))
    kwargs.setdefault("http_port", _env_port("GRAPHRAG_HTTP_PORT", config.DEFAULT_HTTP_PORT))
    try:
        return LocalNeo4j(state_dir=_state_dir(ctx), **kwargs)
    except GraphragError as err:
        _fail(err)


def _print_status(status: ServerStatus, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(status.to_dict(), indent=2))
        return
    if not status.running:
        click.echo(f"Neo4j is not running (state dir {status.state_dir})")
        return
    state = "ready" if status.ready else "starting or not answering on Bolt"
    click.echo(f"Neo4j {status.version or ''} is running, {state} (pid {status.pid})".replace("  ", " "))
    click.echo(f"  Bolt:    {status.bolt_uri}   (no authentication: loopback only)")
    click.echo(f"  Browser: {status.browser_url}")
    click.echo(f"  State:   {status.state_dir}")


@click.group(name="neo4j")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path), envvar="GRAPHRAG_STATE_DIR",
              help="Root of graphrag-code's state; the server lives in <state-dir>/neo4j. "
                   "[env GRAPHRAG_STATE_DIR; default <repo>/.graphrag]")
@click.pass_context
def neo4j_group(ctx: click.Context, state_dir: Path | None) -> None:
    """Run a local Neo4j 5.26 Community server for graphrag-code, without Docker.

    The jars come from Maven Central (fetched once with `mvn`); the server listens on 127.0.0.1 only, with
    authentication off, and keeps its data under the state directory.
    """
    ctx.ensure_object(dict)
    ctx.obj["state_dir"] = state_dir


@neo4j_group.command("start")
@click.option("--timeout", type=float, default=180.0, show_default=True,
              help="Seconds to wait until Bolt and the Browser answer.")
@click.option("--heap", default="2g", show_default=True, help="JVM heap (-Xms/-Xmx), e.g. 512m or 4g.")
@click.option("--pagecache", default="256m", show_default=True, help="Neo4j page cache size.")
@click.option("--tx-memory", default=None,
              help="What all open transactions may hold (dbms.memory.transaction.total.max); default half the heap, "
                   "and it must stay below the heap. An index swap larger than that runs in several transactions.")
@click.option("--bolt-port", type=int, envvar="GRAPHRAG_BOLT_PORT", default=config.DEFAULT_BOLT_PORT,
              show_default=True, help="Bolt port on 127.0.0.1. [env GRAPHRAG_BOLT_PORT]")
@click.option("--http-port", type=int, envvar="GRAPHRAG_HTTP_PORT", default=config.DEFAULT_HTTP_PORT,
              show_default=True, help="HTTP/Browser port on 127.0.0.1. [env GRAPHRAG_HTTP_PORT]")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def start_cmd(ctx: click.Context, timeout: float, heap: str, pagecache: str, tx_memory: str | None, bolt_port: int,
              http_port: int, as_json: bool) -> None:
    """Start the server (or find it already running) and wait until it answers.

    Fetches the Neo4j jars with Maven on first use. Prints the Bolt URI to give NEO4J_URI and the Browser URL.
    """
    server = _server(ctx, bolt_port=bolt_port, http_port=http_port, heap=heap, pagecache=pagecache,
                     tx_memory=tx_memory)
    try:
        status = server.start(timeout=timeout)
    except GraphragError as err:
        _fail(err)
    if as_json:
        _print_status(status, True)
        return
    if status.already_running:
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(status.started_at)) if status.started_at else "?"
        click.echo(f"Neo4j {status.version or ''} was already running (pid {status.pid}, since {since})"
                   .replace("  ", " "))
        for option, asked, has in (("--heap", heap, status.heap), ("--pagecache", pagecache, status.pagecache),
                                   ("--tx-memory", tx_memory, status.tx_memory)):
            given = ctx.get_parameter_source(option[2:].replace("-", "_")) == click.core.ParameterSource.COMMANDLINE
            if given and has and asked != has:
                click.echo(f"warning: {option} {asked} does not apply: the running server keeps {has} "
                           f"(`graphrag-code neo4j stop`, then start it again)", err=True)
    else:
        took = f" in {status.startup_seconds:.1f} s" if status.startup_seconds is not None else ""
        click.echo(f"Neo4j {status.version or ''} is up{took} (pid {status.pid})".replace("  ", " "))
    click.echo(f"  Bolt:    {status.bolt_uri}   (export NEO4J_URI={status.bolt_uri})")
    click.echo(f"  Browser: {status.browser_url}   (connect with 'No authentication')")


@neo4j_group.command("stop")
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds to wait after SIGTERM before SIGKILL.")
@click.option("--json", "as_json", is_flag=True, help="Print the resulting status as JSON.")
@click.pass_context
def stop_cmd(ctx: click.Context, timeout: float, as_json: bool) -> None:
    """Stop the server. Does nothing (successfully) when it is not running."""
    server = _server(ctx)
    try:
        was = server.status()
        status = server.stop(timeout=timeout)
    except GraphragError as err:
        _fail(err)
    if as_json:
        _print_status(status, True)
    elif was.running:
        click.echo(f"Neo4j stopped (was pid {was.pid})")
    else:
        click.echo("Neo4j was not running")


@neo4j_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@click.pass_context
def status_cmd(ctx: click.Context, as_json: bool) -> None:
    """Say whether the server runs, whether Bolt answers, and where. Exit 0 when ready, 1 otherwise."""
    try:
        status = _server(ctx).status()
    except GraphragError as err:
        _fail(err)
    _print_status(status, as_json)
    other = os.environ.get("NEO4J_URI")
    if other and other.rstrip("/") != status.bolt_uri and not as_json:
        # the other commands use NEO4J_URI's server; this one only knows the launcher's
        click.echo(f"note: NEO4J_URI={other}: the other commands use that server, not this local one", err=True)
    sys.exit(0 if status.ready else 1)


@neo4j_group.command("logs")
@click.option("-n", "--lines", type=click.IntRange(min=1), default=200, show_default=True,
              help="How many lines from the end.")
@click.option("--json", "as_json", is_flag=True, help="Print {\"path\": …, \"lines\": […]} as JSON.")
@click.pass_context
def logs_cmd(ctx: click.Context, lines: int, as_json: bool) -> None:
    """Print the last LINES lines of the server's console log (<state>/logs/console.log), or of neo4j.log beside
    it when that is missing or empty; the file read is named on stderr (in "path" with --json). More in
    debug.log."""
    path, text = _server(ctx).logs(lines)
    if as_json:
        click.echo(json.dumps({"path": str(path), "lines": text.split("\n") if text else []}, indent=2))
    elif text:
        click.echo(f"(from {path})", err=True)
        click.echo(text)
    else:
        click.echo(f"(no log yet at {path})", err=True)


if __name__ == "__main__":
    neo4j_group()
