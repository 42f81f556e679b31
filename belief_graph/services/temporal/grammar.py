"""The grammar of time expressions: vocabulary, patterns and resolvers; the conventions are in
:mod:`belief_graph.services.temporal`'s docstring."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Literal

from ...errors import ValidationError
from ...limits import EARLIEST_TIME

__all__ = ["EARLIEST_YEAR", "MONTH_NAMES", "WEEKDAY_NAMES", "Granularity", "TimeRef", "find_times"]

Granularity = Literal["minute", "day", "week", "month", "year"]

EARLIEST_YEAR = EARLIEST_TIME.year
"""Times before January 1 of this year are not resolved (nor storable as ``valid_from``)."""


@dataclass(frozen=True)
class TimeRef:
    """A time found in text, resolved against the time it was said."""

    at: datetime
    """When it became true (UTC): the start of the span the phrase names."""
    phrase: str
    """The expression as written in the text (with its preposition: "since March")."""
    granularity: Granularity
    future: bool = False
    """The expression names a time ahead of ``said_at``: a plan, not a time something became true."""
    start: int = 0
    end: int = 0
    """Where ``phrase`` is in the text (``text[start:end] == phrase``)."""


# -- vocabulary ---------------------------------------------------------------------------------
_MONTHS = {
    m: i
    for i, m in enumerate(
        "january february march april may june july august september october november december".split(), start=1
    )
}
_MONTHS_SHORT = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_WEEKDAYS = {d: i for i, d in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))}
MONTH_NAMES = tuple(_MONTHS)
"""The months' names in order, lower case (January first)."""
WEEKDAY_NAMES = tuple(_WEEKDAYS)
"""The weekdays' names in order, lower case (Monday first, as ``date.weekday()``)."""

