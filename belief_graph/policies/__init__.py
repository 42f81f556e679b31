"""Conflict strategies: how pass 2 of a write decides between another agent's belief and a challenger.

``STRATEGIES`` is the one table from :class:`~belief_graph.models.Strategy` to its strategy; each
strategy lives in its own module and decides purely on a :class:`ConflictContext` (see
:mod:`belief_graph.policies.base`). Which strategy covers a key (linear key patterns, most specific
wins) is the policy repository's job; disputes are the write path's. docs/policies.md has the
recipe for a new strategy.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..models import Strategy
from .argumentation import Argumentation, dispute_ns
from .authority import Authority
from .base import (
    ConflictContext,
    ConflictFramework,
    ConflictStrategy,
    Decision,
    GroundedStrategy,
    Need,
    StaleVerdict,
    authority_weights,
    consensus_support,
    norm_value,
    same_value,
)
from .consensus import Consensus
from .llm_judge import LlmJudge, judge
from .recency import Recency

__all__ = [
    "STRATEGIES",
    "ConflictContext",
    "ConflictFramework",
    "ConflictStrategy",
    "Decision",
    "GroundedStrategy",
    "Need",
    "StaleVerdict",
    "authority_weights",
    "consensus_support",
    "dispute_ns",
    "judge",
    "norm_value",
    "same_value",
    "strategy",
]

STRATEGIES: Mapping[Strategy, ConflictStrategy] = MappingProxyType(
    {
        Strategy.recency: Recency(),
        Strategy.authority: Authority(),
        Strategy.consensus: Consensus(),
        Strategy.argumentation: Argumentation(),
        Strategy.llm_judge: LlmJudge(),
    }
)


def strategy(name: Strategy | str) -> ConflictStrategy:
    """The registered strategy for ``name`` (a :class:`Strategy` member or its value)."""
    return STRATEGIES[Strategy(name)]
