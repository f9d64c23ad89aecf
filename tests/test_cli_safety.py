"""The CLI's input boundaries: `impact --diff` never passes an option to git; `index` never silently replaces a
repository indexed from another directory; a --repo that is not indexed is an error; `status --json` shows edges
as an object; a port in use and a malformed numeric setting are clean errors (exit 2), not tracebacks."""

from __future__ import annotations

import json
import socket
import uuid

import pytest
from click.testing import CliRunner

from graphrag_code.cli import main
from graphrag_code.indexer import delete_repository, index_repository

V1 = "def handler(request):\n    return load_user(request.user_id)\n\n\ndef load_user(user_id):\n    return user_id\n"


@pytest.fixture
def indexed(graph, git_repo, repo_name):
    """A repository of two commits, indexed at the second."""
    git_repo.write("src/app.py", V1)
    git_repo.commit("v1")
    git_repo.write("src/app.py", V1.replace("return user_id", "return {'id': user_id}"))
    git_repo.commit("v2")
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name, git_repo


@pytest.mark.parametrize("form", ["separate", "equals"])
def test_impact_diff_is_never_a_git_option(indexed, tmp_path, form: str) -> None:
    repo, _ = indexed
    out = tmp_path / "written-by-git"
    diff = ["--diff", f"--output={out}"] if form == "separate" else [f"--diff=--output={out}"]
    result = CliRunner().invoke(main, ["impact", "--repo", repo, *diff])
    assert result.exit_code == 2, result.output
    assert "may not start with '-'" in result.output and "Traceback" not in result.output
    assert not out.exists()
    ok = CliRunner().invoke(main, ["impact", "--repo", repo, "--diff", "HEAD~1", "--json"])
    assert ok.exit_code == 0, ok.output
    assert [t["node"]["qualified_name"] for t in json.loads(ok.output)["targets"]] == ["load_user"]


def test_index_refuses_a_name_indexed_from_another_directory(graph, repo_name, tmp_path) -> None:
    """Two checkouts with one folder name get one default name: the second asks for --replace."""
    first, second = tmp_path / "one" / repo_name, tmp_path / "two" / repo_name
    for root in (first, second):
        root.mkdir(parents=True)
        (root / "lib.py").write_text("def f():\n    return 1\n")
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(first), "--no-embed"]).exit_code == 0
    refused = runner.invoke(main, ["index", str(second), "--no-embed"])
    assert refused.exit_code == 2, refused.output
    assert str(first.resolve()) in refused.output and str(second.resolve()) in refused.output
    assert "--replace" in refused.output
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["root"] == str(first.resolve())

    again = runner.invoke(main, ["index", str(first), "--name", repo_name, "--no-embed"])    # same directory
    assert again.exit_code == 0, again.output
    replaced = runner.invoke(main, ["index", str(second), "--no-embed", "--replace", "--json"])
    assert replaced.exit_code == 0, replaced.output
    assert json.loads(replaced.output)["root"] == str(second.resolve())
    assert "--replace" in runner.invoke(main, ["index", "--help"]).output


def test_up_refuses_a_name_indexed_from_another_directory_and_a_port_in_use_before_indexing(graph, repo_name,
                                                                                            tmp_path) -> None:
    """`up` indexes as `index` does, so it asks for --replace too; and a port it could not serve on fails at once,
    not after the index."""
    first, second = tmp_path / "one", tmp_path / "two"
    for root in (first, second):
        root.mkdir()
        (root / "lib.py").write_text("def f():\n    return 1\n")
    runner = CliRunner()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = runner.invoke(main, ["up", str(first), "--name", repo_name, "--no-neo4j", "--no-embed",
                                    "--port", str(port)])
    assert busy.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in busy.output, busy.output
    assert graph.run("repo_get", repo=repo_name) == []                 # refused before indexing
    assert runner.invoke(main, ["index", str(first), "--name", repo_name, "--no-embed"]).exit_code == 0
    args = ["up", str(second), "--name", repo_name, "--no-neo4j", "--no-embed", "--no-serve"]
    refused = runner.invoke(main, args)
    assert refused.exit_code == 2 and "--replace" in refused.output, refused.output
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["root"] == str(first.resolve())
    assert runner.invoke(main, [*args, "--replace"]).exit_code == 0
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["root"] == str(second.resolve())


