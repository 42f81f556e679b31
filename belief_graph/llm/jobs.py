"""Typed inputs and outputs of every LLM job, and the checks an output must pass.

Each job is a :class:`JobSpec`: an input model (validated before any call), an output model
(the structured output the model must produce), and a ``check`` that catches what a JSON schema
cannot say (an id that is not among the inputs, a missing item of a batch, a figure that no cited
belief contains). A failed check is fed back to the model like a schema violation.

Output models have **no defaults**: every field is required (nullable where it may be empty), so
the JSON schema sent to the provider is valid in OpenAI's strict mode and means the same as the
pydantic model that validates the answer.

Batch jobs (``extract``, ``classify``, ``disambiguate``, ``encode``) take a list of items and
answer one output item per input item (``source``/``item``/``observation`` names the input id),
so one call handles a whole batch; :class:`~belief_graph.llm.runner.LLMClient` splits batches
larger than ``max_batch`` and merges the answers.

=============  ======================  ==========================  ===============================
job            input                   output                      used for
=============  ======================  ==========================  ===============================
extract        :class:`ExtractInput`   :class:`Extraction`         facts from conversation turns
classify       :class:`ClassifyInput`  :class:`Classifications`    new claim vs existing claims
disambiguate   :class:`KeyInput`       :class:`KeyChoices`         pick / coin a fact key
encode         :class:`EncodeInput`    :class:`Encoding`           a perspective reads an episode
critique       :class:`CritiqueInput`  :class:`Critique`           attack other perspectives
judge          :class:`JudgeInput`     :class:`Judgement`          decide a dispute
propose        :class:`ProposeInput`   :class:`Proposal`           a perspective's answer
answer         :class:`AnswerInput`    :class:`Answer`             grounded answer from context
rederive       :class:`RederiveInput`  :class:`Rederived`          a stale conclusion, re-derived
=============  ======================  ==========================  ===============================

Deliberation in one call per phase: ``propose_all`` (:class:`ProposeAllInput` ->
:class:`Proposals`, every perspective answers) and ``critique_all`` (:class:`CritiqueAllInput` ->
:class:`Critiques`, every perspective attacks the others' proposals).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import KEY_RE, Value

__all__ = [
    "JOBS",
    "Answer",
    "AnswerInput",
    "Attack",
    "BeliefView",
    "CandidateClaim",
    "ClaimView",
    "ClassifyInput",
    "ClassifyItem",
    "Classification",
    "Classifications",
    "ConceptView",
    "Contender",
    "Critic",
    "Critique",
    "CritiqueAllInput",
    "CritiqueInput",
    "Critiques",
    "CrossAttack",
    "EncodeInput",
    "EncodedItem",
    "Encoding",
    "ExtractInput",
    "ExtractedFact",
    "Extraction",
    "JobLimits",
    "JobSpec",
    "Judgement",
    "JudgeInput",
    "KeyChoice",
    "KeyChoices",
    "KeyInput",
    "KeyItem",
    "Observation",
    "PerspectiveView",
    "PerspectiveBeliefs",
    "PerspectiveProposal",
    "Proposal",
    "ProposalView",
    "Proposals",
    "ProposeAllInput",
    "ProposeInput",
    "RederiveInput",
    "Rederived",
    "RerankInput",
    "Reranking",
    "Turn",
    "job_spec",
]


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
# extract
# ---------------------------------------------------------------------------------------------


class ExtractInput(_In):
    turns: list[Turn]
    known_keys: list[str] = Field(default_factory=list)


class ExtractedFact(_Out):
    source: str = Field(description="id of the turn this fact comes from")
    key: str | None = Field(description="dotted fact key such as user.timezone, or null for a free statement")
    value: Value = Field(description="the fact's value (string, number, boolean) or null")
    text: str = Field(description="one self-contained sentence stating the fact")
    kind: Literal["observation", "semantic"] = Field(
        description="observation: what was literally said or seen; semantic: a durable fact"
    )
    confidence: float = Field(ge=0, le=1, description="0..1")


class Extraction(_Out):
    facts: list[ExtractedFact]


# ---------------------------------------------------------------------------------------------
# classify
# ---------------------------------------------------------------------------------------------


class ClassifyItem(_In):
    id: str = Field(min_length=1)
    claim: ClaimView
    candidates: list[CandidateClaim] = Field(default_factory=list)


class ClassifyInput(_In):
    items: list[ClassifyItem]


class Classification(_Out):
    item: str = Field(description="id of the classified input item")
    action: Literal["NOOP", "UPDATE", "REPLACE", "ADD"]
    relation: Literal["same", "conflict", "unrelated"]
    target_id: str | None = Field(description="id of the candidate claim acted on; null for ADD")
    rationale: str


class Classifications(_Out):
    items: list[Classification]


# ---------------------------------------------------------------------------------------------
# disambiguate
# ---------------------------------------------------------------------------------------------


class KeyItem(_In):
    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    proposed_key: str | None = None


class KeyInput(_In):
    items: list[KeyItem]
    known_keys: list[str] = Field(default_factory=list)


class KeyChoice(_Out):
    item: str = Field(description="id of the input item")
    key: str = Field(description="the chosen dotted fact key")
    is_new: bool = Field(description="true when the key is not one of the known keys")
    rationale: str


class KeyChoices(_Out):
    items: list[KeyChoice]


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
# propose / answer
# ---------------------------------------------------------------------------------------------


class ProposeInput(_In):
    perspective: PerspectiveView
    question: str = Field(min_length=1)
    beliefs: list[BeliefView]


class Proposal(_Out):
    text: str
    citations: list[str] = Field(description="ids of the beliefs the proposal relies on")


class AnswerInput(_In):
    question: str = Field(min_length=1)
    beliefs: list[BeliefView]


class Answer(_Out):
    text: str = Field(description="the answer, or exactly 'unknown' when no belief supports one")
    citations: list[str] = Field(description="ids of the beliefs the answer uses")


# ---------------------------------------------------------------------------------------------
# rerank: order recalled memories by how well they answer a question (optional recall step)
# ---------------------------------------------------------------------------------------------


class RerankInput(_In):
    question: str = Field(min_length=1)
    candidates: list[BeliefView] = Field(min_length=1)


class Reranking(_Out):
    ranking: list[str] = Field(
        description="ids of the candidates that help answer the question, most useful first; leave out the others"
    )


# ---------------------------------------------------------------------------------------------
# rederive: a stale free-text conclusion, re-derived from the current versions of its premises
# ---------------------------------------------------------------------------------------------


class RederiveInput(_In):
    conclusion: ClaimView
    was_based_on: list[BeliefView] = Field(min_length=1, description="premises that are no longer current")
    premises: list[BeliefView] = Field(min_length=1, description="the current premises, citable by id")


class Rederived(_Out):
    status: Literal["rederived", "unchanged", "unsupported"] = Field(
        description="rederived: a new conclusion follows; unchanged: the old one still follows from the current "
        "premises; unsupported: nothing follows from them"
    )
    text: str | None = Field(description="the new conclusion, one self-contained sentence (null when unsupported)")
    value: Value = Field(description="the new value when the conclusion has a fact key, else null")
    citations: list[str] = Field(description="ids of the current premises the conclusion rests on")
    rationale: str = Field(description="one sentence: why it follows")


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


def _check_extract(inp: ExtractInput, out: Extraction) -> list[str]:
    ids = {t.id for t in inp.turns}
    problems: list[str] = []
    for i, f in enumerate(out.facts):
        if f.source not in ids:
            problems.append(f"facts[{i}].source {f.source!r} is not a turn id (one of {sorted(ids)})")
        if not f.text.strip():
            problems.append(f"facts[{i}].text is empty")
        problems += _check_key(f"facts[{i}]", f.key)
    return problems


def _check_classify(inp: ClassifyInput, out: Classifications) -> list[str]:
    problems = _one_per_item("item", [i.id for i in inp.items], [c.item for c in out.items])
    by_id = {i.id: i for i in inp.items}
    for n, c in enumerate(out.items):
        item = by_id.get(c.item)
        if item is None:
            continue
        cands = {x.id for x in item.candidates}
        where = f"items[{n}] ({c.item})"
        if c.action == "ADD":
            if c.target_id is not None:
                problems.append(f"{where}: ADD takes no target_id (null)")
            if c.relation != "unrelated":
                problems.append(f"{where}: ADD means relation 'unrelated'")
        else:
            if c.target_id not in cands:
                problems.append(f"{where}: {c.action} needs target_id among the item's candidates {sorted(cands)}")
            if c.action == "NOOP" and c.relation != "same":
                problems.append(f"{where}: NOOP means relation 'same'")
            if c.action == "REPLACE" and c.relation != "conflict":
                problems.append(f"{where}: REPLACE means relation 'conflict'")
            if c.action == "UPDATE" and c.relation == "unrelated":
                problems.append(f"{where}: UPDATE needs relation 'same' or 'conflict'")
    return problems


def _check_disambiguate(inp: KeyInput, out: KeyChoices) -> list[str]:
    problems = _one_per_item("item", [i.id for i in inp.items], [c.item for c in out.items])
    known = set(inp.known_keys)
    for n, c in enumerate(out.items):
        where = f"items[{n}] ({c.item})"
        problems += _check_key(where, c.key)
        if c.is_new and c.key in known:
            problems.append(f"{where}: key {c.key!r} is a known key, so is_new must be false")
        if not c.is_new and c.key not in known:
            problems.append(f"{where}: key {c.key!r} is not a known key, so is_new must be true")
    return problems


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


def _check_citations(ids: set[str], citations: list[str]) -> list[str]:
    unknown = sorted(set(citations) - ids)
    return [f"citations {unknown} are not belief ids (one of {sorted(ids)})"] if unknown else []


_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


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


def _check_answer(inp: AnswerInput, out: Answer) -> list[str]:
    """Grounding (DESIGN §2): cite only given beliefs; no citation means the answer is 'unknown';
    every figure in the answer appears in a cited belief."""
    problems = _check_citations({b.id for b in inp.beliefs}, out.citations)
    text = out.text.strip()
    if not text:
        problems.append("text is empty (answer 'unknown' when no belief supports an answer)")
    elif not out.citations and text.lower().rstrip(".") != "unknown":
        problems.append("an answer without citations must be exactly 'unknown'")
    cited = " ".join(b.text + " " + str(b.value) for b in inp.beliefs if b.id in set(out.citations))
    stray = sorted({n for n in _NUMBER.findall(text) if n not in cited})
    if stray:
        problems.append(f"figures {stray} appear in no cited belief: state only figures the cited beliefs contain")
    return problems


def _check_rerank(inp: RerankInput, out: Reranking) -> list[str]:
    """Only candidate ids, each once."""
    problems = _check_citations({c.id for c in inp.candidates}, out.ranking)
    if len(set(out.ranking)) != len(out.ranking):
        problems.append("ranking lists an id more than once")
    return [p.replace("citations", "ranking ids").replace("belief ids", "candidate ids") for p in problems]


def _check_rederive(inp: RederiveInput, out: Rederived) -> list[str]:
    """Cite only current premises; a conclusion needs citations and a text, and (for a fact) a value;
    figures in it appear in a cited premise; 'unsupported' writes nothing, so it cites nothing."""
    problems = _check_citations({b.id for b in inp.premises}, out.citations)
    if out.status == "unsupported":
        if out.citations or out.text:
            problems.append("'unsupported' takes no text and no citations (null and [])")
        return problems
    if not out.citations:
        problems.append(f"status {out.status!r} needs citations: the ids of the premises it rests on")
    if not out.text or not out.text.strip():
        problems.append(f"status {out.status!r} needs the conclusion's text")
    if inp.conclusion.key is not None and out.value is None:
        problems.append(f"the conclusion is the fact {inp.conclusion.key!r}: give its value")
    cited = " ".join(b.text + " " + str(b.value) for b in inp.premises if b.id in set(out.citations))
    stray = sorted({n for n in _NUMBER.findall(out.text or "") if n not in cited})
    if stray:
        problems.append(f"figures {stray} appear in no cited premise: state only figures the premises contain")
    return problems


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

    @property
    def batched(self) -> bool:
        return self.batch_field is not None

    def size(self, inputs: BaseModel) -> int:
        """How many items ``inputs`` holds for :attr:`limits` (0 for jobs not sized by a list)."""
        name = self.sized_by or self.batch_field
        return len(getattr(inputs, name)) if name else 0


JOBS: dict[str, JobSpec] = {
    s.name: s
    for s in (
        JobSpec(
            "extract",
            ExtractInput,
            Extraction,
            _check_extract,
            "facts from conversation turns",
            "turns",
            "facts",
            ("source",),
            limits=JobLimits(max_tokens=384, max_tokens_per_item=256, timeout=90, timeout_per_item=40),
        ),
        JobSpec(
            "classify",
            ClassifyInput,
            Classifications,
            _check_classify,
            "a new claim against existing ones (NOOP/UPDATE/REPLACE/ADD)",
            "items",
            "items",
            ("item", "target_id"),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=192, timeout=90, timeout_per_item=30),
        ),
        JobSpec(
            "disambiguate",
            KeyInput,
            KeyChoices,
            _check_disambiguate,
            "choose an existing fact key or coin a new one",
            "items",
            "items",
            ("item",),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=160, timeout=90, timeout_per_item=25),
        ),
        JobSpec(
            "encode",
            EncodeInput,
            Encoding,
            _check_encode,
            "interpret observations from one perspective",
            "observations",
            "items",
            ("observation",),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=224, timeout=120, timeout_per_item=35),
        ),
        JobSpec(
            "critique",
            CritiqueInput,
            Critique,
            _check_critique,
            "attack other perspectives' proposals",
            output_ids=("target",),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=160, timeout=120, timeout_per_item=25),
            sized_by="proposals",
        ),
        JobSpec(
            "judge",
            JudgeInput,
            Judgement,
            _check_judge,
            "decide a dispute between claims",
            output_ids=("winner",),
            limits=JobLimits(max_tokens=384, timeout=120),
        ),
        JobSpec(
            "propose",
            ProposeInput,
            Proposal,
            _check_propose,
            "a perspective's answer to a deliberation question",
            output_ids=("citations",),
            limits=JobLimits(max_tokens=512, timeout=180),
        ),
        JobSpec(
            "answer",
            AnswerInput,
            Answer,
            _check_answer,
            "a grounded answer from a working context",
            output_ids=("citations",),
            limits=JobLimits(max_tokens=512, timeout=180),
        ),
        JobSpec(
            "propose_all",
            ProposeAllInput,
            Proposals,
            _check_propose_all,
            "every perspective's answer to a deliberation question in one call",
            output_ids=("perspective", "citations"),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=384, timeout=120, timeout_per_item=60),
            sized_by="perspectives",
        ),
        JobSpec(
            "critique_all",
            CritiqueAllInput,
            Critiques,
            _check_critique_all,
            "every perspective's attacks on the others' proposals in one call",
            output_ids=("by", "target"),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=192, timeout=120, timeout_per_item=40),
            sized_by="proposals",
        ),
        JobSpec(
            "rederive",
            RederiveInput,
            Rederived,
            _check_rederive,
            "re-derive a stale conclusion from the current versions of its premises",
            output_ids=("citations",),
            limits=JobLimits(max_tokens=384, timeout=120),
        ),
        JobSpec(
            "rerank",
            RerankInput,
            Reranking,
            _check_rerank,
            "order recalled memories by how well they answer a question",
            output_ids=("ranking",),
            limits=JobLimits(max_tokens=256, max_tokens_per_item=24, timeout=90, timeout_per_item=4),
            sized_by="candidates",
        ),
    )
}


def job_spec(name: str) -> JobSpec:
    """The spec of job ``name``; :class:`~belief_graph.errors.ValidationError` if unknown."""
    from ..errors import ValidationError

    try:
        return JOBS[name]
    except KeyError:
        raise ValidationError(f"unknown LLM job {name!r} (one of {', '.join(JOBS)})") from None
