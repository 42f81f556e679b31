"""The dispute area (``cypher/dispute/``): open, find and close disputes."""

from __future__ import annotations

from typing import Any

from ..db.driver import Tx
from ..models import Dispute
from .core import Repo

__all__ = ["DisputeRepository"]


class DisputeRepository(Repo):
    def create(self, tx: Tx, **fields: Any) -> None:
        self.graph.run(tx, "dispute.create_dispute", space=self.space, **fields)

    def get(self, dispute_id: str, tx: Tx | None = None) -> Dispute | None:
        rows = self._read(tx, "dispute.get_dispute", space=self.space, id=dispute_id)
        return Dispute.from_row(rows[0]) if rows else None

    def find(self, status: str | None = None, key: str | None = None, tx: Tx | None = None) -> list[Dispute]:
        if key is not None:
            rows = self._read(tx, "dispute.key_disputes", space=self.space, key=key, status=status)
        else:
            rows = self._read(tx, "dispute.list_disputes", space=self.space, status=status)
        return [Dispute.from_row(r) for r in rows]

    def close(self, tx: Tx, **fields: Any) -> bool:
        return bool(self.graph.run(tx, "dispute.close_dispute", space=self.space, **fields))
