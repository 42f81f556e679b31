"""One structured claim written inside the caller's transaction: the write path, step by step.

:meth:`ClaimWriter.write` reads top-down; each step is a method below it, in the order it runs:

1. **check the writer** (strict agents);
2. a claim **without a key** is written as it is (its evidence checked);
3. **lock the fact** (an alias of a merged key leads to its target), then check what the claim
   cites and its value type: the order of locks is facts, then what they cite;
4. a key a **rule derives** refuses the write or parks it as a dispute;
5. **pass 1**, against the fact's belief: the same value is a ``NOOP`` (another agent's is recorded as
   corroboration); the writer's own disputed value is a ``NOOP``; the writer's own belief, or a
   belief that is not active, is replaced;
6. **pass 2**, against another agent's active belief: the key's strategy
   (:class:`~belief_graph.services.conflicts.ConflictService`) replaces it or opens a dispute.

Every replacement goes through :meth:`ClaimWriter._replace`: write the new claim, supersede the old
one, record a contradiction when the write was classified as one, then settle what rests on the
key (rule re-derivation and currency, :class:`~belief_graph.services.currency.Consequences`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.driver import Tx
from ..errors import DerivedKeyConflict, UnknownAgent, ValidationError, listed
from ..models import Claim, ClaimInput, ClaimStatus, Value, WriteOp, WriteResult, new_id, time_after, utcnow
from ..models.support import premise_current
from ..policies import Decision, same_value
from ..repositories import AgentRepository, ClaimRepository, FactRepository
from ..repositories.claims import LockedFact
from ..settings import PolicySettings
from .conflicts import ConflictService
from .currency import Change, Consequences

__all__ = ["ClaimWriter", "value_type"]


def value_type(value: Value) -> str:
    """The stored type of a fact value; lists, maps and other types are a ``ValidationError``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    raise ValidationError(f"a fact value is a string, number or boolean, got {type(value).__name__}")


@dataclass
class _Write:
    """One write in progress: the prepared claim and what the transaction has learnt of it."""

    data: ClaimInput
    claim_id: str
    vector: list[float]
    props: dict[str, Any]
    op_hint: WriteOp | None
    verdicts: dict[str, Decision]
    now: str
    """The write's time: the time after the current belief's for keyed claims (set after the lock)."""


