"""OpenAI (or OpenAI-compatible) embeddings: the embeddings side of the OpenAI backend.

Imported lazily by :func:`belief_graph.embeddings.make_embedder` (``provider=openai``), so the
library works without the ``openai`` extra (``pip install 'belief-graph[openai]'``). Together
with :mod:`belief_graph.llm.openai` (the chat model) these are the only modules that import
``langchain_openai``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from langchain_openai import OpenAIEmbeddings

from ..errors import EmbeddingDimensionError, EmbeddingError

__all__ = ["OpenAIEmbedder"]


def _sends_dimensions(model: str) -> bool:
    # Only the text-embedding-3 family accepts ``dimensions``; ada-002 and most
    # OpenAI-compatible servers reject the parameter.
    return model.startswith("text-embedding-3")


class OpenAIEmbedder:
    """OpenAI (or OpenAI-compatible) embeddings through ``langchain_openai.OpenAIEmbeddings``.

    Implements :class:`belief_graph.embeddings.Embedder`: vectors are re-normalised to unit
    length here (OpenAI's already are; compatible servers' may not be) and their length is
    checked against ``dimension`` (:class:`~belief_graph.errors.EmbeddingDimensionError`).

    ``send_dimensions`` (default: only for ``text-embedding-3-*`` models) passes ``dimension`` to
    the API so it shortens the vectors. ``check_embedding_ctx_length`` is turned off: with it on,
    langchain tokenises locally with tiktoken, which downloads its BPE files at first use and sends
    token ids that OpenAI-compatible servers often do not accept; texts over the model's context
    (8191 tokens for OpenAI) are then rejected by the server instead of being split.

    Any failure of the client (network, auth, rate limit after retries) is raised as
    :class:`~belief_graph.errors.EmbeddingError`.
    """

    def __init__(
        self,
        *,
        model: str = "text-embedding-3-small",
        dimension: int = 1536,
        api_key: str | None = None,
        base_url: str | None = None,
        batch_size: int = 1000,
        timeout: float | None = 60.0,
        max_retries: int = 2,
        send_dimensions: bool | None = None,
    ) -> None:
        if dimension <= 0:
            raise ValueError("dimension must be positive")
        self._model = model
        self._dimension = dimension
        send = _sends_dimensions(model) if send_dimensions is None else send_dimensions
        try:
            self._client = OpenAIEmbeddings(
                model=model,
                api_key=api_key,  # type: ignore[arg-type]  # None: OPENAI_API_KEY from the env
                base_url=base_url,
                dimensions=dimension if send else None,
                chunk_size=batch_size,
                timeout=timeout,
                max_retries=max_retries,
                check_embedding_ctx_length=False,
            )
        except Exception as exc:  # pydantic / openai raise their own types
            raise EmbeddingError(
                f"cannot set up OpenAI embeddings ({model}): {exc} "
                "(set BELIEF_GRAPH_LLM__API_KEY, or use BELIEF_GRAPH_EMBEDDING__PROVIDER=local)"
            ) from exc

    @property
    def name(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return self._dimension

    def _finish(self, vectors: list[list[float]]) -> list[list[float]]:
        if not vectors:
            return []
        arr = np.asarray(vectors, dtype=np.float64)
        if arr.ndim != 2 or arr.shape[1] != self._dimension:
            got = int(arr.shape[-1]) if arr.ndim >= 1 else 0
            raise EmbeddingDimensionError(self._dimension, got, where=f"OpenAI model {self._model}")
        norms = np.maximum(np.linalg.norm(arr, axis=1, keepdims=True), 1e-12)
        result: list[list[float]] = (arr / norms).tolist()
        return result

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of strings, not one string")
        items = list(texts)
        if not items:
            return []
        try:
            vectors = self._client.embed_documents(items)
        except Exception as exc:
            raise EmbeddingError(f"OpenAI embeddings ({self._model}) failed: {exc}") from exc
        return self._finish(vectors)

    def embed_query(self, text: str) -> list[float]:
        try:
            vector = self._client.embed_query(text)
        except Exception as exc:
            raise EmbeddingError(f"OpenAI embeddings ({self._model}) failed: {exc}") from exc
        return self._finish([vector])[0]

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self._model!r}, dimension={self._dimension})"
