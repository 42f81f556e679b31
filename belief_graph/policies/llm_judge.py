"""``llm_judge``: a chat model picks the winner (or none) with a rationale that is recorded.

The model is asked before the write transaction (no model call holds a lock): :func:`judge` turns
its answer into a :class:`Decision`, and the write path hands that verdict to :meth:`LlmJudge.decide`
in the context. When the incumbent changed in between, the verdict is stale and the write retries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from ..models import Claim, ClaimInput, Strategy
from .base import ConflictContext, Decision, Need, StaleVerdict

if TYPE_CHECKING:
    from ..llm import LLMClient

__all__ = ["LlmJudge", "judge"]


class LlmJudge:
    name: ClassVar[Strategy] = Strategy.llm_judge
    needs: ClassVar[frozenset[Need]] = frozenset({Need.verdict})

    def decide(self, ctx: ConflictContext) -> Decision:
        if ctx.verdict is None:
            raise StaleVerdict(ctx.incumbent.id)
        return ctx.verdict


def judge(
    client: LLMClient, key: str, incumbent: Claim, data: ClaimInput, weights: Mapping[str, float | None]
) -> Decision:
    """Ask the model (job ``judge``) which of the two claims holds; ``weights``: authority per agent."""
    challenger_id = "challenger"
    result = client.judge(
        f"What is the correct value of {key}?",
        [
            {
                "id": incumbent.id,
                "agent": incumbent.agent,
                "text": incumbent.text,
                "value": incumbent.value,
                "authority": weights.get(incumbent.agent),
            },
            {
                "id": challenger_id,
                "agent": data.agent,
                "text": data.text,
                "value": data.value,
                "authority": weights.get(data.agent),
            },
        ],
    )
    who = f"llm_judge ({result.provenance.model}, prompt {result.provenance.prompt_ref})"
    winner = result.output.winner
    why = f"{who}: {result.output.rationale}"
    if winner == challenger_id:
        return Decision(True, why, by=who)
    if winner == incumbent.id:
        return Decision(False, why, by=who)
    return Decision(None, why, by=who)
