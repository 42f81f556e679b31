"""Typed inputs and outputs of every LLM job, and the checks an output must pass.

Each job is a :class:`JobSpec`: an input model (validated before any call), an output model
(the structured output the model must produce), and a ``check`` that catches what a JSON schema
cannot say (an id that is not among the inputs, a missing item of a batch, a figure that no cited
belief contains). A failed check is fed back to the model like a schema violation.

Output models have **no defaults**: every field is required (nullable where it may be empty), so
the JSON schema sent to the provider is valid in OpenAI's strict mode and means the same as the
pydantic model that validates the answer.

Batch jobs (``extract``, ``revisit``, ``classify``, ``disambiguate``, ``encode``) take a list of items and
answer one output item per input item (``source``/``item``/``observation`` names the input id),
so one call handles a whole batch; :class:`~belief_graph.llm.runner.LLMClient` splits batches
larger than ``max_batch`` and merges the answers.

=============  ======================  ==========================  ===============================
job            input                   output                      used for
=============  ======================  ==========================  ===============================
extract        :class:`ExtractInput`   :class:`Extraction`         facts from conversation turns
revisit        :class:`RevisitInput`   :class:`Revisits`           held beliefs a turn may change
classify       :class:`ClassifyInput`  :class:`Classifications`    new claim vs existing claims
disambiguate   :class:`KeyInput`       :class:`KeyChoices`         pick / coin a fact key
encode         :class:`EncodeInput`    :class:`Encoding`           a perspective reads an episode
critique       :class:`CritiqueInput`  :class:`Critique`           attack other perspectives
judge          :class:`JudgeInput`     :class:`Judgement`          decide a dispute
propose        :class:`ProposeInput`   :class:`Proposal`           a perspective's answer
answer         :class:`AnswerInput`    :class:`Answer`             grounded answer from context
rederive       :class:`RederiveInput`  :class:`Rederived`          a stale conclusion, re-derived
rerank         :class:`RerankInput`    :class:`Reranking`          order recalled memories
=============  ======================  ==========================  ===============================

``hypothesize`` (:class:`HypothesizeInput` -> :class:`Hypothesis`) writes the memory that would
answer a recall question; its vector joins the question's (an optional recall step).

Deliberation in one call per phase: ``propose_all`` (:class:`ProposeAllInput` ->
:class:`Proposals`, every perspective answers) and ``critique_all`` (:class:`CritiqueAllInput` ->
:class:`Critiques`, every perspective attacks the others' proposals).
"""

from __future__ import annotations

from .answers import (
    ANSWER,
    HYPOTHESIZE,
    REDERIVE,
    RERANK,
    Answer,
    AnswerInput,
    Hypothesis,
    HypothesizeInput,
    Rederived,
    RederiveInput,
    Reranking,
    RerankInput,
)
from .base import (
    BeliefView,
    CandidateClaim,
    ClaimView,
    ConceptView,
    Contender,
    JobLimits,
    JobSpec,
    Observation,
    PerspectiveView,
    ProposalView,
    Turn,
)
from .memory import (
    CLASSIFY,
    DISAMBIGUATE,
    EXTRACT,
    REVISIT,
    Classification,
    Classifications,
    ClassifyInput,
    ClassifyItem,
    ExtractedFact,
    ExtractInput,
    Extraction,
    HeldBelief,
    KeyChoice,
    KeyChoices,
    KeyInput,
    KeyItem,
    Revisited,
    RevisitInput,
    Revisits,
)
from .perspectives import (
    CRITIQUE,
    CRITIQUE_ALL,
    ENCODE,
    JUDGE,
    PROPOSE,
    PROPOSE_ALL,
    Attack,
    Critic,
    Critique,
    CritiqueAllInput,
    CritiqueInput,
    Critiques,
    CrossAttack,
    EncodedItem,
    EncodeInput,
    Encoding,
    JudgeInput,
    Judgement,
    PerspectiveBeliefs,
    PerspectiveProposal,
    Proposal,
    Proposals,
    ProposeAllInput,
    ProposeInput,
)

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
    "HeldBelief",
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
    "RevisitInput",
    "Revisited",
    "Revisits",
    "Hypothesis",
    "HypothesizeInput",
    "Turn",
    "job_spec",
]


JOBS: dict[str, JobSpec] = {
    s.name: s
    for s in (
        EXTRACT,
        REVISIT,
        CLASSIFY,
        DISAMBIGUATE,
        ENCODE,
        CRITIQUE,
        JUDGE,
        PROPOSE,
        ANSWER,
        PROPOSE_ALL,
        CRITIQUE_ALL,
        REDERIVE,
        RERANK,
        HYPOTHESIZE,
    )
}


def job_spec(name: str) -> JobSpec:
    """The spec of job ``name``; :class:`~belief_graph.errors.ValidationError` if unknown."""
    from ...errors import ValidationError

    try:
        return JOBS[name]
    except KeyError:
        raise ValidationError(f"unknown LLM job {name!r} (one of {', '.join(JOBS)})") from None
