"""``authority``: the challenger must out-weigh the incumbent on the key, else a dispute parks it."""

from __future__ import annotations

from typing import ClassVar

from ..models import Strategy
from .base import ConflictContext, Decision, Need

__all__ = ["Authority"]


class Authority:
    name: ClassVar[Strategy] = Strategy.authority
    needs: ClassVar[frozenset[Need]] = frozenset({Need.authority})

    def decide(self, ctx: ConflictContext) -> Decision:
        ch, inc = ctx.challenger.agent, ctx.incumbent.agent
        wc, wi = ctx.weights[ch], ctx.weights[inc]
        if wc > wi:
            return Decision(True, f"{ch} ({wc:g}) out-weighs {inc} ({wi:g})", list(ctx.warnings))
        return Decision(None, f"{ch} ({wc:g}) does not out-weigh {inc} ({wi:g})", list(ctx.warnings))
