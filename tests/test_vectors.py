"""Chunk vectors in the real Neo4j: filled after indexing, never recomputed for unchanged text, searchable."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphrag_code.db import Graph
from graphrag_code.embeddings import EmbeddingCache, OnnxEmbedder, load_embedder
from graphrag_code.errors import IndexingError, SchemaMismatch
from graphrag_code.indexer import delete_repository, index_repository
from graphrag_code.vectors import embedding_status, fill_embeddings, vector_search

pytestmark = pytest.mark.neo4j

FILES = {
    "shop/auth.py": '''"""Session handling for the shop's web client."""
import time


class TokenStore:
    """Keeps the OAuth tokens of a logged-in user."""

    def __init__(self, session):
        self.session = session
        self.access_token = None

    def refresh_access_token(self, refresh_token):
        """Exchange the refresh token for a new access token."""
        response = self.session.post("/oauth/token", data={"grant_type": "refresh_token",
                                                           "refresh_token": refresh_token})
        response.raise_for_status()
        self.access_token = response.json()["access_token"]
        return self.access_token


def with_retries(call, attempts=5, base_delay=0.5):
    """Call `call` until it succeeds, sleeping twice as long after each failure."""
    for attempt in range(attempts):
        try:
            return call()
        except ConnectionError:
            time.sleep(base_delay * 2 ** attempt)
    raise RuntimeError("gave up")
''',
    "shop/orders.py": '''import csv


def load_orders(path):
    """Read the orders CSV export into a list of dicts, one per row."""
    with open(path, newline="") as fh:
        return [dict(row) for row in csv.DictReader(fh)]


def order_total(order):
    return sum(line["price"] * line["quantity"] for line in order["lines"])
''',
    "shop/images.py": '''def make_thumbnail(image, max_side=256):
    """Scale an image down so its longer side is max_side pixels, keeping the aspect ratio."""
    width, height = image.size
    scale = max_side / max(width, height)
    return image.resize((int(width * scale), int(height * scale)))
