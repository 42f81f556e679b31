"""``recency`` (the default): the newer claim supersedes."""

from __future__ import annotations

from typing import ClassVar

from ..models import Strategy
from .base import ConflictContext, Decision, Need

__all__ = ["Recency"]


class Recency:
    name: ClassVar[Strategy] = Strategy.recency
    needs: ClassVar[frozenset[Need]] = frozenset()

    def decide(self, ctx: ConflictContext) -> Decision:
        return Decision(True, f"the newer claim of {ctx.challenger.agent} supersedes {ctx.incumbent.agent}'s")