_UNITS = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen".split()
    )
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_VAGUE = {"a": 1, "an": 1, "a couple of": 2, "a couple": 2, "couple of": 2, "a few": 3}


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (so "sept" is tried before "sep")."""
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_MONTH = rf"(?P<mon>{_alt(_MONTHS)})"
_MONTH_ANY = rf"(?P<mon>{_alt(_MONTHS)}|(?:{_alt(_MONTHS_SHORT)})\.?)"
_WEEKDAY = rf"(?P<wd>{_alt(_WEEKDAYS)})"
_YEAR = r"(?P<y>\d{4})"
_DAY = r"(?P<d>\d{1,2})(?:st|nd|rd|th)?"
_NUM = (
    rf"(?P<n>\d{{1,5}}|(?:{_alt(_TENS)})(?:[- ](?:{_alt(k for k in _UNITS if 0 < _UNITS[k] < 10)}))?"
    rf"|{_alt(_UNITS)}|a\s+couple(?:\s+of)?|couple\s+of|a\s+few|an?)"
)
_UNIT = r"(?P<unit>minute|min|hour|hr|day|week|wk|month|year|yr)s?"

# Words before a time that make it a start ("since March") or a plain anchor ("in March").
_ONSET = r"ever\s+since|since|starting(?:\s+(?:on|in|from))?|beginning(?:\s+(?:on|in))?|as\s+of|from|effective"
_PREP = rf"(?:{_ONSET}|back\s+in|in|on|during|early|earlier\s+in|at\s+the\s+(?:start|beginning)\s+of|the\s+(?:start|beginning)\s+of)"
_PRE = rf"(?:(?P<pre>{_PREP})\s+)?"
_PRE_REQUIRED = rf"(?P<pre>{_PREP})\s+"
_DOW = rf"(?:(?:{_alt(_WEEKDAYS)}),?\s+)?"  # "on Monday, May 5th": the date decides

# A time right after one of these is an end, a bound or a vague part, never when something began.
_BLOCKED_BEFORE = re.compile(
    r"(?:\b(?:until|till|til|before|by|through|thru|after|up\s+to|not\s+until|later\s+than|no\s+later\s+than|"
    r"late|mid|end\s+of|middle\s+of|rest\s+of|half|every|each)\s*[-,]?\s*(?:the\s+)?)$",
    re.IGNORECASE | re.ASCII,
)

# Tense cues (read by _tense): a future cue in the expression's clause, then a past cue there, then a
# future cue anywhere in its sentence.
_FUTURE_CUES = re.compile(
    r"\b(?:will|shall|won't|wont|gonna|going\s+to|plan(?:s|ning)?\s+(?:to|on)|intend(?:s|ing)?\s+to|about\s+to|"
    r"hope\s+to|upcoming|i'll|we'll|you'll|he'll|she'll|they'll|it'll|"
    r"(?:i'm|im|am|we're|you're|they're|are|is|he's|she's)\s+(?!being\b)[a-z]{2,}ing\b)",
    re.IGNORECASE | re.ASCII,
)
_PAST_IRREGULAR = (
    "was were had been did got began became went left took made came bought sold met quit found "
    "fell gave grew heard kept knew lost paid ran said saw sent spent stood told thought won wore wrote broke chose "
    "drove ate flew forgot hid rode sang sat slept spoke swam taught threw understood woke brought caught fought "
    "felt held led meant built dug drew fed froze hung lent lit rose shook shot shut stole struck swore "
    "tore wept wound"
).split()
_PAST_CUES = re.compile(
    rf"\b(?:{_alt(_PAST_IRREGULAR)}|[a-z]+[b-df-z]ed)\b",
    re.IGNORECASE | re.ASCII,
)
_SENTENCE_END = re.compile(r"[.!?;]")
_CLAUSE_END = re.compile(r"[.!?;,]|\b(?:and|but|although|though|while|whereas|because|so)\b", re.IGNORECASE | re.ASCII)

_TIME_OF_DAY = (
    r"(?:(?P<th>\d{1,2})(?::(?P<tm>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![a-z])"
    r"|(?P<th2>\d{1,2}):(?P<tm2>\d{2})(?![\d:])|(?P<noon>noon|midday|midnight))"
)
_TIME_AFTER = re.compile(rf"\s*,?\s*(?:at\s+)?{_TIME_OF_DAY}", re.IGNORECASE | re.ASCII)
_TIME_AFTER_BARE = re.compile(r"\s*,?\s*at\s+(?P<th>\d{1,2})(?![\d:.]|\s*(?:a\.?m|p\.?m))\b", re.IGNORECASE | re.ASCII)
_TIME_BEFORE = re.compile(rf"\bat\s+{_TIME_OF_DAY}\s*,?\s*\Z", re.IGNORECASE | re.ASCII)
_TIME_BEFORE_BARE = re.compile(r"\bat\s+(?P<th>\d{1,2})\s*\Z", re.IGNORECASE | re.ASCII)


# -- calendar helpers -----------------------------------------------------------------------------
def _midnight(d: date, tz: tzinfo) -> datetime:
    return datetime.combine(d, time(0), tzinfo=tz).astimezone(UTC)


def _months_back(d: date, n: int) -> date:
    """``d`` moved ``n`` months (back for n > 0, forward for n < 0), the day clamped to the month."""
    index = d.year * 12 + (d.month - 1) - n
    y, m = divmod(index, 12)
    return date(y, m + 1, min(d.day, calendar.monthrange(y, m + 1)[1]))


def _latest_month(today: date, month: int) -> date:
    return date(today.year if month <= today.month else today.year - 1, month, 1)


def _upcoming_month(today: date, month: int) -> date:
    return date(today.year if month >= today.month else today.year + 1, month, 1)


def _latest_date(today: date, month: int, day: int) -> date | None:
    for y in range(today.year, today.year - 9, -1):  # Feb 29 needs a leap year within 8 years
        try:
            d = date(y, month, day)
        except ValueError:
            continue
        if d <= today:
            return d
    return None


def _upcoming_date(today: date, month: int, day: int) -> date | None:
    for y in range(today.year, today.year + 9):
        try:
            d = date(y, month, day)
        except ValueError:
            continue
        if d >= today:
            return d
    return None


def _latest_day_of_month(today: date, day: int) -> date | None:
    """Day ``day`` of ``today``'s month if not after today, else of the latest earlier month that has it."""
    for back in range(0, 13):
        first = _months_back(today.replace(day=1), back)
        if day <= calendar.monthrange(first.year, first.month)[1]:
            d = first.replace(day=day)
            if d <= today:
                return d
    return None


def _upcoming_day_of_month(today: date, day: int) -> date | None:
    for ahead in range(0, 13):
        first = _months_back(today.replace(day=1), -ahead)
        if day <= calendar.monthrange(first.year, first.month)[1]:
            d = first.replace(day=day)
            if d >= today:
                return d
    return None


def _number(raw: str) -> int:
    w = " ".join(raw.lower().split())
    if w.isdigit():
        return int(w)
    if w in _VAGUE:
        return _VAGUE[w]
    if w in _UNITS:
        return _UNITS[w]
    tens, _, unit = w.replace("-", " ").partition(" ")
    return _TENS[tens] + (_UNITS[unit] if unit else 0)


