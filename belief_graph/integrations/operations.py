"""The memory operations an agent framework exposes as tools, framework-neutral: typed arguments and
compact results (pydantic), one function per operation. ``langchain.py`` and ``openai_agents.py`` wrap
these; neither runs a belief_graph call of its own.

=========  ==========================================================  ============================
operation  what                                                        through
=========  ==========================================================  ============================
remember   a conversation turn -> facts, written through the policy    ``bg.remember``
recall     active beliefs relevant to a question                       ``bg.recall``
belief     the current belief for a fact key                           ``bg.belief``
history    every version of a fact key, oldest first                   ``bg.beliefs.history``
explain    why memory holds a belief (justifications, disputes, ...)   ``bg.beliefs.explain``
disputes   open (or resolved) disputes                                 ``bg.conflicts.disputes``
=========  ==========================================================  ============================

**Who acts.** A set of tools acts as one agent, given when the tools are built (:class:`Scope`), never
as a tool argument: the model that calls the tools reads text it does not control (a web page, a
forwarded mail), and an ``agent`` argument would let that text write as ``user:alice`` or as an
agent that an authority policy ranks higher. The application knows who it serves; the model does not
choose. For the same reason there is no ``space`` argument: the tools act on the space of ``bg``.

**Results** are small JSON-able dicts an LLM can read: each belief as its key, value, text, agent,
``since`` (when it became true, else when it was recorded) and claim id; no embeddings, no scores'
parts. **Errors** of the library (:mod:`belief_graph.errors`: a malformed key, an unknown claim, a
model that could not extract) are :class:`~belief_graph.errors.BeliefGraphError`; the adapters turn
them into the tool's error message with :func:`error_text` (one line, no traceback), and nothing was
written (every write is one transaction).

**Async.** :func:`run_async` runs an operation in a worker thread (the sync client blocks). A client
that offers ``await client.call(fn, *args)`` (``fn`` receives the sync ``BeliefGraph`` it bridges, as
``AsyncBeliefGraph`` does) is used through that call instead, with its cancellation handling. In a
worker thread, a cancelled caller returns at once and the call ends in its thread, whole (one
transaction per write), whatever the caller does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, runtime_checkable

import pydantic
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import BeliefGraphError, NotFoundError, ValidationError, shown
from ..models import Claim, Dispute, Value

if TYPE_CHECKING:
    from ..facade import BeliefGraph

__all__ = [
    "OPERATIONS",
    "BeliefArgs",
    "BeliefResult",
    "BeliefRecord",
    "DisputeView",
    "DisputesArgs",
    "DisputesResult",
    "ExplainArgs",
    "ExplainResult",
    "HistoryArgs",
    "HistoryResult",
    "Operation",
    "RecallArgs",
    "RecallResult",
    "RememberArgs",
    "RememberResult",
    "Scope",
    "StoredFact",
    "VersionView",
    "arguments_error_text",
    "error_text",
    "operations",
    "run",
    "run_async",
]

T = TypeVar("T")
A = TypeVar("A", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)


@dataclass(frozen=True)
class Scope:
    """Who the tools act as (every write's ``agent``) and the conversation they belong to."""

    agent: str
    conversation: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.agent, str) or not self.agent.strip() or len(self.agent) > 256:
            raise ValidationError(
                f"the tools' agent is a non-empty name of at most 256 characters, got {shown(self.agent)}"
            )


@runtime_checkable
class CallsInThread(Protocol):
    """A client that runs a sync call against the ``BeliefGraph`` it bridges (``AsyncBeliefGraph.call``)."""

    def call(self, fn: Callable[..., T], /, *args: Any) -> Awaitable[T]: ...


# -- arguments ----------------------------------------------------------------------------------------
class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RememberArgs(_Args):
    text: str = Field(
        min_length=1,
        description='The turn to remember, in the speaker\'s own words (e.g. "I moved to Porto last week").',
    )


class RecallArgs(_Args):
    query: str = Field(min_length=1, description="A question or topic, in plain words.")
    k: int = Field(default=5, ge=1, le=20, description="How many beliefs to return (1-20).")
    key_prefix: str | None = Field(
        default=None, description="Only facts whose key starts with this (e.g. 'user.'); null for all."
    )


class BeliefArgs(_Args):
    key: str = Field(description="A fact key: a dotted name such as 'user.city'.")


class HistoryArgs(_Args):
    key: str = Field(description="A fact key: a dotted name such as 'user.city'.")


class ExplainArgs(_Args):
    key: str | None = Field(default=None, description="The fact key whose current belief to explain.")
    claim_id: str | None = Field(default=None, description="Or the id of one claim (from another tool's result).")

    @model_validator(mode="after")
    def _one(self) -> ExplainArgs:
        if (self.key is None) == (self.claim_id is None):
            raise ValueError("give exactly one of key and claim_id")
        return self


