"""Embedder wrappers: :class:`DelegatingEmbedder` and the accounting :class:`CountingEmbedder`."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import EmbeddingError
from .base import Embedder


@dataclass
class EmbeddingUsage:
    """What an embedder was asked to do: calls made, texts embedded, wall-clock seconds."""

    calls: int = 0
    items: int = 0
    seconds: float = 0.0

    def __add__(self, other: EmbeddingUsage) -> EmbeddingUsage:
        return EmbeddingUsage(self.calls + other.calls, self.items + other.items, self.seconds + other.seconds)


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
