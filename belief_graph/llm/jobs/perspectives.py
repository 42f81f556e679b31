"""Perspective jobs: ``encode`` (a perspective reads observations), ``propose``/``critique`` and
their one-call forms ``propose_all``/``critique_all`` (deliberation), and ``judge`` (decide a
dispute)."""

from __future__ import annotations

from pydantic import Field

from .base import (
    BeliefView,
    Contender,
    JobLimits,
    JobSpec,
    Observation,
    PerspectiveView,
    ProposalView,
    _check_citations,
    _In,
    _one_per_item,
    _Out,
)

# ---------------------------------------------------------------------------------------------
# encode
# ---------------------------------------------------------------------------------------------


class EncodeInput(_In):
    perspective: PerspectiveView
    observations: list[Observation]


class EncodedItem(_Out):
    observation: str = Field(description="id of the observation")
    relevant: bool = Field(description="whether the observation matters for this perspective's goal")
    interpretation: str | None = Field(description="what it means for this perspective; null when not relevant")
    concepts: list[str] = Field(description="names of this perspective's concepts it instantiates")
    confidence: float = Field(ge=0, le=1)


class Encoding(_Out):
    items: list[EncodedItem]


# ---------------------------------------------------------------------------------------------
# critique
# ---------------------------------------------------------------------------------------------


class CritiqueInput(_In):
    perspective: PerspectiveView
    question: str = Field(min_length=1)
    proposals: list[ProposalView]


class Attack(_Out):
    target: str = Field(description="id of the attacked proposal")
    reason: str


class Critique(_Out):
    attacks: list[Attack]


# ---------------------------------------------------------------------------------------------
# judge
# ---------------------------------------------------------------------------------------------


class JudgeInput(_In):
    question: str = Field(min_length=1)
    contenders: list[Contender] = Field(min_length=2)
    evidence: list[BeliefView] = Field(default_factory=list)


class Judgement(_Out):
    winner: str | None = Field(description="id of the winning contender, or null when undecidable")
    rationale: str


# ---------------------------------------------------------------------------------------------
# propose
# ---------------------------------------------------------------------------------------------


class ProposeInput(_In):
    perspective: PerspectiveView
    question: str = Field(min_length=1)
    beliefs: list[BeliefView]


class Proposal(_Out):
    text: str
    citations: list[str] = Field(description="ids of the beliefs the proposal relies on")


# ---------------------------------------------------------------------------------------------
# propose_all / critique_all: one call for every perspective of a deliberation
# ---------------------------------------------------------------------------------------------


class PerspectiveBeliefs(_In):
    """One perspective of a deliberation and the beliefs it may cite (its own interpretations)."""

    perspective: PerspectiveView
    beliefs: list[BeliefView] = Field(min_length=1)


class ProposeAllInput(_In):
    question: str = Field(min_length=1)
    perspectives: list[PerspectiveBeliefs] = Field(min_length=1)


class PerspectiveProposal(_Out):
    perspective: str = Field(description="id of the perspective whose answer this is")
    text: str
    citations: list[str] = Field(description="ids of that perspective's own beliefs the answer relies on")


class Proposals(_Out):
    proposals: list[PerspectiveProposal]


class Critic(_In):
    perspective: PerspectiveView


class CritiqueAllInput(_In):
    question: str = Field(min_length=1)
    perspectives: list[Critic] = Field(min_length=1)
    proposals: list[ProposalView] = Field(min_length=1)


class CrossAttack(_Out):
    by: str = Field(description="id of the attacking perspective")
    target: str = Field(description="id of the attacked proposal (another perspective's)")
    reason: str


class Critiques(_Out):
    attacks: list[CrossAttack]


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def _check_encode(inp: EncodeInput, out: Encoding) -> list[str]:
    problems = _one_per_item("observation", [o.id for o in inp.observations], [e.observation for e in out.items])
    ontology = {c.name for c in inp.perspective.concepts}
    for n, e in enumerate(out.items):
        where = f"items[{n}] ({e.observation})"
        if e.relevant and not (e.interpretation or "").strip():
            problems.append(f"{where}: a relevant observation needs an interpretation")
        if not e.relevant:
            # nothing of an irrelevant observation is used: a small model explaining why it is
            # irrelevant (seen on a real 1.5B model, three times in a row) is not worth a repair
            continue
        if ontology:
            foreign = sorted(set(e.concepts) - ontology)
            if foreign:
                problems.append(f"{where}: concepts {foreign} are not in the perspective's ontology {sorted(ontology)}")
    return problems


