"""Writing and reading beliefs: episodes, structured claims, one current belief per fact.

This is the foundation's write path: structured writes (``key`` + ``value``) decided without an
LLM. Pass 1 compares with the fact's current belief: the same value is a ``NOOP``; a different
value from the same agent is an ``UPDATE``; a different value from another agent is decided by the
default ``recency`` strategy (the newer claim supersedes, reported as ``SUPERSEDED``). Policies
(authority, consensus, argumentation, LLM judge) and disputes extend this in the belief-store issue.

Every write is one transaction: the fact's lock, the new claim, its justification and the
supersession commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..driver import Graph, Tx
from ..embeddings import Embedder
from ..errors import ClaimNotFound, EmbeddingDimensionError, ValidationError
from ..models import Claim, ClaimInput, Episode, RecallHit, WriteOp, WriteResult, new_id, utcnow
from ..repositories import ClaimRepository, EpisodeRepository

__all__ = ["BeliefService"]


def _iso(t: datetime | None) -> str:
    return (t or utcnow()).isoformat()


class BeliefService:
    def __init__(self, graph: Graph, space: str, embedder: Embedder, dimension: int) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.claims = ClaimRepository(graph, space)
        self.episodes = EpisodeRepository(graph, space)

    # -- episodes ---------------------------------------------------------------------------
    def add_episode(
        self,
        text: str,
        agent: str,
        conversation: str | None = None,
        at: datetime | None = None,
        agent_kind: str = "user",
    ) -> Episode:
        if not text or not text.strip():
            raise ValidationError("episode text must not be blank")
        if not agent:
            raise ValidationError("agent must not be empty")
        return self.episodes.create(
            id=new_id(), text=text, agent=agent, agent_kind=agent_kind, conversation=conversation, at=_iso(at)
        )

    # -- structured writes --------------------------------------------------------------------
    def assert_claim(self, data: ClaimInput) -> WriteResult:
        vector = self._embed(data.text)
        claim_id = new_id()
        now = utcnow().isoformat()
        valid_from = _iso(data.valid_from)

        def work(tx: Tx) -> WriteResult:
            if data.evidence:
                found = self.claims.find_premises(data.evidence, tx=tx)
                missing = [e for e in data.evidence if e not in found]
                if missing:
                    raise ValidationError(f"unknown evidence id(s) in space {self.space!r}: {', '.join(missing)}")
            current = self.claims.lock_fact(data.key, tx) if data.key is not None else None
            if current is not None and current.value == data.value and data.value is not None:
                return WriteResult(op=WriteOp.NOOP, claim=current, reason="same value as the current belief")
            self.claims.create(
                tx,
                id=claim_id,
                key=data.key,
                value=data.value,
                text=data.text,
                kind=data.kind,
                agent=data.agent,
                agent_kind=data.agent_kind,
                confidence=data.confidence,
                created_at=now,
                valid_from=valid_from,
                embedding=vector,
                evidence=list(data.evidence),
                justification_id=new_id(),
                reason="asserted",
            )
            op, reason = WriteOp.ADD, "new fact" if data.key else "claim without a fact key"
            if data.key is not None:
                if current is None:
                    self.claims.set_current(data.key, claim_id, tx)
                else:
                    same_agent = current.agent == data.agent
                    op = WriteOp.UPDATE if same_agent else WriteOp.SUPERSEDED
                    reason = (
                        "the same agent changed the value"
                        if same_agent
                        else "recency: newer claim from another agent supersedes"
                    )
                    self.claims.supersede(data.key, current.id, claim_id, now, reason, tx)
            created = self.claims.get(claim_id, tx=tx)
            assert created is not None
            superseded = self.claims.get(current.id, tx=tx) if current is not None else None
            return WriteResult(op=op, claim=created, superseded=superseded, reason=reason)

        return self.graph.write_tx(work, name="beliefs.assert_claim")

    # -- reads ----------------------------------------------------------------------------------
    def claim(self, claim_id: str) -> Claim:
        c = self.claims.get(claim_id)
        if c is None:
            raise ClaimNotFound(claim_id, self.space)
        return c

    def belief(self, key: str) -> Claim | None:
        return self.claims.belief(key)

    def recall(self, query: str, k: int = 5) -> list[RecallHit]:
        if not query.strip():
            raise ValidationError("query must not be blank")
        if k < 1 or k > 1000:
            raise ValidationError("k must be between 1 and 1000")
        vector = self._embed(query, query_mode=True)
        # Over-fetch: the index is shared by every space and status; filtering happens after.
        hits = self.claims.vector_search(vector, k=k, fetch=max(50, 10 * k))
        return [RecallHit(claim=c, score=s, scores={"vector": s}) for c, s in hits]

    def _embed(self, text: str, query_mode: bool = False) -> list[float]:
        vec = self.embedder.embed_query(text) if query_mode else self.embedder.embed_documents([text])[0]
        if len(vec) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return vec

    def embed_many(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embedder.embed_documents(list(texts))
