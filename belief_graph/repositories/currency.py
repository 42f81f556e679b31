"""Currency of derived claims (``cypher/currency/``), the only caller of those queries: the region
downstream of a change, the labels a currency pass writes, and the reads of what rests on a claim
(dependents) and what went stale.

The pass runs inside the caller's transaction through the same optional ``runner`` as the
support statements (:class:`~belief_graph.repositories.core.RunnerRepo`), so tests profile and
pause both alike.
"""

from __future__ import annotations

from ..db.driver import Tx
from ..models import Claim
from ..models.support import Dependent, StaleClaim
from .core import RunnerRepo

__all__ = ["CurrencyRepository"]


class CurrencyRepository(RunnerRepo):
    # -- the currency pass (inside one transaction) ----------------------------------------------
    def mark_region(self, tx: Tx, *, run: str, roots: list[str]) -> tuple[list[str], int]:
        """Mark the currency region downstream of ``roots``; returns (region element ids, seeds)."""
        rows = self._in(tx, "currency.mark_region", space=self.space, run=run, roots=roots)
        if not rows:
            return [], 0
        return list(rows[0]["region"]), int(rows[0]["seeds"])

    def apply_labels(
        self, tx: Tx, *, audit: str, run: str, at: str, reason: str, region: list[str]
    ) -> tuple[list[str], list[str], list[str]]:
        """Write stale / current-again; returns (claims made stale, made current again, keys whose belief changed)."""
        rows = self._in(
            tx, "currency.apply_labels", space=self.space, audit=audit, run=run, at=at, reason=reason, region=region
        )
        if not rows:
            return [], [], []
        return list(rows[0]["staled"]), list(rows[0]["refreshed"]), list(rows[0]["keys"])

    # -- reads ----------------------------------------------------------------------------------
    def dependents(self, node_id: str, limit: int) -> list[Dependent]:
        rows = self.graph.read("currency.dependents", space=self.space, id=node_id, limit=limit)
        return [
            Dependent(claim=Claim.from_record(r["claim"]), depth=int(r["depth"]), via=r["via"], rule=r["rule"])
            for r in rows
        ]

    def stale_claims(self, limit: int) -> list[StaleClaim]:
        rows = self.graph.read("currency.stale_claims", space=self.space, limit=limit)
        out = []
        for r in rows:
            a = r["audit"] or {}
            out.append(
                StaleClaim(
                    claim=Claim.from_record(r["claim"]),
                    since=a.get("at"),
                    audit=a.get("id"),
                    cause=a.get("reason"),
                    op=a.get("op"),
                    lost=list(r["lost"] or []),
                    changed=list(r["changed"] or []),
                    rule=r["rule"],
                    missing=r["missing"],
                )
            )
        return out
