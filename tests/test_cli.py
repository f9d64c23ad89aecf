"""The CLI through click's runner: output shapes, help, and errors mapped to exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphrag_code.cli import main
from graphrag_code.errors import DatabaseError, InputError


def test_help_explains_every_command() -> None:
    runner = CliRunner()
    top = runner.invoke(main, ["--help"])
    assert top.exit_code == 0
    for command in ("index", "status", "delete", "up", "neo4j", "search", "serve", "eval", "ask", "cypher"):
        assert command in top.output
        sub = runner.invoke(main, [command, "--help"])
        assert sub.exit_code == 0 and len(sub.output.splitlines()) > 4, command


def test_index_json_then_status_json(git_repo, repo_name, neo4j_settings) -> None:
    git_repo.write("app/main.py", "def hello():\n    return greet()\n\n\ndef greet():\n    return 'hi'\n")
    git_repo.write("README.md", "# Demo\nText.\n")
    git_repo.write("image.png", b"\x89PNG\x00\x00")
    commit = git_repo.commit()
    runner = CliRunner()
    result = runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["commit"] == commit and summary["files_indexed"] == 2
    assert summary["symbols"] == 2 and summary["edges"]["CALLS"] == 1
    assert summary["skipped"] == {"binary-type": ["image.png"]}

    status = runner.invoke(main, ["status", "--json"])
    assert status.exit_code == 0
    (mine,) = [r for r in json.loads(status.output) if r["id"] == repo_name]
    assert mine["commit"] == commit and mine["status"] == "ready" and mine["files"] == 2
    from graphrag_code.config import DEFAULT_CHUNK_TOKENS, EXTRACTOR_VERSION
    assert mine["schema_version"] >= 1 and mine["extractor_version"] == f"{EXTRACTOR_VERSION}:{DEFAULT_CHUNK_TOKENS}"

    text = runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--explain"])
    assert text.exit_code == 0
    assert "2 unchanged" in text.output and "live_files" in text.output   # --explain lists the statements
    assert "`graphrag-code cypher NAME` prints a statement" in text.output


def test_cypher_prints_the_statements_explain_names() -> None:
    """`graphrag-code cypher NAME`: the file's text under a Browser `:param NAME => null;` line per parameter to
    fill in (each ends with `;`: pasted together without, the Browser failed on the query);
    without NAME, every statement; a misspelt name is refused with the close ones."""
    from graphrag_code.cypher import load_all

    runner = CliRunner()
    one = runner.invoke(main, ["cypher", "callers_step"])
    assert one.exit_code == 0, one.output
    lines = one.output.splitlines()
    assert lines[0] == ":param ids => null;" and "UNWIND $ids AS tid" in one.output and lines[-1].endswith(";")
    assert lines[1].startswith("// cypher/callers_step.cypher: One level of a breadth-first walk")
    listed = runner.invoke(main, ["cypher"])
    assert [ln.split()[0] for ln in listed.output.splitlines()] == sorted(load_all())
    as_json = json.loads(runner.invoke(main, ["cypher", "repo_get", "--json"]).output)
    assert as_json["params"] == ["repo"] and as_json["statements"] == [load_all()["repo_get"].texts[0]]
    wrong = runner.invoke(main, ["cypher", "caller_step"])
    assert wrong.exit_code == 2 and "did you mean callers_step" in wrong.output
    assert "did you mean call_path" in runner.invoke(main, ["cypher", "CALL_PATH"]).output


def test_up_refuses_a_public_address_without_tokens_before_indexing(git_repo, repo_name, neo4j_settings,
                                                                    monkeypatch) -> None:
    """docker-compose.yml runs `up --host 0.0.0.0`: without GRAPHRAG_API_TOKENS it must stop at once, not after
    indexing the whole repository."""
    monkeypatch.delenv("GRAPHRAG_API_TOKENS", raising=False)
    git_repo.write("app/main.py", "def hello():\n    return 1\n")
    git_repo.commit()
    runner = CliRunner()
    result = runner.invoke(main, ["up", str(git_repo.root), "--name", repo_name, "--no-neo4j", "--no-embed",
                                  "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "refusing to serve on 0.0.0.0 without API tokens" in result.output
    assert "GRAPHRAG_API_TOKENS" in result.output
    status = runner.invoke(main, ["status", "--json"])
    assert repo_name not in [r["id"] for r in json.loads(status.output)]


def test_missing_path_is_a_usage_error(tmp_path) -> None:
    result = CliRunner().invoke(main, ["index", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_unreachable_neo4j_exits_3_with_a_hint(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path)])
    assert result.exit_code == DatabaseError.exit_code == 3
    assert "Neo4j is not reachable" in result.output and "graphrag-code neo4j start" in result.output


def test_commands_fail_before_any_statement_when_neo4j_is_unreachable(monkeypatch) -> None:
    """No statement is attempted (each would be retried by the driver for 15 s) when nothing answers."""
    from graphrag_code.db import Graph

    def attempted(self, name, /, **params):
        raise AssertionError(f"statement {name} attempted")

    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")
    monkeypatch.setattr(Graph, "run", attempted)
    for args in (["status"], ["search", "x", "--no-vectors"], ["impact", "x", "--repo", "r"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 3 and "Neo4j is not reachable" in result.output, (args, result.output)


def test_bad_repository_name_is_rejected(tmp_path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--name", "bad:name"])
    assert result.exit_code == InputError.exit_code
    assert "may not contain" in result.output


def test_an_empty_name_or_repo_is_refused_not_the_default(tmp_path, neo4j_settings, git_repo, repo_name) -> None:
    """`--name ''` indexed under the folder's name and `--repo ''` searched every repository (exit 0, fourth QA
    pass): a script passing an unset variable did something else than asked, silently."""
    (tmp_path / "a.py").write_text("def helper():\n    return 1\n")
    named = CliRunner().invoke(main, ["index", str(tmp_path), "--name", "", "--no-embed"])
    assert named.exit_code == InputError.exit_code and "must be 1-200 printable characters" in named.output, \
        named.output
    git_repo.write("a.py", "def helper():\n    return 1\n")
    git_repo.commit()
    assert CliRunner().invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--no-embed"]).exit_code == 0
    for args in (["search", "helper", "--no-vectors"], ["ask", "where is helper?", "--no-llm", "--no-vectors"],
                 ["impact", "helper"], ["path", "helper", "helper"]):
        result = CliRunner().invoke(main, [*args, "--repo", ""])
        assert result.exit_code == InputError.exit_code and "''" in result.output, (args, result.output)


def test_plain_directory_is_indexed_with_content_hashes(tmp_path, repo_name, neo4j_settings) -> None:
    (tmp_path / ".gitignore").write_text("ignored.py\n")
    (tmp_path / "ignored.py").write_text("def hidden():\n    pass\n")
    (tmp_path / "lib.py").write_text("def visible():\n    pass\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--name", repo_name, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["commit"] is None and summary["snapshot_id"]
    assert summary["files_indexed"] == 1 and summary["symbols"] == 1


def test_search_reranker_options(git_repo, repo_name, neo4j_settings, tmp_path, monkeypatch) -> None:
    from test_rerankers import build_cross_encoder

    monkeypatch.delenv("GRAPHRAG_RERANKER", raising=False)
    monkeypatch.delenv("GRAPHRAG_RERANKER_MODEL", raising=False)
    git_repo.write("app/main.py", "def hello():\n    return greet()\n\n\ndef greet():\n    return 'hi'\n")
    git_repo.commit()
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name]).exit_code == 0
    build_cross_encoder(tmp_path / "ce")
    args = ["search", "greet", "--repo", repo_name, "--no-vectors"]
    ran = runner.invoke(main, [*args, "--reranker", "cross-encoder", "--reranker-model", str(tmp_path / "ce"), "--json"])
    assert ran.exit_code == 0, ran.output
    assert json.loads(ran.output)["reranker"] == "cross-encoder:ce"
    plain = runner.invoke(main, [*args, "--json"])
    assert json.loads(plain.output)["reranker"] == "none"
    missing = runner.invoke(main, [*args, "--reranker", "cross-encoder"])
    assert missing.exit_code != 0 and "needs a model directory" in missing.output
    assert "--reranker-model" in missing.output                          # the hint says how to fix it


def test_eval_and_bench_scripts_report_a_graphrag_error_as_the_cli_does(capsys) -> None:
    from graphrag_code.errors import DatabaseUnavailable, script_main

    def down() -> int:
        raise DatabaseUnavailable("Neo4j is not reachable", hint="start it with `graphrag-code neo4j start`")

    with pytest.raises(SystemExit) as stopped:
        script_main(down)
    assert stopped.value.code == DatabaseUnavailable.exit_code == 3
    err = capsys.readouterr().err
    assert err.startswith("error: Neo4j is not reachable\n  hint: start it") and "Traceback" not in err
    with pytest.raises(SystemExit) as finished:
        script_main(lambda: 1)
    assert finished.value.code == 1
    with pytest.raises(SystemExit) as reported:
        script_main(lambda: {"precision": 0.95})     # a report, not an exit status
    assert reported.value.code == 0
    with pytest.raises(KeyError):          # not ours: a bug, with its traceback
        script_main(lambda: {}["x"])


def test_delete_removes_one_repository_and_nothing_else(git_repo, repo_name, graph, neo4j_settings) -> None:
    git_repo.write("app/main.py", "def hello():\n    return greet()\n\n\ndef greet():\n    return 'hi'\n")
    git_repo.commit()
    other = f"{repo_name}-kept"
    runner = CliRunner()
    try:
        for name in (repo_name, other):
            assert runner.invoke(main, ["index", str(git_repo.root), "--name", name, "--json"]).exit_code == 0

        unsure = runner.invoke(main, ["delete", repo_name])          # the runner's stdin is no terminal
        assert unsure.exit_code == 2 and "--yes" in unsure.output
        result = runner.invoke(main, ["delete", repo_name, "--yes", "--json"])
        assert result.exit_code == 0, result.output
        # the file, its two symbols, their chunks and the repository itself
        assert json.loads(result.output) == {"repo": repo_name, "deleted_nodes": 1 + 2 + 2 + 1}

        status = json.loads(runner.invoke(main, ["status", "--json"]).output)
        ids = {r["id"] for r in status}
        assert repo_name not in ids and other in ids
        (kept,) = [r for r in status if r["id"] == other]
        assert kept["symbols"] == 2 and kept["files"] == 1
        assert graph.run("repo_dump", repo=repo_name)[0]["nodes"] == []
        assert graph.run("repo_dump", repo=other)[0]["nodes"] != []

        again = runner.invoke(main, ["delete", repo_name, "--yes"])
        assert again.exit_code == 2 and f"no indexed repository '{repo_name}'" in again.output
        assert "graphrag-code status" in again.output
    finally:
        from graphrag_code.indexer import delete_repository
        delete_repository(graph, other)


@pytest.mark.parametrize("host, url", [
    ("127.0.0.1", "http://127.0.0.1:8080/"), ("0.0.0.0", "http://127.0.0.1:8080/"), ("::", "http://[::1]:8080/"),
    ("::1", "http://[::1]:8080/"), ("api.internal", "http://api.internal:8080/")])
def test_the_printed_api_url_can_be_opened(host, url) -> None:
    """`serve --host 0.0.0.0` (the container's) printed http://0.0.0.0:8080/, which no browser opens."""
    from graphrag_code.cli import api_url

    assert api_url(host, 8080) == url


def test_serve_on_every_interface_prints_a_loopback_url(monkeypatch) -> None:
    import waitress

    served = {}

    class Server:                  # binds nothing, serves nothing
        def print_listen(self, format_str: str) -> None:
            pass

        def run(self) -> None:
            pass

    monkeypatch.setenv("GRAPHRAG_API_TOKENS", "t0ken-for-the-test")
    monkeypatch.setattr(waitress, "create_server", lambda app, **kw: served.update(kw) or Server())
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "18080"])
    assert result.exit_code == 0, result.output
    assert served["host"] == "0.0.0.0" and served["port"] == 18080
    assert result.output.startswith("API: http://127.0.0.1:18080/  (listening on 0.0.0.0, every interface; "
                                    "OpenAPI: http://127.0.0.1:18080/openapi.json; bearer tokens")


