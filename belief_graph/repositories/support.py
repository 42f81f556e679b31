"""Repository of justifications and reconsolidation (``cypher/support/``).

The reconsolidation statements run inside the caller's transaction (``tx``); the optional
``runner`` replaces :meth:`Graph.run` for those, which is how tests profile every statement
(``PROFILE`` db hits) without any Cypher in this package.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from ..db.driver import Graph, ProfilingRunner, Tx
from ..models import Claim
from ..models.support import AuditRecord, AuditSummary, ClaimAudit, SupportFamily
from .core import Runner, RunnerRepo

__all__ = ["ProfilingRunner", "Runner", "SupportRepository", "TimingRunner"]


class TimingRunner:
    """A :data:`Runner` that times each statement: ``client`` the wall time of the round trip on the
    client (send, server work, records decoded), ``server`` what the server reports
    (``result_available_after`` + ``result_consumed_after``, whole milliseconds), per statement
    name, summed since the last :meth:`reset`; ``statements`` counts them."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.client: dict[str, float] = defaultdict(float)
        self.server: dict[str, float] = defaultdict(float)
        self.statements = 0

    def reset(self) -> None:
        self.client.clear()
        self.server.clear()
        self.statements = 0

    def __call__(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        q = self.graph.registry[name]
        bound = q.check_params(params)
        t0 = time.perf_counter()
        result = tx.run(q.text, bound)
        rows = [r.data() for r in result]
        summary = result.consume()
        self.client[name] += time.perf_counter() - t0
        self.server[name] += ((summary.result_available_after or 0) + (summary.result_consumed_after or 0)) / 1000
        self.statements += 1
        return rows


class SupportRepository(RunnerRepo):
    # -- look-ups ----------------------------------------------------------------------------
    def find_nodes(self, ids: Sequence[str], tx: Tx | None = None) -> dict[str, dict[str, Any]]:
        """``{id: {kind, status, text, key}}`` for the ids that name an episode or claim here."""
        rows = (
            self._in(tx, "support.find_nodes", space=self.space, ids=list(ids))
            if tx is not None
            else self.graph.read("support.find_nodes", space=self.space, ids=list(ids))
        )
        return {r["id"]: r for r in rows}

    def prepare_derive(
        self, ids: Sequence[str], sig: str, tx: Tx
    ) -> tuple[dict[str, dict[str, Any]], tuple[Claim, list[frozenset[str]]] | None]:
        """(the premises found: ``{id: {kind, status}}``, the earlier derivation of the statement)."""
        row = self._in(tx, "support.prepare_derive", space=self.space, ids=list(ids), sig=sig)[0]
        premises = {p["id"]: p for p in row["premises"]}
        if row["claim"] is None:
            return premises, None
        return premises, (Claim.from_record(row["claim"]), [frozenset(f) for f in row["families"]])

    # -- derive ------------------------------------------------------------------------------
    def create_derived(self, tx: Tx, **fields: Any) -> tuple[Claim, list[str]]:
        """Create the claim and its first justification; returns it and the premise ids that do not hold."""
        row = self._in(tx, "support.create_derived", space=self.space, **fields)[0]
        return Claim.from_record(row["claim"]), list(row["out"])

    def add_justification(self, tx: Tx, **fields: Any) -> tuple[Claim, list[str]]:
        """Add an alternative justification; returns the claim and the premise ids that do not hold."""
        row = self._in(tx, "support.add_justification", space=self.space, **fields)[0]
        return Claim.from_record(row["claim"]), list(row["out"])

    # -- reconsolidation (inside one transaction) ----------------------------------------------
    def open_audit(self, tx: Tx, **fields: Any) -> int:
        """Create the audit, link the roots and change their status; returns how many roots."""
        rows = self._in(tx, "support.open_audit", space=self.space, **fields)
        return int(rows[0]["roots"]) if rows else 0

    def lock_region(self, tx: Tx, roots: Sequence[str]) -> int:
        """Lock the roots, what rests on them and those claims' premises before a retract/restore
        reads them (``support.lock_region``); returns how many nodes were locked."""
        rows = self._in(tx, "support.lock_region", space=self.space, roots=list(roots))
        return int(rows[0]["locked"]) if rows else 0

    def repair(self, tx: Tx, **fields: Any) -> dict[str, Any] | None:
        """A whole retract/restore in one statement (``support.repair``); None when a root is
        unknown or in the wrong state (nothing was written). The row says what is left to do."""
        rows = self._in(tx, "support.repair", space=self.space, **fields)
        return rows[0] if rows else None

    def mark_region(self, tx: Tx, *, run: str, roots: list[str]) -> tuple[list[str], int]:
        """Mark the region; returns (region element ids, number of grounded seeds)."""
        rows = self._in(tx, "support.mark_region", space=self.space, run=run, roots=roots)
        if not rows:
            return [], 0
        return list(rows[0]["region"]), int(rows[0]["seeds"])

    def fixpoint(self, tx: Tx, *, run: str, waves: int) -> list[int]:
        """Run up to ``waves`` waves; returns how many claims each wave made IN."""
        rows = self._in(tx, "support.fixpoint", run=run, waves=waves)
        return [int(g) for g in rows[0]["gained"]] if rows else []

    def apply_labels(
        self, tx: Tx, *, audit: str, at: str, reason: str, region: list[str], force: bool | None, waves: int
    ) -> tuple[dict[str, int], list[str]]:
        """Write the labels; returns the counts and the keys of the claims withdrawn or reinstated."""
        rows = self._in(
            tx,
            "support.apply_labels",
            space=self.space,
            audit=audit,
            at=at,
            reason=reason,
            region=region,
            force=force,
            waves=waves,
        )
        if not rows:
            return {}, []
        return {k: int(rows[0][k]) for k in ("withdrew", "retained", "reinstated")}, list(rows[0]["keys"])

    def close_audit(self, tx: Tx, *, audit: str) -> None:
        self._in(tx, "support.close_audit", space=self.space, id=audit)

    # -- reads --------------------------------------------------------------------------------
    def audit(self, audit_id: str, tx: Tx | None = None) -> AuditRecord | None:
        rows = (
            self._in(tx, "support.get_audit", space=self.space, id=audit_id)
            if tx is not None
            else self.graph.read("support.get_audit", space=self.space, id=audit_id)
        )
        return AuditRecord.from_row(rows[0]) if rows else None

    def audits(self, limit: int) -> list[AuditSummary]:
        rows = self.graph.read("support.list_audits", space=self.space, limit=limit)
        return [AuditSummary.model_validate({k: v for k, v in r["audit"].items() if v is not None}) for r in rows]

    def audits_for_claim(self, claim_id: str) -> list[ClaimAudit] | None:
        """The audits that touched the claim or episode ``claim_id``; None when there is no such node."""
        rows = self.graph.read("support.audits_for_claim", space=self.space, id=claim_id)
        if not rows:
            return None
        out = []
        for r in rows:
            if r["audit"] is None:
                continue
            a = AuditSummary.model_validate({k: v for k, v in r["audit"].items() if v is not None})
            out.append(
                ClaimAudit(
                    audit=a,
                    action=r["action"],
                    via=r["via"],
                    lost=r["lost"] or [],
                    prior=r["prior"],
                    statuses=r["statuses"] or [],
                )
            )
        return out

    def supports(self, claim_id: str) -> tuple[Claim, list[SupportFamily]] | None:
        rows = self.graph.read("support.claim_supports", space=self.space, id=claim_id)
        if not rows:
            return None
        return Claim.from_record(rows[0]["claim"]), [SupportFamily.model_validate(f) for f in rows[0]["families"]]

    # -- working context -------------------------------------------------------------------------
    def active_claim_ids(self, limit: int) -> list[str]:
        return [r["id"] for r in self.graph.read("support.active_claims", space=self.space, limit=limit)]

    def belief_ids(self, keys: Sequence[str]) -> list[str]:
        if not keys:
            return []
        return [r["id"] for r in self.graph.read("support.beliefs_by_keys", space=self.space, keys=list(keys))]

    def certificates(self, ids: Sequence[str]) -> dict[str, tuple[Claim, int, SupportFamily | None]]:
        """``{id: (claim, number of families, intact family or None)}`` for the active ones."""
        rows = self.graph.read("support.certificates", space=self.space, ids=list(ids))
        return {
            r["claim"]["id"]: (
                Claim.from_record(r["claim"]),
                int(r["families"]),
                SupportFamily.model_validate(r["certificate"]) if r["certificate"] else None,
            )
            for r in rows
        }
