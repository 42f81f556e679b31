"""What every LLM job shares: the input/output base models, the input pieces several jobs use, the
check helpers, and :class:`JobLimits`/:class:`JobSpec`."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...models import KEY_RE, Value


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------------------------
# Shared input pieces
# ---------------------------------------------------------------------------------------------


class Turn(_In):
    """One conversation turn (an episode) to extract facts from."""

    id: str = Field(min_length=1)
    agent: str = Field(min_length=1)
    text: str = Field(min_length=1)
    at: str | None = None


class ClaimView(_In):
    """A claim as the model sees it (no embedding, no bookkeeping)."""

    key: str | None = None
    value: Value = None
    text: str = Field(min_length=1)
    agent: str | None = None


class CandidateClaim(ClaimView):
    """An existing claim a new one is compared with."""

    id: str = Field(min_length=1)


class ConceptView(_In):
    name: str = Field(min_length=1)
    description: str = ""


class PerspectiveView(_In):
    """A perspective: a strategic viewpoint with a goal and its own ontology (concept names)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    goal: str = Field(min_length=1)
    concepts: list[ConceptView] = Field(default_factory=list)


class Observation(_In):
    """One piece of evidence (an episode or an observation claim) to interpret."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)


class BeliefView(_In):
    """An active belief in a working context (citable by id)."""

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    key: str | None = None
    value: Value = None
    since: str | None = None
    """When the belief became true (ISO date): the time its statement said ("since March", "two
    weeks ago"), else when it was said."""


class ProposalView(_In):
    id: str = Field(min_length=1)
    perspective: str = Field(min_length=1)
    text: str = Field(min_length=1)


class Contender(_In):
    """A claim in a dispute, with its author's authority weight when known."""

    id: str = Field(min_length=1)
    agent: str = Field(min_length=1)
    text: str = Field(min_length=1)
    value: Value = None
    authority: float | None = None


# ---------------------------------------------------------------------------------------------
# Checks (what the schema cannot say). Each returns a list of problems; empty = valid.
# ---------------------------------------------------------------------------------------------

Check = Callable[[Any, Any], list[str]]


def _one_per_item(kind: str, expected: Iterable[str], got: Iterable[str]) -> list[str]:
    exp = list(expected)
    counts = Counter(got)
    problems: list[str] = []
    unknown = sorted(k for k in counts if k not in set(exp))
    if unknown:
        problems.append(f"unknown {kind} id(s) {unknown}: use only ids given in the input")
    missing = [k for k in exp if counts[k] == 0]
    if missing:
        problems.append(f"missing {kind} id(s) {missing}: answer exactly one entry per input {kind}")
    dup = sorted(k for k, n in counts.items() if n > 1 and k in set(exp))
    if dup:
        problems.append(f"{kind} id(s) {dup} answered more than once: exactly one entry each")
    return problems


def _check_key(where: str, key: str | None) -> list[str]:
    if key is not None and not KEY_RE.match(key):
        return [f"{where}: key {key!r} is not a dotted name like 'user.timezone'"]
    return []


def _check_citations(ids: set[str], citations: list[str]) -> list[str]:
    unknown = sorted(set(citations) - ids)
    return [f"citations {unknown} are not belief ids (one of {sorted(ids)})"] if unknown else []


_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


# ---------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JobLimits:
    """How long one call of a job may run and how much it may write.

    ``max_tokens`` caps the answer (sent as the request's ``max_tokens``), ``timeout`` is the
    seconds one call may take; each grows by its ``*_per_item`` for every item of the list named
    by the job's ``sized_by`` (the batch of a batch job, the perspectives of ``propose_all``...).
    A degenerate answer (a model repeating itself) stops at ``max_tokens`` with
    ``finish_reason=length``: an invalid answer the runner repairs, never a hang until the
    context is full.

    The defaults are sized for a small local model on a shared CPU (Qwen2.5-Coder-1.5B Q4_K_M on
    2 cores: ~26 tokens/s generated, ~93 tokens/s of prompt, encode 40-58 s and propose 38-63 s
    per call; docs/llm.md) and are generous for hosted models, which answer far faster. The
    token caps are at least 3x the longest valid answer measured for that job on that model
    (``bench llm-quality`` reports it); the timeouts allow the prompt plus ``max_tokens`` at
    ~8 tokens/s (a loaded machine).
    Settings override both per job (``BELIEF_GRAPH_LLM__MAX_TOKENS``, ``..._TIMEOUTS``).
    """

    max_tokens: int
    timeout: float
    max_tokens_per_item: int = 0
    timeout_per_item: float = 0.0

    def __post_init__(self) -> None:
        if self.max_tokens < 1 or self.timeout <= 0 or self.max_tokens_per_item < 0 or self.timeout_per_item < 0:
            raise ValueError(f"invalid job limits {self}")

    def for_items(self, n: int) -> tuple[int, float]:
        """(max_tokens, timeout) for a call over ``n`` items."""
        return self.max_tokens + self.max_tokens_per_item * n, self.timeout + self.timeout_per_item * n


@dataclass(frozen=True)
class JobSpec:
    """One LLM job. ``batch_field``/``output_field`` name the lists a batch job splits and merges.

    A new job declares: its input and output models, a ``check``, a ``description``, the
    ``output_ids`` holding input ids, and its ``limits`` (required: a job without a token cap
    and a timeout is refused). A batch job also names ``batch_field``/``output_field``; any job
    whose answer grows with a list input names it in ``sized_by`` (default: ``batch_field``).
    Its prompt is ``prompts/<name>.md`` with ``inputs`` equal to the input model's fields.
    """

    name: str
    input_model: type[_In]
    output_model: type[_Out]
    check: Check
    description: str
    batch_field: str | None = None
    output_field: str | None = None
    output_ids: tuple[str, ...] = ()
    """Output fields that hold input ids (aliased in the prompt, mapped back after validation)."""
    limits: JobLimits = field(kw_only=True)
    sized_by: str | None = field(default=None, kw_only=True)
    """The input list whose length scales ``limits`` (default: ``batch_field``)."""
    keeps_valid_items: bool = field(default=False, kw_only=True)
    """The items of ``output_field`` are judged one by one (``check`` holds no rule across them):
    after the last repair attempt, a reply that is valid but for some items is kept without them,
    each set aside with its problems, instead of failing whole with its valid items."""

    @property
    def batched(self) -> bool:
        return self.batch_field is not None

    def size(self, inputs: BaseModel) -> int:
        """How many items ``inputs`` holds for :attr:`limits` (0 for jobs not sized by a list)."""
        name = self.sized_by or self.batch_field
        return len(getattr(inputs, name)) if name else 0
