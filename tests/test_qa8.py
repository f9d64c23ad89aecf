"""Findings of the eighth QA pass (the REST API and the CLI as clients use them), against the real Neo4j."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphrag_code.api import ApiConfig, create_app
from graphrag_code.cli import main
from graphrag_code.db import Graph
from graphrag_code.errors import NotFound
from graphrag_code.indexer import index_repository
from graphrag_code.paths import resolve_endpoint

SHOP = """class Cart:
    def __init__(self):
        self.items = []


class Order:
    def __init__(self, cart):
        self.cart = cart


def checkout(cart):
    return Order(cart)
"""


@pytest.fixture
def shop(graph: Graph, git_repo, repo_name) -> str:
    git_repo.write("shop.py", SHOP)
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name


def test_a_qualifier_that_matches_nothing_is_not_ignored(graph: Graph, shop: str, client) -> None:
    """`Nonexistent.__init__` answered 200 for the first of the symbols named `__init__` (its verdict COMPLETE):
    an answer to another question. Now 404 / exit 2 naming the candidates; a right qualifier still resolves."""
    with pytest.raises(NotFound, match=r"its qualifier matches none of the 2 symbol\(s\) named '__init__'") as err:
        resolve_endpoint(graph, shop, "Nonexistent.__init__")
    assert "Cart.__init__, Order.__init__" in (err.value.hint or "")
    with pytest.raises(NotFound):
        resolve_endpoint(graph, shop, "Basket::checkout")        # one candidate: still not the one asked for
    assert resolve_endpoint(graph, shop, "Order.__init__").node.qualified_name == "Order.__init__"
    assert resolve_endpoint(graph, shop, "shop.checkout").node.qualified_name == "checkout"   # module + name
    assert resolve_endpoint(graph, shop, "checkout").node.qualified_name == "checkout"

    for endpoint, body in (("/v1/impact", {"target": "Nonexistent.__init__"}),
                           ("/v1/paths", {"source": "checkout", "target": "Nonexistent.__init__"})):
        r = client.post(endpoint, json={**body, "repo": shop})
        assert r.status_code == 404 and "qualifier matches none" in r.get_json()["error"]["message"], r.get_json()
    cli = CliRunner().invoke(main, ["impact", "Nonexistent.__init__", "--repo", shop])
    assert cli.exit_code == 2 and "name one of them: Cart.__init__, Order.__init__" in cli.output, cli.output


@pytest.mark.parametrize("name", [".", "..", "org/..", "./x"])
def test_a_repository_name_a_url_cannot_hold_is_refused(neo4j_settings, git_repo, name: str) -> None:
    """`..` was indexed, and then no HTTP client could delete it: /v1/repositories/.. is resolved away."""
    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    client = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,))).test_client()
    r = client.post("/v1/repositories", json={"path": str(git_repo.root), "name": name})
    assert r.status_code == 400 and "may not be" in r.get_json()["error"]["message"], r.get_json()
    cli = CliRunner().invoke(main, ["index", str(git_repo.root), "--name", name])
    assert cli.exit_code == 2 and "may not be" in cli.output, cli.output


def test_a_null_body_is_named_as_such(client) -> None:
    r = client.post("/v1/search", data="null", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["message"] == \
        "the request body must be a JSON object (it is null)", r.get_json()


def test_impact_diff_finds_removed_definitions_of_a_repository_indexed_from_a_subdirectory(
        graph: Graph, git_repo, repo_name) -> None:
    """Indexed from pkg/ of a checkout, a commit deleting pkg/helpers.py (helper still called by use): no
    definition was 'removed', the verdict COMPLETE and --fail-on 0 passed; git read the old files at the top
    of the work tree, not in pkg/."""
    git_repo.write("pkg/helpers.py", "def helper(x):\n    return x\n")
    git_repo.write("pkg/use.py", "from helpers import helper\n\n\ndef use():\n    return helper(1)\n")
    git_repo.commit("one")
    git_repo.git("rm", "-q", "pkg/helpers.py")
    git_repo.commit("drop helper")
    index_repository(graph, git_repo.root / "pkg", name=repo_name)
    result = CliRunner().invoke(main, ["impact", "--diff", "HEAD~1", "--repo", repo_name, "--json"])
    body = json.loads(result.output)
    assert [(r["qualified_name"], r["path"]) for r in body["removed"]] == [("helper", "helpers.py")], body["removed"]
    assert body["completeness"]["verdict"] == "lower_bound"
    failed = CliRunner().invoke(main, ["impact", "--diff", "HEAD~1", "--repo", repo_name, "--fail-on", "0"])
    assert failed.exit_code == 8, failed.output


def test_status_json_counts_the_vectors_of_the_configured_model(git_repo, repo_name) -> None:
    """`status --json` said every vector was missing (current 0): it compared with no model at all."""
    git_repo.write("a.py", "def f():\n    return 1\n\n\ndef g():\n    return f()\n")
    git_repo.commit("v1")
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(git_repo.root), "--name", repo_name]).exit_code == 0
    (mine,) = [r for r in json.loads(runner.invoke(main, ["status", "--json"]).output) if r["id"] == repo_name]
    v = mine["vectors"]
    assert v["chunks"] == 2 and v["current"] == 2 and v["missing"] == 0, v
    text = runner.invoke(main, ["status"]).output
    assert "vectors 2/2" in text and "missing" not in text.split(repo_name, 1)[1].split("\n\n")[0], text


@pytest.mark.parametrize("uri", ["http://127.0.0.1:7474", "https://db.example:7473", "ftp://x"])
def test_a_neo4j_uri_that_is_no_bolt_uri_is_a_setting_error(monkeypatch, uri: str) -> None:
    """The Browser's http:// URL, printed beside the Bolt one, as NEO4J_URI: a traceback ending in 'No module
    named aiohttp' and exit 1 (the driver takes http:// as a preview)."""
    monkeypatch.setenv("NEO4J_URI", uri)
    result = CliRunner().invoke(main, ["status"])
    assert result.exit_code == 2 and "graphrag-code talks Bolt" in result.output, result.output
    assert "Traceback" not in result.output


