"""Ranking steps of ``recall`` for questions that need a small inference (docs/retrieval.md,
"Inference-style questions").

"Is the user a night owl?" shares no word with "She usually goes to bed around 2 am", and a
memory such as "The user keeps an owl-shaped night light" shares two. The steps here re-rank the
candidates that the vector and fulltext searches returned *after* Cypher applied every filter
(space, status, perspective, keys), so none of them can bring in a claim the filters left out:

* :func:`rewrite_query` (no model): the question is embedded without its subject words ("the
  user", "she", "his", ...). Memories are about the user by default, so those words carry no
  information and pull towards memories that happen to say "the user".
* :class:`KeyVectors` + :func:`key_phrase` (key-aware fusion, the local embedder only): a claim's
  fact key names the attribute it records (``user.sleep.bedtime`` -> "sleep bedtime"), often the
  very thing a question asks about in other words. The semantic score of a candidate becomes
  ``(1 - w) * text score + w * key score`` (Neo4j's cosine scale ``(1 + cos) / 2``); a claim
  without a key keeps its text score. Key phrases are embedded once per process (LRU cache).
* :func:`llm_rerank` (optional, off by default): the LLM job ``rerank`` orders the best few
  candidates; one counted call per recall, through the job runner (usage meter, repair, aliases).
* :func:`llm_hypothesis` (optional, off by default): the LLM job ``hypothesize`` writes the memory
  that would answer the question ("Is the user a night owl?" -> "The user stays up past
  midnight"), and the searches use :func:`mean_direction` of its vector and the question's. It
  changes the query vector only, so the filters still decide which claims can come back.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..embeddings import Embedder
from ..errors import EmbeddingDimensionError

__all__ = [
    "KeyVectors",
    "SUBJECT_WORDS",
    "key_phrase",
    "llm_hypothesis",
    "llm_rerank",
    "mean_direction",
    "rewrite_query",
]

SUBJECT_WORDS = re.compile(
    r"\b(?:the\s+user(?:['’]s)?|user(?:['’]s)?|she|her|hers|herself|he|him|his|himself|they|them|their|theirs"
    r"|we|our|ours|us|i|me|my|mine)\b",
    re.IGNORECASE,
)
"""Words that name the subject of a memory question rather than what is asked about it."""

_SPLIT = re.compile(r"[._\-\s/:]+|(?<=[a-z0-9])(?=[A-Z])")


def rewrite_query(text: str) -> str:
    """The question without its subject words ("Is the user a night owl?" -> "Is a night owl?"),
    or the question itself when nothing else would be left."""
    out = re.sub(r"\s+", " ", SUBJECT_WORDS.sub(" ", text)).strip()
    return out if re.search(r"[^\W_]", out.rstrip("?!. ")) else text


def key_phrase(key: str, value: Any = None) -> str:
    """The words of a fact key, without subject words (``user.sleep.bedtime`` -> "sleep
    bedtime", ``family.spouse.wake_time`` -> "family spouse wake time"); with ``value``,
    "words: value"."""
    words = [w for w in _SPLIT.split(key) if w]
    kept = [w for w in words if not SUBJECT_WORDS.fullmatch(w)] or words
    phrase = " ".join(w.lower() for w in kept)
    if value is None:
        return phrase
    shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    return f"{phrase}: {shown}"


class KeyVectors:
    """Embeddings of key phrases, computed once per phrase (LRU of ``size`` phrases, thread-safe).

    Fact keys repeat across a space's claims and across questions, so after the first recalls
    almost every phrase is cached; :attr:`embedded` counts the phrases embedded so far."""

    def __init__(self, embedder: Embedder, dimension: int, size: int = 20_000) -> None:
        self.embedder = embedder
        self.dimension = dimension
        self.size = size
        self.embedded = 0
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def vectors(self, phrases: Sequence[str]) -> dict[str, np.ndarray]:
        """Unit vectors of ``phrases`` (the missing ones embedded in one batch)."""
        with self._lock:
            found = {p: self._cache[p] for p in phrases if p in self._cache}
            for p in found:
                self._cache.move_to_end(p)
        missing = [p for p in dict.fromkeys(phrases) if p not in found]
        if missing:
            vecs = self.embedder.embed_documents(missing)
            arr = np.asarray(vecs, dtype=np.float32)
            if arr.ndim != 2 or arr.shape[1] != self.dimension:
                raise EmbeddingDimensionError(self.dimension, int(arr.shape[-1]), where="key phrase embedding")
            with self._lock:
                for p, v in zip(missing, arr, strict=True):
                    self._cache[p] = v
                    found[p] = v
                self.embedded += len(missing)
                while len(self._cache) > self.size:
                    self._cache.popitem(last=False)
        return found

    def scores(self, query: Sequence[float], phrases: dict[str, str]) -> dict[str, float]:
        """``{claim id: (1 + cos(query, phrase)) / 2}`` for ``{claim id: phrase}`` (Neo4j's scale)."""
        if not phrases:
            return {}
        vecs = self.vectors(list(phrases.values()))
        q = np.asarray(query, dtype=np.float32)
        return {cid: float((1.0 + float(vecs[p] @ q)) / 2.0) for cid, p in phrases.items()}


def llm_rerank(
    run: Callable[[str, dict[str, Any]], Any], question: str, candidates: Sequence[dict[str, Any]]
) -> list[str]:
    """The candidate ids in the order the ``rerank`` job gives (ids it leaves out follow in their
    given order). ``run`` is :meth:`LLMClient.run`; the job's check accepts only candidate ids,
    so the model cannot add a claim the filters left out."""
    out = run(
        "rerank",
        {
            "question": question,
            "candidates": [
                {"id": c["id"], "text": c["text"], "key": c.get("key"), "value": c.get("value")} for c in candidates
            ],
        },
    )
    ranked = list(dict.fromkeys(out.output.ranking))
    given = [c["id"] for c in candidates]
    return ranked + [cid for cid in given if cid not in set(ranked)]


def llm_hypothesis(run: Callable[[str, dict[str, Any]], Any], question: str) -> str:
    """The memory that would answer ``question``, written by the ``hypothesize`` job (``run`` is
    :meth:`LLMClient.run`). Only its vector is used: it is never stored or returned."""
    return str(run("hypothesize", {"question": question}).output.memory).strip()


def mean_direction(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The unit vector halfway between two unit vectors (``a`` when they point in opposite directions)."""
    va, vb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    s = va + vb
    n = float(np.linalg.norm(s))
    return [float(x) for x in (s / n if n > 1e-9 else va)]
