"""Findings of the ninth QA pass and the items earlier notes left, against the real Neo4j where they need it."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_ctrl_c_while_the_command_line_imports_exits_130_without_a_traceback() -> None:
    """The console script imported graphrag_code.cli (about a second) before any handler existed: a Ctrl-C
    then printed a KeyboardInterrupt traceback from inside an import. A real SIGINT, delivered while one of the
    command line's modules is being imported."""
    script = textwrap.dedent("""
        import importlib.abc, os, signal, sys

        class Interrupt(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name == "graphrag_code.cli_answer":
                    os.kill(os.getpid(), signal.SIGINT)
                return None

        sys.meta_path.insert(0, Interrupt())
        sys.argv = ["graphrag-code", "--version"]
        from graphrag_code.entry import main
        main()
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 130, (proc.returncode, proc.stderr)
    assert proc.stderr.strip() == "interrupted" and "Traceback" not in proc.stderr, proc.stderr


def test_the_console_script_runs_the_command_line() -> None:
    proc = subprocess.run([sys.executable, "-c", "import sys; sys.argv = ['graphrag-code', '--version'];"
                           " from graphrag_code.entry import main; main()"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "graphrag-code, version" in proc.stdout, (proc.returncode, proc.stderr)
