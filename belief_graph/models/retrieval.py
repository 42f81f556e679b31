"""Pydantic models of retrieval and grounded answers (docs/retrieval.md).

:class:`RetrievalHit` extends :class:`~belief_graph.models.RecallHit` (so callers that only read
``claim``/``score``/``scores`` keep working) with the score parts of the fusion, the hit's
provenance and its support certificate.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from .beliefs import Claim, RecallHit
from .support import SupportFamily, WorkingContext

__all__ = ["AnswerResult", "GroundingCheck", "HitProvenance", "RetrievalHit", "RecallStats"]


class HitProvenance(BaseModel):
    """Where a claim comes from: its writer, its time, and the evidence of its justifications."""

    agent: str
    created_at: str | None = None
    kind: str | None = None
    episodes: list[dict[str, Any]] = Field(default_factory=list)
    """Episodes that are premises of the claim's justifications: ``{id, text, agent, at}``."""
    evidence: list[str] = Field(default_factory=list)
    """Ids of every premise (episodes and claims) of the claim's justifications."""
    perspective: str | None = None
    """For an interpretation: the perspective that holds it."""
    inferred_from: str | None = None
    """For a value ``remember`` took as an inference: the turn's words it rests on."""


class RetrievalHit(RecallHit):
    """One recalled claim. ``score`` is the fused score (see ``RetrievalService.recall``); ``scores`` holds
    the parts: ``vector`` (Neo4j cosine score, ``(1 + cos) / 2``, of the claim's own vector, also
    for a hit found by fulltext only), ``fulltext`` (Lucene score, absent when the fulltext search
    did not find it), ``vector_rank`` / ``fulltext_rank`` (1-based, among the hits that pass the
    filters) and ``fused``."""

    vector_rank: int | None = None
    fulltext_rank: int | None = None
    similarity: float | None = None
    """The Neo4j cosine score of the query and the claim's vector (``(1 + cos) / 2``)."""
    provenance: HitProvenance | None = None
    certificate: SupportFamily | None = None
    """The oldest intact justification with its premises; ``None`` for a base claim."""
    families: int = 0
    """How many justifications the claim has (0 = base claim)."""
    status_then: str | None = None
    """With ``as_of``: the claim's status at that time (its status now is ``claim.status``)."""
    match: Literal["search", "key", "prefix"] = "search"


class RecallStats(BaseModel):
    """How one recall ran: fetch rounds of the over-fetch loop and why it stopped."""

    rounds: int
    fetch: int
    vector_fetched: int
    fulltext_fetched: int
    candidates: int | None = None
    """Claims of the space that could pass the filters (counted only when a round fell short of k)."""
    stopped: Literal["enough", "exhausted", "all_candidates", "cap", "exact_scan"]
    """``exact_scan``: the space had at most ``exact_scan_max`` candidates and was scanned exactly."""
    steps: list[str] = Field(default_factory=list)
    """Ranking steps applied: ``subject_rewrite``, ``key_fusion``, ``llm_rerank`` (docs/retrieval.md)."""
    key_phrases_embedded: int = 0
    """Key phrases this recall had to embed (the others came from the cache)."""
    llm_calls: int = 0
    """LLM calls made by this recall (the optional re-rank: 0 or 1)."""


class GroundingCheck(BaseModel):
    """One check ``answer`` ran, and its outcome."""

    name: str
    ok: bool
    detail: str = ""


class AnswerResult(BaseModel):
    """A grounded answer, or ``unknown`` with the reason."""

    query: str
    status: Literal["answered", "unknown"]
    text: str
    citations: list[str] = Field(default_factory=list)
    cited: list[Claim] = Field(default_factory=list)
    reason: str = ""
    checks: list[GroundingCheck] = Field(default_factory=list)
    llm_calls: int = 0
    best_similarity: float | None = None
    threshold: float
    model: str | None = None
    replayed: bool = False
    """True when the answering model replays recorded answers (no live LLM)."""
    context: WorkingContext | None = None

    @property
    def known(self) -> bool:
        return self.status == "answered"
