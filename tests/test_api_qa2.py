"""REST API fixes from the second QA pass, through Flask's test client against the real Neo4j: indexing jobs fill
vectors, status codes match the OpenAPI document, /v1/paths says what it takes, /v1/source serves the lines the
File node counts."""

from __future__ import annotations


import pytest

from graphrag_code.api import ApiConfig, Job, create_app
from graphrag_code.config import IndexSettings
from graphrag_code.embeddings import load_embedder
from graphrag_code.errors import ConfigError
from graphrag_code.indexer import index_repository
from graphrag_code.vectors import embedding_status
from test_api import _finished

LIB = "def area(r):\n    return 3.14159 * r * r\n\n\ndef ring(r1, r2):\n    return area(r2) - area(r1)\n"


def _index_over_the_api(neo4j_settings, git_repo, repo_name, **config) -> tuple[dict, object]:
    git_repo.write("lib.py", LIB)
    git_repo.commit()
    client = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,), **config)).test_client()
    resp = client.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo_name})
    assert resp.status_code == 202, resp.json
    return _finished(client, resp.headers["Location"]), client


# -- bug 1: jobs fill vectors ------------------------------------------------------------------------------------
def test_an_indexing_job_fills_the_vectors_with_the_servers_embedder(neo4j_settings, graph, git_repo, repo_name,
                                                                    tmp_path) -> None:
    job, client = _index_over_the_api(neo4j_settings, git_repo, repo_name, embedder_loader=load_embedder,
                                      embedding_cache=tmp_path / "embeddings.sqlite")
    assert (job["state"], job["stage"], job["error"], job["warnings"]) == ("done", "done", None, []), job
    vectors = job["summary"]["vectors"]
    assert vectors["status"] == "filled" and vectors["chunks_embedded"] == job["summary"]["chunks"] > 0
    status = embedding_status(graph, repo_name)
    assert status["with_vector"] == status["chunks"] == job["summary"]["chunks"]
    found = client.post("/v1/search", json={"query": "area of a ring", "repo": repo_name}).json
    assert any("vector" in h["channels"] for h in found["hits"])
    assert not any("without vectors" in n for n in found["notes"])


def test_a_job_without_an_embedder_says_why_it_skipped_the_vectors(neo4j_settings, graph, git_repo,
                                                                   repo_name) -> None:
    def missing():
        raise ConfigError("embedding model file missing: /models/x.onnx")

    job, _ = _index_over_the_api(neo4j_settings, git_repo, repo_name, embedder_loader=missing)
    assert (job["state"], job["stage"]) == ("done", "done"), job
    assert job["summary"]["vectors"] == {"status": "skipped",
                                         "reason": "no embedder: embedding model file missing: /models/x.onnx"}
    assert embedding_status(graph, repo_name)["with_vector"] == 0


class _BrokenEmbedder:
    """Loads, then fails on the first text: the index has committed by then."""

    model_id = "broken-model@0"
    dim = IndexSettings().embedding_dim

    def embed(self, texts: list[str]) -> list[list[float]]:
        raise ConfigError("the model file vanished")


def test_a_failed_vector_fill_keeps_the_index_result_and_says_so(neo4j_settings, graph, git_repo,
                                                                  repo_name) -> None:
    job, client = _index_over_the_api(neo4j_settings, git_repo, repo_name, embedder_loader=_BrokenEmbedder,
                                      embedding_cache=None)
    assert (job["state"], job["stage"], job["error"]) == ("done", "done", None), job
    assert job["summary"]["symbols"] == 2 and job["summary"]["repo"] == repo_name       # the index result stays
    assert job["summary"]["vectors"] == {"status": "failed",
                                         "error": {"code": "bad_config", "message": "the model file vanished"}}
    assert job["warnings"] == [f"indexed, but the vectors were not filled (the model file vanished): search runs "
                               f"without them until `graphrag-code embed --repo {repo_name}` or another indexing "
                               f"job fills them"]
    listed = {r["id"] for r in client.get("/v1/repositories").json["repositories"]}
    assert repo_name in listed


