"""What the facade builds on first use, and the usage report that never builds it: the embedder
:meth:`BeliefGraph.connect <belief_graph.facade.BeliefGraph.connect>` uses when none is given."""

from __future__ import annotations

from .embeddings import CountingEmbedder, DelegatingEmbedder, Embedder, make_embedder
from .llm import LLMClient, LLMUsage, UsageReport
from .settings import Settings

__all__ = ["LazyEmbedder", "usage_report"]


class LazyEmbedder(DelegatingEmbedder):
    """Builds the configured embedder on first use, so admin commands (``db init``, ``server``)
    never load a model or need an API key they do not use."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(None)
        self._settings = settings

    @property
    def built(self) -> bool:
        return self._wrapped is not None

    @property
    def inner(self) -> Embedder:
        if self._wrapped is None:
            self._wrapped = make_embedder(self._settings.embedding, self._settings.llm)
        return self._wrapped


def usage_report(llm: LLMClient | None, embedder: Embedder) -> UsageReport:
    """Model calls per job of ``llm`` (None: never built) and embedding calls; names an embedder only once built."""
    inner = embedder.inner if isinstance(embedder, CountingEmbedder) else embedder
    return UsageReport(
        llm=llm.usage() if llm is not None else LLMUsage(),
        model=llm.model_name if llm is not None else None,
        embedding=embedder.usage if isinstance(embedder, CountingEmbedder) else None,
        embedder=None if isinstance(inner, LazyEmbedder) and not inner.built else inner.name,
    )