class DisputesArgs(_Args):
    status: Literal["open", "resolved", "all"] = Field(default="open", description="Which disputes.")
    key: str | None = Field(default=None, description="Only the disputes about this fact key; null for all.")


# -- results ------------------------------------------------------------------------------------------
class BeliefRecord(BaseModel):
    """One claim as a tool returns it to an agent (not the LLM jobs' ``BeliefView``: this one carries
    its agent, status and time)."""

    id: str
    key: str | None
    value: Value
    text: str
    agent: str
    status: str
    since: str | None = Field(description="When it became true (valid_from), else when it was recorded.")

    @classmethod
    def of(cls, c: Claim) -> BeliefRecord:
        return cls(
            id=c.id,
            key=c.key,
            value=c.value,
            text=c.text,
            agent=c.agent,
            status=c.status.value,
            since=c.valid_from or c.created_at,
        )


class StoredFact(BaseModel):
    op: str = Field(description="ADD, UPDATE, REPLACE, NOOP, SUPERSEDED or DISPUTED: what the write did.")
    key: str | None
    value: Value
    id: str
    replaced: str | None = Field(default=None, description="The claim id this write superseded.")
    dispute: str | None = Field(default=None, description="The dispute this write opened.")


class RememberResult(BaseModel):
    episode: str = Field(description="The id of the stored turn (evidence of every fact below).")
    stored: list[StoredFact]
    skipped: int = Field(description="Facts already known (nothing written).")
    refused: list[str] = Field(description="Facts the turn does not state, with the reason (not written).")


class RecallHitView(BeliefRecord):
    score: float


class RecallResult(BaseModel):
    query: str
    hits: list[RecallHitView]


class BeliefResult(BaseModel):
    key: str
    belief: BeliefRecord | None


class VersionView(BeliefRecord):
    current: bool
    supersedes: str | None = None


class HistoryResult(BaseModel):
    key: str
    versions: list[VersionView]


class ExplainResult(BaseModel):
    belief: BeliefRecord
    current: bool
    why: str = Field(description="A short account: justifications, revisions, disputes, audits, dependents.")
    evidence: list[str] = Field(description="Ids of the premises of every justification (episodes or claims).")
    disputes: list[str]
    versions: int


class DisputeView(BaseModel):
    id: str
    key: str
    status: str
    reason: str | None
    incumbent: BeliefRecord
    challenger: BeliefRecord
    winner: str | None = None

    @classmethod
    def of(cls, d: Dispute) -> DisputeView:
        return cls(
            id=d.id,
            key=d.key,
            status=d.status,
            reason=d.reason,
            incumbent=BeliefRecord.of(d.incumbent),
            challenger=BeliefRecord.of(d.challenger),
            winner=d.winner,
        )


class DisputesResult(BaseModel):
    status: str
    disputes: list[DisputeView]


# -- the operations -----------------------------------------------------------------------------------
def remember(bg: BeliefGraph, args: RememberArgs, scope: Scope) -> RememberResult:
    r = bg.remember(args.text, scope.agent, conversation=scope.conversation)
    return RememberResult(
        episode=r.episode.id,
        stored=[
            StoredFact(
                op=w.op.value,
                key=w.claim.key,
                value=w.claim.value,
                id=w.claim.id,
                replaced=w.superseded.id if w.superseded is not None else None,
                dispute=w.dispute.id if w.dispute is not None else None,
            )
            for w in r.results
        ],
        skipped=len(r.skipped),
        refused=[f"{x.get('text') or x.get('key')}: {x.get('reason')}" for x in r.rejected],
    )


def recall(bg: BeliefGraph, args: RecallArgs, scope: Scope) -> RecallResult:
    hits = bg.recall(args.query, args.k, key_prefix=args.key_prefix)
    return RecallResult(
        query=args.query,
        hits=[RecallHitView(**BeliefRecord.of(h.claim).model_dump(), score=round(h.score, 4)) for h in hits],
    )


def belief(bg: BeliefGraph, args: BeliefArgs, scope: Scope) -> BeliefResult:
    c = bg.belief(args.key)
    return BeliefResult(key=args.key, belief=BeliefRecord.of(c) if c is not None else None)


def history(bg: BeliefGraph, args: HistoryArgs, scope: Scope) -> HistoryResult:
    return HistoryResult(
        key=args.key,
        versions=[
            VersionView(**BeliefRecord.of(v.claim).model_dump(), current=v.current, supersedes=v.supersedes)
            for v in bg.beliefs.history(args.key)
        ],
    )


