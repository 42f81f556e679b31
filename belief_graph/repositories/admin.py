"""Repository of the server and of whole spaces (``cypher/admin/``): counts, space deletion,
server components, embedding coverage and the vector index's self-probe. The only caller of those
queries in the library (the local server binds two of them for cypher-shell, before any space exists)."""

from __future__ import annotations

import logging
from typing import Any

from ..db.driver import Tx
from ..errors import TransactionMemoryExceeded
from .core import Repo

__all__ = ["DELETE_BATCH", "MIN_DELETE_BATCH", "AdminRepository"]

log = logging.getLogger(__name__)

DELETE_BATCH = 5_000
"""Nodes a space delete removes per transaction (about 100 MB of transaction memory with their
revisions and edges: a third of what a 512 MB heap allows a transaction)."""

MIN_DELETE_BATCH = 100
"""The smallest batch a space delete halves down to before it gives up."""


class AdminRepository(Repo):
    def delete_space(self, space: str) -> int:
        """Delete every node of ``space`` (:meth:`delete_space_batched` with its default batch)."""
        return self.delete_space_batched(space)

    def count_space(self, space: str | None) -> list[dict[str, Any]]:
        """Node counts of ``space`` (of every space when None) by label and status."""
        return self.graph.read("admin.count_by_label_status", space=space)

    def delete_space_batched(self, space: str, batch: int = DELETE_BATCH) -> int:
        """Delete every node of ``space``, ``batch`` nodes per transaction, until none is left;
        returns how many. Three phases, each repeated until it deletes nothing: the indexed labels
        through their space indexes (``admin.delete_space_batch``: a batch costs the same whatever
        the store's size), the writers (``admin.delete_space_agents``: last, since an agent holds an
        edge to every claim it wrote), then one sweep for nodes no space index reaches
        (``admin.delete_space_rest``: it reads the whole store, once per call when nothing is left
        for it). Each batch commits on its own: a run that stops half way leaves part of the space,
        and running it again deletes the rest.

        A batch that needs more transaction memory than the server allows is rolled back by the
        server and tried again at half the size (down to ``MIN_DELETE_BATCH``; the smaller size is
        kept for the rest of the run): a claim with its embedding, revisions and edges costs about
        20 KB of transaction memory, so 20,000 of them (400 MB) do not fit the 358 MB a 512 MB heap
        allows a transaction."""
        total = 0
        for statement in ("admin.delete_space_batch", "admin.delete_space_agents", "admin.delete_space_rest"):
            while True:
                try:
                    rows = self._delete_batch(statement, space, batch)
                except TransactionMemoryExceeded:
                    if batch <= MIN_DELETE_BATCH:
                        raise
                    batch = max(MIN_DELETE_BATCH, batch // 2)
                    log.info("deleting space %r: a batch ran out of transaction memory; %d per batch now", space, batch)
                    continue
                n = int(rows[0]["deleted"]) if rows else 0
                if n == 0:
                    break
                total += n
        return total

    def _delete_batch(self, statement: str, space: str, batch: int) -> list[dict[str, Any]]:
        """One batch in one transaction function: deadlocks are retried, a memory refusal is not."""

        def work(tx: Tx) -> list[dict[str, Any]]:
            return self.graph.run(tx, statement, space=space, limit=batch)

        return self.graph.write_tx(work, name=statement)

    def components(self) -> list[dict[str, Any]]:
        return self.graph.read("admin.server_components")

    def embedding_coverage(self, space: str | None, dimension: int) -> dict[str, int]:
        rows = self.graph.read("admin.embedding_coverage", space=space, dimension=dimension)
        return {k: int(v or 0) for k, v in rows[0].items()}

    def sample_embedded(self, space: str | None, limit: int, dimension: int) -> list[dict[str, Any]]:
        return self.graph.read("admin.sample_embedded_claims", space=space, limit=limit, dimension=dimension)

    def index_self_probe(self, probes: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
        return self.graph.read("admin.index_self_probe", probes=probes, k=k)
