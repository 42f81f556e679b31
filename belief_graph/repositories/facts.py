"""Facts as the write path and fact identity see them (``cypher/fact/``): value types, the key
registry, identity candidates, similar keys and similar active claims."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db.driver import Tx
from ..models import Claim, KeyInfo
from .core import Repo

__all__ = ["FactRepository"]


class FactRepository(Repo):
    def set_value_type(self, key: str, value_type: str, tx: Tx) -> str:
        rows = self.graph.run(tx, "fact.set_value_type", space=self.space, key=key, value_type=value_type)
        return str(rows[0]["value_type"])

    def register(self, tx: Tx | None = None, **fields: Any) -> KeyInfo:
        rows = self._write(tx, "fact.register_key", space=self.space, **fields)
        return KeyInfo.model_validate(rows[0])

    def find(self, prefix: str | None = None, tx: Tx | None = None) -> list[KeyInfo]:
        return [KeyInfo.model_validate(r) for r in self._read(tx, "fact.list_keys", space=self.space, prefix=prefix)]

    def existing(self, keys: Sequence[str], tx: Tx | None = None) -> set[str]:
        return {r["key"] for r in self._read(tx, "fact.existing_keys", space=self.space, keys=list(keys))}

    def value_types(self, keys: Sequence[str], tx: Tx | None = None) -> dict[str, str | None]:
        """Existing keys among ``keys`` -> the value type they hold (``None``: not typed yet)."""
        rows = self._read(tx, "fact.existing_keys", space=self.space, keys=list(keys))
        return {r["key"]: r["value_type"] for r in rows}

    def similar_claims(
        self, embedding: Sequence[float], k: int, agent: str | None = None, tx: Tx | None = None
    ) -> list[tuple[Claim, float]]:
        rows = self._read(
            tx,
            "retrieval.similar_active_claims",
            space=self.space,
            embedding=list(embedding),
            k=k,
            fetch=max(50, 20 * k),
            agent=agent,
        )
        return [(Claim.from_record(r["claim"]), float(r["score"])) for r in rows]

    def identity_candidates(self, prefixes: Sequence[str], limit: int, tx: Tx | None = None) -> list[dict[str, Any]]:
        """Facts under ``prefixes`` with a current belief or a registry entry (fact identity's candidates)."""
        return self._read(tx, "fact.identity_candidates", space=self.space, prefixes=list(prefixes), limit=limit)

    def similar(self, embedding: Sequence[float], k: int, tx: Tx | None = None) -> list[tuple[str, str | None, float]]:
        rows = self._read(
            tx, "fact.similar_keys", space=self.space, embedding=list(embedding), k=k, fetch=max(50, 10 * k)
        )
        return [(r["key"], r["description"], float(r["score"])) for r in rows]
