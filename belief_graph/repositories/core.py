"""Repositories: the only callers of the query registry. Records become models here.

Every method takes an optional transaction ``tx``; without one it runs in its own managed
transaction. Services compose several calls into one transaction with ``graph.write_tx``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..driver import Graph, Tx
from ..models import Claim, Episode

__all__ = ["AdminRepository", "ClaimRepository", "EpisodeRepository", "Repo"]


class Repo:
    """Base: a graph and a space; ``_read``/``_write`` run in ``tx`` when given, else in their own."""

    def __init__(self, graph: Graph, space: str) -> None:
        self.graph = graph
        self.space = space

    def _read(self, tx: Tx | None, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, name, **params) if tx is not None else self.graph.read(name, **params)

    def _write(self, tx: Tx | None, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, name, **params) if tx is not None else self.graph.write(name, **params)


class EpisodeRepository(Repo):
    def create(
        self,
        *,
        id: str,
        text: str,
        agent: str,
        agent_kind: str,
        conversation: str | None,
        at: str,
        tx: Tx | None = None,
        rejections: Sequence[str] = (),
    ) -> Episode:
        rows = self._write(
            tx,
            "episode.create_episode",
            space=self.space,
            id=id,
            text=text,
            agent=agent,
            agent_kind=agent_kind,
            conversation=conversation,
            at=at,
            rejections=list(rejections),
        )
        return Episode.model_validate(rows[0])


class ClaimRepository(Repo):
    def lock_fact(self, key: str, tx: Tx) -> Claim | None:
        """Take the fact's write lock (inside ``tx``) and return its current belief."""
        rows = self.graph.run(tx, "claim.lock_fact", space=self.space, key=key)
        cur = rows[0]["current"] if rows else None
        return Claim.from_record(cur) if cur else None

    def lock_fact_info(self, key: str, tx: Tx) -> dict[str, Any]:
        """Take the fact's write lock; ``{"current": Claim | None, "value_type": str | None}``."""
        rows = self.graph.run(tx, "claim.lock_fact", space=self.space, key=key)
        cur = rows[0]["current"] if rows else None
        return {
            "current": Claim.from_record(cur) if cur else None,
            "value_type": rows[0]["value_type"] if rows else None,
        }

    def find_premises(self, ids: Sequence[str], tx: Tx | None = None) -> dict[str, str]:
        rows = self._read(tx, "claim.find_premises", space=self.space, ids=list(ids))
        return {r["id"]: r["kind"] for r in rows}

    def create(self, tx: Tx, **fields: Any) -> str:
        rows = self.graph.run(tx, "claim.create_claim", space=self.space, **fields)
        return str(rows[0]["id"])

    def set_current(self, key: str, claim_id: str, tx: Tx) -> bool:
        return bool(self.graph.run(tx, "claim.set_current", space=self.space, key=key, id=claim_id))

    def supersede(self, key: str, old_id: str, new_id: str, at: str, reason: str, tx: Tx) -> None:
        self.graph.run(
            tx,
            "claim.supersede_current",
            space=self.space,
            key=key,
            old_id=old_id,
            new_id=new_id,
            at=at,
            reason=reason,
        )

    def get(self, claim_id: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.get_claim", space=self.space, id=claim_id)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def belief(self, key: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.get_belief", space=self.space, key=key)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def vector_search(self, embedding: Sequence[float], k: int, fetch: int) -> list[tuple[Claim, float]]:
        rows = self.graph.read(
            "retrieval.vector_search", space=self.space, embedding=list(embedding), k=k, fetch=fetch
        )
        return [(Claim.from_record(r["claim"]), float(r["score"])) for r in rows]


class AdminRepository(Repo):
    def delete_space(self, space: str) -> int:
        rows = self.graph.write("admin.delete_space", space=space)
        return int(rows[0]["deleted"]) if rows else 0

    def components(self) -> list[dict[str, Any]]:
        return self.graph.read("admin.server_components")

    def embedding_coverage(self, space: str | None, dimension: int) -> dict[str, int]:
        rows = self.graph.read("admin.embedding_coverage", space=space, dimension=dimension)
        return {k: int(v or 0) for k, v in rows[0].items()}

    def sample_embedded(self, space: str | None, limit: int, dimension: int) -> list[dict[str, Any]]:
        return self.graph.read("admin.sample_embedded_claims", space=space, limit=limit, dimension=dimension)

    def index_self_probe(self, probes: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
        return self.graph.read("retrieval.index_self_probe", probes=probes, k=k)
