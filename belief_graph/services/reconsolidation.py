"""Selective reconsolidation (DESIGN.md, "Support"): retract and restore, computed in Cypher.

:meth:`Reconsolidation.run` (``retract`` / ``restore``) finds the reactivation region
downstream of the roots in Cypher, re-evaluates support inside it to the **least fixpoint** in Cypher
(forward chaining from support grounded outside the region, so support cycles never justify
themselves), and records what changed on one ``Audit`` with immutable ``Revision``\\ s — all in one
transaction. Nothing outside the region is written; outside premises are read. Mode
``justification`` then settles the conclusions (currency and rule re-derivation,
:class:`~belief_graph.services.currency.Consequences`) on the same audit.

:meth:`Reconsolidation.reconsolidate` is the same inside a caller's transaction: a ``derive`` whose
new justification reinstates a withdrawn claim uses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime

from ..db.driver import Graph, Tx
from ..errors import ClaimNotFound, ValidationError, listed
from ..limits import check_aware
from ..models import new_id, utcnow
from ..models.support import MODES, AuditRecord
from ..repositories.currency import CurrencyRepository
from ..repositories.support import SupportRepository
from .currency import Change, Consequences

__all__ = ["Reconsolidation", "checked_ids"]


def _iso(t: datetime | None) -> str:
    return (check_aware(t, "at") or utcnow()).isoformat()


def checked_ids(values: Sequence[str] | str, what: str) -> list[str]:
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise ValidationError(f"{what} ids must be non-empty strings, got {v!r}")
        if v not in out:
            out.append(v)
    return out


def _reason(reason: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError("a reason is required (say why the evidence is invalidated or restored)")
    if len(reason) > 2000:
        raise ValidationError("reason is longer than 2000 characters")
    return reason.strip()


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ValidationError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


class Reconsolidation:
    """Retract and restore for one memory space."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        repo: SupportRepository,
        currency: CurrencyRepository,
        consequences: Consequences,
        *,
        check_agent: Callable[[str, Tx], None],
        waves_per_call: int,
        one_statement: bool,
    ) -> None:
        """``check_agent`` refuses an unknown agent (strict agents); ``waves_per_call`` and
        ``one_statement``: as :class:`~belief_graph.services.support.SupportService` documents them."""
        self.graph = graph
        self.space = space
        self.repo = repo
        self.currency = currency
        self.consequences = consequences
        self.check_agent = check_agent
        self.waves_per_call = waves_per_call
        self.one_statement = one_statement

    def run(
        self, op: str, root_ids: Sequence[str] | str, reason: str, mode: str, agent: str | None, at: datetime | None
    ) -> AuditRecord:
        """``op`` (``retract`` or ``restore``) of ``root_ids`` in one transaction, recorded on one audit
        (:meth:`SupportService.retract <belief_graph.services.support.SupportService.retract>` documents
        the arguments and errors)."""
        if not root_ids:
            raise ValidationError(f"{op} needs at least one root id")
        roots = checked_ids(root_ids, "root")
        why = _reason(reason)
        _mode(mode)
        when = _iso(at)

        def work(tx: Tx) -> AuditRecord:
            if agent is not None:
                self.check_agent(agent, tx)
            # what the operation reads (roots, what rests on them, their premises) is locked first
            self.repo.lock_region(tx, roots)
            if self.one_statement:
                return self._repair(tx, op, roots, mode, why, agent, when)
            found = self.repo.find_nodes(roots, tx=tx)
            if any(r not in found for r in roots) or any(
                (found[r]["status"] == "retracted") == (op == "retract") for r in roots
            ):
                self._refuse(tx, op, roots)
            keys = sorted({found[r]["key"] for r in roots if found[r]["key"] is not None})
            return self.reconsolidate(tx, op, roots, mode, why, agent, when, keys)

        t0 = time.perf_counter()
        record = self.graph.write_tx(work, name=f"support.{op}")
        return record.model_copy(update={"seconds": time.perf_counter() - t0})

    def _refuse(self, tx: Tx, op: str, roots: list[str]) -> None:
        """Raise the error that makes ``op`` on ``roots`` invalid (support.repair wrote nothing)."""
        found = self.repo.find_nodes(roots, tx=tx)
        for r in roots:
            if r not in found:
                raise ClaimNotFound(r, self.space)
        if op == "retract":
            again = [r for r in roots if found[r]["status"] == "retracted"]
            if again:
                raise ValidationError(f"{listed(again, 'already retracted')} (restore it first)")
        else:
            live = [r for r in roots if found[r]["status"] != "retracted"]
            if live:
                raise ValidationError(f"nothing to restore: {listed(live, 'not retracted')}")
        raise AssertionError(f"support.repair refused {op} of {roots} for no reason find_nodes sees")

    def _repair(
        self, tx: Tx, op: str, roots: list[str], mode: str, reason: str, agent: str | None, at: str
    ) -> AuditRecord:
        """What :meth:`reconsolidate` does, for retract/restore, in one statement (``support.repair``)
        when it fits: then the transaction is ``support.lock_region``, that statement and the commit. The statement returns
        what is left, and this finishes it with the step statements, in the same order:
        a fixpoint deeper than ``waves_per_call`` waves (``pending``), the settling of keys whose
        belief changed (rules first), a currency fixpoint deeper than ``waves_per_call``."""
        audit, run = new_id(), new_id()
        row = self.repo.repair(
            tx,
            id=audit,
            op=op,
            mode=mode,
            reason=reason,
            agent=agent,
            at=at,
            roots=roots,
            evaluate=mode != "none",
            force=(op != "retract") if mode == "influence" else None,
            waves=self.waves_per_call,
            currency=mode == "justification",
            run=run,
        )
        if row is None:
            self._refuse(tx, op, roots)
        assert row is not None
        change = Change(op=op, reason=reason, agent=agent, at=at, audit=audit)
        if row["pending"]:  # the support fixpoint needs more waves: the step statements, as before
            region = list(row["region_ids"])
            waves = int(row["waves"]) + self._fixpoint(tx, audit, region)
            _, changed = self.repo.apply_labels(
                tx, audit=audit, at=at, reason=reason, region=region, force=None, waves=waves
            )
            self.consequences.settle(tx, change, roots=roots, keys=sorted(set(row["keys"]) | set(changed)))
        elif not row["settled"]:
            if mode == "justification":  # keys involved: the rule engine goes first
                self.consequences.settle(tx, change, roots=roots, keys=sorted(set(row["keys"])))
            else:
                return AuditRecord.from_row(row)
        elif row["cpending"]:  # the currency fixpoint needs more waves
            region = list(row["cregion_ids"])
            self._fixpoint(tx, run, region)
            _, _, changed = self.currency.apply_labels(tx, audit=audit, run=run, at=at, reason=reason, region=region)
            if changed:
                self.consequences.settle(tx, change, keys=sorted(set(changed)))
        elif row["ckeys"]:  # the currency pass changed beliefs: their rules, then on
            self.consequences.settle(tx, change, keys=sorted(set(row["ckeys"])))
        else:
            return AuditRecord.from_row(row)
        record = self.repo.audit(audit, tx=tx)
        assert record is not None
        return record

    def reconsolidate(
        self,
        tx: Tx,
        op: str,
        roots: list[str],
        mode: str,
        reason: str,
        agent: str | None,
        at: str,
        keys: list[str],
    ) -> AuditRecord:
        """Everything of one reconsolidation, inside ``tx``: audit, roots, region, fixpoint, labels,
        then (mode ``justification``) the currency of the conclusions and rule re-derivation of the
        keys whose belief changed, on the same audit."""
        audit = new_id()
        self.repo.open_audit(
            tx, id=audit, op=op, mode=mode, reason=reason, agent=agent, at=at, roots=roots, evaluate=mode != "none"
        )
        region: list[str] = []
        waves = 0
        force: bool | None = None
        if mode != "none":
            region, seeds = self.repo.mark_region(tx, run=audit, roots=roots)
            if mode == "influence":
                force = op != "retract"
            elif seeds:
                waves = self._fixpoint(tx, audit, region)
        changed: list[str] = []
        if region:
            _, changed = self.repo.apply_labels(
                tx, audit=audit, at=at, reason=reason, region=region, force=force, waves=waves
            )
        else:
            self.repo.close_audit(tx, audit=audit)
        if mode == "justification":
            change = Change(op=op, reason=reason, agent=agent, at=at, audit=audit)
            self.consequences.settle(tx, change, roots=roots, keys=sorted(set(keys) | set(changed)))
        record = self.repo.audit(audit, tx=tx)
        assert record is not None
        return record

    def _fixpoint(self, tx: Tx, run: str, region: list[str]) -> int:
        """Run the fixpoint of ``run`` over ``region``, up to ``waves_per_call`` waves a statement,
        again only while the last wave still gained; the number of waves that gained."""
        budget = min(len(region), self.waves_per_call)
        waves = 0
        while True:
            gained = self.repo.fixpoint(tx, run=run, waves=budget)
            waves += sum(1 for g in gained if g > 0)
            if not gained or gained[-1] == 0:
                return waves
