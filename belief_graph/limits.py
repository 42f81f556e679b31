"""The input limits of belief_graph and the checks that enforce them (docs/security.md).

Bad input gets a :class:`~belief_graph.errors.ValidationError` before anything is written (a
text above its length limit: :class:`~belief_graph.errors.LimitExceeded`, which is one). The
fixed limits below are part of the API; the argumentation file limits are settings
(``BELIEF_GRAPH_LIMITS__*``, :class:`belief_graph.settings.LimitSettings`) because benchmarks
load large frameworks on purpose.

============================  =====================  ============================================
what                          limit                  why
============================  =====================  ============================================
claim / derived claim text    20,000 characters      embedded and fulltext-indexed per write
episode text                  1,000,000 characters   raw evidence (a document); stored, not embedded
recall / lookup query         10,000 characters      embedded once per call
ids, agents, conversations    256 characters
key descriptions              2,000 characters       embedded with the key (``register_key``, the
                                                     key schema)
argument names                256 characters         indexed (``Argument(space, ns, name)``): Neo4j
                                                     refuses an index key above about 8 KB
fact keys                     256 characters         dotted names (``models.KEY_RE``)
key patterns                  256 characters,        matched in linear time (``keypatterns``)
                              32 segments
integer values                -2**63 .. 2**63-1      Neo4j stores 64-bit integers
float values                  finite                 NaN and infinity are refused
texts                         valid Unicode          a lone surrogate cannot be stored as UTF-8
datetimes                     timezone-aware         a naive datetime is refused, never taken as UTC
valid_from                    1900-01-01 UTC ..      when a fact became true: not after the time it
                              the time of writing    is written (a plan is not a fact yet)
============================  =====================  ============================================
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from .errors import LimitExceeded, ValidationError

__all__ = [
    "EARLIEST_TIME",
    "INT64_MAX",
    "INT64_MIN",
    "MAX_ARGUMENT_NAME",
    "MAX_CLAIM_TEXT",
    "MAX_EPISODE_TEXT",
    "MAX_KEY_DESCRIPTION",
    "MAX_NAME",
    "MAX_QUERY_TEXT",
    "check_argument_names",
    "check_aware",
    "check_limit",
    "check_past",
    "check_name",
    "check_number",
    "check_text",
    "unicode_problem",
]

MAX_CLAIM_TEXT = 20_000
MAX_EPISODE_TEXT = 1_000_000
MAX_QUERY_TEXT = 10_000
MAX_NAME = 256
MAX_KEY_DESCRIPTION = 2_000
MAX_ARGUMENT_NAME = 256
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
EARLIEST_TIME = datetime(1900, 1, 1, tzinfo=UTC)
"""The earliest time a fact can be valid from."""


def unicode_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored as UTF-8 (a lone surrogate and where), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"it holds a lone surrogate {text[exc.start]!r} at position {exc.start} (not valid Unicode)"
    return None


def check_text(value: Any, what: str, max_chars: int, *, blank: bool = False) -> str:
    """``value`` if it is a string of at most ``max_chars`` characters of valid Unicode (and, unless
    ``blank``, not only whitespace); else :class:`ValidationError` naming ``what``
    (:class:`LimitExceeded` when it is too long)."""
    if not isinstance(value, str):
        raise ValidationError(f"{what} must be a string, got {type(value).__name__}")
    if not blank and not value.strip():
        raise ValidationError(f"{what} must not be blank")
    if len(value) > max_chars:
        raise LimitExceeded(f"{what} (characters)", len(value), max_chars)
    problem = unicode_problem(value)
    if problem is not None:
        raise ValidationError(f"{what} cannot be stored: {problem}")
    return value


def check_name(value: Any, what: str, *, optional: bool = False) -> str | None:
    """An id, agent or conversation name: a non-blank string of at most :data:`MAX_NAME` characters."""
    if value is None and optional:
        return None
    return check_text(value, what, MAX_NAME)


def check_limit(limit: int, most: int) -> int:
    """How many rows a listing may return: from 1 to ``most``."""
    if not 1 <= limit <= most:
        raise ValidationError(f"limit must be between 1 and {most}")
    return limit


def check_number(value: Any, what: str) -> Any:
    """``value`` unless it is a number Neo4j cannot store faithfully: an integer outside 64 bits
    or a float that is NaN or infinite (booleans and other types pass through unchanged)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise ValidationError(f"{what} {value} is outside the 64-bit integer range Neo4j stores")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(f"{what} must be a finite number, got {value!r}")
    return value


def check_aware(value: Any, what: str) -> datetime | None:
    """``value`` (None allowed) if it is a timezone-aware datetime. A naive datetime is refused:
    taking it as UTC would silently shift times given in local time."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        raise ValidationError(f"{what} must be a datetime, got {type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValidationError(
            f"{what} must be a timezone-aware datetime (e.g. datetime.now(UTC) or datetime(..., tzinfo=UTC)); "
            "a naive datetime is refused, not taken as UTC"
        )
    return value


def check_past(value: Any, what: str, *, now: datetime | None = None) -> datetime | None:
    """``value`` (None allowed) if it is a timezone-aware datetime from :data:`EARLIEST_TIME` up to
    ``now`` (default: this machine's clock). A time ahead is a plan, not when something became true."""
    checked = check_aware(value, what)
    if checked is None:
        return None
    if checked < EARLIEST_TIME:
        raise ValidationError(f"{what} {checked.isoformat()} is before {EARLIEST_TIME.date().isoformat()}")
    limit = now if now is not None else datetime.now(UTC)
    if checked > limit:
        raise ValidationError(
            f"{what} {checked.isoformat()} is in the future (now: {limit.isoformat(timespec='seconds')}); "
            "a fact is valid from a time it already holds"
        )
    return checked


def check_argument_names(names: Iterable[str], path: str | None = None) -> None:
    """:class:`LimitExceeded` for the first argument name longer than :data:`MAX_ARGUMENT_NAME`
    characters (an argument is indexed by its name, and Neo4j refuses an index key above ~8 KB)."""
    for name in names:
        if isinstance(name, str) and len(name) > MAX_ARGUMENT_NAME:
            raise LimitExceeded(
                f"argument name starting {name[:20]!r} (characters)", len(name), MAX_ARGUMENT_NAME, path=path
            )
