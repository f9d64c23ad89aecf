"""`graphrag-code cypher`: the named Cypher statements every command and endpoint runs (``cypher/*.cypher``),
listed or printed one at a time, so that a query `--explain` names can be read and run by hand in Neo4j Browser.
Also ``print_explain``, the `--explain` listing the commands share. Registered in cli.py (``main.add_command``).
"""

from __future__ import annotations

import difflib
import json

import click

from .config import CYPHER_DIR
from .cypher import load_all
from .db import Recorder
from .errors import GraphragError, InputError


def print_explain(recorder: Recorder) -> None:
    """The statements a command ran, on stderr: name, rows, seconds and parameters (long lists cut)."""
    click.echo("\nCypher statements run (name, rows, seconds, parameters):", err=True)
    for e in recorder.events:
        click.echo(f"  {e.name:28s} {e.rows:6d} rows {e.seconds:8.3f}s  "
                   f"{json.dumps(e.short_params(2), default=str)[:200]}", err=True)
    click.echo("  (`graphrag-code cypher NAME` prints a statement, to run it in Neo4j Browser)", err=True)


@click.command("cypher")
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def cypher_command(name: str | None, as_json: bool) -> None:
    """Print the Cypher statement NAME (as `--explain` lists it), or list every statement with what it does.

    Every query graphrag-code runs is one of these files, with declared parameters; user text only ever
    reaches them as a parameter. To run one in Neo4j Browser, paste what this prints with a value in place of
    each `null` (`:param repo => 'flask';`, `:param ids => ['flask:src/flask/app.py#Flask.run'];`).
    """
    try:
        statements = load_all()
        if name is None:
            if as_json:
                click.echo(json.dumps([{"name": n, "description": s.description, "params": sorted(s.params)}
                                       for n, s in sorted(statements.items())], indent=2))
            for n, s in () if as_json else sorted(statements.items()):
                click.echo(f"{n:28s} {s.description[:90]}{'...' if len(s.description) > 90 else ''}")
            return
        statement = statements.get(name)
        if statement is None:
            close = difflib.get_close_matches(name.lower(), statements, n=3)      # CALL_PATH too
            raise InputError(f"no Cypher statement named {name!r}",
                             hint=(f"did you mean {', '.join(close)}? " if close else "")
                                  + "`graphrag-code cypher` lists them")
    except GraphragError as err:
        click.echo(f"error: {err}", err=True)
        raise SystemExit(err.exit_code) from None
    path = next(CYPHER_DIR.rglob(f"{name}.cypher")).relative_to(CYPHER_DIR.parent)
    if as_json:
        click.echo(json.dumps({"name": name, "path": str(path), "description": statement.description,
                               "params": sorted(statement.params), "statements": list(statement.texts)}, indent=2))
        return
    for p in sorted(statement.params):      # each ends with `;`: the Browser runs a paste of several so
        click.echo(f":param {p} => null;")
    click.echo(f"// {path}: {statement.description}")      # a comment of the Cypher, not before a `:param`
    click.echo(";\n".join(statement.texts) + ";")