def test_status_of_a_first_run_not_finished_says_so_instead_of_zero_counts(graph, repos) -> None:
    """A repository whose first run began (and stopped, or still runs) has no counts or versions yet: status says
    so instead of 'files 0 ... schema vNone extractor None' (third QA pass)."""
    name = repos("test-unfinished")
    graph.run("repo_begin", repo=name, name=name, root="/nowhere", run="r1", started_at="2026-12-01T00:00:00+00:00")
    out = CliRunner().invoke(main, ["status"])
    assert out.exit_code == 0, out.output
    (line,) = [ln for ln in out.output.splitlines() if ln.startswith(name)]
    assert "no completed index yet" in line and "None" not in line


def test_the_drivers_own_logging_stays_off_stderr() -> None:
    """A command reports Neo4j failures itself (translated); the driver's lines about each broken connection and
    retry ('[#DF72] _: <CONNECTION> error', 'Transaction failed and will be retried') were noise (third QA pass).
    In a process of its own: pytest's log capture would swallow them either way."""
    import subprocess
    import sys

    code = ("import logging\nfrom graphrag_code.cli import main\ntry:\n    main(['status', '--help'])\n"
            "except SystemExit:\n    pass\n"
            "logging.getLogger('neo4j.io').error('[#DF72]  _: <CONNECTION> error: defunct connection')\n"
            "logging.getLogger('neo4j.pool').warning('Transaction failed and will be retried in 1.0s')\n"
            "logging.getLogger('graphrag_code.api').error('ours still shows')\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stderr
    assert "ours still shows" in err and "CONNECTION" not in err and "retried" not in err


def test_index_and_status_import_neither_language_servers_nor_the_query_pipeline() -> None:
    """Every command paid for importing multilspy (through lsp_servers), impact analysis and the search pipeline,
    0.45 s of a 1.0 s no-op `index` on combo100k (0.57 s since). They load when a command needs them: the
    lazily listed commands still show in --help and run. In a fresh interpreter: this one imported them all."""
    import subprocess
    import sys

    code = ("import sys\nfrom graphrag_code.cli import main\nimport graphrag_code.indexer\n"
            "for argv in (['index', '--help'], ['status', '--help']):\n"
            "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "heavy = ('multilspy', 'graphrag_code.lsp_servers', 'graphrag_code.impact', 'graphrag_code.search',\n"
            "         'graphrag_code.rerankers', 'graphrag_code.cli_graph', 'graphrag_code.cli_answer')\n"
            "print('LOADED', [m for m in heavy if m in sys.modules])\n"
            "main(['impact', '--help'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert "LOADED []" in out, out
    assert "impact [OPTIONS] [TARGET]" in out, out
    listed = CliRunner().invoke(main, ["--help"]).output
    for command in ("ask", "path", "impact", "index", "cypher", "neo4j"):
        assert f"\n  {command} " in listed, listed


def test_lazily_loaded_commands_are_suggested_and_a_ctrl_c_while_loading_them_exits_130() -> None:
    """click suggests a command among those it holds: `imapct` had no "Did you mean 'impact'?" once impact loaded
    lazily; and `--help` loads them outside GraphragGroup.invoke, where a Ctrl-C printed click's "Aborted!" with
    exit 1 (a review of the lazy loading). In a fresh interpreter: this one has them loaded."""
    import subprocess
    import sys

    typo = ("from graphrag_code.cli import main\n"
            "try:\n    main(['imapct'])\nexcept SystemExit as e:\n    print('EXIT', e.code)\n")
    done = subprocess.run([sys.executable, "-c", typo], capture_output=True, text=True, timeout=60)
    assert "Did you mean 'impact'?" in done.stderr and "EXIT 2" in done.stdout, done
    ctrl_c = ("import importlib, sys\nreal = importlib.import_module\n"
              "def interrupted(name, *a):\n"
              "    if name.endswith('cli_graph'):\n        raise KeyboardInterrupt\n    return real(name, *a)\n"
              "importlib.import_module = interrupted\n"
              "from graphrag_code.cli import main\n"
              "try:\n    main(['--help'])\nexcept SystemExit as e:\n    print('EXIT', e.code)\n")
    done = subprocess.run([sys.executable, "-c", ctrl_c], capture_output=True, text=True, timeout=60)
    assert "EXIT 130" in done.stdout and "interrupted" in done.stderr and "Aborted" not in done.stderr, done


def test_errors_of_eval_and_the_llm_reranker_have_their_exit_codes_and_hints(neo4j_settings) -> None:
    """`eval --repos bogus` is bad input (2), `eval --judge` without a key the LLM's (7): both exited 1, the
    code of a crash; `search --reranker llm` without a key hinted at `--no-llm`, which search lacks (seventh
    QA pass)."""
    runner = CliRunner()
    bogus = runner.invoke(main, ["eval", "--repos", "bogus", "--no-vectors"])
    assert bogus.exit_code == 2 and "the golden file has questions for click" in bogus.output, bogus.output
    judge = runner.invoke(main, ["eval", "--judge", "--repos", "flask"])
    assert judge.exit_code == 7 and "--judge needs ANTHROPIC_API_KEY" in judge.output, judge.output
    rerank = runner.invoke(main, ["search", "foo", "--reranker", "llm"])
    assert rerank.exit_code == 7 and "--reranker none" in rerank.output and "--no-llm" not in rerank.output


def test_progress_off_a_terminal_is_a_line_now_and_then(git_repo, repo_name, neo4j_settings, monkeypatch) -> None:
    """Piped (a log, a container's output), `index` and `up` were silent for minutes of vector filling: the bar
    is for terminals. Now a line every _Bar.EVERY seconds of a stage (here 0); none with --json."""
    from graphrag_code import cli

    monkeypatch.setattr(cli._Bar, "EVERY", 0.0)
    for i in range(3):
        git_repo.write(f"m{i}.py", f"def f{i}():\n    return {i}\n")
    git_repo.commit()
    runner = CliRunner()
    text = runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name])
    assert text.exit_code == 0, text.output
    assert "embed: " in text.stderr and " chunks (" in text.stderr, text.stderr
    quiet = runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--json"])
    assert quiet.stderr == "" and json.loads(quiet.stdout)["repo"] == repo_name


def test_text_status_says_a_dirty_working_tree_was_indexed_at_its_last_commit(git_repo, repo_name) -> None:
    """An eleventh QA pass: `status --json` and the API said `"dirty": true`, the text said nothing."""
    git_repo.write("app/main.py", "def hello():\n    return 1\n")
    git_repo.commit()
    git_repo.write("app/main.py", "def hello():\n    return 2\n")       # uncommitted
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--no-embed"]).exit_code == 0
    text = runner.invoke(main, ["status"]).output
    mine = text[text.index(repo_name):].split("\n")[:4]
    assert any("uncommitted changes: the last commit was indexed" in line for line in mine), text
