"""Answer jobs: ``answer`` (a grounded answer from a working context), ``rerank`` (order recalled
memories), ``hypothesize`` (the memory that would answer a question, embedded beside it) and
``rederive`` (a stale conclusion from the current versions of its premises)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...models import Value
from .base import (
    _NUMBER,
    BeliefView,
    ClaimView,
    JobLimits,
    JobSpec,
    _check_citations,
    _In,
    _Out,
)

# ---------------------------------------------------------------------------------------------
# answer
# ---------------------------------------------------------------------------------------------


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
# hypothesize: the memory that would answer a question (optional recall step: its vector joins
# the question's, so a question that needs a small inference meets the memory's words)
# ---------------------------------------------------------------------------------------------


class HypothesizeInput(_In):
    question: str = Field(min_length=1)


class Hypothesis(_Out):
    memory: str = Field(
        description="one short statement of fact (under 25 words) that would answer the question, "
        "naming the concrete fact rather than repeating the question's words"
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
# Checks
# ---------------------------------------------------------------------------------------------


def _check_answer(inp: AnswerInput, out: Answer) -> list[str]:
    """Grounding (DESIGN §2): cite only given beliefs; no citation means the answer is 'unknown';
    every figure in the answer appears in a cited belief."""
    problems = _check_citations({b.id for b in inp.beliefs}, out.citations)
    text = out.text.strip()
    if not text:
        problems.append("text is empty (answer 'unknown' when no belief supports an answer)")
    elif not out.citations and text.lower().rstrip(".") != "unknown":
        problems.append("an answer without citations must be exactly 'unknown'")
    cited = " ".join(f"{b.text} {b.value} {b.since or ''}" for b in inp.beliefs if b.id in set(out.citations))
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


def _check_hypothesis(inp: HypothesizeInput, out: Hypothesis) -> list[str]:
    """One short statement; it is only embedded, never stored or shown as a memory."""
    text = out.memory.strip()
    if not text:
        return ["memory is empty: write the statement that would answer the question"]
    if len(text) > 400:
        return [f"memory has {len(text)} characters: one short statement, under 25 words"]
    return []


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
# Specs
# ---------------------------------------------------------------------------------------------


ANSWER = JobSpec(
    "answer",
    AnswerInput,
    Answer,
    _check_answer,
    "a grounded answer from a working context",
    output_ids=("citations",),
    limits=JobLimits(max_tokens=512, timeout=180),
)

RERANK = JobSpec(
    "rerank",
    RerankInput,
    Reranking,
    _check_rerank,
    "order recalled memories by how well they answer a question",
    output_ids=("ranking",),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=24, timeout=90, timeout_per_item=4),
    sized_by="candidates",
)

HYPOTHESIZE = JobSpec(
    "hypothesize",
    HypothesizeInput,
    Hypothesis,
    _check_hypothesis,
    "the memory that would answer a question (its vector joins the question's in recall)",
    limits=JobLimits(max_tokens=256, timeout=90),
)

REDERIVE = JobSpec(
    "rederive",
    RederiveInput,
    Rederived,
    _check_rederive,
    "re-derive a stale conclusion from the current versions of its premises",
    output_ids=("citations",),
    limits=JobLimits(max_tokens=384, timeout=120),
)
