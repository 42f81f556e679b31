"""Repository of perspectives and interpretations (``cypher/perspective/``). The only caller of
those queries; records become models here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db.driver import Tx
from ..models import Claim
from ..models.perspectives import (
    ConceptSpec,
    InterpretationHit,
    Perspective,
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