# -- matching -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Context:
    text: str
    said_at: datetime
    today: date
    tz: tzinfo


@dataclass(frozen=True)
class _Hit:
    """What one pattern resolved: a local day or an exact instant, how precise, and whether ahead."""

    when: date | datetime
    granularity: Granularity
    future: bool = False
    takes_time: bool = False
    """A time of day right before or after the phrase refines it ("yesterday at 3pm")."""


Resolver = Callable[[re.Match[str], _Context, str], "_Hit | None"]
"""(match, context, tense) -> hit; ``tense`` is ``past``, ``future`` or ``""`` (no cue)."""

_RULES: list[tuple[re.Pattern[str], Resolver]] = []


def _rule(pattern: str) -> Callable[[Resolver], Resolver]:
    def register(fn: Resolver) -> Resolver:
        _RULES.append((re.compile(pattern, re.IGNORECASE | re.ASCII), fn))
        return fn

    return register


def _onset(m: re.Match[str]) -> bool:
    pre = m.groupdict().get("pre")
    return pre is not None and re.match(_ONSET, pre, re.IGNORECASE | re.ASCII) is not None


def _since(m: re.Match[str]) -> bool:
    pre = m.groupdict().get("pre")
    return pre is not None and pre.lower().split()[-1] == "since"


def _ahead(m: re.Match[str], tense: str) -> bool:
    """Whether an anchor without a year ("in June", "on Monday") means the upcoming one."""
    if _since(m) or tense == "past":
        return False
    return tense == "future" or _onset(m)


