"""Writing and reading beliefs: episodes, structured claims, one current belief per fact.

This is the foundation's write path: structured writes (``key`` + ``value``) decided without an
LLM. Pass 1 compares with the fact's current belief: the same value is a ``NOOP``; a different
value from the same agent is an ``UPDATE``; a different value from another agent is decided by the
default ``recency`` strategy (the newer claim supersedes, reported as ``SUPERSEDED``). Policies
(authority, consensus, argumentation, LLM judge) and disputes extend this (``services/conflicts.py``).

Every write is one transaction: the fact's lock, the new claim, its justification and the
supersession commit together or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Graph, Tx
from ..embeddings import Embedder
from ..errors import (
    MAX_PROBLEM,
    ClaimNotFound,
    DerivedKeyConflict,
    EmbeddingDimensionError,
    UnknownAgent,
    ValidationError,
    listed,
)
from ..limits import MAX_EPISODE_TEXT, MAX_KEY_DESCRIPTION, MAX_QUERY_TEXT, check_aware, check_name, check_text
from ..models import (
    AgentInfo,
    Claim,
    ClaimInput,
    ClaimStatus,
    Episode,
    Explanation,
    KeyInfo,
    Value,
    Version,
    WriteOp,
    WriteResult,
    new_id,
    time_after,
    utcnow,
)
from ..models.support import premise_current
from ..policies import Decision, StaleVerdict, same_value
from ..repositories import (
    AgentRepository,
    ClaimRepository,
    EpisodeRepository,
    FactRepository,
    KeyRepository,
)
from ..settings import PolicySettings
from .conflicts import ConflictService, checked_key
from .currency import Change, Consequences

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


def _value_type(value: Value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    raise ValidationError(f"a fact value is a string, number or boolean, got {type(value).__name__}")


def _current(node: dict[str, Any]) -> bool:
    """A premise is current: an episode not retracted, a claim that is active."""
    return premise_current(str(node["kind"]), str(node["status"]))


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
                    lambda tx: self.write_prepared(tx, prepared, props=props, op_hint=op_hint, verdicts=verdicts),  # noqa: B023 (runs in this iteration)
                    name="beliefs.assert_claim",
                )
            except StaleVerdict:
                continue
        raise ValidationError(f"the belief for {data.key!r} kept changing while it was being judged; retry the write")

    def prepare(self, data: ClaimInput) -> dict[str, Any]:
        """Validate and embed outside any transaction (no model call holds a lock)."""
        if data.key is not None and data.value is not None:
            _value_type(data.value)  # reject lists/maps before anything else
        return {"data": data, "vector": self._embed(data.text), "id": new_id()}

    def prepare_many(self, items: Sequence[ClaimInput]) -> list[dict[str, Any]]:
        """:meth:`prepare` for several claims with one embedding call (bulk import)."""
        for data in items:
            if data.key is not None and data.value is not None:
                _value_type(data.value)
        vectors = self.embedder.embed_documents([d.text for d in items]) if items else []
        for vec in vectors:
            if len(vec) != self.dimension:
                raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return [{"data": d, "vector": v, "id": new_id()} for d, v in zip(items, vectors, strict=True)]

    def write_prepared(
        self,
        tx: Tx,
        prepared: dict[str, Any],
        *,
        props: dict[str, Any] | None = None,
        op_hint: WriteOp | None = None,
        verdicts: dict[str, Decision] | None = None,
    ) -> WriteResult:
        """The write itself, inside the caller's transaction (``remember`` writes several)."""
        data: ClaimInput = prepared["data"]
        vector, claim_id = prepared["vector"], prepared["id"]
        judged = verdicts or {}
        now = utcnow().isoformat()  # replaced by the time after the fact's lock for keyed claims

        def create(tx: Tx, status: str, reason: str) -> Claim:
            valid_from = data.valid_from.isoformat() if data.valid_from is not None else now
            return self.claims.create(
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
                rule=None,
                reason=reason,
                status=status,
                props=dict(props or {}),
            )

        def work(tx: Tx) -> WriteResult:
            nonlocal now, data
            self._check_writer(data.agent, tx)
            if data.key is None:
                if data.evidence:
                    self._check_evidence(data.evidence, tx)
                return WriteResult(
                    op=WriteOp.ADD, claim=create(tx, "active", "asserted"), reason="claim without a fact key"
                )
            locked = self.claims.lock_fact(data.key, tx)
            if locked.alias is not None:  # a key merged into another (bg.keys.merge): the write lands there
                locked = self.claims.follow_alias(locked, tx)
                data = data.model_copy(update={"key": locked.key})
            key = locked.key
            if data.evidence:  # after the fact's lock: the order of locks is facts, then what they cite
                self._check_evidence(data.evidence, tx)
            current = locked.current
            now = time_after(current.created_at if current is not None else None)
            self._check_value_type(key, data.value, locked.value_type, tx)
            active = current if current is not None and current.status == ClaimStatus.active else None
            if locked.rule is not None:
                return self._direct_write_to_derived(tx, key, locked.rule, active, data, claim_id, now, create)

            # pass 1: the writer's own belief
            if active is not None and same_value(active.value, data.value):
                if active.agent == data.agent:
                    return WriteResult(op=WriteOp.NOOP, claim=active, reason="same value as the current belief")
                self.claims.corroborate(
                    tx,
                    id=active.id,
                    agent=data.agent,
                    agent_kind=data.agent_kind,
                    justification_id=new_id(),
                    evidence=list(data.evidence),
                    at=now,
                )
                resolved = self.conflicts.auto_resolve_key(key, tx, now)
                return WriteResult(
                    op=WriteOp.NOOP,
                    claim=self._get(active.id, tx),
                    resolved=resolved,
                    reason=f"same value as the current belief of {active.agent}: recorded as corroboration",
                )
            own = self.conflicts.own_disputed(key, data.agent, tx)
            if own is not None and same_value(own.value, data.value):
                return WriteResult(op=WriteOp.NOOP, claim=own, reason="same value as this agent's disputed claim")
            if active is not None and active.agent == data.agent:
                new = create(tx, "active", "asserted")
                reason = "the same agent changed the value"
                if op_hint is WriteOp.REPLACE:
                    reason = "the same agent contradicted its earlier value"
                old = self.claims.supersede(key, active.id, claim_id, now, reason, tx)
                result = WriteResult(
                    op=op_hint if op_hint is WriteOp.REPLACE else WriteOp.UPDATE,
                    claim=new,
                    superseded=old.claim,
                    reason=reason,
                )
                return self._settled(
                    tx, key, now, locked.rules, old.has_dependents, self._contradiction(tx, key, result, op_hint, now)
                )
            if active is None:
                new = create(tx, "active", "asserted")
                if current is None:
                    self.claims.set_current(key, claim_id, tx)
                    return self._settled(
                        tx, key, now, locked.rules, False, WriteResult(op=WriteOp.ADD, claim=new, reason="new fact")
                    )
                reason = f"new version: the previous one is {current.status}"
                old = self.claims.supersede(key, current.id, claim_id, now, reason, tx)
                return self._settled(
                    tx,
                    key,
                    now,
                    locked.rules,
                    old.has_dependents,
                    WriteResult(op=WriteOp.ADD, claim=new, superseded=old.claim, reason=reason),
                )

            # pass 2: another agent's active belief conflicts; the key's strategy decides
            strategy = self.conflicts.strategy_for(key, tx)
            decision = self.conflicts.decide(strategy, key, active, data, tx, judged)
            if decision.challenger_wins:
                new = create(tx, "active", "asserted")
                reason = f"{strategy.value}: {decision.reason}"
                old = self.claims.supersede(key, active.id, claim_id, now, reason, tx)
                result = WriteResult(
                    op=WriteOp.SUPERSEDED,
                    claim=new,
                    superseded=old.claim,
                    reason=reason,
                    strategy=strategy.value,
                    warnings=decision.warnings,
                )
                return self._settled(
                    tx, key, now, locked.rules, old.has_dependents, self._contradiction(tx, key, result, op_hint, now)
                )
            reason = f"{strategy.value}: {decision.reason}"
            create(tx, "disputed", reason)
            dispute = self.conflicts.open_dispute(
                tx, key=key, incumbent=active.id, challenger=claim_id, strategy=strategy.value, reason=reason, at=now
            )
            if decision.challenger_wins is False:  # decided for the incumbent: a settled dispute keeps the trail
                by = decision.by or strategy.value
                self.conflicts.settle(
                    tx, dispute, active.id, by=by, reason=decision.reason, rule=strategy.value, now=now
                )
            resolved = self.conflicts.auto_resolve_key(key, tx, now)
            return WriteResult(
                op=WriteOp.DISPUTED,
                claim=self._get(claim_id, tx),
                reason=reason,
                strategy=strategy.value,
                dispute=self.conflicts.dispute_repo.get(dispute.id, tx),
                resolved=resolved,
                warnings=decision.warnings,
            )

        return work(tx)

    def _contradiction(self, tx: Tx, key: str, result: WriteResult, op_hint: WriteOp | None, now: str) -> WriteResult:
        """A write classified as contradicting the belief it replaces (``REPLACE``: the two cannot
        both hold and nothing says which is right) keeps the newer value current and records the
        contradiction as an open dispute, the older version its challenger: surfaced, resolvable."""
        if op_hint is not WriteOp.REPLACE or result.superseded is None:
            return result
        dispute = self.conflicts.record_contradiction(
            tx, key=key, old_id=result.superseded.id, new_id=result.claim.id, reason=result.reason, at=now
        )
        return result.model_copy(update={"dispute": dispute, "superseded": self._get(result.superseded.id, tx)})

    def _settled(self, tx: Tx, key: str, now: str, rules: int, dependents: bool, result: WriteResult) -> WriteResult:
        """Settle a write that changed ``key``'s belief: rules re-derive, conclusions go stale.
        ``rules``: how many active rules the space has (none: no rule round); ``dependents``: whether
        anything rests on the superseded version (nothing: no currency pass). Both were read with
        the write's own statements, so a write that touches nothing downstream costs no statement here."""
        new, old = result.claim, result.superseded
        keys, has_rules = [key], rules > 0
        if old is not None:
            reason = f"{key}: {old.value!r} -> {new.value!r} ({result.op.value} by {new.agent})"  # ids: the ROOTs
            change = Change(op="update", reason=reason, agent=new.agent, at=now, roots=[old.id, new.id])
            settled = self.consequences.settle(
                tx, change, roots=[old.id] if dependents else [], keys=keys, rules=has_rules
            )
        else:
            change = Change(
                op="update",
                reason=f"{key} = {new.value!r} (new fact, by {new.agent})",
                agent=new.agent,
                at=now,
                roots=[new.id],
            )
            settled = self.consequences.settle(tx, change, keys=keys, rules=has_rules)
        return result.model_copy(
            update={"audit": settled.audit, "staled": settled.staled, "rederived": settled.rederived}
        )

    def _direct_write_to_derived(
        self,
        tx: Tx,
        key: str,
        rule: dict[str, Any],
        active: Claim | None,
        data: ClaimInput,
        claim_id: str,
        now: str,
        create: Callable[[Tx, str, str], Claim],
    ) -> WriteResult:
        """A direct write to a key that a rule derives: refused (a typed error naming the rule), or
        with ``direct_writes: dispute`` parked as the challenger of the derived belief."""
        name = f"{rule['name']}@{rule['version']}"
        if rule.get("direct_writes") != "dispute" or active is None:
            raise DerivedKeyConflict(key, name, self.space)
        if same_value(active.value, data.value):
            return WriteResult(op=WriteOp.NOOP, claim=active, reason=f"same value as the conclusion of rule {name}")
        reason = f"rule {name} derives {key}: a direct write is parked as a dispute"
        create(tx, "disputed", reason)
        dispute = self.conflicts.open_dispute(
            tx, key=key, incumbent=active.id, challenger=claim_id, strategy="rule", reason=reason, at=now
        )
        return WriteResult(
            op=WriteOp.DISPUTED, claim=self._get(claim_id, tx), reason=reason, strategy="rule", dispute=dispute
        )

    def _check_evidence(self, evidence: Sequence[str], tx: Tx) -> None:
        """Evidence must exist in this space, hold and be current: an episode that is not retracted,
        a claim that is active (a superseded, stale, disputed, withdrawn or retracted claim would
        give the new belief a support that is already gone). The evidence is locked first and read
        after: a retract or supersession of it that commits while this write waits for a lock is
        seen, and one that comes later waits for this write and then sees the new claim."""
        self.claims.lock_premises(evidence, tx)
        found = self.claims.find_premises(evidence, tx=tx)
        missing = [e for e in evidence if e not in found]
        if missing:
            raise ValidationError(f"{listed(missing, 'unknown evidence id(s)')} (space {self.space!r})")
        gone = [f"{e} ({found[e]['status']})" for e in evidence if not _current(found[e])]
        if gone:
            raise ValidationError(
                f"{listed(gone, 'evidence id(s) that no longer hold or are not current')}; "
                "cite an active claim or an episode that is not retracted"
            )

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

    def _check_writer(self, agent: str, tx: Tx) -> None:
        if self.policy.strict_agents and agent not in self.agent_repo.registered([agent], tx):
            raise UnknownAgent(agent, self.space)

    def _check_value_type(self, key: str, value: Value, known: str | None, tx: Tx) -> None:
        if value is None:
            return
        vt = _value_type(value)
        if known is None:
            self.facts.set_value_type(key, vt, tx)
        elif known != vt:
            raise ValidationError(f"fact {key!r} holds {known} values; got {vt} {value!r}")

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

    def _get(self, claim_id: str, tx: Tx) -> Claim:
        c = self.claims.get(claim_id, tx=tx)
        assert c is not None, claim_id
        return c

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
