"""The seam every LLM job goes through: a minimal :class:`ChatModel` protocol.

A chat model receives one :class:`ChatRequest` (the rendered messages plus the pydantic class
the answer must validate against) and returns one :class:`RawResponse`: the raw text the model
produced, optionally an already-decoded object, a refusal if the model refused, and token counts
when the provider reports them. It does **not** validate: :class:`~belief_graph.llm.runner.LLMClient`
does that (strict JSON + pydantic + the job's own checks) and drives the repair retries, so the
scripted, replay and OpenAI implementations stay small and behave identically.

Failures a model may raise:

* :class:`ModelTimeout` — the provider timed out (after its own retries). The runner retries
  within its bounded attempt budget, then raises
  :class:`~belief_graph.errors.EncodingError` with reason ``timeout``.
* :class:`~belief_graph.errors.LLMUnavailable` — no usable model (missing key or package, HTTP
  error after the client's retries, no replay entry). Raised to the caller at once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel

__all__ = [
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ModelTimeout",
    "RawResponse",
    "Role",
    "output_json_schema",
    "prompt_key",
]

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of a chat prompt."""

    role: Role
    content: str

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class ChatRequest:
    """One call to a chat model.

    ``inputs`` are the job's validated inputs (JSON-ready, real ids); the scripted model keys
    its answers on them, the others ignore them. The prompt shows ids as short aliases
    (``aliases``: real id -> alias), so a model answers with aliases. ``attempt`` is 1 for the first call of a job and grows with
    each repair retry (the repair turns are already part of ``messages``).
    """

    job: str
    messages: tuple[ChatMessage, ...]
    schema: type[BaseModel]
    inputs: Mapping[str, Any] = field(default_factory=dict)
    prompt: str = ""
    prompt_version: str = ""
    attempt: int = 1
    aliases: Mapping[str, str] = field(default_factory=dict)
    """Real id -> the short alias the prompt shows (``t1``, ``c2``); answers use the aliases."""
    max_tokens: int | None = None
    """Cap on the answer's length (the job's limit for this call); ``None``: the provider's."""
    timeout: float | None = None
    """Seconds this call may take (the job's limit); ``None``: the model's own default."""

    def key(self, model: str) -> str:
        """The replay key of this request for ``model`` (see :func:`prompt_key`)."""
        return prompt_key(self.job, model, self.messages, self.schema.__name__)


@dataclass(frozen=True)
class RawResponse:
    """What a chat model answered, unvalidated.

    ``text`` is the raw output (message content, or the tool-call arguments); ``parsed`` is an
    already-decoded JSON object when the backend has one (tool-call arguments, a scripted dict)
    — the runner still validates it. ``refusal`` is set when the model refused. Token counts
    are ``None`` when the provider does not report them. ``finish_reason`` is the provider's
    (``stop``, ``length``, ``tool_calls``...) when known: ``length`` means the answer was cut
    off at ``max_tokens`` — an invalid answer the runner repairs.
    """

    text: str | None = None
    parsed: Mapping[str, Any] | None = None
    refusal: str | None = None
    tokens_in: int | None = None
    tokens_out: int | None = None
    model: str | None = None
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "parsed": dict(self.parsed) if self.parsed is not None else None,
            "refusal": self.refusal,
            "tokens_in": self.tokens_in,
            "tokens_out": self.tokens_out,
            "model": self.model,
            "finish_reason": self.finish_reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RawResponse:
        return cls(
            text=data.get("text"),
            parsed=data.get("parsed"),
            refusal=data.get("refusal"),
            tokens_in=data.get("tokens_in"),
            tokens_out=data.get("tokens_out"),
            model=data.get("model"),
            finish_reason=data.get("finish_reason"),
        )


class ModelTimeout(Exception):
    """The provider timed out. Internal: the runner turns it into a retry, then an EncodingError."""


@runtime_checkable
class ChatModel(Protocol):
    """A chat model that answers one structured-output request.

    ``name`` identifies the model in provenance and replay keys (e.g. ``gpt-4o-mini``,
    ``scripted``, ``replay:stub-scripted``). Implementations must be safe to call from several
    threads.
    """

    @property
    def name(self) -> str: ...

    def invoke(self, request: ChatRequest) -> RawResponse:
        """Answer one request. May raise :class:`ModelTimeout` or ``LLMUnavailable``."""
        ...


def prompt_key(job: str, model: str, messages: Sequence[ChatMessage], schema: str) -> str:
    """sha256 (hex) of the job, the model, the output schema name and the rendered messages.

    The key of a recorded response: a replayed run finds an answer only for exactly the prompt
    it was recorded for (a prompt file edit, other inputs or another model give another key).
    """
    payload = json.dumps(
        {"job": job, "model": model, "schema": schema, "messages": [m.to_dict() for m in messages]},
        ensure_ascii=False,
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


_DROP_KEYS = frozenset(
    {
        "title",
        "default",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minItems",
        "maxItems",
    }
)


def output_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of an output model as sent to providers (and shown in prompts).

    Every object gets ``additionalProperties: false`` and lists all its properties as required
    (output models have no defaults, so this is what they mean), which makes it valid for
    OpenAI's strict structured outputs. Value constraints (ranges, lengths, patterns) and titles
    are left out because servers differ in which they accept; pydantic enforces them when the
    answer is validated, and a violation goes back to the model as a repair prompt.
    """

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: walk(v) for k, v in node.items() if k not in _DROP_KEYS}
            if "properties" in node and isinstance(node["properties"], dict):
                # property names are data, not keywords: walk the values only
                out["properties"] = {k: walk(v) for k, v in node["properties"].items()}
                out["required"] = list(node["properties"])
                out["additionalProperties"] = False
            return out
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    schema: dict[str, Any] = walk(model.model_json_schema())
    return schema