def explain(bg: BeliefGraph, args: ExplainArgs, scope: Scope) -> ExplainResult:
    claim_id = args.claim_id
    if args.key is not None:
        c = bg.belief(args.key)
        if c is None:
            raise NotFoundError(f"no current belief for key {shown(args.key)}: 'history' shows its earlier versions")
        claim_id = c.id
    assert claim_id is not None  # ExplainArgs holds exactly one of the two
    ex = bg.beliefs.explain(claim_id)
    return ExplainResult(
        belief=BeliefRecord.of(ex.claim),
        current=ex.current,
        why=ex.text(),
        evidence=[str(p.get("id")) for j in ex.justifications for p in j.get("premises", [])],
        disputes=[str(d.get("id")) for d in ex.disputes],
        versions=len(ex.versions),
    )


def disputes(bg: BeliefGraph, args: DisputesArgs, scope: Scope) -> DisputesResult:
    found = bg.conflicts.disputes(None if args.status == "all" else args.status, key=args.key)
    return DisputesResult(status=args.status, disputes=[DisputeView.of(d) for d in found])


@dataclass(frozen=True)
class Operation(Generic[A, R]):
    """One tool: its name and description (what the LLM reads), its argument model, the call."""

    name: str
    description: str
    args: type[A]
    fn: Callable[[BeliefGraph, A, Scope], R]
    read_only: bool


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        "remember",
        "Store what the user just said in long-term memory. Pass the user's latest message as it was said; "
        "the facts it states are extracted and stored, an update replaces the earlier value (kept as history) "
        "and a contradiction is recorded as a dispute. Returns what was stored.",
        RememberArgs,
        remember,
        read_only=False,
    ),
    Operation(
        "recall",
        "Search long-term memory for the current beliefs relevant to a question. Use before answering from "
        "memory. Returns beliefs with key, value, text, who said it and since when.",
        RecallArgs,
        recall,
        read_only=True,
    ),
    Operation(
        "belief",
        "The current belief for one fact key (e.g. 'user.city'), or null when memory holds none.",
        BeliefArgs,
        belief,
        read_only=True,
    ),
    Operation(
        "history",
        "Every version of one fact key, oldest first: what memory believed before and which version is current.",
        HistoryArgs,
        history,
        read_only=True,
    ),
    Operation(
        "explain",
        "Why memory holds a belief: the evidence it rests on, its revisions, disputes and the conclusions "
        "resting on it. Give the fact key (its current belief) or a claim id.",
        ExplainArgs,
        explain,
        read_only=True,
    ),
    Operation(
        "disputes",
        "Disputes in memory: two statements of one fact that cannot both hold, with nothing yet saying which is "
        "right. Ask the user about an open dispute before relying on that fact.",
        DisputesArgs,
        disputes,
        read_only=True,
    ),
)


def operations(include: Iterable[str] | str | None = None) -> list[Operation[Any, Any]]:
    """The operations named in ``include`` (all when None), in their order; an unknown name is a ValidationError."""
    if include is None:
        return list(OPERATIONS)
    names = [include] if isinstance(include, str) else list(include)
    known = {op.name for op in OPERATIONS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValidationError(f"unknown memory tool(s) {unknown}: the tools are {sorted(known)}")
    return [op for op in OPERATIONS if op.name in names]


def _call(op: Operation[A, R], scope: Scope, args: Mapping[str, Any] | A) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    parsed = args if isinstance(args, op.args) else op.args.model_validate(args)

    def work(bg: BeliefGraph, parsed: A, scope: Scope) -> dict[str, Any]:
        return op.fn(bg, parsed, scope).model_dump(mode="json")

    return work, (parsed, scope)


def run(op: Operation[A, R], bg: BeliefGraph, scope: Scope, args: Mapping[str, Any] | A) -> dict[str, Any]:
    """Validate ``args`` (pydantic ``ValidationError`` when malformed), run the operation, return its result as JSON."""
    if isinstance(bg, CallsInThread):  # its calls need its event loop
        raise ValidationError(f"{type(bg).__name__} is an async client: call the tool asynchronously (ainvoke)")
    work, rest = _call(op, scope, args)
    result: dict[str, Any] = work(bg, *rest)
    return result


async def run_async(op: Operation[A, R], bg: Any, scope: Scope, args: Mapping[str, Any] | A) -> dict[str, Any]:
    """:func:`run` off the event loop: through ``bg.call`` when the client has one, else in a worker thread."""
    work, rest = _call(op, scope, args)
    if isinstance(bg, CallsInThread):
        result: dict[str, Any] = await bg.call(work, *rest)
        return result
    return await asyncio.to_thread(work, bg, *rest)


def error_text(exc: BeliefGraphError) -> str:
    """The tool error an LLM reads: the error's type and its one-line message."""
    return f"{type(exc).__name__}: {exc}"


def arguments_error_text(exc: pydantic.ValidationError) -> str:
    """Malformed tool arguments as the LLM reads them: one ``field: problem`` per error, on one line."""
    problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
    return f"ValidationError: invalid arguments: {problems}"
