"""Repository of deliberations (``cypher/deliberation/``). The only caller of those queries;
records become models here."""

from __future__ import annotations

import json
from typing import Any

from ..db.driver import Tx
from ..models.perspectives import (
    AttackRecord,
    ComposedPart,
    DeliberationRecord,
    DeliberationSummary,
    ProposalRecord,
    Rejection,
)
from .core import Repo

__all__ = ["DeliberationRepository"]


class DeliberationRepository(Repo):
    def create_deliberation(self, tx: Tx, **fields: Any) -> dict[str, Any]:
        return self.graph.run(tx, "deliberation.create_deliberation", space=self.space, **fields)[0]

    def set_outcome(self, tx: Tx, *, id: str, mode: str, answer: str | None, parts: list[str]) -> None:
        self.graph.run(tx, "deliberation.set_outcome", space=self.space, id=id, mode=mode, answer=answer, parts=parts)

    def deliberation(self, deliberation_id: str, tx: Tx | None = None) -> DeliberationRecord | None:
        rows = self._read(tx, "deliberation.get_deliberation", space=self.space, id=deliberation_id)
        if not rows:
            return None
        row = rows[0]
        d = row["deliberation"]
        proposals = [
            ProposalRecord(
                id=p["id"],
                perspective=p["perspective"],
                text=p["text"],
                label=p.get("label"),
                citations=list(p.get("citations") or []),
                cited=sorted(p.get("cited") or [], key=lambda c: str(c.get("id"))),
            )
            for p in row["proposals"]
            if p
        ]
        stale = sorted({c["id"] for p in proposals for c in p.cited if c.get("status") != "active"})
        return DeliberationRecord(
            id=d["id"],
            query=d["query"],
            at=d.get("at"),
            mode=d.get("mode"),
            batched=bool(d.get("batched", True)),
            k=d.get("k"),
            perspectives=list(d.get("perspectives") or []),
            abstained=list(d.get("abstained") or []),
            proposals=proposals,
            attacks=[
                AttackRecord(
                    attacker=a["attacker"], target=a["target"], by=a.get("by") or "", reason=a.get("reason") or ""
                )
                for a in row["attacks"]
            ],
            rejections=[Rejection.model_validate(json.loads(r)) for r in d.get("rejections") or []],
            answer=d.get("answer"),
            parts=[ComposedPart.model_validate(json.loads(p)) for p in d.get("parts") or []],
            stale=bool(stale),
            stale_citations=stale,
        )

    def deliberations(self, limit: int) -> list[DeliberationSummary]:
        rows = self.graph.read("deliberation.list_deliberations", space=self.space, limit=limit)
        return [
            DeliberationSummary(
                **{k: v for k, v in r["deliberation"].items() if v is not None},
                proposals=int(r["proposals"]),
                stale=int(r["stale_citations"]) > 0,
            )
            for r in rows
        ]
