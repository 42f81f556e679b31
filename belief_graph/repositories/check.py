"""The invariant checker's repository: one read-only ``cypher/check/*`` statement per invariant."""

from __future__ import annotations

from .core import Repo

__all__ = ["CheckRepository"]


class CheckRepository(Repo):
    def violations(self, query: str, limit: int) -> tuple[int, list[str]]:
        """``(how many items break the invariant, up to limit of them)`` from ``check.<query>``."""
        rows = self.graph.read(f"check.{query}", space=self.space, limit=limit)
        if not rows:
            return 0, []
        return int(rows[0]["violations"]), [str(x) for x in rows[0]["offending"]]