@pytest.mark.parametrize("args", [["search", "load_user", "--no-vectors"],
                                  ["ask", "how is a user loaded?", "--no-llm", "--no-vectors"],
                                  ["embed"]])
def test_an_unknown_repo_is_an_error_not_an_empty_answer(indexed, args: list[str]) -> None:
    repo, _ = indexed
    missing = f"nope-{uuid.uuid4().hex[:8]}"
    result = CliRunner().invoke(main, [*args, "--repo", missing])
    assert result.exit_code == 2, result.output
    assert f"repository {missing!r} is not indexed" in result.output
    if args[0] != "embed":                  # the real repository still answers (embed would load the model)
        known = CliRunner().invoke(main, [*args, "--repo", repo])
        assert known.exit_code == 0 and "load_user" in known.output, known.output


def test_status_json_edges_are_an_object_and_an_empty_repository_has_zero_counts(graph, indexed,
                                                                                tmp_path) -> None:
    repo, _ = indexed
    empty = f"{repo}-empty"
    (tmp_path / "empty").mkdir()
    index_repository(graph, tmp_path / "empty", name=empty)
    try:
        result = CliRunner().invoke(main, ["status", "--json"])
        assert result.exit_code == 0, result.output
        listed = {r["id"]: r for r in json.loads(result.output)}
        assert listed[repo]["edges"]["CALLS"] == 1
        assert {k: listed[empty][k] for k in ("symbols", "chunks", "edges")} == {"symbols": 0, "chunks": 0,
                                                                                  "edges": {}}
    finally:
        delete_repository(graph, empty)


