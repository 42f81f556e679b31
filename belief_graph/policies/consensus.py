"""``consensus``: the value with more weighted support (distinct agents, by authority) wins."""

from __future__ import annotations

from typing import ClassVar

from ..models import Strategy
from .base import ConflictContext, Decision, Need, consensus_support, norm_value

__all__ = ["Consensus"]


class Consensus:
    name: ClassVar[Strategy] = Strategy.consensus
    needs: ClassVar[frozenset[Need]] = frozenset({Need.positions})

    def decide(self, ctx: ConflictContext) -> Decision:
        new, old = ctx.challenger.value, ctx.incumbent.value
        support = consensus_support(ctx.positions, ctx.weights)
        sc, si = support.get(norm_value(new), 0.0), support.get(norm_value(old), 0.0)
        warnings = list(ctx.warnings)
        if sc > si:
            return Decision(True, f"{new!r} has more weighted support ({sc:g}) than {old!r} ({si:g})", warnings)
        return Decision(None, f"{new!r} has no more weighted support ({sc:g}) than {old!r} ({si:g})", warnings)