''',
    "README.md": "# Shop\n\nA tiny shop backend.\n\n## Running\n\nStart it with `python -m shop`.\n",
}


class CountingEmbedder:
    def __init__(self, inner) -> None:
        self.inner = inner
        self.model_id, self.dim, self.max_tokens = inner.model_id, inner.dim, inner.max_tokens
        self.texts = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        return self.inner.embed(texts)


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return load_embedder(None)


def chunks_of(graph: Graph, repo: str) -> list[dict]:
    return [n["props"] for n in graph.run("repo_dump", repo=repo)[0]["nodes"] if "Chunk" in n["labels"]]


def test_fill_embeds_every_chunk_once_and_search_finds_it(graph: Graph, git_repo, repo_name: str,
                                                          embedder: OnnxEmbedder, tmp_path: Path) -> None:
    for path, text in FILES.items():
        git_repo.write(path, text)
    git_repo.commit("shop")
    index_repository(graph, git_repo.root, name=repo_name)
    before = embedding_status(graph, repo_name, embedder.model_id)
    assert before["chunks"] > 5 and before["current"] == 0 and before["missing"] == before["chunks"]

    counting = CountingEmbedder(embedder)
    progress: list[tuple[str, int, int]] = []
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        # a small page size, so paging, the reader/writer threads and the keyset cursor are exercised
        first = fill_embeddings(graph, repo_name, counting, cache, progress=lambda *a: progress.append(a), batch=3)
        assert first["chunks_missing"] == before["chunks"]
        assert first["chunks_embedded"] == before["chunks"]
        assert first["cache_hits"] == 0 and first["model_texts"] == counting.texts == before["chunks"]
        assert progress[-1] == ("embed", before["chunks"], before["chunks"])

        chunks = chunks_of(graph, repo_name)
        assert len(chunks) == before["chunks"]
        for c in chunks:
            assert len(c["embedding"]) == 384, c["id"]
            assert c["embedding_model"] == embedder.model_id
        status = embedding_status(graph, repo_name, embedder.model_id)
        assert status["missing"] == 0 and status["models"] == {embedder.model_id: before["chunks"]}

        second = fill_embeddings(graph, repo_name, counting, cache)
        assert second["chunks_missing"] == 0 and second["chunks_embedded"] == 0
        assert counting.texts == before["chunks"]                     # the model was not called again

        # a new commit changing one function: the file's chunks are new nodes, but only the changed text
        # reaches the model; the others come from the cache
        git_repo.write("shop/orders.py", FILES["shop/orders.py"].replace("sum(", "round(sum(").replace(
            'in order["lines"])', 'in order["lines"]), 2)'))
        git_repo.commit("round totals")
        index_repository(graph, git_repo.root, name=repo_name)
        third = fill_embeddings(graph, repo_name, counting, cache)
        orders_chunks = [c for c in chunks_of(graph, repo_name) if c["path"] == "shop/orders.py"]
        assert third["chunks_embedded"] == len(orders_chunks) >= 2
        assert third["model_texts"] == 1 and third["cache_hits"] == len(orders_chunks) - 1
        assert embedding_status(graph, repo_name, embedder.model_id)["missing"] == 0

    hits = vector_search(graph, embedder, "get a new oauth token when the old one expired", k=3, repo=repo_name)
    assert hits[0]["id"] == f"{repo_name}:shop/auth.py#TokenStore.refresh_access_token::chunk"
    assert hits[0]["path"] == "shop/auth.py" and (hits[0]["start_line"], hits[0]["end_line"]) == (12, 18)
    assert all(h["repo"] == repo_name for h in hits) and len(hits) == 3
    assert hits[0]["score"] >= hits[1]["score"] >= hits[2]["score"]
    top = vector_search(graph, embedder, "shrink a photo to a small preview picture", k=1, repo=repo_name)
    assert top[0]["id"] == f"{repo_name}:shop/images.py#make_thumbnail::chunk"


def test_vectors_of_another_model_are_replaced_not_mixed(graph: Graph, git_repo, repo_name: str,
                                                         embedder: OnnxEmbedder) -> None:
    git_repo.write("a.py", "def area(r):\n    return 3.14159 * r * r\n")
    git_repo.commit("a")
    index_repository(graph, git_repo.root, name=repo_name)

    class OtherModel(CountingEmbedder):
        pass

    other = OtherModel(embedder)
    other.model_id = "another-model@000000000000"
    fill_embeddings(graph, repo_name, other)
    assert embedding_status(graph, repo_name, embedder.model_id)["current"] == 0
    # searching with the real model never returns the other model's vectors
    assert vector_search(graph, embedder, "area of a circle", k=3, repo=repo_name) == []
    result = fill_embeddings(graph, repo_name, embedder)
    assert result["chunks_embedded"] == result["chunks_missing"] >= 1
    status = embedding_status(graph, repo_name, embedder.model_id)
    assert status["missing"] == 0 and set(status["models"]) == {embedder.model_id}
    assert vector_search(graph, embedder, "area of a circle", k=3, repo=repo_name)[0]["path"] == "a.py"


def test_a_lazy_embedder_makes_its_session_only_for_a_text_the_cache_lacks(graph: Graph, git_repo, repo_name: str,
                                                                           embedder: OnnxEmbedder,
                                                                           tmp_path: Path) -> None:
    """`index` loads the model lazily (its session took 0.4-0.7 s of every run): a fill with nothing missing, or
    with every text in the cache, never makes it; a new text does, and its vector is the eager model's."""
    git_repo.write("a.py", "def area(r):\n    return 3.14 * r * r\n")
    git_repo.commit("a")
    index_repository(graph, git_repo.root, name=repo_name)
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        assert fill_embeddings(graph, repo_name, embedder, cache)["chunks_embedded"] >= 1
        idle = load_embedder(None, lazy=True)
        assert idle.model_id == embedder.model_id and not idle.loaded
        assert fill_embeddings(graph, repo_name, idle, cache)["chunks_missing"] == 0
        git_repo.write("a.py", "def area(r):\n    return 3.14159 * r * r\n")       # a text not cached yet
        git_repo.commit("b")
        index_repository(graph, git_repo.root, name=repo_name)
        assert fill_embeddings(graph, repo_name, embedder, cache)["model_texts"] >= 1
        git_repo.write("a.py", "def area(r):\n    return 3.14 * r * r\n")          # back: every text cached
        git_repo.commit("c")
        index_repository(graph, git_repo.root, name=repo_name)
        cached = fill_embeddings(graph, repo_name, idle, cache)
        assert cached["chunks_embedded"] >= 1 and cached["model_texts"] == 0 and not idle.loaded
        git_repo.write("a.py", "def area(r):\n    return r * r * 22 / 7\n")
        git_repo.commit("d")
        index_repository(graph, git_repo.root, name=repo_name)
        fresh = fill_embeddings(graph, repo_name, idle, cache)
    assert fresh["model_texts"] >= 1 and idle.loaded and idle.dim == 384
    text = "def area(r):\n    return r * r * 22 / 7\n"
    assert idle.embed([text]) == embedder.embed([text])


def test_embedder_of_another_dimension_is_refused(graph: Graph, git_repo, repo_name: str) -> None:
    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("a")
    index_repository(graph, git_repo.root, name=repo_name)

    class Tiny:
        model_id, dim, max_tokens = "tiny@0", 8, 16

        def embed(self, texts: list[str]) -> list[list[float]]:
            raise AssertionError("must not be called")

    with pytest.raises(SchemaMismatch, match="384 dimensions"):
        fill_embeddings(graph, repo_name, Tiny())


def test_an_interrupted_fill_keeps_what_it_wrote_and_the_next_one_resumes(graph: Graph, git_repo, repo_name: str,
                                                                          embedder: OnnxEmbedder) -> None:
    for i in range(6):
        git_repo.write(f"m{i}.py", f"def f{i}(x):\n    return x + {i}\n\n\ndef g{i}(y):\n    return y * {i}\n")
    git_repo.commit("many")
    index_repository(graph, git_repo.root, name=repo_name)
    total = embedding_status(graph, repo_name, embedder.model_id)["chunks"]
    assert total == 12

    class FailsOnSecondPage(CountingEmbedder):
        def embed(self, texts: list[str]) -> list[list[float]]:
            if self.texts:
                raise RuntimeError("model crashed")
            return super().embed(texts)

    with pytest.raises(RuntimeError, match="model crashed"):
        fill_embeddings(graph, repo_name, FailsOnSecondPage(embedder), batch=4)
    assert embedding_status(graph, repo_name, embedder.model_id)["current"] == 4   # the first page was written
    rest = fill_embeddings(graph, repo_name, embedder, batch=4)
    assert rest["chunks_missing"] == rest["chunks_embedded"] == 8
    assert embedding_status(graph, repo_name, embedder.model_id)["missing"] == 0


def test_a_delete_while_the_vectors_are_filled_stops_the_fill_with_an_error(graph: Graph, git_repo, repo_name: str,
                                                                           embedder: OnnxEmbedder) -> None:
    """`graphrag-code delete` while an API job fills the repository's vectors: the fill used to run dry and report
    the chunks it had written as if it were done ("filled", 1650 of 18896). It stops with IndexingError (exit 6;
    a failed fill in the job), and writes nothing for the deleted repository."""
    for i in range(6):
        git_repo.write(f"m{i}.py", f"def f{i}(x):\n    return x + {i}\n\n\ndef g{i}(y):\n    return y * {i}\n")
    git_repo.commit("many")
    index_repository(graph, git_repo.root, name=repo_name)
    assert embedding_status(graph, repo_name, embedder.model_id)["chunks"] == 12
    deleted: list[int] = []

    def delete_after_the_first_page(stage: str, done: int, total: int) -> None:
        if not deleted:
            deleted.append(delete_repository(graph, repo_name))     # between pages: the reader is one page ahead

    counting = CountingEmbedder(embedder)
    with pytest.raises(IndexingError, match="was deleted while its vectors were filled") as caught:
        fill_embeddings(graph, repo_name, counting, progress=delete_after_the_first_page, batch=2)
    assert caught.value.exit_code == 6
    assert deleted and deleted[0] > 12
    assert counting.texts < 12                                       # it stopped, not ran dry
    assert graph.run("repo_get", repo=repo_name) == []
    assert graph.run("repo_dump", repo=repo_name)[0]["nodes"] == []
    assert embedding_status(graph, repo_name, embedder.model_id)["chunks"] == 0


def test_a_fill_of_a_repository_deleted_before_it_started_is_an_error(graph: Graph, git_repo, repo_name: str,
                                                                      embedder: OnnxEmbedder) -> None:
    git_repo.write("a.py", "def f():\n    return 1\n")
    git_repo.commit("a")
    index_repository(graph, git_repo.root, name=repo_name)
    delete_repository(graph, repo_name)
    with pytest.raises(IndexingError, match="was deleted"):
        fill_embeddings(graph, repo_name, embedder)


def test_neo4j_going_away_mid_fill_is_reported_without_waiting_for_it(graph: Graph, git_repo, repo_name: str,
                                                                      embedder: OnnxEmbedder, neo4j_settings) -> None:
    """The writer's statement fails with Neo4j away while the reader sits in its next statement (the driver's
    retries): the fill raises that error at once. It asked whether the repository was still live (another 15 s
    of retries) and then waited up to 30 s for the reader (sixth QA pass: 40-57 s after Neo4j died)."""
    import threading
    import time

    from graphrag_code.errors import DatabaseUnavailable

    for i in range(6):
        git_repo.write(f"m{i}.py", f"def f{i}(x):\n    return x + {i}\n\n\ndef g{i}(y):\n    return y * {i}\n")
    git_repo.commit("many")
    index_repository(graph, git_repo.root, name=repo_name)
    release, reader_waits, calls = threading.Event(), threading.Event(), []

    class GoesAway(Graph):
        def run(self, name: str, /, **params):
            calls.append(name)
            if name == "set_embeddings":
                reader_waits.wait(10)
                raise DatabaseUnavailable("Neo4j went away (test)")
            if name == "chunks_missing_embeddings" and calls.count(name) == 3:
                reader_waits.set()
                release.wait(60)              # the reader, inside the driver's retries
                raise DatabaseUnavailable("Neo4j went away (test)")
            return super().run(name, **params)

    with GoesAway(neo4j_settings) as failing:
        started = time.monotonic()
        with pytest.raises(DatabaseUnavailable, match="went away"):
            fill_embeddings(failing, repo_name, embedder, batch=2)
        seconds = time.monotonic() - started
        blocked = not release.is_set()
        release.set()
    assert "repo_live" not in calls[calls.index("set_embeddings"):], calls
    assert blocked and calls.count("chunks_missing_embeddings") == 3 and seconds < 20, (seconds, calls)


def test_a_fill_retries_for_a_short_while_only(graph: Graph, git_repo, repo_name: str, embedder: OnnxEmbedder,
                                               neo4j_settings) -> None:
    """The fill resumes where it stops, so its statements retry for FILL_RETRY_SECONDS, not an indexing job's
    15 s: with Neo4j killed mid-fill, `embed` failed 19-33 s later, each thread waiting out the retries in turn
    (seventh QA pass; 10-16 s now, the rest is the page being embedded)."""
    from graphrag_code.vectors import FILL_RETRY_SECONDS

    git_repo.write("m.py", "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n")
    git_repo.commit("one")
    index_repository(graph, git_repo.root, name=repo_name)
    seen: dict[str, set[float]] = {}

    class Watched(Graph):
        def run(self, name: str, /, **params):
            seen.setdefault(name, set()).add(self.retry_seconds)
            return super().run(name, **params)

    with Watched(neo4j_settings) as watched:
        fill_embeddings(watched, repo_name, embedder)
        assert watched.retry_seconds == 15.0                 # restored afterwards
    assert seen["chunks_missing_embeddings"] == seen["set_embeddings"] == {FILL_RETRY_SECONDS}
