"""Conflicts between agents: which strategy decides a key, how much authority an agent has, and disputes.

The write path (:class:`belief_graph.services.beliefs.BeliefService`) asks this service, inside its
own transaction, which strategy decides a key, lets the strategy decide (pass 2), opens a dispute
when the strategy does not settle the conflict, and applies the key's auto-resolution rules. The
same service settles disputes by hand (``resolve_dispute``) and declares the rules
(``set_policy``, ``set_authority``).

Patterns are dotted keys where ``*`` stands for any non-empty run of characters
(``user.schedule.*`` matches ``user.schedule.monday`` and ``user.schedule.monday.am``; ``*``
alone matches every key). When several patterns match, the most specific wins: an exact key beats
any wildcard, then the pattern with more literal characters. Authority rules are per agent (or
``*`` for every agent); an exact agent beats ``*`` before pattern specificity is compared.

Matching reads the space's rules (one indexed read) and compares each pattern with the key in
Python, one literal chunk (the text between two ``*``) at a time, in linear time (:mod:`belief_graph.keypatterns`): a regular expression
with several ``*`` backtracks exponentially on a key that almost matches. The rule also stores an
equivalent regular expression (atomic groups, so ``=~`` on it is linear too) for hand-written
queries; the engine never uses it.

Two components plug in from outside (the facade wires them): ``grounder``, the argumentation
engine's labelling for strategies that ground an attack graph, and ``prejudge``, the model's verdict
for ``llm_judge``, asked before the write transaction so that no model call holds a lock.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from .. import keypatterns
from ..db.driver import Graph, Tx
from ..errors import DisputeNotFound, ValidationError, shown
from ..models import (
    KEY_RE,
    AuthorityRule,
    Claim,
    ClaimInput,
    Dispute,
    PolicyRule,
    Strategy,
    new_id,
    parse_time,
    time_after,
    utcnow,
)
from ..models.argumentation import GroundedResult
from ..policies import (
    STRATEGIES,
    ConflictContext,
    ConflictFramework,
    Decision,
    GroundedStrategy,
    Need,
    authority_weights,
    norm_value,
    same_value,
)
from ..repositories import ClaimRepository, DisputeRepository, PolicyRepository
from ..settings import PolicySettings
from .currency import Change, Consequences

__all__ = [
    "Grounder",
    "ConflictService",
    "PreJudge",
    "checked_key",
    "compile_pattern",
    "validate_strategy",
    "validate_weight",
]

PreJudge = Callable[["ConflictService", str, Claim, ClaimInput], Decision]
"""The verdict a strategy needs from a model (``llm_judge``), asked before the write transaction."""

Grounder = Callable[[Tx, ConflictFramework], GroundedResult]
"""The grounded labelling of an attack graph, computed inside the write transaction."""


def compile_pattern(pattern: str) -> tuple[str, int]:
    """``(regex, specificity)`` for a key pattern; raises ValidationError on a malformed one.

    The regex is informational (stored on the rule); matching uses :func:`keypatterns.match`.
    """
    return keypatterns.to_regex(pattern), keypatterns.specificity(pattern)


def validate_weight(weight: float) -> float:
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0.0 <= float(weight) <= 1.0:
        raise ValidationError(f"authority weight must be a number between 0 and 1, got {shown(weight)}")
    return float(weight)


def validate_strategy(strategy: str) -> Strategy:
    try:
        return Strategy(strategy)
    except ValueError:
        raise ValidationError(
            f"unknown strategy {shown(strategy)}: one of {', '.join(s.value for s in Strategy)}"
        ) from None


def checked_key(key: str) -> str:
    """``key`` if it is a well-formed fact key, else a ValidationError naming the form."""
    if not isinstance(key, str) or len(key) > 256 or not KEY_RE.match(key):
        raise ValidationError(
            f"malformed fact key {shown(key)}: dotted names like 'user.timezone' (letters, digits, _ and -)"
        )
    return key


class ConflictService:
    """The conflict policy of one space: rules, pass-2 decisions, disputes and their resolution."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        policy: PolicySettings,
        *,
        claims: ClaimRepository,
        consequences: Consequences,
    ) -> None:
        self.graph = graph
        self.space = space
        self.policy = policy
        self.claims = claims
        self.consequences = consequences
        self.policy_repo = PolicyRepository(graph, space)
        self.dispute_repo = DisputeRepository(graph, space)
        self.grounder: Grounder | None = None
        """Strategies that need an attack graph grounded (``argumentation``): the argumentation engine plugs in here."""
        self.prejudge: PreJudge | None = None
        """Strategies that need a verdict (``llm_judge``): the model is asked here, before the transaction."""

    # -- the write path's questions ------------------------------------------------------------
    def strategy_for(self, key: str, tx: Tx | None = None) -> Strategy:
        """The strategy that decides ``key``: its most specific rule, else the default."""
        rule = self.policy_repo.match_policy(key, tx)
        return rule.strategy if rule is not None else Strategy(self.policy.default_strategy)

    def pre_verdicts(self, data: ClaimInput) -> dict[str, Decision]:
        """Decisions that need a model call, made against the belief as read now (keyed by incumbent)."""
        if data.key is None or self.prejudge is None:
            return {}
        if Need.verdict not in STRATEGIES[self.strategy_for(data.key)].needs:
            return {}
        cur = self.claims.belief(data.key)
        if cur is None or cur.agent == data.agent or same_value(cur.value, data.value):
            return {}
        return {cur.id: self.prejudge(self, data.key, cur, data)}

    def decide(
        self,
        strategy: Strategy,
        key: str,
        incumbent: Claim,
        data: ClaimInput,
        tx: Tx,
        judged: dict[str, Decision] | None = None,
    ) -> Decision:
        """Pass 2: read what the key's strategy needs (inside the write transaction), then let it decide."""
        s = STRATEGIES[strategy]
        ctx = ConflictContext(key=key, incumbent=incumbent, challenger=data)
        if (Need.verdict in s.needs and self.prejudge is None) or (Need.grounding in s.needs and self.grounder is None):
            raise ValidationError(
                f"strategy {strategy.value!r} for key {key!r} needs a component this engine was built without"
            )
        if Need.verdict in s.needs:
            ctx = replace(ctx, verdict=(judged or {}).get(incumbent.id))
        agents: list[str] = []
        if Need.positions in s.needs:
            positions = [(str(r["agent"]), r["value"]) for r in self.claims.positions(key, tx)]
            positions.append((data.agent, data.value))
            agents = sorted({a for a, _ in positions})
            ctx = replace(ctx, positions=positions)
        elif Need.authority in s.needs:
            agents = [data.agent, incumbent.agent]
        if agents:
            weights, warnings = authority_weights(
                self.policy_repo.match_authority(key, agents, tx), self.policy.default_authority
            )
            ctx = replace(ctx, weights=weights, warnings=warnings)
        if Need.grounding in s.needs:
            assert self.grounder is not None and isinstance(s, GroundedStrategy)
            fw = s.framework(ctx)
            ctx = replace(ctx, framework=fw, grounded=self.grounder(tx, fw))
        return s.decide(ctx)

    def own_disputed(self, key: str, agent: str, tx: Tx) -> Claim | None:
        """``agent``'s claim that is the challenger of an open dispute on ``key``, if any."""
        for d in self.dispute_repo.find(status="open", key=key, tx=tx):
            if d.challenger.agent == agent:
                return d.challenger
        return None

    def open_dispute(
        self, tx: Tx, *, key: str, incumbent: str, challenger: str, strategy: str, reason: str, at: str
    ) -> Dispute:
        """Record an open dispute between two claims of ``key`` (the challenger is already written)."""
        dispute_id = new_id()
        self.dispute_repo.create(
            tx,
            id=dispute_id,
            key=key,
            incumbent=incumbent,
            challenger=challenger,
            strategy=strategy,
            reason=reason,
            at=at,
        )
        return self._dispute(dispute_id, tx)

    def record_contradiction(self, tx: Tx, *, key: str, old_id: str, new_id: str, reason: str, at: str) -> Dispute:
        """The newer claim, just made current over ``old_id``, contradicts it (the two cannot both
        hold and nothing says which is right): the older version leaves the chain as the challenger
        of an open dispute, so the contradiction is surfaced and resolvable (``resolve_dispute``
        with the challenger brings it back)."""
        self.claims.unlink_version(new_id, old_id, tx)
        why = f"contradicted by {new_id}: {reason}"
        self.claims.change_status(
            tx, id=old_id, status="disputed", at=at, reason=why, by=new_id, revision_id=new_id + ":c:" + old_id
        )
        return self.open_dispute(
            tx, key=key, incumbent=new_id, challenger=old_id, strategy="contradiction", reason=reason, at=at
        )

    # -- disputes ----------------------------------------------------------------------------------
    def resolve_dispute(self, dispute_id: str, winner: str, by: str, reason: str) -> Dispute:
        """Settle a dispute by hand: the winner becomes current, the loser superseded, all recorded."""
        if not by or not by.strip():
            raise ValidationError("resolve_dispute needs 'by' (who decided)")
        if not reason or not reason.strip():
            raise ValidationError("resolve_dispute needs a reason")

        def work(tx: Tx) -> Dispute:
            d = self.dispute_repo.get(dispute_id, tx)
            if d is None:
                raise DisputeNotFound(dispute_id, self.space)
            if d.status != "open":
                raise ValidationError(f"dispute {dispute_id!r} is already resolved (winner {d.winner})")
            ids = {"incumbent": d.incumbent.id, "challenger": d.challenger.id}
            winner_id = ids.get(winner, winner)
            if winner_id not in ids.values():
                raise ValidationError(
                    f"winner must be 'incumbent', 'challenger' or one of the dispute's claims "
                    f"({d.incumbent.id}, {d.challenger.id}), got {winner!r}"
                )
            self.settle(tx, d, winner_id, by=by, reason=reason, rule="manual", now=utcnow().isoformat())
            return self._dispute(dispute_id, tx)

        return self.graph.write_tx(work, name="beliefs.resolve_dispute")

    def auto_resolve(self) -> list[Dispute]:
        """Apply the declared auto-resolution rules to every open dispute (one transaction per key)."""
        keys = sorted({d.key for d in self.dispute_repo.find(status="open")})
        out: list[Dispute] = []
        for key in keys:

            def work(tx: Tx, key: str = key) -> list[Dispute]:
                self.claims.lock_fact(key, tx)
                return self.auto_resolve_key(key, tx, utcnow().isoformat())

            out += self.graph.write_tx(work, name="beliefs.auto_resolve")
        return out

    def auto_resolve_key(self, key: str, tx: Tx, now: str) -> list[Dispute]:
        """Apply ``key``'s auto-resolution rules to its open disputes, inside the caller's transaction."""
        rule = self.policy_repo.match_policy(key, tx)
        if rule is None or (
            rule.auto_authority_gap is None and rule.auto_corroboration is None and rule.auto_age_days is None
        ):
            return []
        settled: list[Dispute] = []
        for d in self.dispute_repo.find(status="open", key=key, tx=tx):
            verdict = self._auto_verdict(rule, d, key, tx, now)
            if verdict is None:
                continue
            winner_id, why, name = verdict
            self.settle(tx, d, winner_id, by="policy", reason=why, rule=name, now=now)
            settled.append(self._dispute(d.id, tx))
        return settled

    def _auto_verdict(self, rule: PolicyRule, d: Dispute, key: str, tx: Tx, now: str) -> tuple[str, str, str] | None:
        inc, ch = d.incumbent, d.challenger
        if rule.auto_corroboration is not None:
            agents_by_value: dict[object, set[str]] = {}
            for r in self.claims.positions(key, tx):
                agents_by_value.setdefault(norm_value(r["value"]), set()).add(r["agent"])
            nc = len(agents_by_value.get(norm_value(ch.value), set()))
            ni = len(agents_by_value.get(norm_value(inc.value), set()))
            if nc >= rule.auto_corroboration and nc > ni:
                return ch.id, f"corroborated by {nc} agents (rule: >= {rule.auto_corroboration})", "corroboration"
        if rule.auto_authority_gap is not None:
            weights, _ = authority_weights(
                self.policy_repo.match_authority(key, [inc.agent, ch.agent], tx), self.policy.default_authority
            )
            gap = weights[ch.agent] - weights[inc.agent]
            if gap >= rule.auto_authority_gap:
                return ch.id, f"authority gap {gap:g} >= {rule.auto_authority_gap:g}", "authority_gap"
            if -gap >= rule.auto_authority_gap:
                return (
                    inc.id,
                    f"authority gap {-gap:g} >= {rule.auto_authority_gap:g} for the incumbent",
                    "authority_gap",
                )
        if rule.auto_age_days is not None and d.at is not None:
            age = (parse_time(now) - parse_time(d.at)).total_seconds() / 86400.0
            if age >= rule.auto_age_days:
                side = rule.auto_age_winner or "incumbent"
                winner = inc.id if side == "incumbent" else ch.id
                return winner, f"open {age:.1f} days (rule: {rule.auto_age_days:g}, {side} wins)", "age"
        return None

    def settle(self, tx: Tx, d: Dispute, winner_id: str, *, by: str, reason: str, rule: str, now: str) -> None:
        """Close ``d`` for ``winner_id`` inside the caller's transaction: a winning challenger becomes
        the current belief (conclusions follow), a losing one is superseded."""
        current = self.claims.lock_fact(d.key, tx).current
        now = time_after(current.created_at if current is not None else None)  # after the lock
        why = f"dispute {d.id} resolved by {by}: {reason}"
        if winner_id == d.challenger.id:
            if current is not None and current.id != winner_id:
                self.claims.supersede(d.key, current.id, winner_id, now, why, tx)
            self.claims.change_status(
                tx, id=winner_id, status="active", at=now, reason=why, by=by, revision_id=new_id()
            )
            old = [current.id] if current is not None and current.id != winner_id else []
            change = Change(op="update", reason=f"{d.key}: {why}", agent=by, at=now, roots=old + [winner_id])
            # the winner is a root too: it becomes active only if its own premises are current
            self.consequences.settle(tx, change, roots=old + [winner_id], keys=[d.key])
        else:
            self.claims.change_status(
                tx, id=d.challenger.id, status="superseded", at=now, reason=why, by=by, revision_id=new_id()
            )
        self.dispute_repo.close(tx, id=d.id, winner=winner_id, by=by, reason=reason, rule=rule, at=now)

    def disputes(self, status: str | None = "open", key: str | None = None) -> list[Dispute]:
        """The disputes of this space: ``open`` (the default), ``resolved``, or every one (``None``)."""
        if status is not None and status not in ("open", "resolved"):
            raise ValidationError(f"dispute status is 'open' or 'resolved', got {status!r}")
        return self.dispute_repo.find(status=status, key=key)

    def _dispute(self, dispute_id: str, tx: Tx) -> Dispute:
        d = self.dispute_repo.get(dispute_id, tx)
        assert d is not None, dispute_id
        return d

    # -- rules ---------------------------------------------------------------------------------------
    def set_policy(
        self,
        pattern: str,
        strategy: str,
        *,
        auto_authority_gap: float | None = None,
        auto_corroboration: int | None = None,
        auto_age_days: float | None = None,
        auto_age_winner: str | None = None,
    ) -> PolicyRule:
        regex, specificity = compile_pattern(pattern)
        strat = validate_strategy(strategy)
        if auto_authority_gap is not None:
            validate_weight(auto_authority_gap)
        if auto_corroboration is not None and (
            isinstance(auto_corroboration, bool) or not isinstance(auto_corroboration, int) or auto_corroboration < 2
        ):
            raise ValidationError("auto_corroboration is a number of agents, at least 2")
        if auto_age_days is not None and (
            isinstance(auto_age_days, bool)
            or not isinstance(auto_age_days, int | float)
            or not math.isfinite(auto_age_days)
            or auto_age_days < 0
        ):
            raise ValidationError(
                f"auto_age_days must be a finite, non-negative number of days, got {shown(auto_age_days)}"
            )
        if auto_age_winner not in (None, "incumbent", "challenger"):
            raise ValidationError("auto_age_winner is 'incumbent' or 'challenger'")
        return self.policy_repo.set_policy(
            pattern=pattern,
            regex=regex,
            specificity=specificity,
            strategy=strat.value,
            auto_authority_gap=auto_authority_gap,
            auto_corroboration=auto_corroboration,
            auto_age_days=auto_age_days,
            auto_age_winner=auto_age_winner,
            at=utcnow().isoformat(),
        )

    def set_authority(self, agent: str, pattern: str, weight: float) -> AuthorityRule:
        if not agent or not agent.strip() or len(agent) > 256:
            raise ValidationError("agent must be a non-empty id (or '*' for every agent)")
        regex, specificity = compile_pattern(pattern)
        w = validate_weight(weight)
        return self.policy_repo.set_authority(
            agent=agent, pattern=pattern, regex=regex, specificity=specificity, weight=w, at=utcnow().isoformat()
        )

    def policies(self) -> tuple[list[PolicyRule], list[AuthorityRule]]:
        """The strategy rules and the authority rules of this space."""
        return self.policy_repo.policies(), self.policy_repo.authorities()

    def policy_for(self, key: str) -> tuple[Strategy, PolicyRule | None]:
        rule = self.policy_repo.match_policy(checked_key(key))
        return (rule.strategy if rule else Strategy(self.policy.default_strategy)), rule

    def authority_for(self, agent: str, key: str) -> tuple[float, bool]:
        """``(weight, explicit)``: the weight for agent on key, and whether a rule (not the default) gave it."""
        w = self.policy_repo.match_authority(checked_key(key), [agent])[agent]
        return (w, True) if w is not None else (self.policy.default_authority, False)
