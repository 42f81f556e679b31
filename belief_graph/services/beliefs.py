"""Writing and reading beliefs: episodes, structured claims, versions, one current belief per fact.

:meth:`BeliefService.assert_claim` validates and embeds the claim, asks the verdicts that need a
model call, and runs one transaction in which :class:`~belief_graph.services.writes.ClaimWriter`
writes it: pass 1 compares with the fact's current belief (the same value is a ``NOOP``; a
different value from the same agent is an ``UPDATE``), pass 2 lets the key's strategy decide
against another agent's (``services/conflicts.py``; by default ``recency``: the newer claim
supersedes, reported as ``SUPERSEDED``).

Every write is one transaction: the fact's lock, the new claim, its justification and the
supersession commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Graph
from ..embeddings import Embedder
from ..errors import (
    MAX_PROBLEM,
    ClaimNotFound,
    EmbeddingDimensionError,
    ValidationError,
    listed,
)
from ..limits import MAX_EPISODE_TEXT, MAX_KEY_DESCRIPTION, MAX_QUERY_TEXT, check_aware, check_name, check_text
from ..models import (
    AgentInfo,
    Claim,
    ClaimInput,
    Episode,
    Explanation,
    KeyInfo,
    Version,
    WriteOp,
    WriteResult,
    new_id,
    utcnow,
)
from ..policies import StaleVerdict
from ..repositories import (
    AgentRepository,
    ClaimRepository,
    EpisodeRepository,
    FactRepository,
    KeyRepository,
)
from ..settings import PolicySettings
from .conflicts import ConflictService, checked_key
from .currency import Consequences
from .writes import ClaimWriter, value_type

__all__ = ["Basis", "BeliefService", "claim_input"]

Basis = Literal["recorded", "valid"]
"""The time axis of ``as_of``: when memory recorded a belief, or when the fact was true."""


def claim_input(**fields: Any) -> ClaimInput:
    """A validated :class:`ClaimInput`; a bad field raises our ``ValidationError`` naming it."""
    try:
        return ClaimInput(**fields)
    except PydanticValidationError as exc:
        msg = listed(
            [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()], sep="; ", width=MAX_PROBLEM
        )
        raise ValidationError(f"invalid claim: {msg}") from exc


def _iso(t: datetime | None) -> str:
    return (check_aware(t, "a time") or utcnow()).isoformat()


ExplainHook = Callable[["BeliefService", Explanation], None]


class BeliefService:
    def __init__(
        self, graph: Graph, space: str, embedder: Embedder, dimension: int, policy: PolicySettings | None = None
    ) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.policy = policy or PolicySettings()
        self.claims = ClaimRepository(graph, space)
        self.episodes = EpisodeRepository(graph, space)
        self.agent_repo = AgentRepository(graph, space)
        self.facts = FactRepository(graph, space)
        self.keys_repo = KeyRepository(graph, space)
        """Aliases of merged keys (``bg.keys``): reads of an alias answer for its target."""
        self.consequences = Consequences(graph, space, embedder, dimension)
        """Settles each write: rule re-derivation and currency of the conclusions resting on it."""
        self.conflicts = ConflictService(graph, space, self.policy, claims=self.claims, consequences=self.consequences)
        """Conflict policy and disputes (services/conflicts.py; ``bg.conflicts``): pass 2 of every write asks it."""
        self.writer = ClaimWriter(
            space,
            self.policy,
            claims=self.claims,
            facts=self.facts,
            agents=self.agent_repo,
            conflicts=self.conflicts,
            consequences=self.consequences,
        )
        """The write path inside a transaction (services/writes.py)."""
        self.explain_hooks: list[ExplainHook] = []
        """Other components add to an explanation (e.g. the audits of reconsolidation)."""

    # -- episodes ---------------------------------------------------------------------------
    def add_episode(
        self,
        text: str,
        agent: str,
        conversation: str | None = None,
        at: datetime | None = None,
        agent_kind: str = "user",
    ) -> Episode:
        check_text(text, "episode text", MAX_EPISODE_TEXT)
        check_name(agent, "agent")
        check_name(conversation, "conversation", optional=True)
        return self.episodes.create(
            id=new_id(), text=text, agent=agent, agent_kind=agent_kind, conversation=conversation, at=_iso(at)
        )

    # -- structured writes --------------------------------------------------------------------
    def assert_claim(
        self,
        data: ClaimInput,
        *,
        props: dict[str, Any] | None = None,
        op_hint: WriteOp | None = None,
    ) -> WriteResult:
        """Write one structured claim: pass 1 against the writer's own belief, pass 2 (after ADD)
        against another agent's by the key's strategy. One transaction; bad input writes nothing.

        ``props``: extra scalar properties stored on the new claim (LLM provenance);
        ``op_hint``: ``REPLACE`` reports a same-agent change classified as a contradiction.
        Strategies that need a model call (``llm_judge``) are decided before the transaction and
        re-checked inside it; if the belief changed in between, the write is decided again.
        """
        prepared = self.prepare(data)
        for _ in range(3):
            verdicts = self.conflicts.pre_verdicts(data)
            try:
                return self.graph.write_tx(
                    lambda tx: self.writer.write(tx, prepared, props=props, op_hint=op_hint, verdicts=verdicts),  # noqa: B023 (runs in this iteration)
                    name="beliefs.assert_claim",
                )
            except StaleVerdict:
                continue
        raise ValidationError(f"the belief for {data.key!r} kept changing while it was being judged; retry the write")

    def prepare(self, data: ClaimInput) -> dict[str, Any]:
        """Validate and embed outside any transaction (no model call holds a lock)."""
        if data.key is not None and data.value is not None:
            value_type(data.value)  # reject lists/maps before anything else
        return {"data": data, "vector": self._embed(data.text), "id": new_id()}

    def prepare_many(self, items: Sequence[ClaimInput]) -> list[dict[str, Any]]:
        """:meth:`prepare` for several claims with one embedding call (bulk import)."""
        for data in items:
            if data.key is not None and data.value is not None:
                value_type(data.value)
        vectors = self.embedder.embed_documents([d.text for d in items]) if items else []
        for vec in vectors:
            if len(vec) != self.dimension:
                raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return [{"data": d, "vector": v, "id": new_id()} for d, v in zip(items, vectors, strict=True)]

    # -- agents and keys ---------------------------------------------------------------------------
    def add_agent(self, agent: str, kind: str = "agent", description: str | None = None) -> AgentInfo:
        if not agent or not agent.strip() or len(agent) > 256 or agent == "*":
            raise ValidationError("agent ids are 1-256 characters and not '*'")
        if kind not in ("user", "agent", "system"):
            raise ValidationError(f"agent kind is 'user', 'agent' or 'system', got {kind!r}")
        return self.agent_repo.register(id=agent, kind=kind, description=description, at=utcnow().isoformat())

    def agents(self) -> list[AgentInfo]:
        """The registered writers of this space."""
        return self.agent_repo.all()

    def register_key(self, key: str, description: str) -> KeyInfo:
        key = checked_key(key)
        description = check_text(description, "a key description", MAX_KEY_DESCRIPTION)
        vec = self._embed(f"{key}: {description}")
        return self.facts.register(key=key, description=description, embedding=vec, at=utcnow().isoformat())

    def similar_keys(self, text: str, k: int = 8) -> list[tuple[str, str | None, float]]:
        check_text(text, "text", MAX_QUERY_TEXT)
        return self.facts.similar(self._embed(text, query_mode=True), k=k)

    # -- versions ----------------------------------------------------------------------------------
    def history(self, key: str) -> list[Version]:
        """Every version of ``key``, oldest first (an alias of a merged key answers for its target)."""
        got = self.claims.history(checked_key(key))
        if got:
            return got
        target = self.keys_repo.resolve(key)
        return self.claims.history(target) if target is not None else []

    def revert(self, key: str, *, agent: str, to: str | None = None, agent_kind: str = "user") -> WriteResult:
        """Write an earlier version's value and text again, as a **new** version by ``agent`` (through
        the same path and policies as :meth:`assert_claim`): ``to`` is that version's claim id, by
        default the one the current version superseded. Conclusions follow as for any update."""
        versions = self.history(key)
        current = next((v for v in versions if v.current), None)
        if current is None:
            raise ValidationError(f"fact {key!r} has no versions to revert")
        target_id = to if to is not None else current.supersedes
        if target_id is None:
            raise ValidationError(f"the current version of {key!r} supersedes nothing: name the version to revert to")
        target = next((v.claim for v in versions if v.claim.id == target_id), None)
        if target is None:
            raise ValidationError(f"{target_id!r} is not a version of {key!r}")
        if target.id == current.claim.id:
            raise ValidationError(f"{target_id!r} is the current version of {key!r}")
        data = ClaimInput(
            key=key,
            value=target.value,
            text=target.text,
            agent=agent,
            agent_kind=agent_kind,  # type: ignore[arg-type]
            kind=target.kind,
        )
        result = self.assert_claim(data, props={"reverts": target.id})
        return result.model_copy(update={"reason": f"reverted to version {target.id}: {result.reason}"})

    def as_of(self, key: str, at: datetime, basis: Basis = "recorded") -> Claim | None:
        """The belief about ``key`` at time ``at`` (timezone-aware), on one of two time axes:

        - ``basis="recorded"`` (the default): what memory *believed* at ``at``: the version whose
          latest revision at or before ``at`` is ``active`` (from the immutable revisions; a stale or
          retracted claim answers for the time it was believed);
        - ``basis="valid"``: what *was true* at ``at``, by what memory knows now: among the versions
          that held (ever active; not retracted, withdrawn or disputed now; superseded and stale ones
          count in their time), the one recorded last whose ``valid_from`` is at or before ``at``
          and that had not ended by then (``valid_to``, or the time a stale conclusion went stale).
          A late report ("I moved to Porto two weeks ago", recorded today) answers for ten days
          ago; a correction with an earlier ``valid_from`` covers the period it claims.
        """
        if not isinstance(at, datetime):
            raise ValidationError("as_of needs a datetime")
        if at.tzinfo is None:
            raise ValidationError("as_of needs a timezone-aware datetime (e.g. datetime.now(UTC))")
        if basis not in ("recorded", "valid"):
            raise ValidationError(f"as_of basis is 'recorded' or 'valid', got {basis!r}")
        read = self.claims.as_of if basis == "recorded" else self.claims.valid_at
        found = read(checked_key(key), at.isoformat())
        if found is not None:
            return found
        target = self.keys_repo.resolve(key)  # an alias holds no versions: its target answers
        return read(target, at.isoformat()) if target is not None else None

    def explain(self, claim_id: str) -> Explanation:
        ex = self.claims.explain(claim_id)
        if ex is None:
            raise ClaimNotFound(claim_id, self.space)
        if ex.claim.key is not None:
            ex.versions = self.claims.history(ex.claim.key)
        for hook in self.explain_hooks:
            hook(self, ex)
        return ex

    # -- reads ----------------------------------------------------------------------------------
    def claim(self, claim_id: str) -> Claim:
        c = self.claims.get(claim_id)
        if c is None:
            raise ClaimNotFound(claim_id, self.space)
        return c

    def belief(self, key: str) -> Claim | None:
        """The current belief for ``key``; an alias of a merged key answers for its target (one more
        read, only when ``key`` itself has no belief). A malformed key is a ValidationError, as for a write."""
        found = self.claims.belief(checked_key(key))
        if found is not None:
            return found
        target = self.keys_repo.resolve(key)
        return self.claims.belief(target) if target is not None else None

    def _embed(self, text: str, query_mode: bool = False) -> list[float]:
        vec = self.embedder.embed_query(text) if query_mode else self.embedder.embed_documents([text])[0]
        if len(vec) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return vec

    def embed_many(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embedder.embed_documents(list(texts))