def test_a_numbered_name_as_shown_is_accepted(graph: Graph, git_repo, repo_name) -> None:
    """`TimestampSigner.unsign~3`, as search shows it ("via callee of ..."), was "no symbol named" (exit 2):
    only the id with its path worked."""
    git_repo.write("timed.py", "class Signer:\n    def unsign(self, v):\n        return v\n\n"
                               "    def unsign(self, v, age):\n        return v\n\n"
                               "    def unsign(self, v, age, now):\n        return check(v)\n\n\n"
                               "def check(v):\n    return v\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    third = resolve_endpoint(graph, repo_name, "Signer.unsign~3")
    assert third.node.id == f"{repo_name}:timed.py#Signer.unsign~3" and third.node.start_line == 8
    assert resolve_endpoint(graph, repo_name, "unsign~2").node.start_line == 5
    with pytest.raises(NotFound, match="no symbol named 'Signer.unsign~4'"):
        resolve_endpoint(graph, repo_name, "Signer.unsign~4")
    cli = CliRunner().invoke(main, ["path", "Signer.unsign~3", "check", "--repo", repo_name])
    assert cli.exit_code == 0 and "timed.py:9" in cli.output, cli.output
    # a search row spells it so too (rows showed `Signer.unsign` for any of the three, their via lines `~3`)
    from graphrag_code.search import Hit

    def hit(symbol_id: str | None, qualified: str | None) -> Hit:
        return Hit("c", repo_name, None, "timed.py", 8, 9, 1.0, symbol_id=symbol_id, qualified_name=qualified)

    assert hit(f"{repo_name}:timed.py#Signer.unsign~3", "Signer.unsign").shown_name == "Signer.unsign~3"
    assert hit(f"{repo_name}:timed.py#Signer.unsign", "Signer.unsign").shown_name == "Signer.unsign"
    assert hit(None, "Intro").shown_name == "Intro"                # a section chunk: its title


def test_declining_delete_keeps_the_repository_and_exits_0(graph: Graph, shop: str, monkeypatch) -> None:
    """Answering n printed click's 'Aborted!' with exit 1, the code the README keeps for a crash."""
    from graphrag_code import cli

    monkeypatch.setattr(cli, "_interactive", lambda: True)
    declined = CliRunner().invoke(main, ["delete", shop], input="n\n")
    assert declined.exit_code == 0 and "Not deleted" in declined.output, declined.output
    assert graph.run("repo_get", repo=shop)
    confirmed = CliRunner().invoke(main, ["delete", shop], input="y\n")
    assert confirmed.exit_code == 0 and f"Deleted {shop}" in confirmed.output and not graph.run("repo_get", repo=shop)


def test_the_commands_hints_print_can_be_pasted(graph: Graph, git_repo, repos) -> None:
    """`--name 'my repo'` is a valid name; status printed `graphrag-code embed --repo my repo`, which fails."""
    name = repos("my repo")
    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(git_repo.root), "--name", name, "--no-embed"]).exit_code == 0
    text = runner.invoke(main, ["status"]).output
    assert f"run `graphrag-code embed --repo '{name}'`" in text, text


