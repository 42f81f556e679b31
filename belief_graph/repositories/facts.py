"""The facts of ``cypher/fact/``, the only caller of those queries.

:class:`FactRepository`: facts as the write path and fact identity see them (value types, the key
registry, identity candidates, similar keys and similar active claims). :class:`KeyRepository`: fact
keys as a namespace (``bg.keys``): merging facts, aliases, and the space's key schema."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.driver import Tx
from ..models import Claim, KeyInfo, Value
from ..models.keys import KeySchema, KeySpec
from .core import Repo

__all__ = ["FactRepository", "FactState", "KeyRepository", "MergeVersion"]


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
            "fact.similar_active_claims",
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


@dataclass(frozen=True)
class FactState:
    """A fact as a merge or a schema declaration sees it."""

    key: str
    exists: bool
    alias: str | None
    value_type: str | None
    registered: bool
    versions: int
    rule: str | None = None
    """``name@version`` of the active rule that derives this key, if any."""


@dataclass(frozen=True)
class MergeVersion:
    """One version of either key of a merge (rows come oldest first across both keys)."""

    key: str
    id: str
    status: str
    agent: str
    value: Value
    created: tuple[int, int]
    """(epoch seconds, nanoseconds): exact creation time, for ordering and ties."""
    current: bool
    chained: bool


def _schema(row: dict[str, Any]) -> KeySchema:
    s = row["schema"]
    keys = [KeySpec.model_validate(k) for k in json.loads(s["spec"])]
    return KeySchema.model_validate({**{k: v for k, v in s.items() if v is not None and k != "spec"}, "keys": keys})


class KeyRepository(Repo):
    # -- merging ------------------------------------------------------------------------------------
    def states(self, keys: Sequence[str], tx: Tx | None = None) -> dict[str, FactState]:
        rows = self._read(tx, "fact.fact_states", space=self.space, keys=list(keys))
        return {
            r["key"]: FactState(
                key=r["key"],
                exists=bool(r["exists"]),
                alias=r["alias"],
                value_type=r["value_type"],
                registered=bool(r["registered"]),
                versions=int(r["versions"] or 0),
                rule=r["rule"],
            )
            for r in rows
        }

    def resolve(self, key: str, tx: Tx | None = None) -> str | None:
        """The key ``key`` is an alias of (the end of its chain), or None when it is not an alias."""
        rows = self._read(tx, "fact.resolve_key", space=self.space, key=key)
        return rows[0]["target"] if rows else None

    def versions(self, keys: Sequence[str], tx: Tx | None = None) -> list[MergeVersion]:
        rows = self._read(tx, "fact.merge_versions", space=self.space, keys=list(keys))
        return [
            MergeVersion(
                key=r["key"],
                id=r["id"],
                status=r["status"],
                agent=r["agent"],
                value=r["value"],
                created=(int(r["seconds"]), int(r["nanos"])),
                current=bool(r["current"]),
                chained=bool(r["chained"]),
            )
            for r in rows
        ]

    def move(self, tx: Tx, *, source: str, into: str, current: str | None, audit: str, at: str) -> list[str]:
        rows = self.graph.run(
            tx, "fact.move_versions", space=self.space, source=source, into=into, current=current, audit=audit, at=at
        )
        return list(rows[0]["moved"]) if rows else []

    def relink(self, tx: Tx, *, key: str, chain: Sequence[str], at: str) -> None:
        self.graph.run(tx, "fact.relink_versions", space=self.space, key=key, chain=list(chain), at=at)

    # -- the key schema -----------------------------------------------------------------------------
    def declare(self, tx: Tx, rows: Sequence[dict[str, Any]], at: str) -> int:
        got = self.graph.run(tx, "fact.declare_keys", space=self.space, keys=list(rows), at=at)
        return int(got[0]["declared"]) if got else 0

    def create_schema(self, tx: Tx, *, keys: Sequence[KeySpec], unknown: str, agent: str, at: str) -> KeySchema:
        spec = json.dumps([k.model_dump() for k in keys], sort_keys=True)
        rows = self.graph.run(
            tx,
            "fact.create_key_schema",
            space=self.space,
            spec=spec,
            unknown=unknown,
            size=len(keys),
            agent=agent,
            at=at,
        )
        return _schema(rows[0])

    def drop_schema(self, tx: Tx, *, agent: str, at: str) -> int | None:
        rows = self.graph.run(tx, "fact.drop_key_schema", space=self.space, agent=agent, at=at)
        return int(rows[0]["version"]) if rows else None

    def schema(self, tx: Tx | None = None) -> KeySchema | None:
        rows = self._read(tx, "fact.key_schema", space=self.space)
        return _schema(rows[0]) if rows else None

    def schema_history(self, tx: Tx | None = None) -> list[KeySchema]:
        return [_schema(r) for r in self._read(tx, "fact.key_schema_history", space=self.space)]