def test_serve_on_a_port_in_use_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.delenv("GRAPHRAG_API_TOKENS", raising=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output
    assert "API:" not in result.output                 # the banner does not claim it is up


@pytest.mark.parametrize("variable", ["GRAPHRAG_SWAP_MAX_ROWS", "GRAPHRAG_SWAP_BATCH_ROWS"])
def test_a_malformed_numeric_setting_names_the_variable(tmp_path, monkeypatch, variable: str) -> None:
    monkeypatch.setenv(variable, "abc")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--no-embed"])
    assert result.exit_code == 2, (result.output, result.exception)
    assert f"{variable}='abc' is not a int" in result.output


def test_the_api_embedder_loader_raises_with_the_reason_there_is_none(monkeypatch) -> None:
    """`serve` hands the API a loader that raises with the reason, so /readyz and an indexing job that could not
    fill vectors say why (it returned None, and they said only "this server has no embedder")."""
    import graphrag_code.cli as cli
    from graphrag_code.errors import ConfigError

    monkeypatch.setattr(cli, "_load_embedder", lambda enabled: (None, "model bge-small not installed"))
    with pytest.raises(ConfigError, match="model bge-small not installed"):
        cli._api_embedder()


def test_ctrl_c_while_filling_vectors_says_the_index_stands(graph, repo_name, tmp_path, monkeypatch) -> None:
    """Interrupted during the vector fill, `index` has committed the graph already: it says so and how to finish
    (it printed only click's "Aborted!"), and exits 130."""
    import graphrag_code.vectors as vectors

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    (tmp_path / "lib.py").write_text("def f():\n    return 1\n")
    monkeypatch.setattr(vectors, "fill_embeddings", interrupted)
    result = CliRunner().invoke(main, ["index", str(tmp_path), "--name", repo_name])
    assert result.exit_code == 130, result.output
    assert f"interrupted while filling the vectors of {repo_name}" in result.output
    assert f"graphrag-code embed --repo {repo_name}" in result.output
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["status"] == "ready"    # the index was committed
    # the index's summary was printed before the fill, and not lost with it (seventh QA pass)
    assert f"Indexed {repo_name} at" in result.stdout and "files: 1 in snapshot" in result.stdout, result.stdout


def test_index_refuses_a_bare_repository(git_repo, repo_name, graph, tmp_path) -> None:
    """A bare clone was indexed as a plain directory of git's internals: 0 files, exit 0. It is refused (exit 2)
    with the way to get a work tree."""
    git_repo.write("src/app.py", V1)
    git_repo.commit("v1")
    bare = tmp_path / "bare.git"
    git_repo.git("clone", "-q", "--bare", str(git_repo.root), str(bare))
    result = CliRunner().invoke(main, ["index", str(bare), "--name", repo_name, "--no-embed"])
    assert result.exit_code == 2, result.output
    assert f"{bare} is a bare git repository: it has no working tree to index" in result.stderr
    assert f"git clone {bare} DIR" in result.stderr
    assert graph.run("repo_get", repo=repo_name) == []


def _interrupted(*args, **kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_while_indexing_says_the_graph_keeps_the_previous_index(graph, git_repo, repo_name,
                                                                       monkeypatch) -> None:
    """Interrupted before its swap, `index` printed only click's "Aborted!" and exited 1, a crash's code: it says
    what the graph holds, exits 130, and the next run indexes the new commit."""
    import graphrag_code.indexer as indexer

    git_repo.write("src/app.py", V1)
    first = git_repo.commit("v1")
    args = ["index", str(git_repo.root), "--name", repo_name, "--no-embed"]
    runner = CliRunner()
    assert runner.invoke(main, args).exit_code == 0
    git_repo.write("src/app.py", V1.replace("return user_id", "return {'id': user_id}"))
    second = git_repo.commit("v2")
    with monkeypatch.context() as patch:
        patch.setattr(indexer, "resolve", _interrupted)      # staged, not swapped yet
        result = runner.invoke(main, args)
    assert result.exit_code == 130, (result.output, result.exception)
    assert f"interrupted while indexing {repo_name}: the graph keeps what it held of it before this run" \
        in result.stderr
    assert "index it again" in result.stderr and "Aborted!" not in result.output
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == first
    again = runner.invoke(main, [*args, "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["commit"] == second


def test_ctrl_c_while_up_indexes_exits_130_too(graph, repo_name, tmp_path, monkeypatch) -> None:
    import graphrag_code.indexer as indexer

    (tmp_path / "lib.py").write_text("def f():\n    return 1\n")
    monkeypatch.setattr(indexer, "index_repository", _interrupted)
    result = CliRunner().invoke(main, ["up", str(tmp_path), "--name", repo_name, "--no-neo4j", "--no-embed",
                                       "--no-serve"])
    assert result.exit_code == 130, (result.output, result.exception)
    assert f"interrupted while indexing {repo_name}" in result.stderr and "Aborted!" not in result.output


def test_up_uses_the_server_neo4j_uri_names_and_starts_no_local_one(git_repo, repo_name, neo4j_settings,
                                                                   monkeypatch) -> None:
    """README: NEO4J_URI selects any server. `up` started the local launcher anyway, which failed on a taken
    port with a hint naming options `up` does not have (fifth QA pass)."""
    from graphrag_code import neo4j_local

    def no_local(self):
        raise AssertionError("the local Neo4j was started")
    monkeypatch.setattr(neo4j_local.LocalNeo4j, "start", no_local)
    monkeypatch.setenv("NEO4J_URI", neo4j_settings.uri)
    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    result = CliRunner().invoke(main, ["up", str(git_repo.root), "--name", repo_name, "--no-embed", "--no-serve"])
    assert result.exit_code == 0, result.output
    assert f"Using the Neo4j server at {neo4j_settings.uri} (NEO4J_URI); the local one is not started" in result.output
    assert f":param repo => '{repo_name}';" in result.output   # the ';': one paste runs both


def test_up_starts_the_local_neo4j_on_the_ports_of_the_environment(git_repo, repo_name, neo4j_settings,
                                                                   monkeypatch) -> None:
    """GRAPHRAG_BOLT_PORT / GRAPHRAG_HTTP_PORT, which `neo4j start` reads, were ignored by `up`."""
    from types import SimpleNamespace

    from graphrag_code import neo4j_local

    if not neo4j_settings.is_local_default:
        pytest.skip("needs the project's own server on 7687 (NEO4J_URI names another)")
    started = []

    def start(self):
        started.append((self.bolt_port, self.http_port))
        return SimpleNamespace(bolt_uri=self.bolt_uri, browser_url=f"http://127.0.0.1:{self.http_port}/browser/")
    monkeypatch.setattr(neo4j_local.LocalNeo4j, "start", start)
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.setenv("GRAPHRAG_BOLT_PORT", "7687")
    monkeypatch.setenv("GRAPHRAG_HTTP_PORT", "17474")
    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    result = CliRunner().invoke(main, ["up", str(git_repo.root), "--name", repo_name, "--no-embed", "--no-serve"])
    assert result.exit_code == 0, result.output
    assert started == [(7687, 17474)]
    assert "http://127.0.0.1:17474/browser/?dbms=bolt://127.0.0.1:7687" in result.output


def test_ctrl_c_after_the_swap_says_the_new_index_is_committed(graph, git_repo, repo_name, monkeypatch) -> None:
    """Interrupted after its swap committed (the run's report still to print), `index` said the graph kept the
    previous index, while `status` showed the new commit ready (sixth QA pass)."""
    import graphrag_code.indexer as indexer

    git_repo.write("src/app.py", V1)
    commit = git_repo.commit("v1")
    monkeypatch.setattr(indexer._Run, "report", _interrupted)
    result = CliRunner().invoke(main, ["index", str(git_repo.root), "--name", repo_name, "--no-embed"])
    assert result.exit_code == 130, (result.output, result.exception)
    assert f"interrupted after the new index of {repo_name} was committed: the graph holds commit " \
           f"{commit[:12]}" in result.stderr, result.stderr
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["commit"] == commit


def test_up_answers_while_it_works_and_serves_once_done(git_repo, repo_name, neo4j_settings, monkeypatch) -> None:
    """`up` holds the API's port from the start: a request made while it indexed waited, unanswered, until the
    work ended (minutes, with the vectors; seventh QA pass). Now /healthz answers, /readyz and the rest a 503 that
    says what is under way, and the API itself once the work is done."""
    import urllib.error
    import urllib.request

    from conftest import free_ports
    from graphrag_code import cli

    port = free_ports(1)[0]
    url = f"http://127.0.0.1:{port}"

    def get(path: str) -> tuple[int, dict, dict]:
        try:
            with urllib.request.urlopen(url + path, timeout=10) as r:
                return r.status, dict(r.headers), json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), json.loads(err.read())

    seen: dict[str, tuple] = {}
    real_index = cli._index

    def index_and_ask(*args, **kwargs):
        seen.update({p: get(p) for p in ("/healthz", "/readyz", "/v1/repositories")})
        return real_index(*args, **kwargs)

    def ask_once_served(serving, local_neo4j) -> None:      # instead of serving until Ctrl-C
        seen["after"] = get("/v1/repositories")

    monkeypatch.setattr(cli, "_index", index_and_ask)
    monkeypatch.setattr(cli, "_wait_serving", ask_once_served)
    monkeypatch.setenv("NEO4J_URI", neo4j_settings.uri)
    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit("v1")
    result = CliRunner().invoke(main, ["up", str(git_repo.root), "--name", repo_name, "--no-embed",
                                       "--port", str(port)])
    assert result.exit_code == 0, result.output
    assert seen["/healthz"][0] == 200
    status, headers, body = seen["/readyz"]
    assert status == 503 and body == {"ready": False, "checks": {"starting": f"indexing {git_repo.root}"}}
    status, headers, body = seen["/v1/repositories"]
    assert status == 503 and headers["Retry-After"] == "10" and body["error"]["code"] == "starting"
    assert f"indexing {git_repo.root}" in body["error"]["message"]
    status, _, body = seen["after"]
    assert status == 200 and repo_name in {r["id"] for r in body["repositories"]}