class ClaimWriter:
    """The write path of one space, inside the caller's transaction (``assert_claim``, ``remember``, import)."""

    def __init__(
        self,
        space: str,
        policy: PolicySettings,
        *,
        claims: ClaimRepository,
        facts: FactRepository,
        agents: AgentRepository,
        conflicts: ConflictService,
        consequences: Consequences,
    ) -> None:
        self.space = space
        self.policy = policy
        self.claims = claims
        self.facts = facts
        self.agents = agents
        self.conflicts = conflicts
        self.consequences = consequences

    def write(
        self,
        tx: Tx,
        prepared: dict[str, Any],
        *,
        props: dict[str, Any] | None = None,
        op_hint: WriteOp | None = None,
        verdicts: dict[str, Decision] | None = None,
    ) -> WriteResult:
        """Write one prepared claim (``BeliefService.prepare``) in ``tx``: the steps of the module docstring."""
        w = _Write(
            data=prepared["data"],
            claim_id=prepared["id"],
            vector=prepared["vector"],
            props=dict(props or {}),
            op_hint=op_hint,
            verdicts=verdicts or {},
            now=utcnow().isoformat(),
        )
        self._check_writer(tx, w.data.agent)
        if w.data.key is None:
            return self._write_unkeyed(tx, w)
        fact = self._lock_fact(tx, w)
        current = fact.current
        active = current if current is not None and current.status == ClaimStatus.active else None
        if fact.rule is not None:
            return self._write_to_derived(tx, w, fact.rule, active)
        if active is not None and same_value(active.value, w.data.value):
            return self._same_value(tx, w, active)
        own = self.conflicts.own_disputed(fact.key, w.data.agent, tx)
        if own is not None and same_value(own.value, w.data.value):
            return WriteResult(op=WriteOp.NOOP, claim=own, reason="same value as this agent's disputed claim")
        if active is not None and active.agent == w.data.agent:
            return self._own_change(tx, w, fact, active)
        if current is None:
            return self._new_fact(tx, w, fact)
        if active is None:
            reason = f"new version: the previous one is {current.status}"
            return self._replace(tx, w, fact, current, op=WriteOp.ADD, reason=reason)
        return self._conflict(tx, w, fact, active)

    # -- the steps, in the order they run ------------------------------------------------------
    def _check_writer(self, tx: Tx, agent: str) -> None:
        if self.policy.strict_agents and agent not in self.agents.registered([agent], tx):
            raise UnknownAgent(agent, self.space)

    def _write_unkeyed(self, tx: Tx, w: _Write) -> WriteResult:
        if w.data.evidence:
            self._check_evidence(tx, w.data.evidence)
        claim = self._create(tx, w, "active", "asserted")
        return WriteResult(op=WriteOp.ADD, claim=claim, reason="claim without a fact key")

    def _lock_fact(self, tx: Tx, w: _Write) -> LockedFact:
        """Take the fact's lock (following a merged key's alias), then check what the claim cites and
        its value type; the write's time is set after the current belief's."""
        assert w.data.key is not None
        fact = self.claims.lock_fact(w.data.key, tx)
        if fact.alias is not None:  # a key merged into another (bg.keys.merge): the write lands there
            fact = self.claims.follow_alias(fact, tx)
            w.data = w.data.model_copy(update={"key": fact.key})
        if w.data.evidence:  # after the fact's lock: the order of locks is facts, then what they cite
            self._check_evidence(tx, w.data.evidence)
        w.now = time_after(fact.current.created_at if fact.current is not None else None)
        self._check_value_type(tx, fact.key, w.data.value, fact.value_type)
        return fact

    def _check_evidence(self, tx: Tx, evidence: Sequence[str]) -> None:
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
        gone = [
            f"{e} ({found[e]['status']})"
            for e in evidence
            if not premise_current(str(found[e]["kind"]), str(found[e]["status"]))
        ]
        if gone:
            raise ValidationError(
                f"{listed(gone, 'evidence id(s) that no longer hold or are not current')}; "
                "cite an active claim or an episode that is not retracted"
            )

    def _check_value_type(self, tx: Tx, key: str, value: Value, known: str | None) -> None:
        if value is None:
            return
        vt = value_type(value)
        if known is None:
            self.facts.set_value_type(key, vt, tx)
        elif known != vt:
            raise ValidationError(f"fact {key!r} holds {known} values; got {vt} {value!r}")

    def _write_to_derived(self, tx: Tx, w: _Write, rule: dict[str, Any], active: Claim | None) -> WriteResult:
        """A direct write to a key that a rule derives: refused (a typed error naming the rule), or
        with ``direct_writes: dispute`` parked as the challenger of the derived belief."""
        key = str(w.data.key)
        name = f"{rule['name']}@{rule['version']}"
        if rule.get("direct_writes") != "dispute" or active is None:
            raise DerivedKeyConflict(key, name, self.space)
        if same_value(active.value, w.data.value):
            return WriteResult(op=WriteOp.NOOP, claim=active, reason=f"same value as the conclusion of rule {name}")
        reason = f"rule {name} derives {key}: a direct write is parked as a dispute"
        self._create(tx, w, "disputed", reason)
        dispute = self.conflicts.open_dispute(
            tx, key=key, incumbent=active.id, challenger=w.claim_id, strategy="rule", reason=reason, at=w.now
        )
        return WriteResult(
            op=WriteOp.DISPUTED, claim=self._get(tx, w.claim_id), reason=reason, strategy="rule", dispute=dispute
        )

    def _same_value(self, tx: Tx, w: _Write, active: Claim) -> WriteResult:
        """Pass 1, the value the fact already holds: a ``NOOP``; from another agent, a corroboration."""
        if active.agent == w.data.agent:
            return WriteResult(op=WriteOp.NOOP, claim=active, reason="same value as the current belief")
        self.claims.corroborate(
            tx,
            id=active.id,
            agent=w.data.agent,
            agent_kind=w.data.agent_kind,
            justification_id=new_id(),
            evidence=list(w.data.evidence),
            at=w.now,
        )
        resolved = self.conflicts.auto_resolve_key(str(w.data.key), tx, w.now)
        return WriteResult(
            op=WriteOp.NOOP,
            claim=self._get(tx, active.id),
            resolved=resolved,
            reason=f"same value as the current belief of {active.agent}: recorded as corroboration",
        )

    def _own_change(self, tx: Tx, w: _Write, fact: LockedFact, active: Claim) -> WriteResult:
        """Pass 1, the writer changes its own belief: an ``UPDATE`` (a ``REPLACE`` when classified as a contradiction)."""
        if w.op_hint is WriteOp.REPLACE:
            return self._replace(
                tx, w, fact, active, op=WriteOp.REPLACE, reason="the same agent contradicted its earlier value"
            )
        return self._replace(tx, w, fact, active, op=WriteOp.UPDATE, reason="the same agent changed the value")

    def _new_fact(self, tx: Tx, w: _Write, fact: LockedFact) -> WriteResult:
        """Pass 1, the fact has no version yet: the claim becomes its first."""
        new = self._create(tx, w, "active", "asserted")
        self.claims.set_current(fact.key, w.claim_id, tx)
        return self._settle(tx, w, fact, WriteResult(op=WriteOp.ADD, claim=new, reason="new fact"), dependents=False)

    def _conflict(self, tx: Tx, w: _Write, fact: LockedFact, active: Claim) -> WriteResult:
        """Pass 2: another agent's active belief differs; the key's strategy replaces it or opens a dispute."""
        strategy = self.conflicts.strategy_for(fact.key, tx)
        decision = self.conflicts.decide(strategy, fact.key, active, w.data, tx, w.verdicts)
        reason = f"{strategy.value}: {decision.reason}"
        if decision.challenger_wins:
            return self._replace(
                tx,
                w,
                fact,
                active,
                op=WriteOp.SUPERSEDED,
                reason=reason,
                strategy=strategy.value,
                warnings=decision.warnings,
            )
        self._create(tx, w, "disputed", reason)
        dispute = self.conflicts.open_dispute(
            tx,
            key=fact.key,
            incumbent=active.id,
            challenger=w.claim_id,
            strategy=strategy.value,
            reason=reason,
            at=w.now,
        )
        if decision.challenger_wins is False:  # decided for the incumbent: a settled dispute keeps the trail
            by = decision.by or strategy.value
            self.conflicts.settle(tx, dispute, active.id, by=by, reason=decision.reason, rule=strategy.value, now=w.now)
        resolved = self.conflicts.auto_resolve_key(fact.key, tx, w.now)
        return WriteResult(
            op=WriteOp.DISPUTED,
            claim=self._get(tx, w.claim_id),
            reason=reason,
            strategy=strategy.value,
            dispute=self.conflicts.dispute_repo.get(dispute.id, tx),
            resolved=resolved,
            warnings=decision.warnings,
        )

    # -- the supersede-then-settle block, and the pieces every step uses -----------------------
    def _replace(
        self, tx: Tx, w: _Write, fact: LockedFact, old: Claim, *, op: WriteOp, reason: str, **extra: Any
    ) -> WriteResult:
        """The new claim replaces ``old`` as the fact's belief: written, ``old`` superseded, a
        contradiction recorded when the write was classified as one, then settled."""
        new = self._create(tx, w, "active", "asserted")
        superseded = self.claims.supersede(fact.key, old.id, w.claim_id, w.now, reason, tx)
        result = WriteResult(op=op, claim=new, superseded=superseded.claim, reason=reason, **extra)
        if w.op_hint is WriteOp.REPLACE and op is not WriteOp.ADD:
            result = self._contradiction(tx, fact.key, w, result)
        return self._settle(tx, w, fact, result, dependents=superseded.has_dependents)

    def _contradiction(self, tx: Tx, key: str, w: _Write, result: WriteResult) -> WriteResult:
        """A write classified as contradicting the belief it replaces (``REPLACE``: the two cannot
        both hold and nothing says which is right) keeps the newer value current and records the
        contradiction as an open dispute, the older version its challenger: surfaced, resolvable."""
        assert result.superseded is not None
        dispute = self.conflicts.record_contradiction(
            tx, key=key, old_id=result.superseded.id, new_id=result.claim.id, reason=result.reason, at=w.now
        )
        return result.model_copy(update={"dispute": dispute, "superseded": self._get(tx, result.superseded.id)})

    def _settle(self, tx: Tx, w: _Write, fact: LockedFact, result: WriteResult, *, dependents: bool) -> WriteResult:
        """Settle a write that changed the fact's belief: rules re-derive, conclusions go stale.
        ``fact.rules``: how many active rules the space has (none: no rule round); ``dependents``:
        whether anything rests on the superseded version (nothing: no currency pass). Both were read
        with the write's own statements, so a write that touches nothing downstream costs no statement here."""
        key, new, old = fact.key, result.claim, result.superseded
        keys, has_rules = [key], fact.rules > 0
        if old is not None:
            reason = f"{key}: {old.value!r} -> {new.value!r} ({result.op.value} by {new.agent})"  # ids: the ROOTs
            change = Change(op="update", reason=reason, agent=new.agent, at=w.now, roots=[old.id, new.id])
            settled = self.consequences.settle(
                tx, change, roots=[old.id] if dependents else [], keys=keys, rules=has_rules
            )
        else:
            reason = f"{key} = {new.value!r} (new fact, by {new.agent})"
            change = Change(op="update", reason=reason, agent=new.agent, at=w.now, roots=[new.id])
            settled = self.consequences.settle(tx, change, keys=keys, rules=has_rules)
        return result.model_copy(
            update={"audit": settled.audit, "staled": settled.staled, "rederived": settled.rederived}
        )

    def _create(self, tx: Tx, w: _Write, status: str, reason: str) -> Claim:
        data = w.data
        return self.claims.create(
            tx,
            id=w.claim_id,
            key=data.key,
            value=data.value,
            text=data.text,
            kind=data.kind,
            agent=data.agent,
            agent_kind=data.agent_kind,
            confidence=data.confidence,
            created_at=w.now,
            valid_from=data.valid_from.isoformat() if data.valid_from is not None else w.now,
            embedding=w.vector,
            evidence=list(data.evidence),
            justification_id=new_id(),
            rule=None,
            reason=reason,
            status=status,
            props=w.props,
        )

    def _get(self, tx: Tx, claim_id: str) -> Claim:
        c = self.claims.get(claim_id, tx=tx)
        assert c is not None, claim_id
        return c
