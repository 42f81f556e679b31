"""A BERT encoder forward pass in numpy (float32), as all-MiniLM-L6-v2 needs it.

Private: :class:`~belief_graph.embeddings.minilm.LocalMiniLMEmbedder` is the public face. Its
outputs match sentence-transformers to cosine >= 0.9999, which ``tests/unit/test_embeddings.py``
checks against ``tests/data/minilm_reference.json``; numerics (erf, exact GELU) are here because
numpy has none.
"""

from __future__ import annotations

import importlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import EmbeddingError
from .base import F32, LOCAL_INSTALL_HINT

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
                f"the local embedding model needs the `{exc.name}` package (install with `{LOCAL_INSTALL_HINT}`)"
            ) from exc
        try:
            config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
            pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
            st_config_path = model_dir / "sentence_bert_config.json"
            st_config: dict[str, Any] = (
                json.loads(st_config_path.read_text(encoding="utf-8")) if st_config_path.is_file() else {}
            )
            tokenizer = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
            tensors: dict[str, F32] = safetensors_numpy.load_file(str(model_dir / "model.safetensors"))
        except Exception as exc:  # OSError, JSON errors, tokenizers' / safetensors' own types
            raise EmbeddingError(f"cannot load the local embedding model from {model_dir}: {exc}") from exc

        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise EmbeddingError(f"{model_dir}: expected a BERT model with exact GELU, got {config}")
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

    def forward(self, ids: npt.NDArray[np.int64], type_ids: npt.NDArray[np.int64], mask: F32) -> F32:
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
