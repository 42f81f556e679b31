"""Conflict policy: which strategy decides a key, how much authority an agent has, and disputes.

Patterns are dotted keys where ``*`` stands for any non-empty run of characters
(``user.schedule.*`` matches ``user.schedule.monday`` and ``user.schedule.monday.am``; ``*``
alone matches every key). When several patterns match, the most specific wins: an exact key beats
any wildcard, then the pattern with more literal characters. Authority rules are per agent (or
``*`` for every agent); an exact agent beats ``*`` before pattern specificity is compared.

Matching reads the space's rules (one indexed read) and compares each pattern with the key in
Python, one literal chunk (the text between two ``*``) at a time, in linear time (:mod:`belief_graph.keypatterns`): a regular expression
with several ``*`` backtracks exponentially on a key that almost matches. The rule also stores an
equivalent regular expression (atomic groups, so ``=~`` on it is linear too) for hand-written
queries; the engine never uses it.
"""

from __future__ import annotations

from .. import keypatterns
from ..errors import ValidationError
from ..models import Strategy

__all__ = ["compile_pattern", "validate_strategy", "validate_weight"]


def compile_pattern(pattern: str) -> tuple[str, int]:
    """``(regex, specificity)`` for a key pattern; raises ValidationError on a malformed one.

    The regex is informational (stored on the rule); matching uses :func:`keypatterns.match`.
    """
    return keypatterns.to_regex(pattern), keypatterns.specificity(pattern)


def validate_weight(weight: float) -> float:
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0.0 <= float(weight) <= 1.0:
        raise ValidationError(f"authority weight must be a number between 0 and 1, got {weight!r}")
    return float(weight)


def validate_strategy(strategy: str) -> Strategy:
    try:
        return Strategy(strategy)
    except ValueError:
        raise ValidationError(f"unknown strategy {strategy!r}: one of {', '.join(s.value for s in Strategy)}") from None