def test_a_job_whose_repository_is_deleted_during_the_vector_fill_fails(neo4j_settings, graph, git_repo,
                                                                         repo_name) -> None:
    """`graphrag-code delete` from the CLI while an API job fills the vectors: the job fails, it does not end
    done with the fill 'filled' (third QA pass). The embedder deletes the repository at its first batch."""
    from graphrag_code.indexer import delete_repository

    class DeletingEmbedder(_BrokenEmbedder):
        model_id = "deleting-model@0"

        def embed(self, texts: list[str]) -> list[list[float]]:
            delete_repository(graph, repo_name)
            return [[0.1] * self.dim for _ in texts]

    job, client = _index_over_the_api(neo4j_settings, git_repo, repo_name, embedder_loader=DeletingEmbedder,
                                      embedding_cache=None)
    assert job["state"] == "failed", job
    assert job["error"]["code"] == "indexing_error" and "was deleted while its vectors were filled" in \
        job["error"]["message"]
    assert repo_name not in {r["id"] for r in client.get("/v1/repositories").json["repositories"]}


# -- bug 2: status codes -------------------------------------------------------------------------------------------
def test_a_second_job_for_a_repository_being_indexed_is_a_409(neo4j_settings, git_repo, repo_name) -> None:
    git_repo.write("lib.py", LIB)
    git_repo.commit()
    client = create_app(ApiConfig(neo4j=neo4j_settings, index_roots=(git_repo.root.parent,))).test_client()
    jobs = client.application.extensions["graphrag"].jobs.jobs       # a job indexing it: the seam the runner owns
    jobs["busy"] = Job("busy", str(git_repo.root), repo_name, state="running")
    again = client.post("/v1/repositories", json={"path": str(git_repo.root), "name": repo_name})
    assert again.status_code == 409, again.json
    assert again.json["error"]["code"] == "conflict" and again.json["error"]["field"] == "name"
    assert "being indexed already (job busy)" in again.json["error"]["message"]
    assert list(jobs) == ["busy"]
    doc = client.get("/openapi.json").json
    assert "a job is indexing that repository" in \
        doc["paths"]["/v1/repositories"]["post"]["responses"]["409"]["description"]


@pytest.fixture
def indexed(graph, git_repo, repo_name):
    git_repo.write("lib.py", LIB)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    return repo_name


@pytest.fixture
def client(neo4j_settings):
    return create_app(ApiConfig(neo4j=neo4j_settings)).test_client()


@pytest.mark.parametrize("endpoint, body", [
    ("/v1/paths", {"source": "nope", "target": "area"}),
    ("/v1/paths", {"source": "ring", "target": "lib.py#nope"}),
    ("/v1/paths", {"source": "frobnicate the widgets", "target": "area"}),
    ("/v1/paths", {"source": "nowhere.py:3", "target": "area"}),
    ("/v1/impact", {"target": "nope"}),
    ("/v1/impact", {"target": "lib.py#nope"}),
])
def test_an_unknown_symbol_is_a_404_on_paths_and_impact(client, indexed, endpoint: str, body: dict) -> None:
    resp = client.post(endpoint, json={"repo": indexed, **body})
    assert resp.status_code == 404, resp.json
    assert resp.json["error"]["code"] == "not_found"
    doc = client.get("/openapi.json").json
    assert "symbol" in doc["paths"][endpoint]["post"]["responses"]["404"]["description"]


# -- bug 3: what /v1/paths takes -------------------------------------------------------------------------------
def test_paths_documents_the_endpoint_forms_and_an_unmatched_phrase_says_what_to_give(client, indexed) -> None:
    schema = client.get("/openapi.json").json["paths"]["/v1/paths"]["post"]["requestBody"]["content"][
        "application/json"]["schema"]["properties"]
    for name in ("source", "target"):
        text = schema[name]["description"]
        assert "file:line" in text and "symbol id" in text and "qualified or bare name" in text
        assert "a phrase" not in text
    words = client.post("/v1/paths", json={"repo": indexed, "source": "ring", "target": "area"})   # still works
    assert words.status_code == 200 and words.json["found"]
    resp = client.post("/v1/paths", json={"repo": indexed, "source": "frobnicate the widgets", "target": "area"})
    message = resp.json["error"]["message"]
    assert "no symbol matches the phrase 'frobnicate the widgets'" in message
    assert "give a symbol name, id or file:line; `search` finds code by description" in message
    assert "not built yet" not in message


