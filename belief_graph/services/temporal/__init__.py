"""Time from text: when a fact became true, said relative to when it was said. Pure functions.

People say when things became true ("I've lived in Porto since March", "I started at Acme two
weeks ago"). :func:`when_from_text` finds such an expression in a turn and resolves it against the
turn's time ``said_at``; :func:`resolve_since` does the same for a short phrase a model extracted
("since March", "two weeks ago", "2023"). No model, no database, no clock: the same text and
``said_at`` always give the same answer.

What comes back is a :class:`TimeRef`: ``at`` (a UTC datetime), the ``phrase`` as written,
its ``granularity`` and a ``future`` flag. Callers store ``at`` as a claim's ``valid_from`` only
when ``future`` is false (``assert_claim`` refuses a ``valid_from`` after the time of writing).

Conventions
-----------
**Calendar.** Days, weeks, months and years are counted on the calendar of ``said_at``'s own
timezone (a "yesterday" said at 23:30 in New York is the New Yorker's yesterday), and a day
resolves to its **local midnight, expressed in UTC**; so for ``said_at`` in UTC, ``at`` is 00:00
UTC. A time of day given with a day ("yesterday at 3pm", "this morning at 8:30", an ISO time)
is kept. Weeks start on Monday.

**Granularity** says how precise the speaker was: ``minute`` (a time of day, "an hour ago"),
``day``, ``week``, ``month``, ``year``. ``at`` is the *start* of that span ("in March" is March 1,
"in 2023" is January 1), so a fact is never dated after it became true.

============================================  =============================================================
expression (case and spacing do not matter)   resolves to (``granularity``)
============================================  =============================================================
"3 days ago", "a week ago", "two weeks ago"   exactly N days / weeks before ``said_at``'s day (``day`` /
"a couple of weeks ago", "a few days ago"     ``week``); "a couple" is 2, "a few" 3; number words up to
"twenty-one days ago", "three weeks back"     ninety-nine ("forty five", "twenty-one")
"a month ago", "six months ago", "a year ago" the same day N months / years back, clamped to the month
                                              (Mar 31 -> Feb 28) (``month`` / ``year``)
"an hour ago", "45 minutes ago"               exactly that long before, to the minute (``minute``)
"yesterday", "the day before yesterday"       that day (``day``)
"today", "this morning", "earlier today"      ``said_at``'s day (``day``); "this afternoon" too
"last week", "the week before last"           7 / 14 days before (``week``)
"this week", "earlier this week"              Monday of ``said_at``'s week (``week``)
"last month", "this month"                    the 1st of the previous / this month (``month``)
"last year", "this year"                      January 1 of the previous / this year (``year``)
"last weekend"                                the Saturday of the latest weekend that is over (``day``)
"since March", "in March", "from March"       the 1st of the latest March not after ``said_at`` (``month``)
"last March"                                  the same, except said *in* March: the March a year before
                                              (``month``; "last March" is not the month one is in)
"in March 2025", "since May 2024"             the 1st of that month (``month``); "March of 2024" too
"in 2023", "since 2023", "back in 2019"       January 1 of that year (``year``); "during 2020",
                                              "early 2021" too
"on Monday", "since Monday", "last Friday"    the latest such weekday *before* ``said_at``'s day, 1 to 7
"this past Sunday", "Monday"                  days back (``day``)
"since 5 May", "on May 5th", "May 5"          the latest such date not after ``said_at`` (``day``)
"the 5th of May"
"5 May 2024", "May 5th, 2024"                 that date (``day``)
"on the 14th", "since the 3rd"                that day of ``said_at``'s month, or of the latest earlier
                                              month that has it when it is after ``said_at`` (``day``)
"2026-03-01", "2026/03/01"                    that day (``day``); with a time ("2026-03-01T09:30+01:00"),
                                              that time, in its offset, else ``said_at``'s (``minute``)
"yesterday at 3pm", "at 9 this morning"       a day with a time of day: that time (``minute``)
============================================  =============================================================

**Future.** A time that lies ahead is not a time a fact *became* true; it is returned, with
``future=True``, so that a caller can tell "no time was said" (``None``) from "a plan was said"
(and refuse to store it as ``valid_from``). ``future`` is set for:

- explicitly future expressions: "tomorrow", "next week/month/year", "next Monday", "this coming
  Friday", "in two weeks", "3 days from now" (resolved forward: "next week" is the Monday of next
  week, "next month" the 1st of next month);
- an anchor without a year ("in June", "on Monday", "on the 14th", "5 May") in a sentence about the
  future ("I'll move in June", "I'm moving to Porto in June", "we're going to start on Monday",
  "I plan to quit in May") and no past tense in its own clause: resolved to the upcoming one
  ("in June" said in June: this June);
- an onset word before a weekday or an anchor without a year ("starting Monday", "from June",
  "as of the 1st", "beginning in May") unless its clause is in the past tense ("I started working
  from home starting Monday") -- "starting Monday" is the next Monday;
- anything that resolves after ``said_at`` ("since May 2027" said in 2026, an ISO date ahead,
  "today at 5pm" said at 10am).

"since" is always past: "since June" said in March is June of last year.

**Not resolvable from text alone** (``None``): a time relative to a life event or an age ("since I
was 20", "since the move", "after the wedding"), vague times ("recently", "a while ago", "the
other day", "last summer", "in the 90s", "in late 2023", "mid-March", "years ago"), habits ("on
Mondays"), ends rather than starts ("until March", "by 2024", "before Monday", "at the end of last year"),
bare numbers and times of day without a day ("at 9am"), numeric day/month dates that depend on
the reader's country ("3/4/2025"), and years before 1900 (not storable as ``valid_from``).
A year needs a preposition ("in 2023"; a bare "2023" in a turn may be an amount) and a month
name needs a preposition, a day or a year ("since May", "May 5", "May 2024"; "I may go" is
not a date); short month names (``Jan``, ``Sept.``) only with a day or a year ("since Jan left"
is not January). The tense is read from the words of the sentence (auxiliaries "will", "'ll",
"going to", "plan to", "am/are/is ...ing" in the expression's clause or sentence; past forms
"-ed", "was", "had", "went", ... in its clause, which split at commas, "and", "but"): a light
heuristic, never a parser. The present tense is no cue either way: "I have a meeting on Friday"
reads like "on Friday" alone (the latest Friday); such a sentence needs a future cue ("I'll have",
"next Friday") to be read as a plan.

**Several expressions in one text.** :func:`find_times` returns every one, in text order (where
two overlap, the one starting first, then the longer). :func:`when_from_text` picks the first
one introduced by an onset word ("since", "as of", "starting", "from", "ever since", or an "ago"
expression), else the first one: "In 2019 I was in Lisbon, but I've lived in Porto since March"
gives March.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from ..grounding import extract_figures
from .grammar import (
    _MONTHS,
    _ONSET,
    _WEEKDAYS,
    EARLIEST_YEAR,
    MONTH_NAMES,
    WEEKDAY_NAMES,
    Granularity,
    TimeRef,
    _alt,
    find_times,
)

__all__ = [
    "EARLIEST_YEAR",
    "MONTH_NAMES",
    "WEEKDAY_NAMES",
    "Granularity",
    "TimeRef",
    "fact_time",
    "find_times",
    "resolve_since",
    "when_from_text",
]


_ONSET_PHRASE = re.compile(rf"^(?:{_ONSET})\b|\b(?:ago|back)$", re.IGNORECASE | re.ASCII)


def when_from_text(text: str, said_at: datetime) -> TimeRef | None:
    """When the fact ``text`` states became true, resolved against ``said_at`` (timezone-aware);
    ``None`` when the text says no time that can be resolved from it alone. Check ``future``
    before storing ``at`` as a ``valid_from``. The conventions are the module docstring's."""
    times = find_times(text, said_at)
    if not times:
        return None
    return next((t for t in times if _ONSET_PHRASE.search(t.phrase.strip())), times[0])


