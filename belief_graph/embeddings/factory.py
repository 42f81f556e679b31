"""Build the embedder the settings ask for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import EmbeddingDimensionError, EmbeddingError
from .base import (
    _LOCAL_MODEL_ALIASES,
    DEFAULT_LOCAL_MODEL,
    DEFAULT_OPENAI_MODEL,
    MINILM_DIMENSION,
    Embedder,
)
from .minilm import LocalMiniLMEmbedder

if TYPE_CHECKING:
    from ..settings import EmbeddingSettings, LLMSettings


def make_embedder(settings: EmbeddingSettings, llm: LLMSettings) -> Embedder:
    """Build the embedder that the settings ask for.

    * ``provider="auto"``: OpenAI when ``llm.api_key`` is set, the local MiniLM model otherwise.
    * ``"local"``: :class:`LocalMiniLMEmbedder`; ``settings.dimension`` must be 384, else
      :class:`~belief_graph.errors.EmbeddingDimensionError`. ``settings.model`` may be unset or
      name all-MiniLM-L6-v2, else :class:`~belief_graph.errors.EmbeddingError`.
    * ``"openai"``: ``belief_graph.embeddings.openai.OpenAIEmbedder`` with ``settings.model``
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
        return LocalMiniLMEmbedder(batch_size=settings.batch_size, download_dir=settings.local_model_dir)
    if provider == "openai":
        try:
            backend = importlib.import_module("belief_graph.embeddings.openai")
        except ModuleNotFoundError as exc:
            raise EmbeddingError(
                f"the OpenAI embedder needs `{exc.name}` (install with `pip install 'belief-graph[openai]'`)"
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
