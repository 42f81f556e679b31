"""Record responses from a real endpoint, and replay them later without one.

A replay file is JSON::

    {
      "format": "belief_graph.replay/1",
      "meta": {"model": "gpt-4o-mini", "source": "...how it was recorded...", ...},
      "entries": {
        "<sha256 of job + model + schema + rendered messages>": {
          "job": "extract", "prompt": "extract@1", "attempt": 1,
          "response": {"text": "...", "refusal": null, "tokens_in": 412, "tokens_out": 57}
        }
      }
    }

:class:`RecordingModel` wraps any chat model and writes every answer it gets (repair turns
included: they are part of the rendered prompt, so they get their own key). :class:`ReplayModel`
serves them: a prompt that was not recorded (other inputs, an edited prompt file, another model)
raises :class:`~belief_graph.errors.LLMUnavailable` — a replay never invents an answer.

The demo file shipped with the package (:func:`demo_replay_path`) was recorded from a local
*scripted* OpenAI-compatible stub, not from a real model; its ``meta.source`` says so.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from ..errors import ConfigurationError, FormatError, LLMUnavailable
from .protocol import ChatModel, ChatRequest, RawResponse

__all__ = ["FORMAT", "RecordingModel", "ReplayFile", "ReplayModel", "demo_replay_path"]

FORMAT = "belief_graph.replay/1"
DEMO_REPLAY = "demo_replay.json"


def demo_replay_path() -> Traversable:
    """The replay file shipped with the package (used by ``provider=auto`` without an API key)."""
    return files("belief_graph.llm") / DEMO_REPLAY


class ReplayFile:
    """The in-memory content of a replay file."""

    def __init__(self, meta: Mapping[str, Any] | None = None, entries: Mapping[str, Any] | None = None) -> None:
        self.meta: dict[str, Any] = dict(meta or {})
        self.entries: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (entries or {}).items()}

    @classmethod
    def parse(cls, text: str, path: str) -> ReplayFile:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FormatError(f"not JSON: {exc.msg}", path, exc.lineno, "a belief_graph replay file") from exc
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise FormatError("not a replay file", path, None, f'"format": "{FORMAT}"')
        meta, entries = data.get("meta"), data.get("entries")
        if not isinstance(meta, dict) or not isinstance(meta.get("model"), str):
            raise FormatError("meta.model is missing", path, None, '"meta": {"model": "..."}')
        if not isinstance(entries, dict):
            raise FormatError("entries is missing", path, None, '"entries": {...}')
        for key, entry in entries.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("response"), dict) or "job" not in entry:
                raise FormatError(f"entry {key[:12]} is malformed", path, None, '{"job", "response"}')
        return cls(meta, entries)

    @classmethod
    def load(cls, path: Path | Traversable) -> ReplayFile:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise LLMUnavailable(f"replay file {path} does not exist (record one first: see docs/llm.md)") from exc
        return cls.parse(text, str(path))

    def to_json(self) -> str:
        data = {"format": FORMAT, "meta": self.meta, "entries": dict(sorted(self.entries.items()))}
        return json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"

    def save(self, path: Path) -> None:
        """Write atomically (temp file + rename)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.to_json())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def jobs(self) -> dict[str, int]:
        """Entries per job."""
        out: dict[str, int] = {}
        for e in self.entries.values():
            out[e["job"]] = out.get(e["job"], 0) + 1
        return dict(sorted(out.items()))


class ReplayModel:
    """Serves recorded responses keyed by the prompt hash. ``name`` is the recorded model's."""

    is_replay = True

    def __init__(self, replay: ReplayFile, path: str = "<memory>") -> None:
        self.replay = replay
        self.path = path
        self._name = str(replay.meta["model"])

    @classmethod
    def load(cls, path: Path | Traversable | None = None) -> ReplayModel:
        """Load ``path`` (default: the demo file shipped with the package)."""
        p = path if path is not None else demo_replay_path()
        return cls(ReplayFile.load(p), str(p))

    @property
    def name(self) -> str:
        return self._name

    @property
    def description(self) -> str:
        source = self.replay.meta.get("source", "unknown source")
        return (
            f"replay of {self.path} ({len(self.replay.entries)} recorded responses of model {self._name!r}; {source})"
        )

    def invoke(self, request: ChatRequest) -> RawResponse:
        key = request.key(self._name)
        entry = self.replay.entries.get(key)
        if entry is None:
            raise LLMUnavailable(
                f"no recorded response for job {request.job!r} (prompt {request.prompt}@{request.prompt_version}, "
                f"key {key[:12]}) in {self.path}: the inputs, the prompt file or the model differ from the "
                "recorded run (configure BELIEF_GRAPH_LLM__API_KEY for a real model, or record with "
                "BELIEF_GRAPH_LLM__RECORD_FILE)"
            )
        return RawResponse.from_dict({**entry["response"], "model": self._name})


class RecordingModel:
    """Wraps ``inner`` and records every answer into ``path`` (created or extended).

    ``source`` documents where the answers come from (kept in ``meta.source``). Failures
    (timeouts, unavailable) are not recorded. The file is rewritten atomically after each call.
    """

    is_replay = False

    def __init__(
        self, inner: ChatModel, path: Path, *, source: str | None = None, meta: Mapping[str, Any] | None = None
    ) -> None:
        self.inner = inner
        self.path = Path(path)
        self._lock = threading.Lock()
        if self.path.exists():
            self.replay = ReplayFile.load(self.path)
            if self.replay.meta.get("model") != inner.name:
                raise ConfigurationError(
                    f"replay file {self.path} holds model {self.replay.meta.get('model')!r}, not {inner.name!r} "
                    "(record into another file)"
                )
        else:
            self.replay = ReplayFile({"model": inner.name}, {})
        if source is not None:
            self.replay.meta["source"] = source
        self.replay.meta.setdefault("source", f"recorded from model {inner.name!r}")
        if meta:
            self.replay.meta.update(meta)

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def description(self) -> str:
        desc = getattr(self.inner, "description", self.inner.name)
        return f"{desc}, recording to {self.path}"

    def invoke(self, request: ChatRequest) -> RawResponse:
        res = self.inner.invoke(request)
        response = res.to_dict()
        response.pop("model", None)
        if response.get("parsed") is None:
            response.pop("parsed", None)
        entry = {
            "job": request.job,
            "prompt": f"{request.prompt}@{request.prompt_version}",
            "attempt": request.attempt,
            "response": response,
        }
        with self._lock:
            self.replay.entries[request.key(self.inner.name)] = entry
            self.replay.save(self.path)
        return res