_BARE = re.compile(
    rf"^\s*(?:(?P<month>{_alt(_MONTHS)})(?:,?\s+(?:of\s+)?\d{{4}})?|(?P<year>\d{{4}})"
    rf"|(?P<wd>{_alt(_WEEKDAYS)})|(?P<nth>(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)))\s*[.!]?\s*$",
    re.IGNORECASE | re.ASCII,
)


def resolve_since(phrase: str, said_at: datetime) -> TimeRef | None:
    """A short time phrase (as a model extracted it: "since March", "two weeks ago", "2023",
    "May 5th", "Monday") resolved against ``said_at`` with the grammar of :func:`when_from_text`;
    a bare month, year, weekday or "the 14th" reads as "in March", "in 2023", "on Monday", "on
    the 14th". ``phrase``/``start``/``end`` of the result refer to ``phrase``."""
    if not isinstance(phrase, str):
        raise TypeError(f"phrase must be a string, got {type(phrase).__name__}")
    found = when_from_text(phrase, said_at)
    if found is not None:
        return found
    bare = _BARE.match(phrase)
    if bare is None:
        return None
    prefix = "on " if bare["wd"] or bare["nth"] else "in "
    found = when_from_text(prefix + phrase, said_at)
    if found is None:
        return None
    start, end = max(found.start - len(prefix), 0), found.end - len(prefix)
    return TimeRef(found.at, phrase[start:end], found.granularity, found.future, start, end)


