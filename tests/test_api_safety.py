"""The REST API's input boundaries: a `diff` is a revision, never a git option; indexing never replaces a
repository indexed from another directory; a named repository must be indexed; repositories are listed as JSON
objects; malformed bodies, names and query values are 400s, never 500s or jobs that fail later."""

from __future__ import annotations

import uuid

import pytest

from graphrag_code.api import ApiConfig, create_app
from graphrag_code.indexer import repository_view
from graphrag_code.indexer import delete_repository, index_repository

V1 = "def handler(request):\n    return load_user(request.user_id)\n\n\ndef load_user(user_id):\n    return user_id\n"
V2 = V1.replace("return user_id", "return {'id': user_id}")


@pytest.fixture
def indexed(graph, git_repo, repo_name):
    """A repository of two commits, indexed at the second."""
    git_repo.write("src/app.py", V1)
    git_repo.commit("v1")
    git_repo.write("src/app.py", V2)
    git_repo.commit("v2")
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name, git_repo


@pytest.fixture
def client(neo4j_settings):
    return create_app(ApiConfig(neo4j=neo4j_settings)).test_client()


@pytest.mark.parametrize("option", ["--output={out}", "-o{out}", "--no-index"])
def test_impact_diff_is_never_a_git_option(client, indexed, tmp_path, option: str) -> None:
    repo, _ = indexed
    out = tmp_path / "written-by-git"
    resp = client.post("/v1/impact", json={"repo": repo, "diff": option.format(out=out)})
    assert resp.status_code == 400, resp.json
    assert resp.json["error"]["code"] == "bad_input" and "may not start with '-'" in resp.json["error"]["message"]
    assert not out.exists()


def test_impact_diff_of_a_revision_still_works(client, indexed) -> None:
    repo, git_repo = indexed
    resp = client.post("/v1/impact", json={"repo": repo, "diff": "HEAD~1"})
    assert resp.status_code == 200, resp.json
    assert [t["node"]["qualified_name"] for t in resp.json["targets"]] == ["load_user"]
    assert git_repo.git("rev-parse", "HEAD~1") in resp.json["diff"]["command"]     # the resolved commit ran
    unknown = client.post("/v1/impact", json={"repo": repo, "diff": "no-such-branch"})
    assert unknown.status_code == 400 and "not a commit" in unknown.json["error"]["message"]


def test_impact_with_target_and_diff_names_the_api_fields(client, indexed) -> None:
    repo, _ = indexed
    resp = client.post("/v1/impact", json={"repo": repo, "target": "load_user", "diff": "HEAD~1"})
    assert resp.status_code == 400
    message = resp.json["error"]["message"]
    assert "'target'" in message and "'diff'" in message and "--diff" not in message and "TARGET" not in message
    schema = client.get("/openapi.json").json["paths"]["/v1/impact"]["post"]["requestBody"]["content"]
    assert schema["application/json"]["schema"]["oneOf"] == [{"required": ["target"]}, {"required": ["diff"]}]


def test_indexing_never_replaces_a_repository_indexed_from_elsewhere(neo4j_settings, graph, git_repo, repo_name,
                                                                    tmp_path_factory) -> None:
    """POST /v1/repositories under the name of a repository indexed from outside GRAPHRAG_INDEX_ROOTS (which
    DELETE refuses to touch) is a 409; the same directory again is re-indexed as before."""
    from test_api import _finished

    git_repo.write("lib.py", "def f():\n    return 1\n")
    git_repo.commit()
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "mod.py").write_text("def g():\n    return 2\n")
    index_repository(graph, elsewhere, name=repo_name)
    c = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,))).test_client()
    resp = c.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo_name})
    assert resp.status_code == 409, resp.json
    error = resp.json["error"]
    assert error["code"] == "conflict" and error["field"] == "name"
    assert str(elsewhere.resolve()) in error["message"] and str(git_repo.root.resolve()) in error["message"]
    assert graph.run("repo_get", repo=repo_name)[0]["repo"]["root"] == str(elsewhere.resolve())
    assert not c.application.extensions["graphrag"].jobs.jobs                     # no job was started
    assert "409" in c.get("/openapi.json").json["paths"]["/v1/repositories"]["post"]["responses"]

    other = f"{repo_name}-api"
    try:
        for _ in range(2):                                                      # indexed, then re-indexed
            job = c.post("/v1/repositories", json={"path": str(git_repo.root), "name": other})
            assert job.status_code == 202, job.json
            assert _finished(c, job.headers["Location"])["state"] == "done"
    finally:
        delete_repository(graph, other)


