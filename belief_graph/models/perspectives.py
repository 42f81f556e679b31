"""Pure pydantic models of perspectives, interpretations and deliberations.

A :class:`PerspectiveSpec` is what a user declares (name, goal, ontology, relevance threshold);
a :class:`Perspective` is what is stored. :class:`EncodeResult` is the (observation x
perspective) matrix of one :meth:`~belief_graph.facade.BeliefGraph.encode` call;
:class:`DeliberationRecord` is one stored deliberation with its attack graph, labels and mode.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .beliefs import Claim

__all__ = [
    "DEFAULT_RELEVANCE",
    "MODES",
    "AttackRecord",
    "ComposedPart",
    "ConceptSpec",
    "DeliberationRecord",
    "DeliberationSummary",
    "EncodeCell",
    "EncodeResult",
    "InterpretationHit",
    "Perspective",
    "PerspectiveSpec",
    "ProposalRecord",
    "Rejection",
]

DEFAULT_RELEVANCE = 0.15
"""Default pre-filter threshold: raw cosine between an observation and the best of the
perspective's concepts (or its goal). The shipped perspective set uses 0.11, calibrated on the
concession scenario with all-MiniLM-L6-v2 (docs/perspectives.md)."""

MODES = ("select", "compose", "conflict", "none")
"""Retrieval modes of a deliberation (DESIGN.md §2); ``none``: every perspective abstained."""

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,63}$")


class ConceptSpec(BaseModel):
    """One ontology term of a perspective."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=100)
    description: str = Field(default="", max_length=2000)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not v.strip() or v != v.strip():
            raise ValueError("concept names are non-blank, without surrounding spaces")
        return v


class PerspectiveSpec(BaseModel):
    """A perspective as declared: a goal, its own ontology, and the pre-filter threshold."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    goal: str = Field(min_length=1, max_length=2000)
    ontology: list[ConceptSpec] = Field(min_length=1)
    relevance: float = Field(default=DEFAULT_RELEVANCE, ge=-1.0, le=1.0)
    """Pre-filter threshold on the raw cosine (-1..1) between an observation and the closest of
    the perspective's concepts or its goal; below it the LLM never sees the observation."""

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME_RE.match(v):
            raise ValueError("perspective names start with a letter: letters, digits, _ and -, at most 64")
        return v

    @field_validator("goal")
    @classmethod
    def _goal(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("a perspective needs a goal")
        return v.strip()

    @model_validator(mode="after")
    def _unique_concepts(self) -> PerspectiveSpec:
        names = [c.name for c in self.ontology]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"duplicate concept names {dup}")
        return self


class Perspective(BaseModel):
    """A stored perspective."""

    id: str
    name: str
    goal: str
    relevance: float = DEFAULT_RELEVANCE
    concepts: list[ConceptSpec] = Field(default_factory=list)
    created_at: str | None = None
    interpretations: int = 0
    active: int = 0


class EncodeCell(BaseModel):
    """One (observation x perspective) pair of an encode call."""

    episode: str
    perspective: str
    score: float | None = None
    """Best raw cosine of the observation against the perspective's concepts and goal."""
    concept: str | None = None
    prefilter: bool = False
    already: str | None = None
    """The interpretation id when the pair was encoded before (not sent again)."""
    cached: bool = False
    """The decision comes from an earlier encode (an interpretation, or a recorded 'not
    relevant'): the pair was not sent to the LLM again."""
    relevant: bool | None = None
    """The LLM's decision (None: not sent)."""
    interpretation: str | None = None
    text: str | None = None
    concepts: list[str] = Field(default_factory=list)
    rejected: str | None = None

    @property
    def passed(self) -> bool:
        """An interpretation exists for this pair (written now or before)."""
        return self.interpretation is not None


class EncodeResult(BaseModel):
    """The matrix of one encode call, the LLM calls it made, and what it wrote."""

    episodes: list[str]
    perspectives: list[str]
    cells: list[EncodeCell]
    llm_calls: int = 0
    written: list[str] = Field(default_factory=list)
    model: str | None = None

    def cell(self, episode: str, perspective: str) -> EncodeCell:
        for c in self.cells:
            if c.episode == episode and c.perspective == perspective:
                return c
        raise KeyError((episode, perspective))

    @property
    def possible(self) -> int:
        return len(self.cells)

    @property
    def prefiltered(self) -> int:
        return sum(1 for c in self.cells if c.prefilter)

    @property
    def passed(self) -> int:
        return sum(1 for c in self.cells if c.passed)

    @property
    def rejections(self) -> list[EncodeCell]:
        return [c for c in self.cells if c.rejected]

    def by_perspective(self) -> dict[str, list[EncodeCell]]:
        out: dict[str, list[EncodeCell]] = {p: [] for p in self.perspectives}
        for c in self.cells:
            out[c.perspective].append(c)
        return out

    def summary(self) -> dict[str, Any]:
        return {
            "possible": self.possible,
            "prefiltered": self.prefiltered,
            "passed": self.passed,
            "cached": sum(1 for c in self.cells if c.cached),
            "written": len(self.written),
            "rejected": len(self.rejections),
            "llm_calls": self.llm_calls,
        }


class InterpretationHit(BaseModel):
    """One interpretation found by retrieval by perspective."""

    claim: Claim
    perspective: str
    episode: str | None = None
    concepts: list[str] = Field(default_factory=list)
    score: float


class Rejection(BaseModel):
    """An LLM output item that was refused and recorded (never written as data)."""

    stage: Literal["propose", "critique"]
    perspective: str
    item: str
    reason: str

    def to_json(self) -> str:
        return json.dumps(self.model_dump(), ensure_ascii=False, sort_keys=True)


class ProposalRecord(BaseModel):
    id: str
    perspective: str
    text: str
    citations: list[str] = Field(default_factory=list)
    label: Literal["IN", "OUT", "UNDEC"] | None = None
    cited: list[dict[str, Any]] = Field(default_factory=list)


class AttackRecord(BaseModel):
    attacker: str
    target: str
    by: str
    reason: str


class ComposedPart(BaseModel):
    """One part of a composed answer: one surviving proposal with its own citations."""

    perspective: str
    proposal: str
    text: str
    citations: list[str]


class DeliberationRecord(BaseModel):
    """One stored deliberation: proposals, attack graph, grounded labels, mode, answer."""

    id: str
    query: str
    at: str | None = None
    mode: Literal["select", "compose", "conflict", "none"] | None = None
    batched: bool = True
    k: int | None = None
    perspectives: list[str] = Field(default_factory=list)
    abstained: list[str] = Field(default_factory=list)
    proposals: list[ProposalRecord] = Field(default_factory=list)
    attacks: list[AttackRecord] = Field(default_factory=list)
    rejections: list[Rejection] = Field(default_factory=list)
    answer: str | None = None
    parts: list[ComposedPart] = Field(default_factory=list)
    stale: bool = False
    stale_citations: list[str] = Field(default_factory=list)
    llm_calls: int | None = None
    """LLM calls made by this deliberation (set by deliberate(); None when read back)."""

    def label_of(self, perspective: str) -> str | None:
        for p in self.proposals:
            if p.perspective == perspective:
                return p.label
        return None

    def proposal_of(self, perspective: str) -> ProposalRecord | None:
        return next((p for p in self.proposals if p.perspective == perspective), None)


class DeliberationSummary(BaseModel):
    id: str
    query: str
    mode: str | None = None
    at: str | None = None
    proposals: int = 0
    stale: bool = False
