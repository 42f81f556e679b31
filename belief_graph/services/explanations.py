"""What reconsolidation adds to a belief's explanation (``bg.beliefs.explain``): the audits that touched the
claim and the conclusions resting on it. Hooked into the belief service by the facade."""

from __future__ import annotations

from collections.abc import Callable

from ..models import Explanation
from .beliefs import BeliefService, ExplainHook
from .support import SupportService

__all__ = ["support_hooks"]


def support_hooks(support: Callable[[], SupportService]) -> list[ExplainHook]:
    """``support``: the space's support service, asked for on first use (it is built after the belief service)."""

    def audits(_b: BeliefService, ex: Explanation) -> None:
        ex.audits.extend(a.flat() for a in support().audits_for_claim(ex.claim.id))

    def dependents(_b: BeliefService, ex: Explanation) -> None:
        ex.dependents.extend(
            {
                **d.claim.model_dump(include={"id", "key", "value", "text", "status"}),
                "depth": d.depth,
                "via": d.via,
                "rule": d.rule,
            }
            for d in support().dependents(ex.claim.id, limit=100)
        )

    return [audits, dependents]