@pytest.mark.parametrize("body, field", [({"name": "shop:v2"}, "name"), ({"name": "shop#1"}, "name"),
                                         ({"dir": "repo#2"}, "path")])
def test_a_repository_name_with_colon_or_hash_is_a_400(neo4j_settings, tmp_path, body: dict, field: str) -> None:
    """The indexer refuses such names: the request says so instead of a 202 whose job fails."""
    target = tmp_path / body.pop("dir", "repo")
    target.mkdir()
    (target / "a.py").write_text("x = 1\n")
    c = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(tmp_path,))).test_client()
    resp = c.post("/v1/repositories", json={"path": str(target), **body})
    assert resp.status_code == 400, resp.json
    assert resp.json["error"]["field"] == field and "may not contain ':' or '#'" in resp.json["error"]["message"]
    assert not c.application.extensions["graphrag"].jobs.jobs


@pytest.mark.parametrize("endpoint, body", [("/v1/search", {"query": "load_user"}),
                                            ("/v1/ask", {"question": "how is a user loaded?", "llm": False})])
def test_search_and_ask_of_an_unknown_repository_are_404(client, indexed, endpoint: str, body: dict) -> None:
    repo, _ = indexed
    assert client.post(endpoint, json={**body, "repo": repo}).status_code == 200
    missing = f"nope-{uuid.uuid4().hex[:8]}"
    resp = client.post(endpoint, json={**body, "repo": missing})
    assert resp.status_code == 404, resp.json
    error = resp.json["error"]
    assert error["code"] == "not_found" and error["field"] == "repo"
    assert f"repository {missing!r} is not indexed" in error["message"]
    assert "GET /v1/repositories" in error["message"] and repo not in error["message"]   # no other names


def test_repositories_list_edges_as_an_object_and_counts_of_an_empty_one(client, graph, indexed,
                                                                        tmp_path) -> None:
    repo, _ = indexed
    empty = f"{repo}-empty"
    (tmp_path / "empty").mkdir()
    index_repository(graph, tmp_path / "empty", name=empty)
    try:
        listed = {r["id"]: r for r in client.get("/v1/repositories").json["repositories"]}
        assert listed[repo]["edges"]["CALLS"] == 1 and listed[repo]["symbols"] == 2
        assert {k: listed[empty][k] for k in ("files", "symbols", "chunks", "edges")} == {
            "files": 0, "symbols": 0, "chunks": 0, "edges": {}}
    finally:
        delete_repository(graph, empty)


def test_repository_view_decodes_edges_and_fills_missing_counts() -> None:
    assert repository_view({"id": "r", "edges": '{"CALLS": 7}', "symbols": 3})["edges"] == {"CALLS": 7}
    assert repository_view({"id": "r"}) == {"id": "r", "files": 0, "symbols": 0, "chunks": 0,
                                            "unresolved_calls": 0, "edges": {}}


def test_deeply_nested_json_is_a_400(client) -> None:
    deep = "[" * 30_000 + "]" * 30_000
    resp = client.post("/v1/search", data=deep, content_type="application/json")
    assert resp.status_code == 400, resp.get_data(as_text=True)[:200]
    assert resp.json["error"]["code"] == "bad_input" and "nested too deeply" in resp.json["error"]["message"]


def test_source_query_numbers_are_checked_as_numbers(client, indexed) -> None:
    """A negative line is told its minimum, not its type; a digit that is no ASCII digit is not a 500."""
    repo, _ = indexed
    for start, problem in (("-3", "must be ≥ 1"), ("²", "must be int"), ("x", "must be int")):
        resp = client.get("/v1/source", query_string={"repo": repo, "path": "src/app.py", "start": start, "end": 2})
        assert resp.status_code == 400, (start, resp.json)
        assert resp.json["error"]["field"] == "start" and resp.json["error"]["message"] == f"'start' {problem}"
