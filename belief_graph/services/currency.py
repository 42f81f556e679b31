"""Currency of derived claims (DESIGN.md, "Currency of derived claims"): what a write does to the
conclusions that rest on what it changed, in the writer's transaction.

Support decides whether a conclusion was ever justified (``withdrawn`` when it lost every
support); currency decides whether it holds *now*: a claim with justifications is current only
while one of them has every premise current (an episode that is not retracted, a claim that is
``active``). :meth:`Consequences.settle` runs after every write that changes a fact's belief or a
claim's status, inside that write's transaction:

1. the **rule engine** (:mod:`.derivation`) re-evaluates the rule instances that read a changed key
   and writes the new conclusions as new versions of their keys (round after round: a new version
   is itself a change);
2. the **currency pass** marks the region downstream of the changed claims (``currency.mark_region``),
   runs the same least fixpoint as reconsolidation (``support.fixpoint``) over "current" instead of
   "holds", and writes the outcome (``currency.apply_labels``): conclusions that lost their last
   current justification become ``stale``, stale ones whose premises are current again come back;
3. the keys whose belief changed in 2 go back to 1, until nothing changes.

Everything is recorded on one ``Audit`` (opened only when something changes): ``ROOT`` edges to
the changed premises, ``STALED {lost}``, ``REFRESHED {via}``, ``REDERIVED {rule, superseded}``,
with the premise change as its reason. Work is bounded by the changed claims' dependents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..db.driver import Graph, Tx
from ..embeddings import Embedder
from ..models import Claim, new_id
from ..models.rules import RuleInstanceInfo
from ..repositories.core import Runner
from ..repositories.currency import CurrencyRepository
from ..repositories.support import SupportRepository
from .derivation import MAX_ROUNDS, RuleEngine

__all__ = ["Change", "Consequences", "Settled"]


@dataclass
class Change:
    """The write being settled: the cause named by its audit."""

    op: str
    """``update`` (a write superseded premises), ``retract``/``restore``/``derive`` (their audit is
    already open: ``audit``), ``rule`` (a rule was added, changed, removed or run)."""
    reason: str
    agent: str | None
    at: str
    roots: list[str] = field(default_factory=list)
    """Linked to the audit as ``ROOT`` when this opens it."""
    audit: str | None = None

    def ensure_audit(self, tx: Tx, repo: SupportRepository) -> str:
        if self.audit is None:
            self.audit = new_id()
            repo.open_audit(
                tx,
                id=self.audit,
                op=self.op,
                mode="justification",
                reason=self.reason,
                agent=self.agent,
                at=self.at,
                roots=self.roots,
                evaluate=False,
            )
        return self.audit


@dataclass
class Settled:
    """What settling one write did to the conclusions that rest on it."""

    audit: str | None = None
    staled: list[str] = field(default_factory=list)
    refreshed: list[str] = field(default_factory=list)
    rederived: list[Claim] = field(default_factory=list)
    unresolved: list[RuleInstanceInfo] = field(default_factory=list)


class Consequences:
    """Settles writes: rule re-derivation and currency, for one memory space."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        embedder: Embedder,
        dimension: int,
        runner: Runner | None = None,
        waves_per_call: int = 64,
    ) -> None:
        self.space = space
        self.repo = SupportRepository(graph, space, runner=runner)
        self.currency = CurrencyRepository(graph, space, runner=runner)
        self.rules = RuleEngine(graph, space, embedder, dimension)
        self.waves_per_call = waves_per_call

    def settle(
        self,
        tx: Tx,
        change: Change,
        *,
        roots: Sequence[str] = (),
        keys: Sequence[str] = (),
        only: set[tuple[str, str]] | None = None,
        rules: bool = True,
    ) -> Settled:
        """Settle one write inside ``tx``. ``roots``: claims (or episodes) whose status changed or
        that were superseded; ``keys``: facts whose belief changed. ``only`` restricts the first
        rule round to these ``(rule, key)`` instances; ``rules=False`` (the space has no active
        rule) skips the rule engine."""
        out = Settled(audit=change.audit)
        pending_roots = list(dict.fromkeys(roots))
        pending_keys = set(keys)

        def audit(tx: Tx) -> str:
            return change.ensure_audit(tx, self.repo)

        for _ in range(MAX_ROUNDS):
            if pending_keys and rules:
                r = self.rules.reevaluate(tx, sorted(pending_keys), audit, change.at, cause=change.reason, only=only)
                only = None
                pending_roots += r.superseded
                out.rederived += r.rederived
                out.unresolved += r.unresolved
            pending_keys = set()
            if pending_roots:
                staled, refreshed, keys_changed = self._currency(tx, pending_roots, change)
                out.staled += staled
                out.refreshed += refreshed
                pending_keys = set(keys_changed)
                pending_roots = []
            if not pending_keys:
                out.audit = change.audit
                return out
        raise RuntimeError(f"settling a write did not converge in {MAX_ROUNDS} rounds")

    def _currency(self, tx: Tx, roots: list[str], change: Change) -> tuple[list[str], list[str], list[str]]:
        """One currency pass from ``roots``; returns (made stale, current again, keys whose belief changed).
        A region with claims in it opens the audit even when none of them changes (it records that the
        change reached them)."""
        run = new_id()
        region, seeds = self.currency.mark_region(tx, run=run, roots=roots)
        if not region:
            return [], [], []
        if seeds:
            budget = min(len(region), self.waves_per_call)
            while True:
                gained = self.repo.fixpoint(tx, run=run, waves=budget)
                if not gained or gained[-1] == 0:
                    break
        audit_id = change.ensure_audit(tx, self.repo)
        return self.currency.apply_labels(
            tx, audit=audit_id, run=run, at=change.at, reason=change.reason, region=region
        )
