"""Fact keys as a namespace (``bg.keys``): merging facts, aliases, and the space's key schema."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.driver import Tx
from ..models import Value
from ..models.keys import KeySchema, KeySpec
from .core import Repo

__all__ = ["FactState", "KeyRepository", "MergeVersion"]


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