def fact_time(turn: str, value: Any, at: datetime | None) -> datetime | None:
    """When the fact became true, as the turn says: the time expression of the turn nearest to where
    it states the value, in the same sentence ("I moved to Porto last week" said on 12 March: 5
    March), resolved against the turn's time (``at``, else now; services/temporal.py); else the turn's
    time; else None (the write's own time). A plan ("next week") is not a start."""
    now = datetime.now(UTC)
    said = at if at is not None else now
    if said > now:
        return None
    where = _position(turn, value)
    # a date that is the value ("the deadline moved, now August 3rd") is not when the fact began
    named = _days_named(value)
    times = [
        t
        for t in find_times(turn, said)
        if not t.future
        and t.at <= said
        and not (where is not None and t.start < where[1] and where[0] < t.end)
        and f"--{t.at.month:02d}-{t.at.day:02d}" not in named
    ]
    if times:
        sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.!?\n]+[.!?]*", turn)]

        def sentence(pos: int) -> int:
            return next((i for i, (a, b) in enumerate(sentences) if a <= pos < b), -1)

        if where is not None:
            vs, ve = where
            same = [t for t in times if sentence(t.start) == sentence(vs)]
            if same:
                return min(same, key=lambda t: max(0, t.start - ve, vs - t.end)).at
        elif len(times) == 1:
            return times[0].at
    return at


def _days_named(value: Any) -> set[str]:
    """The days of the year a value names (``--08-03`` for "August 3" or "2026-08-03")."""
    if not isinstance(value, str):
        return set()
    return {
        "--" + f[-5:]
        for _, forms in extract_figures(value)
        for f in forms
        if re.fullmatch(r"(\d{4})?--?\d{2}-\d{2}", f)
    }


def _position(turn: str, value: Any) -> tuple[int, int] | None:
    """Where the turn states the value (start and end in the text), or None."""
    if value is None or isinstance(value, bool):
        return None
    low = turn.lower()
    forms = [str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)]
    if isinstance(value, int | float) and float(value).is_integer() and int(value) in _SPELLED:
        forms.append(_SPELLED[int(value)])
    for text in forms:
        i = low.find(text.lower())
        if i >= 0:
            return i, i + len(text)
    for w in re.findall(r"[a-z0-9]+", forms[0].lower()):
        if len(w) >= 3 or w.isdigit():
            j = low.find(w)
            if j >= 0:
                return j, j + len(w)
    return None


_SPELLED = {
    i: w
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
}