def _check_critique(inp: CritiqueInput, out: Critique) -> list[str]:
    ids = {p.id for p in inp.proposals}
    own = {p.id for p in inp.proposals if p.perspective == inp.perspective.id}
    problems: list[str] = []
    seen: set[str] = set()
    for n, a in enumerate(out.attacks):
        if a.target not in ids:
            problems.append(f"attacks[{n}].target {a.target!r} is not a proposal id (one of {sorted(ids)})")
        elif a.target in own:
            problems.append(f"attacks[{n}].target {a.target!r} is this perspective's own proposal")
        if a.target in seen:
            problems.append(f"attacks[{n}].target {a.target!r} is attacked twice: one attack per target")
        seen.add(a.target)
        if not a.reason.strip():
            problems.append(f"attacks[{n}].reason is empty")
    return problems


def _check_judge(inp: JudgeInput, out: Judgement) -> list[str]:
    ids = {c.id for c in inp.contenders}
    problems: list[str] = []
    if out.winner is not None and out.winner not in ids:
        problems.append(f"winner {out.winner!r} is not a contender id (one of {sorted(ids)}) or null")
    if not out.rationale.strip():
        problems.append("rationale is empty")
    return problems


def _check_propose(inp: ProposeInput, out: Proposal) -> list[str]:
    problems = _check_citations({b.id for b in inp.beliefs}, out.citations)
    if not out.text.strip():
        problems.append("text is empty")
    return problems


def _check_propose_all(inp: ProposeAllInput, out: Proposals) -> list[str]:
    """One proposal per perspective. Citations are NOT checked here: the deliberation service
    validates each proposal against its own perspective's beliefs and records a rejection, so
    one bad citation does not cost a repair round-trip of the whole batch."""
    problems = _one_per_item(
        "perspective", [p.perspective.id for p in inp.perspectives], [p.perspective for p in out.proposals]
    )
    for n, p in enumerate(out.proposals):
        if not p.text.strip():
            problems.append(f"proposals[{n}].text is empty")
    return problems


def _check_critique_all(inp: CritiqueAllInput, out: Critiques) -> list[str]:
    """Every attack names an attacking perspective of the input. Unknown targets, attacks on the
    attacker's own proposal and duplicates are recorded as rejections by the deliberation service
    (visible on the deliberation), not repaired here."""
    ids = {c.perspective.id for c in inp.perspectives}
    return [
        f"attacks[{n}].by {a.by!r} is not a perspective id (one of {sorted(ids)})"
        for n, a in enumerate(out.attacks)
        if a.by not in ids
    ]


# ---------------------------------------------------------------------------------------------
# Specs
# ---------------------------------------------------------------------------------------------


ENCODE = JobSpec(
    "encode",
    EncodeInput,
    Encoding,
    _check_encode,
    "interpret observations from one perspective",
    "observations",
    "items",
    ("observation",),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=224, timeout=120, timeout_per_item=35),
)

CRITIQUE = JobSpec(
    "critique",
    CritiqueInput,
    Critique,
    _check_critique,
    "attack other perspectives' proposals",
    output_ids=("target",),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=160, timeout=120, timeout_per_item=25),
    sized_by="proposals",
)

JUDGE = JobSpec(
    "judge",
    JudgeInput,
    Judgement,
    _check_judge,
    "decide a dispute between claims",
    output_ids=("winner",),
    limits=JobLimits(max_tokens=384, timeout=120),
)

PROPOSE = JobSpec(
    "propose",
    ProposeInput,
    Proposal,
    _check_propose,
    "a perspective's answer to a deliberation question",
    output_ids=("citations",),
    limits=JobLimits(max_tokens=512, timeout=180),
)

PROPOSE_ALL = JobSpec(
    "propose_all",
    ProposeAllInput,
    Proposals,
    _check_propose_all,
    "every perspective's answer to a deliberation question in one call",
    output_ids=("perspective", "citations"),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=384, timeout=120, timeout_per_item=60),
    sized_by="perspectives",
)

CRITIQUE_ALL = JobSpec(
    "critique_all",
    CritiqueAllInput,
    Critiques,
    _check_critique_all,
    "every perspective's attacks on the others' proposals in one call",
    output_ids=("by", "target"),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=192, timeout=120, timeout_per_item=40),
    sized_by="proposals",
)
