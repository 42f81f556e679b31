"""A deterministic, scripted chat model for tests and benchmarks.

Replies are keyed by job and (optionally) by inputs::

    m = ScriptedModel()
    m.add("extract", '{"facts": [', {"facts": []})          # malformed first, then valid
    m.add("judge", Judgement(winner="c2", rationale="newer"), inputs={"question": "q"})
    m.add("encode", Timeout(), Refusal("no"), "")             # timeout, refusal, empty answer
    m.respond("encode", lambda inputs: {...})                  # computed from the inputs

For one call the most specific rule wins: a rule whose ``inputs`` equal the request's inputs on
every given field, then a job-wide sequence, then a responder function; among equally specific
rules the most recently added one wins. A sequence is consumed
one reply per call and its last reply repeats. A reply is the raw text the "model" produced
(``str``), a JSON-ready ``dict`` or pydantic model (serialised to JSON text), a
:class:`Refusal`, a :class:`Timeout`, an :class:`Unavailable`, or a full
:class:`~belief_graph.llm.protocol.RawResponse` (e.g. with token counts). Scripted replies
report no token counts unless given as a ``RawResponse``.

Replies are written with the caller's real ids; the prompt shows short aliases (``t1``,
``c2``: see ``validation._Aliases``), so JSON replies are translated to the aliases before the runner
sees them, exactly as a real model would answer. Every request is kept in
:attr:`ScriptedModel.calls` (to assert on prompts and repair turns).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ..errors import LLMUnavailable
from .protocol import ChatRequest, ModelTimeout, RawResponse

__all__ = ["Refusal", "Reply", "Responder", "ScriptedModel", "Timeout", "Unavailable"]


@dataclass(frozen=True)
class Refusal:
    """The model refuses (``RawResponse.refusal``)."""

    text: str = "I'm sorry, I can't help with that."


@dataclass(frozen=True)
class Timeout:
    """The provider times out (raises ``ModelTimeout``)."""

    detail: str = "scripted timeout"


@dataclass(frozen=True)
class Unavailable:
    """The provider is unreachable (raises ``LLMUnavailable``)."""

    detail: str = "scripted endpoint unavailable"


Reply = str | Mapping[str, Any] | BaseModel | Refusal | Timeout | Unavailable | RawResponse
Responder = Callable[[Mapping[str, Any]], Reply]


def _canonical(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


@dataclass
class _Rule:
    job: str
    replies: list[Reply] = field(default_factory=list)
    inputs: dict[str, str] | None = None  # field -> canonical JSON
    fn: Responder | None = None
    used: int = 0

    def matches(self, req: ChatRequest) -> bool:
        if self.job != req.job:
            return False
        if self.inputs is None:
            return True
        return all(k in req.inputs and _canonical(req.inputs[k]) == v for k, v in self.inputs.items())

    def next(self, req: ChatRequest) -> Reply:
        if self.fn is not None:
            return self.fn(req.inputs)
        reply = self.replies[min(self.used, len(self.replies) - 1)]
        self.used += 1
        return reply


class ScriptedModel:
    """See the module docstring. ``name`` appears in provenance and usage."""

    is_replay = False

    def __init__(self, name: str = "scripted") -> None:
        self._name = name
        self._rules: list[_Rule] = []
        self._lock = threading.Lock()
        self.calls: list[ChatRequest] = []

    @property
    def name(self) -> str:
        return self._name

    @property
    def description(self) -> str:
        return f"scripted model {self._name!r} (deterministic test replies)"

    def add(self, job: str, *replies: Reply, inputs: BaseModel | Mapping[str, Any] | None = None) -> ScriptedModel:
        """Replies for ``job`` (consumed in order, the last repeats), optionally only for
        requests whose inputs equal ``inputs`` on the given fields."""
        if not replies:
            raise ValueError("give at least one reply")
        match: dict[str, str] | None = None
        if inputs is not None:
            data = inputs.model_dump(mode="json") if isinstance(inputs, BaseModel) else dict(inputs)
            match = {k: _canonical(v) for k, v in data.items()}
        with self._lock:
            self._rules.append(_Rule(job, list(replies), match))
        return self

    def respond(self, job: str, fn: Responder) -> ScriptedModel:
        """Compute the reply for any request of ``job`` from its inputs."""
        with self._lock:
            self._rules.append(_Rule(job, fn=fn))
        return self

    def calls_for(self, job: str) -> list[ChatRequest]:
        return [c for c in self.calls if c.job == job]

    def _pick(self, req: ChatRequest) -> _Rule | None:
        candidates = [r for r in self._rules if r.matches(req)]

        def rank(r: _Rule) -> int:  # keyed on inputs, then job-wide replies, then functions
            return 2 if r.fn is not None else (0 if r.inputs is not None else 1)

        # among equally specific rules the most recently added wins (a test can re-script a job)
        return min(reversed(candidates), key=rank) if candidates else None

    def invoke(self, request: ChatRequest) -> RawResponse:
        with self._lock:
            self.calls.append(request)
            rule = self._pick(request)
            if rule is None:
                raise LLMUnavailable(
                    f"scripted model has no reply for job {request.job!r} with these inputs "
                    f"(add one with ScriptedModel.add/respond)"
                )
            reply = rule.next(request)
        return _to_raw(reply, self._name, request.aliases)


def aliased(value: Any, aliases: Mapping[str, str]) -> Any:
    """Every string equal to a real id becomes the alias the prompt showed."""
    if isinstance(value, str):
        return aliases.get(value, value)
    if isinstance(value, Mapping):
        return {k: aliased(v, aliases) for k, v in value.items()}
    if isinstance(value, list):
        return [aliased(v, aliases) for v in value]
    return value


def _to_raw(reply: Reply, model: str, aliases: Mapping[str, str]) -> RawResponse:
    """Scripted replies are written with real ids; like a real model's answers, they reach the
    runner with the prompt's aliases (JSON replies only: other text is passed as-is)."""
    if isinstance(reply, RawResponse):
        return reply
    if isinstance(reply, Refusal):
        return RawResponse(text=None, refusal=reply.text, model=model)
    if isinstance(reply, Timeout):
        raise ModelTimeout(reply.detail)
    if isinstance(reply, Unavailable):
        raise LLMUnavailable(reply.detail)
    if isinstance(reply, str):
        try:
            data = json.loads(reply)
        except ValueError:
            return RawResponse(text=reply, model=model)
        if not isinstance(data, dict):
            return RawResponse(text=reply, model=model)
        return RawResponse(text=json.dumps(aliased(data, aliases), ensure_ascii=False), model=model)
    data = reply.model_dump(mode="json") if isinstance(reply, BaseModel) else dict(reply)
    return RawResponse(text=json.dumps(aliased(data, aliases), ensure_ascii=False), model=model)
