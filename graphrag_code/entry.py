"""The `graphrag-code` console script: imports the command line, then runs it.

The command line's modules take about half a second to import (the Neo4j driver, click; the answer pipeline,
impact analysis and the language servers' client load with the commands that use them); a Ctrl-C in that time
would print a traceback from the middle of an import. Here it exits 130 with the word every command's own Ctrl-C
prints (cli.GraphragGroup).
"""

from __future__ import annotations

import importlib
import sys


def main() -> None:
    try:
        cli = importlib.import_module("graphrag_code.cli")
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        raise SystemExit(130) from None
    cli.main()
