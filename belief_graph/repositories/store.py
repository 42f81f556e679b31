"""The key-value view of ``cypher/store/``, the only caller of those queries: the current beliefs of
fact keys under a prefix as items (value, first and latest version time), and the key paths under a
prefix. The LangGraph store (``integrations/langgraph.py``) reads through it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..db.driver import Tx
from ..models import Value
from .core import Repo

__all__ = ["StoreRepository", "StoredItem"]


@dataclass(frozen=True)
class StoredItem:
    """A fact's current belief as a store item: ``created_at`` is the fact's first version,
    ``updated_at`` the current one (ISO 8601 strings)."""

    key: str
    value: Value
    claim_id: str
    created_at: str
    updated_at: str


class StoreRepository(Repo):
    def items(self, keys: Sequence[str], tx: Tx | None = None) -> dict[str, StoredItem]:
        """The current belief of each of ``keys`` that has one, by key."""
        rows = self._read(tx, "store.get_items", space=self.space, keys=list(keys))
        return {r["key"]: _item(r) for r in rows}

    def under(self, prefix: str, skip: int, limit: int, tx: Tx | None = None) -> list[StoredItem]:
        """The current beliefs of the keys under ``prefix``, the most recently updated first."""
        rows = self._read(tx, "store.list_items", space=self.space, prefix=prefix, skip=skip, limit=limit)
        return [_item(r) for r in rows]

    def paths(self, prefix: str, tx: Tx | None = None) -> list[list[str]]:
        """The distinct key paths under ``prefix`` (the segments after it but the last) that hold a belief."""
        return [list(r["namespace"]) for r in self._read(tx, "store.list_namespaces", space=self.space, prefix=prefix)]


def _item(row: dict[str, object]) -> StoredItem:
    return StoredItem(
        key=str(row["key"]),
        value=row["value"],  # type: ignore[arg-type]
        claim_id=str(row["id"]),
        created_at=str(row["created_at"]),
        updated_at=str(row["updated_at"]),
    )
