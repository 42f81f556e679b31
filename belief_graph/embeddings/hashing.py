"""Deterministic feature hashing: an embedder for tests and development only."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from .base import MINILM_DIMENSION, _check_texts

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
