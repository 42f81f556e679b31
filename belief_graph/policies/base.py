"""What every conflict strategy shares: the context it decides on, the decision it returns, and the
:class:`ConflictStrategy` protocol.

A strategy is pure: :meth:`ConflictStrategy.decide` reads only its :class:`ConflictContext`. The
write path (``services/beliefs.py``) reads what the strategy declares in ``needs`` inside the write
transaction — authority weights, the agents' positions on the key, a verdict a model gave before
the transaction, or the grounded labelling of an attack graph the strategy describes — and hands it
over in the context.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from ..models import Claim, ClaimInput, Strategy, Value

if TYPE_CHECKING:
    from ..models.argumentation import Attack, GroundedResult

__all__ = [
    "ConflictContext",
    "ConflictFramework",
    "ConflictStrategy",
    "Decision",
    "GroundedStrategy",
    "Need",
    "StaleVerdict",
    "authority_weights",
    "consensus_support",
    "norm_value",
    "same_value",
]


@dataclass
class Decision:
    """The outcome of pass 2 for a challenger against the incumbent."""

    challenger_wins: bool | None  # None: undecided, a dispute; False: the incumbent stays (a settled dispute)
    reason: str
    warnings: list[str] = field(default_factory=list)
    by: str | None = None  # who decided when not a plain rule (e.g. the judging model)


class Need(StrEnum):
    """What a strategy asks the write path to put in its context."""

    authority = "authority"
    """``weights`` of the challenger and the incumbent (the documented default for an agent no rule covers)."""
    positions = "positions"
    """``positions``: every agent's active or disputed value on the key, the challenger last; ``weights`` of
    every agent among them."""
    verdict = "verdict"
    """``verdict``: a decision made before the transaction (a model call never holds a lock)."""
    grounding = "grounding"
    """``grounded``: the write path stores the attack graph of :meth:`framework` and grounds it in Cypher."""


class StaleVerdict(Exception):
    """The incumbent changed between a pre-transaction verdict and the transaction (the write retries)."""


@dataclass(frozen=True)
class ConflictFramework:
    """An attack graph a strategy wants grounded: arguments, attacks, and what the strategy needs
    to read the labelling back."""

    ns: str
    arguments: Sequence[str]
    attacks: Sequence[Attack]
    weights: Mapping[str, float]
    challenger: str
    incumbent: str


@dataclass(frozen=True)
class ConflictContext:
    """Everything a strategy may use to decide a conflict on ``key`` (filled per its ``needs``)."""

    key: str
    incumbent: Claim
    challenger: ClaimInput
    weights: Mapping[str, float] = field(default_factory=dict)
    warnings: Sequence[str] = ()
    positions: Sequence[tuple[str, Value]] = ()
    verdict: Decision | None = None
    framework: ConflictFramework | None = None
    grounded: GroundedResult | None = None


@runtime_checkable
class ConflictStrategy(Protocol):
    """One conflict strategy: a name, what it needs, and a pure decision."""

    name: ClassVar[Strategy]
    needs: ClassVar[frozenset[Need]]

    def decide(self, ctx: ConflictContext) -> Decision:
        """Challenger wins (``True``), incumbent stays (``False``), or undecided (``None``: a dispute)."""
        ...


@runtime_checkable
class GroundedStrategy(ConflictStrategy, Protocol):
    """A strategy with ``Need.grounding``: it describes the attack graph the write path grounds."""

    def framework(self, ctx: ConflictContext) -> ConflictFramework:
        """The attack graph to ground (pure); the labelling comes back as ``ctx.grounded``."""
        ...


def authority_weights(matched: dict[str, float | None], default: float) -> tuple[dict[str, float], list[str]]:
    """Fill agents no rule covers with the documented default weight (and say so)."""
    weights: dict[str, float] = {}
    warnings: list[str] = []
    for agent, w in matched.items():
        if w is None:
            weights[agent] = default
            warnings.append(
                f"no authority rule covers agent {agent!r} on this key: using the default weight {default} "
                "(declare one with set_authority)"
            )
        else:
            weights[agent] = w
    return weights, warnings


def consensus_support(positions: Sequence[tuple[str, object]], weights: Mapping[str, float]) -> dict[object, float]:
    """Weighted count of distinct agents per value (each agent counts once, for its latest position)."""
    latest: dict[str, object] = {}
    for agent, value in positions:
        latest[agent] = value
    support: dict[object, float] = {}
    for agent, value in latest.items():
        key = norm_value(value)
        support[key] = support.get(key, 0.0) + weights.get(agent, 0.0)
    return support


def norm_value(value: object) -> object:
    """Values compared for agreement: strings trimmed and case-folded, others as they are."""
    return value.strip().casefold() if isinstance(value, str) else value


def same_value(a: object, b: object) -> bool:
    """Same fact value: strings compare trimmed and case-insensitively, numbers by value, booleans
    only with booleans; ``None`` is never the same as anything."""
    if a is None or b is None:
        return False
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, str) and isinstance(b, str):
        return norm_value(a) == norm_value(b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return float(a) == float(b)
    return False