def test_a_folder_whose_name_is_not_utf8_is_bad_input(tmp_path, repo_name) -> None:
    """`index $'bad\\xffdir'` was 'repo_get: UnicodeEncodeError' with exit 3 (Neo4j unavailable)."""
    import os

    folder = os.path.join(os.fsencode(tmp_path), b"bad\xffdir")
    os.mkdir(folder)
    with open(os.path.join(folder, b"a.py"), "w") as fh:
        fh.write("def f():\n    return 1\n")
    path = os.fsdecode(folder)
    for args in (["index", path, "--no-embed"], ["index", path, "--name", repo_name, "--no-embed"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and "PATH is not valid UTF-8 text" in result.output, (args, result.output)


def test_ctrl_c_before_a_command_handles_it_exits_130(monkeypatch, tmp_path) -> None:
    """Ctrl-C while `index` looked for a repository of that name (before indexing began) was click's bare
    'Aborted!' with exit 1, the crash code."""
    from graphrag_code import cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_refuse_replacing", interrupted)
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--no-embed"])
    assert result.exit_code == 130 and "interrupted" in result.output and "Aborted" not in result.output, \
        result.output


def test_the_fill_reports_its_start_and_the_chunks_embedded(graph: Graph, git_repo, repo_name) -> None:
    """Off a terminal the first `embed:` line came a minute in, at 100%: the stage's clock started at its first
    report (after the first page) and the count was the reader's, which reads ahead of the model."""
    from graphrag_code.embeddings import load_embedder
    from graphrag_code.indexer import IndexSettings
    from graphrag_code.vectors import fill_embeddings

    for i in range(5):
        git_repo.write(f"m{i}.py", f"def f{i}():\n    return {i}\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name, settings=IndexSettings())
    reports: list[tuple[str, int, int]] = []
    summary = fill_embeddings(graph, repo_name, load_embedder(None), progress=lambda *r: reports.append(r),
                              batch=2)
    assert summary["chunks_embedded"] == 5
    assert reports[0] == ("embed", 0, 5) and reports[-1] == ("embed", 5, 5), reports
    assert [done for _, done, _ in reports] == [0, 2, 4, 5, 5], reports     # page by page, as embedded


def test_file_arguments_are_read_from_where_the_command_runs(graph: Graph, git_repo, repo_name, monkeypatch,
                                                            tmp_path) -> None:
    """From web/: `impact ../app/textutil.py` and its absolute path found nothing, and `./textutil.py` took
    app/textutil.py (a suffix match) though web/ has none."""
    git_repo.write("app/textutil.py", "def slug(s):\n    return s.lower()\n")
    git_repo.write("web/view.py", "from app.textutil import slug\n\n\ndef show(s):\n    return slug(s)\n")
    git_repo.commit("v1")
    index_repository(graph, git_repo.root, name=repo_name)
    monkeypatch.chdir(git_repo.root / "web")
    runner = CliRunner()
    for arg in ("../app/textutil.py", str(git_repo.root / "app" / "textutil.py"), "../app/textutil.py:2"):
        result = runner.invoke(main, ["impact", arg, "--repo", repo_name, "--json"])
        assert result.exit_code == 0, (arg, result.output)
        callers = [c["node"]["qualified_name"] for c in json.loads(result.output)["callers"]["1"]]
        assert callers == ["show"], (arg, callers)
    wrong = runner.invoke(main, ["impact", "./textutil.py", "--repo", repo_name])
    assert wrong.exit_code == 2 and "app/textutil.py" not in wrong.output, wrong.output
    outside = runner.invoke(main, ["path", str(tmp_path / "x.py"), "slug", "--repo", repo_name])
    assert outside.exit_code == 2 and "outside" in outside.output, outside.output
    assert runner.invoke(main, ["path", "./view.py:5", "../app/textutil.py:2", "--repo", repo_name]).exit_code == 0
