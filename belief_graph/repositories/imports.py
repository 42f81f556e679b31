"""Repository of bulk-import progress (``cypher/imports/``): one ``Import`` node per (space, name)."""

from __future__ import annotations

from typing import Any

from ..db.driver import Tx
from ..models.imports import ImportInfo
from .core import Repo

__all__ = ["ImportRepository"]


class ImportRepository(Repo):
    def begin(self, *, name: str, source: str | None, at: str, restart: bool) -> ImportInfo:
        """Create or resume the import (``restart``: its progress back to zero); returns it."""
        rows = self.graph.write(
            "imports.begin_import", space=self.space, name=name, source=source, at=at, restart=restart
        )
        return ImportInfo.from_record(rows[0]["import"])

    def lock(self, tx: Tx, name: str) -> tuple[int, str]:
        """Take the import's lock inside ``tx``; returns its committed ``(done, digest)``."""
        rows = self.graph.run(tx, "imports.lock_import", space=self.space, name=name)
        if not rows:
            return -1, ""
        return int(rows[0]["done"]), str(rows[0]["digest"])

    def advance(
        self,
        tx: Tx,
        *,
        name: str,
        done: int,
        digest: str,
        counts: dict[str, int],
        errors: list[str],
        at: str,
        status: str,
        batch: int,
    ) -> None:
        """Record a batch (``batch`` 1; 0 for the closing step) as its transaction's last statement."""
        self.graph.run(
            tx,
            "imports.advance_import",
            space=self.space,
            name=name,
            done=done,
            digest=digest,
            counts=counts,
            errors=errors,
            at=at,
            status=status,
            batch=batch,
        )

    def get(self, name: str, tx: Tx | None = None) -> ImportInfo | None:
        rows = self._read(tx, "imports.get_import", space=self.space, name=name)
        return ImportInfo.from_record(rows[0]["import"]) if rows else None

    def all(self, limit: int = 50) -> list[ImportInfo]:
        rows: list[dict[str, Any]] = self.graph.read("imports.list_imports", space=self.space, limit=limit)
        return [ImportInfo.from_record(r["import"]) for r in rows]
