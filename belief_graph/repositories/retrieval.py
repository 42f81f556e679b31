"""Retrieval repository: the vector and fulltext halves of hybrid recall, key look-ups,
hit details (provenance and support certificates), index-health probes and the recall bench."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db.schema import index_info
from ..models import Claim
from ..models.retrieval import HitProvenance
from ..models.support import SupportFamily
from .admin import DELETE_BATCH, AdminRepository
from .core import Repo

__all__ = ["Filters", "HitDetail", "RetrievalRepository"]

Filters = dict[str, Any]
"""``perspective, interpretations, keys, prefix, include_inactive, at`` (the recall filters)."""


class HitDetail:
    """One claim as hydrated by ``retrieval.hit_details``."""

    __slots__ = ("claim", "similarity", "provenance", "certificate", "families")

    def __init__(self, row: dict[str, Any]) -> None:
        self.claim = Claim.from_record(row["claim"])
        self.similarity: float | None = None if row["similarity"] is None else float(row["similarity"])
        self.families = int(row["families"] or 0)
        cert = row["certificate"]
        self.certificate = (
            SupportFamily.model_validate({k: v for k, v in cert.items() if v is not None}) if cert else None
        )
        self.provenance = HitProvenance(
            agent=self.claim.agent,
            created_at=self.claim.created_at,
            kind=self.claim.kind,
            episodes=[{k: v for k, v in e.items() if v is not None} for e in row["episodes"]],
            evidence=list(row["evidence"]),
            perspective=row["perspective"],
            inferred_from=row.get("inferred_from"),
        )


class RetrievalRepository(Repo):
    def vector_candidates(
        self, embedding: Sequence[float], fetch: int, filters: Filters
    ) -> tuple[int, list[dict[str, Any]]]:
        """``(rows the index returned, filtered hits {id, score, status_then} best first)``."""
        return self._by_embedding("retrieval.vector_candidates", embedding, fetch, filters)

    def fulltext_candidates(self, text: str, fetch: int, filters: Filters) -> tuple[int, list[dict[str, Any]]]:
        rows = self.graph.read("retrieval.fulltext_candidates", space=self.space, text=text, fetch=fetch, **filters)
        return int(rows[0]["fetched"]), list(rows[0]["hits"])

    def exact_candidates(
        self, embedding: Sequence[float], fetch: int, filters: Filters
    ) -> tuple[int, list[dict[str, Any]]]:
        """``(claims scanned, the fetch best {id, score, status_then})`` by an exact scan of the space."""
        return self._by_embedding("retrieval.exact_candidates", embedding, fetch, filters)

    def _by_embedding(
        self, query: str, embedding: Sequence[float], fetch: int, filters: Filters
    ) -> tuple[int, list[dict[str, Any]]]:
        rows = self.graph.read(query, space=self.space, embedding=list(embedding), fetch=fetch, **filters)
        return int(rows[0]["fetched"]), list(rows[0]["hits"])

    def count_candidates_capped(self, filters: Filters, cap: int) -> int:
        """Claims that could pass the filters, counted up to ``cap + 1``."""
        rows = self.graph.read("retrieval.count_candidates_capped", space=self.space, cap=cap, **filters)
        return int(rows[0]["n"])

    def count_candidates(self, filters: Filters) -> int:
        rows = self.graph.read("retrieval.count_candidates", space=self.space, **filters)
        return int(rows[0]["n"])

    def hit_details(
        self, ids: Sequence[str], embedding: Sequence[float] | None, active_only: bool = False
    ) -> dict[str, HitDetail]:
        """Hydrated claims by id; with ``active_only`` only those active as this statement reads them."""
        rows = self.graph.read(
            "retrieval.hit_details",
            space=self.space,
            ids=list(ids),
            embedding=list(embedding or []),
            active_only=active_only,
        )
        return {r["claim"]["id"]: HitDetail(r) for r in rows}

    def lookup(
        self, keys: Sequence[str] | None, prefix: str | None, include_inactive: bool, at: str | None, limit: int
    ) -> list[dict[str, Any]]:
        return self.graph.read(
            "retrieval.lookup_keys",
            space=self.space,
            keys=None if keys is None else list(keys),
            prefix=prefix,
            include_inactive=include_inactive,
            at=at,
            limit=limit,
        )

    def vector_search(self, embedding: Sequence[float], k: int, fetch: int) -> list[tuple[str, float]]:
        """The ``k`` nearest active claims of the space through the vector index: ``(id, score)``."""
        rows = self.graph.read("retrieval.vector_search", space=self.space, embedding=list(embedding), k=k, fetch=fetch)
        return [(r["claim"]["id"], float(r["score"])) for r in rows]

    # -- index health ------------------------------------------------------------------------------
    def index_info(self, name: str) -> dict[str, Any] | None:
        """The SHOW INDEXES row of one index (``name, type, state, population, options``) or None."""
        return index_info(self.graph, name)

    def index_entry_count(self, k: int, embedding: Sequence[float]) -> int:
        rows = self.graph.read("retrieval.index_entry_count", k=k, embedding=list(embedding))
        return int(rows[0]["n"])

    # -- bench -------------------------------------------------------------------------------------
    def bench_load(self, rows: list[dict[str, Any]], at: str) -> int:
        out = self.graph.write("bench.load_vectors", space=self.space, rows=rows, at=at)
        return int(out[0]["created"]) if out else 0

    def bench_index_topk(self, embedding: Sequence[float], k: int, fetch: int | None = None) -> list[str]:
        rows = self.graph.read("bench.index_topk", space=self.space, embedding=list(embedding), k=k, fetch=fetch or k)
        return [r["id"] for r in rows]

    def bench_exact_topk(self, embedding: Sequence[float], k: int) -> list[str]:
        return [r["id"] for r in self.graph.read("bench.exact_topk", space=self.space, embedding=list(embedding), k=k)]

    def delete_space_batched(self, batch: int = DELETE_BATCH) -> int:
        """Delete this (bench) space: :meth:`AdminRepository.delete_space_batched`."""
        return AdminRepository(self.graph, self.space).delete_space_batched(self.space, batch)