# -- bug 4: /v1/source lines -----------------------------------------------------------------------------------
FIFTY = "".join(f"x{i} = {i}\n" for i in range(1, 51))          # `wc -l`: 50


def _serves(client, repo: str, path: str, lines: list[str]) -> None:
    """/v1/source gives ``lines`` for 1..n and n..n, and a 400 naming n for n+1."""
    n = len(lines)
    whole = client.get(f"/v1/source?repo={repo}&path={path}&start=1&end={n}")
    assert whole.status_code == 200 and whole.json["lines"] == lines, whole.json
    assert client.get(f"/v1/source?repo={repo}&path={path}&start={n}&end={n}").json["lines"] == lines[-1:]
    beyond = client.get(f"/v1/source?repo={repo}&path={path}&start={n + 1}&end={n + 1}")
    assert beyond.status_code == 400
    assert beyond.json["error"]["message"] == f"{path} has {n} lines; asked for {n + 1}-{n + 1}"


def test_source_serves_the_lines_the_file_node_counts(client, graph, git_repo, repo_name) -> None:
    """A final newline ends the last line, it does not start another; without one the last line counts too."""
    files = {"lib/core.py": (FIFTY, [f"x{i} = {i}" for i in range(1, 51)]),
             "lib/open.py": ("a = 1\nb = 2\nc = 3", ["a = 1", "b = 2", "c = 3"]),
             "lib/blank.py": ("a = 1\n\n", ["a = 1", ""])}           # the empty last line is a line
    for path, (content, _) in files.items():
        git_repo.write(path, content)
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    for path, (_, lines) in files.items():
        (node,) = graph.run("file_get", repo=repo_name, path=path)
        assert node["lines"] == len(lines), path
        _serves(client, repo_name, path, lines)


def test_a_file_of_cr_line_endings_has_its_lines(client, graph, git_repo, repo_name) -> None:
    """Classic Mac OS line endings: the file was one line, both functions 1-1 with the whole file as their chunk,
    and citations said ok (fourth QA pass). Now its lines are as an editor shows them, served and verified."""
    from graphrag_code.answer import answer

    git_repo.write("src/cr_only.py", "def cr():\r    return 1\r\rdef cr2():\r    return 2\r")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    (node,) = graph.run("file_get", repo=repo_name, path="src/cr_only.py")
    assert node["lines"] == 5
    rows = graph.run("symbol_lookup_name", repo=repo_name, name="cr2", qualified="cr2", suffix=".cr2", limit=5)
    assert [(r["node"]["start_line"], r["node"]["end_line"]) for r in rows] == [(4, 5)]
    _serves(client, repo_name, "src/cr_only.py", ["def cr():", "    return 1", "", "def cr2():", "    return 2"])
    a = answer(graph, "cr2", repo=repo_name, no_llm=True)
    assert a.citations and {c.status for c in a.citations} == {"ok"}, [c.reason for c in a.citations]
    assert any((c.start_line, c.end_line) == (4, 5) for c in a.citations)


def test_source_strips_crlf_terminators_and_citations_still_verify(client, graph, git_repo, repo_name) -> None:
    """Served lines lose their CR, and so do the indexed chunks since extractor 214 (a chunk indexed before kept
    it: citations verify either way, `source.same_text`). A CR that ends no line (the last one, unterminated) is
    content."""
    from graphrag_code.answer import answer

    git_repo.write("lib/core.py", LIB.replace("\n", "\r\n"))
    git_repo.write("lib/cr.py", "a = 1\r\nb = '\r'\r")
    git_repo.commit()
    index_repository(graph, git_repo.root, name=repo_name)
    _serves(client, repo_name, "lib/core.py", LIB.rstrip("\n").split("\n"))
    _serves(client, repo_name, "lib/cr.py", ["a = 1", "b = '\r'\r"])
    a = answer(graph, "area", repo=repo_name, no_llm=True)
    assert a.citations and {c.status for c in a.citations} == {"ok"}, [c.reason for c in a.citations]