@_rule(rf"(?<![-\w.,/]){_PRE}{_NUM}\s+{_UNIT}\s+(?P<dir>ago|back|from\s+now|later)\b")
def _ago(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    n = _number(m["n"])
    unit = m["unit"].lower()
    sign = -1 if m["dir"].lower() in ("ago", "back") else 1
    if m["dir"].lower() == "later":
        return None  # "two weeks later": later than some other time, not than now
    if unit in ("minute", "min", "hour", "hr"):
        delta = timedelta(minutes=n) if unit in ("minute", "min") else timedelta(hours=n)
        instant = (ctx.said_at + sign * delta).replace(second=0, microsecond=0)
        return _Hit(instant, "minute", future=sign > 0)
    if unit in ("day", "week", "wk"):
        days = n * (7 if unit in ("week", "wk") else 1)
        return _Hit(ctx.today + sign * timedelta(days=days), "day" if unit == "day" else "week", future=sign > 0)
    months = n * (12 if unit in ("year", "yr") else 1)
    return _Hit(_months_back(ctx.today, -sign * months), "month" if unit == "month" else "year", future=sign > 0)


@_rule(rf"(?<![-\w.,/])(?P<pre>in|within)\s+{_NUM}\s+{_UNIT}\b(?!\s+(?:ago|back|later|old)\b)")
def _in_duration(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    if tense == "past":
        return None  # "I lost 5 kg in two weeks": a duration, not a time
    n = _number(m["n"])
    unit = m["unit"].lower()
    if unit in ("minute", "min", "hour", "hr"):
        delta = timedelta(minutes=n) if unit in ("minute", "min") else timedelta(hours=n)
        return _Hit((ctx.said_at + delta).replace(second=0, microsecond=0), "minute", future=True)
    if unit in ("day", "week", "wk"):
        days = n * (7 if unit in ("week", "wk") else 1)
        return _Hit(ctx.today + timedelta(days=days), "day" if unit == "day" else "week", future=True)
    months = n * (12 if unit in ("year", "yr") else 1)
    return _Hit(_months_back(ctx.today, -months), "month" if unit == "month" else "year", future=True)


@_rule(
    rf"{_PRE}\b(?P<rel>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|today|tomorrow|"
    r"earlier\s+today|this\s+morning|this\s+afternoon)\b"
)
def _days(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    rel = " ".join(m["rel"].lower().split())
    offset = {
        "the day before yesterday": -2,
        "yesterday": -1,
        "tomorrow": 1,
        "the day after tomorrow": 2,
    }.get(rel, 0)
    return _Hit(ctx.today + timedelta(days=offset), "day", future=offset > 0, takes_time=True)


@_rule(
    rf"{_PRE}\b(?P<rel>last|this|next|previous|earlier\s+this|the\s+(?:start|beginning)\s+of\s+(?:this|the|last|next))"
    r"\s+(?P<p>week|month|year|weekend)\b"
)
def _period(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    rel = m["rel"].lower().split()[-1]  # "earlier this" -> this; "the start of last" -> last
    rel = {"previous": "last", "the": "this"}.get(rel, rel)
    period = m["p"].lower()
    today = ctx.today
    if period == "weekend":
        if rel == "last":  # the latest weekend that is over: said on Sat/Sun, the one before
            back = today.weekday() - 5 if today.weekday() >= 5 else today.weekday() + 2
            return _Hit(today - timedelta(days=back + (7 if today.weekday() >= 5 else 0)), "day")
        if rel == "next":
            return _Hit(today + timedelta(days=(5 - today.weekday()) % 7 or 7), "day", future=True)
        return None  # "this weekend": past or ahead, the words do not say
    if period == "week":
        if rel == "last":
            return _Hit(today - timedelta(days=7), "week")
        monday = today - timedelta(days=today.weekday())
        return _Hit(monday + timedelta(days=7), "week", future=True) if rel == "next" else _Hit(monday, "week")
    if period == "month":
        first = today.replace(day=1)
        shift = {"last": 1, "this": 0, "next": -1}[rel]
        return _Hit(_months_back(first, shift), "month", future=shift < 0)
    shift = {"last": -1, "this": 0, "next": 1}[rel]
    return _Hit(date(today.year + shift, 1, 1), "year", future=shift > 0)


@_rule(rf"{_PRE}\bthe\s+week\s+before\s+last\b")
def _week_before_last(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    return _Hit(ctx.today - timedelta(days=14), "week")


@_rule(rf"{_PRE}(?:(?P<rel>last|next|this\s+coming|this\s+past|this|coming|past)\s+)?\b{_WEEKDAY}(?P<plural>s)?\b")
def _weekday(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    if m["plural"]:
        return None  # "on Mondays": a habit
    wd = _WEEKDAYS[m["wd"].lower()]
    rel = " ".join((m["rel"] or "").lower().split())
    today = ctx.today
    back = (today.weekday() - wd) % 7 or 7
    ahead = (wd - today.weekday()) % 7 or 7
    if rel in ("next", "this coming", "coming"):
        return _Hit(today + timedelta(days=ahead), "day", future=True, takes_time=True)
    if rel in ("last", "this past", "past") or not _ahead(m, tense):
        return _Hit(today - timedelta(days=back), "day", takes_time=True)
    return _Hit(today + timedelta(days=ahead), "day", future=True, takes_time=True)


def _month_number(raw: str) -> int:
    w = raw.lower().rstrip(".")
    return _MONTHS.get(w) or _MONTHS_SHORT[w]


def _dated(ctx: _Context, m: re.Match[str], tense: str, month: int, day: int) -> _Hit | None:
    if m["y"]:
        try:
            return _Hit(date(int(m["y"]), month, day), "day", takes_time=True)
        except ValueError:
            return None
    if _ahead(m, tense):
        d = _upcoming_date(ctx.today, month, day)
        return None if d is None else _Hit(d, "day", future=True, takes_time=True)
    d = _latest_date(ctx.today, month, day)
    return None if d is None else _Hit(d, "day", takes_time=True)


@_rule(rf"{_PRE}{_DOW}\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH_ANY}(?:,?\s+{_YEAR})?(?![\w-])")
def _day_month(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    return _dated(ctx, m, tense, _month_number(m["mon"]), int(m["d"]))


@_rule(rf"{_PRE}{_DOW}\b{_MONTH_ANY}\s+(?:the\s+)?{_DAY}(?:,?\s+{_YEAR})?(?![\w:-])")
def _month_day(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    return _dated(ctx, m, tense, _month_number(m["mon"]), int(m["d"]))


@_rule(rf"{_PRE}\b(?:(?P<rel>last|next|this)\s+)?{_MONTH}(?:,?\s+(?:of\s+)?{_YEAR})?(?![\w-])")
def _month(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    month = _MONTHS[m["mon"].lower()]
    today = ctx.today
    if m["y"]:
        return _Hit(date(int(m["y"]), month, 1), "month")
    rel = (m["rel"] or "").lower()
    if not rel and m["pre"] is None:
        return None  # a bare month name: "May" is also a verb
    if rel == "last":  # said in March, "last March" is the March before this one
        return _Hit(date(today.year - 1 if month >= today.month else today.year, month, 1), "month")
    if rel == "next":
        return _Hit(date(today.year if month > today.month else today.year + 1, month, 1), "month", future=True)
    if rel == "this":  # this year's; a plan when it is ahead, or this month in a sentence about the future
        first = date(today.year, month, 1)
        this_month = today.replace(day=1)
        return _Hit(first, "month", future=first > this_month or (first == this_month and tense == "future"))
    if _ahead(m, tense):
        return _Hit(_upcoming_month(today, month), "month", future=True)
    return _Hit(_latest_month(today, month), "month")


@_rule(rf"{_PRE}\b{_MONTH_ANY}\s+{_YEAR}(?![\w-])")
def _short_month_year(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    return _Hit(date(int(m["y"]), _month_number(m["mon"]), 1), "month")


@_rule(
    rf"(?:{_PRE_REQUIRED}{_DOW}|(?P<dow_only>{_alt(_WEEKDAYS)}),?\s+)(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)\b"
    rf"(?!\s+(?:century|centuries|time|floor|birthday|anniversary|of\s+|{_alt(_MONTHS)}|{_alt(_MONTHS_SHORT)}))"
)
def _day_of_month(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    day = int(m["d"])
    if not 1 <= day <= 31:
        return None
    if _ahead(m, tense):
        d = _upcoming_day_of_month(ctx.today, day)
        return None if d is None else _Hit(d, "day", future=True, takes_time=True)
    d = _latest_day_of_month(ctx.today, day)
    return None if d is None else _Hit(d, "day", takes_time=True)


@_rule(rf"{_PRE_REQUIRED}{_YEAR}(?![\w/:-]|\.\d|\s*(?:%|percent|dollars|euros|people|times|units|km|kg)\b)")
def _year(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    return _Hit(date(int(m["y"]), 1, 1), "year")


@_rule(
    rf"{_PRE}(?<![\w/.-]){_YEAR}(?P<sep>[-/])(?P<m>\d{{2}})(?P=sep)(?P<d>\d{{2}})"
    r"(?:[T ](?P<H>\d{2}):(?P<M>\d{2})(?::(?P<S>\d{2})(?:\.\d+)?)?(?P<tz>Z|[+-]\d{2}:?\d{2})?)?(?![\w/:-]|\.\d)"
)
def _iso(m: re.Match[str], ctx: _Context, tense: str) -> _Hit | None:
    try:
        d = date(int(m["y"]), int(m["m"]), int(m["d"]))
    except ValueError:
        return None
    if m["H"] is None:
        return _Hit(d, "day", takes_time=True)
    try:
        t = time(int(m["H"]), int(m["M"]), int(m["S"] or 0))
    except ValueError:
        return None
    tz: tzinfo = ctx.tz
    if m["tz"]:
        raw = m["tz"].upper()
        if raw == "Z":
            tz = UTC
        else:
            sign = 1 if raw[0] == "+" else -1
            hh, mm = int(raw[1:3]), int(raw[-2:])
            if hh > 23 or mm > 59:
                return None
            tz = timezone(sign * timedelta(hours=hh, minutes=mm))
    return _Hit(datetime.combine(d, t, tzinfo=tz), "minute")


# -- putting it together ------------------------------------------------------------------------------
_WINDOW = 300
"""How far around an expression its clause and sentence are looked for (characters): a long
document costs time linear in its length."""


def _span_around(text: str, start: int, end: int, boundary: re.Pattern[str]) -> str:
    lo = max(0, start - _WINDOW)
    before = [b.end() for b in boundary.finditer(text, lo, start)]
    after = boundary.search(text, end, min(len(text), end + _WINDOW))
    return text[before[-1] if before else lo : after.start() if after else min(len(text), end + _WINDOW)]


def _tense(text: str, start: int, end: int) -> str:
    """``future``, ``past`` or ``""``: the expression's clause first ("I decided I'll move in
    June": future), then its sentence, where only a future cue counts ("I'm moving in June,
    I decided yesterday")."""
    clause = _span_around(text, start, end, _CLAUSE_END).replace(text[start:end], " ")
    if _FUTURE_CUES.search(clause):
        return "future"
    if _PAST_CUES.search(clause):
        return "past"
    if _FUTURE_CUES.search(_span_around(text, start, end, _SENTENCE_END)):
        return "future"
    return ""


def _clock(m: re.Match[str], afternoon: bool) -> time | None:
    g = m.groupdict()
    if g.get("noon"):
        return time(0) if g["noon"].lower() == "midnight" else time(12)
    hour = int(g.get("th") or g.get("th2") or -1)
    minute = int(g.get("tm") or g.get("tm2") or 0)
    ap = (g.get("ap") or "").lower().replace(".", "")
    if ap:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ap == "pm" else 0)
    elif afternoon and 1 <= hour < 12:
        hour += 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return time(hour, minute)


def _with_time(text: str, start: int, end: int, phrase: str) -> tuple[time, int, int] | None:
    """A time of day right after (", at 3pm") or right before ("at 9 this morning") the phrase."""
    afternoon = "afternoon" in phrase.lower()
    for pattern in (_TIME_AFTER, _TIME_AFTER_BARE):
        m = pattern.match(text, end)
        if m:
            t = _clock(m, afternoon)
            if t is not None:
                return t, start, m.end()
    for pattern in (_TIME_BEFORE, _TIME_BEFORE_BARE):
        m = pattern.search(text, max(0, start - 40), start)
        if m:
            t = _clock(m, afternoon)
            if t is not None:
                return t, m.start(), end
    return None


def _candidates(text: str) -> Iterator[tuple[int, int, re.Match[str], Resolver]]:
    for pattern, resolve in _RULES:
        for m in pattern.finditer(text):
            if m.end() > m.start():
                yield m.start(), m.end(), m, resolve


def _resolve(m: re.Match[str], resolve: Resolver, ctx: _Context, tense: str | None = None) -> TimeRef | None:
    start, end = m.span()
    has_pre = bool(m.groupdict().get("pre"))
    pre_start = m.start("pre") if has_pre else start
    # "until the 3rd" ends a span; but an expression with its own preposition is not governed by the
    # word before it ("the visa came through on the 3rd")
    if not has_pre and _BLOCKED_BEFORE.search(ctx.text, max(0, pre_start - 40), pre_start):
        return None
    tense = _tense(ctx.text, start, end) if tense is None else tense
    try:
        hit = resolve(m, ctx, tense)
    except (ValueError, OverflowError):  # a date out of range ("99999 years ago")
        return None
    if hit is None:
        return None
    granularity: Granularity = hit.granularity
    if hit.when.year < EARLIEST_YEAR:
        return None
    try:
        if isinstance(hit.when, datetime):
            at = hit.when.astimezone(UTC)
        else:
            at = _midnight(hit.when, ctx.tz)
            if hit.takes_time:
                found = _with_time(ctx.text, start, end, m.group(0))
                if found is not None:
                    t, start, end = found
                    at = datetime.combine(hit.when, t, tzinfo=ctx.tz).astimezone(UTC)
                    granularity = "minute"
    except OverflowError:  # the last days of year 9999 in a timezone behind UTC
        return None
    if at.year < EARLIEST_YEAR:
        return None
    future = hit.future or at > ctx.said_at
    return TimeRef(at=at, phrase=ctx.text[start:end], granularity=granularity, future=future, start=start, end=end)


def _check_said_at(said_at: datetime) -> None:
    if not isinstance(said_at, datetime):
        raise ValidationError(f"said_at must be a datetime, got {type(said_at).__name__}")
    if said_at.tzinfo is None or said_at.utcoffset() is None:
        raise ValidationError("said_at must be a timezone-aware datetime (a naive time is not taken as UTC)")


def find_times(text: str, said_at: datetime, *, tense: Literal["past", "future"] | None = None) -> list[TimeRef]:
    """Every time expression in ``text``, resolved against ``said_at``, in text order (overlaps:
    the one that starts first, then the longest). Expressions that cannot be resolved from the
    text alone are left out (module docstring). ``tense`` reads every expression as said of the
    past or of the future instead of from the text's own cues ("on the 30th": the last one or the
    next one)."""
    _check_said_at(said_at)
    norm = text.replace("\u2019", "'").replace("\u2018", "'")  # same length: spans stay valid
    ctx = _Context(text=norm, said_at=said_at, today=said_at.date(), tz=said_at.tzinfo)  # type: ignore[arg-type]
    found: list[TimeRef] = []
    resolved = [r for r in (_resolve(m, fn, ctx, tense) for _, _, m, fn in _candidates(norm)) if r is not None]
    resolved.sort(key=lambda r: (r.start, -(r.end - r.start)))
    taken_until = -1
    for r in resolved:
        if r.start >= taken_until:
            found.append(TimeRef(r.at, text[r.start : r.end], r.granularity, r.future, r.start, r.end))
            taken_until = r.end
    return found
