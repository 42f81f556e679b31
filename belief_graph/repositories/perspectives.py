"""Repository of perspectives, interpretations and deliberations (``cypher/perspective/``,
``cypher/deliberation/``). The only caller of those queries; records become models here."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..db.driver import Tx
from ..models import Claim
from ..models.perspectives import (
    AttackRecord,
    ComposedPart,
    ConceptSpec,
    DeliberationRecord,
    DeliberationSummary,
    InterpretationHit,
    Perspective,
    ProposalRecord,
    Rejection,
)
from .core import Repo

__all__ = ["PerspectiveRepository"]


def _perspective(row: dict[str, Any]) -> Perspective:
    p = {k: v for k, v in row["perspective"].items() if v is not None}
    return Perspective(
        **p,
        concepts=[
            ConceptSpec(name=c["name"], description=c.get("description") or "")
            for c in row["concepts"]
            if c and c.get("name")
        ],
        interpretations=int(row["interpretations"]),
        active=int(row["active"]),
    )


def _hit(h: dict[str, Any]) -> InterpretationHit:
    c = h["claim"]
    return InterpretationHit(
        claim=Claim.from_record({k: v for k, v in c.items() if k not in ("perspective", "episode")}),
        perspective=c["perspective"],
        episode=c.get("episode"),
        concepts=sorted(h.get("concepts") or []),
        score=float(h.get("score") or 0.0),
    )


class PerspectiveRepository(Repo):
    # -- perspectives ----------------------------------------------------------------------------
    def create(self, tx: Tx, perspectives: list[dict[str, Any]], created_at: str) -> list[str]:
        rows = self.graph.run(
            tx, "perspective.create_perspectives", space=self.space, perspectives=perspectives, created_at=created_at
        )
        return [r["name"] for r in rows]

    def find(self, names: Sequence[str] | None = None, tx: Tx | None = None) -> list[Perspective]:
        rows = self._read(
            tx, "perspective.list_perspectives", space=self.space, names=list(names) if names is not None else None
        )
        return [_perspective(r) for r in rows]

    # -- encode ------------------------------------------------------------------------------------
    def episodes(self, ids: Sequence[str] | None, tx: Tx | None = None) -> list[dict[str, Any]]:
        return self._read(tx, "perspective.find_episodes", space=self.space, ids=list(ids) if ids is not None else None)

    def prefilter(self, names: Sequence[str], observations: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not observations or not names:
            return []
        return self.graph.read(
            "perspective.prefilter_scores", space=self.space, names=list(names), observations=observations
        )

    def existing(self, ids: Sequence[str], tx: Tx | None = None) -> dict[str, dict[str, Any]]:
        if not ids:
            return {}
        rows = self._read(tx, "perspective.existing_interpretations", space=self.space, ids=list(ids))
        return {r["id"]: r for r in rows}

    def judgements(self, episodes: Sequence[str], names: Sequence[str]) -> set[tuple[str, str]]:
        if not episodes or not names:
            return set()
        rows = self.graph.read(
            "perspective.find_judgements", space=self.space, episodes=list(episodes), names=list(names)
        )
        return {(r["episode"], r["perspective"]) for r in rows}

    def record_judgements(self, tx: Tx, pairs: list[dict[str, Any]], at: str) -> None:
        if pairs:
            self.graph.run(tx, "perspective.record_judgements", space=self.space, pairs=pairs, at=at)

    def create_interpretations(self, tx: Tx, items: list[dict[str, Any]], created_at: str) -> list[dict[str, Any]]:
        if not items:
            return []
        return self.graph.run(
            tx, "perspective.create_interpretations", space=self.space, items=items, created_at=created_at
        )

    # -- retrieval ---------------------------------------------------------------------------------
    def search(
        self, perspective: str, embedding: Sequence[float], k: int, fetch: int
    ) -> tuple[int, list[InterpretationHit]]:
        row = self.graph.read(
            "perspective.search_interpretations",
            space=self.space,
            perspective=perspective,
            embedding=list(embedding),
            k=k,
            fetch=fetch,
        )[0]
        return int(row["seen"]), [_hit(h) for h in row["hits"]]

    def interpretations(self, perspective: str, status: str | None = None) -> list[InterpretationHit]:
        rows = self.graph.read(
            "perspective.list_interpretations", space=self.space, perspective=perspective, status=status
        )
        return [_hit({**r, "score": 0.0}) for r in rows]

    # -- deliberations -----------------------------------------------------------------------------
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
