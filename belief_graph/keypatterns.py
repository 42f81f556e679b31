"""Key patterns of the conflict policy (``user.schedule.*``): parsing and linear-time matching.

A pattern is a dotted key whose segments are a name, ``*``, ``name*`` or ``*name``; ``*`` stands
for any non-empty run of characters, dots included (``user.schedule.*`` matches
``user.schedule.monday.am``; ``*`` alone matches every key).

Matching is done here, in Python, from the pattern text, never by a regular expression engine:
a backtracking engine needs time exponential in the number of ``*`` on a key that almost
matches (``*.*.*.*.*.*.*.*.*.zz`` against a 40-segment key took 12 s in Cypher's ``=~``).
:func:`match` splits the pattern at its ``*`` into literal chunks and places each middle chunk at
its leftmost possible position (greedy leftmost placement is optimal for ``*``-only patterns:
it leaves the longest rest for what follows), so one match examines every key position at most
once per chunk: work ``O(len(key) * len(pattern))``, with both bounded (``MAX_PATTERN_LENGTH``,
256-character keys) that is at most about 65,000 character comparisons, whatever the pattern.
:class:`MatchCounter` counts those comparisons (tests assert on the count, never on time).

:func:`to_regex` gives the equivalent anchored regular expression (stored on a rule for people who
query the graph by hand); it uses atomic groups so that ``=~`` on it stays linear too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import ValidationError

__all__ = [
    "MAX_PATTERN_LENGTH",
    "MAX_PATTERN_SEGMENTS",
    "MatchCounter",
    "match",
    "parse",
    "specificity",
    "to_regex",
]

MAX_PATTERN_LENGTH = 256
"""Characters in a pattern (a key is at most 256 characters too)."""
MAX_PATTERN_SEGMENTS = 32
"""Dot-separated segments in a pattern."""

_SEGMENT = re.compile(r"^(?:\*|[A-Za-z0-9_][A-Za-z0-9_\-]*\*?|\*[A-Za-z0-9_\-]+)$")
_EXACT_BONUS = 1000


@dataclass
class MatchCounter:
    """Character comparisons made by :func:`match` calls that were given this counter."""

    steps: int = 0


def parse(pattern: str) -> tuple[str, ...]:
    """The literal chunks of a valid pattern (``pattern.split('*')``).

    Raises:
        ValidationError: not a string, empty, longer than :data:`MAX_PATTERN_LENGTH`, more than
            :data:`MAX_PATTERN_SEGMENTS` segments, or a malformed segment.
    """
    if not isinstance(pattern, str) or not pattern or len(pattern) > MAX_PATTERN_LENGTH:
        raise ValidationError(
            f"a key pattern is a dotted key of at most {MAX_PATTERN_LENGTH} characters with optional '*' "
            "wildcards, e.g. 'user.schedule.*'"
        )
    segments = pattern.split(".")
    if len(segments) > MAX_PATTERN_SEGMENTS:
        raise ValidationError(f"a key pattern has at most {MAX_PATTERN_SEGMENTS} segments, got {len(segments)}")
    if pattern != "*" and not all(_SEGMENT.match(seg) for seg in segments):
        raise ValidationError(
            f"malformed key pattern {pattern!r}: use dotted names of letters, digits, '_' and '-', "
            "with '*' as a wildcard (e.g. 'user.schedule.*')"
        )
    return tuple(pattern.split("*"))


def specificity(pattern: str) -> int:
    """Literal characters, plus a bonus for an exact key (no ``*``): the most specific rule wins."""
    return len(pattern.replace("*", "")) + (_EXACT_BONUS if "*" not in pattern else 0)


def to_regex(pattern: str) -> str:
    """An anchored-by-``=~`` regular expression equivalent to ``pattern``, linear on any key.

    Each middle chunk sits in an atomic group after a lazy ``.+?`` (its leftmost placement, never
    revisited), so a failing match does not backtrack through earlier wildcards.
    """
    chunks = parse(pattern)
    if len(chunks) == 1:
        return re.escape(chunks[0])
    middle = "".join(f"(?>.+?{re.escape(c)})" for c in chunks[1:-1])
    return f"{re.escape(chunks[0])}{middle}.+{re.escape(chunks[-1])}"


def match(pattern: str, key: str, counter: MatchCounter | None = None) -> bool:
    """Does ``key`` match ``pattern``? Linear in ``len(key)`` per chunk (see the module docstring).

    ``pattern`` must be valid (:func:`parse`); a stored pattern that is not (written by hand into
    the graph) matches nothing.
    """
    try:
        chunks = parse(pattern)
    except ValidationError:
        return False
    steps = 0
    try:
        first, last = chunks[0], chunks[-1]
        if len(chunks) == 1:
            steps += min(len(first), len(key))
            return key == first
        steps += len(first)
        if not key.startswith(first):
            return False
        pos = len(first)
        for chunk in chunks[1:-1]:
            # the wildcard before this chunk takes at least one character; place the chunk leftmost
            start = pos + 1
            limit = len(key) - len(chunk)
            found = -1
            for i in range(start, limit + 1):
                steps += len(chunk) or 1
                if key.startswith(chunk, i):
                    found = i
                    break
            if found < 0:
                return False
            pos = found + len(chunk)
        # the last wildcard takes at least one character, then the last chunk ends the key
        steps += len(last)
        return len(key) - len(last) >= pos + 1 and key.endswith(last)
    finally:
        if counter is not None:
            counter.steps += steps
