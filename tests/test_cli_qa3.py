"""The third QA pass's CLI findings: text that is no UTF-8 (undecodable argv bytes), search filters that match
nothing, and `ask --no-llm` reading no LLM setting."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphrag_code.cli import main
from graphrag_code.indexer import index_repository


@pytest.fixture
def no_neo4j(monkeypatch):
    """A server nobody listens on: exit 2 (not 3) proves the command stopped before any statement."""
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:9")


# an argument holding the byte \xff reaches Python as "\udcff" (surrogateescape)
@pytest.mark.parametrize("args, what", [
    (["search", "sign\udcff_token", "--no-vectors"], "QUERY"),
    (["search", "sign", "--repo", "r\udcff", "--no-vectors"], "--repo"),
    (["search", "sign", "--path", "src/\udcff*", "--no-vectors"], "--path"),
    (["ask", "how is sign\udcff called", "--no-llm", "--no-vectors"], "QUESTION"),
    (["ask", "how", "--repo", "r\udcff", "--no-llm", "--no-vectors"], "--repo"),
    (["delete", "r\udcff", "--yes"], "REPO"),
    (["embed", "--repo", "r\udcff"], "--repo"),
    (["impact", "sign\udcff"], "TARGET"),
    (["impact", "sign", "--repo", "r\udcff"], "--repo"),
    (["path", "a\udcff", "b"], "SOURCE"),
    (["path", "a", "b\udcff"], "TARGET"),
])
def test_text_that_is_no_utf8_is_bad_input_before_any_database_call(no_neo4j, args: list[str], what: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert f"error: {what} is not valid UTF-8 text" in result.output and "undecodable byte \\xff" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), "no traceback"


@pytest.mark.parametrize("option, value, says", [
    ("--language", "pyhton", "python"), ("--kind", "fucntion", "function"), ("--path", "[", "not closed"),
])
def test_a_search_filter_that_can_match_nothing_is_bad_input(no_neo4j, option: str, value: str, says: str) -> None:
    result = CliRunner().invoke(main, ["search", "sign", option, value, "--no-vectors"])
    assert result.exit_code == 2, result.output
    assert says in result.output


def test_ask_no_llm_reads_no_llm_setting(graph, git_repo, repo_name, monkeypatch) -> None:
    git_repo.write("app.py", "def sign(payload):\n    return hmac(payload)\n")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    monkeypatch.setenv("GRAPHRAG_LLM_CONTEXT_SHARE", "2")
    runner = CliRunner()
    ok = runner.invoke(main, ["ask", "how is a payload signed?", "--repo", repo_name, "--no-llm", "--no-vectors",
                              "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["mode"] == "extractive"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-used")
    bad = runner.invoke(main, ["ask", "how is a payload signed?", "--repo", repo_name, "--no-vectors"])
    assert bad.exit_code == 2 and "context share" in bad.output, "with the LLM in use the error stays"


def test_search_across_repositories_names_each_hits_repository_and_parts_say_so(graph, git_repo, repos,
                                                                                 tmp_path) -> None:
    """Two checkouts of one file printed two identical lines; a later part of a long function looked like the
    whole function (fifth QA pass)."""
    from graphrag_code.config import IndexSettings
    from conftest import GitRepo

    body = "".join(f"    total = total + {i}  # tally_marker step\n" for i in range(40))
    text = f"def tally_marker(total):\n{body}    zebra_finish = total * 2\n    return zebra_finish\n"
    git_repo.write("m.py", text)
    git_repo.commit()
    other = GitRepo(tmp_path / "other")
    other.write("m.py", text)
    other.commit()
    one, two = repos("test-one"), repos("test-two")
    index_repository(graph, git_repo.root, name=one, settings=IndexSettings(chunk_tokens=80))
    index_repository(graph, other.root, name=two, settings=IndexSettings(chunk_tokens=80))
    out = CliRunner().invoke(main, ["search", "tally_marker", "--no-vectors", "-k", "20"]).output
    lines = [line for line in out.splitlines() if "tally_marker [" in line]
    assert any(f"{one}:m.py:1-" in line for line in lines) and any(f"{two}:m.py:1-" in line for line in lines)
    # every hit from one of them (-k 1): still whose it is (eighth QA pass: `1. m.py:1-...`, no repository)
    out = CliRunner().invoke(main, ["search", "tally_marker", "--no-vectors", "-k", "1"]).output
    assert any(line.startswith((f" 1. {one}:m.py:1-", f" 1. {two}:m.py:1-")) for line in out.splitlines()), out
    out = CliRunner().invoke(main, ["search", "where is the zebra finish doubled", "--no-vectors",
                                    "--repo", one]).output
    assert "tally_marker [function, part]" in out.splitlines()[1], out
