"""The forms a model gives a value the turn said in other letters. Pure functions.

A model that extracts a fact writes its value the way it normalises values, not always in the
speaker's letters: ``"8000 euros"`` for "max €8,000", ``"11:30am"`` for "at 11:30",
``"ten weeks"`` for "10 weeks old", ``"Pure Gym"`` for "PureGym", ``"SF"`` for "San Francisco",
``"UoM"`` for "the University of Manchester". Extraction grounding
(``services/turns/extraction_grounding.py``) requires every word of a value to be said; this module tells
which missing words the turn says in another form, so that a normalised value is not refused while
an invented one still is:

* a **currency word** is said by the currency's sign written at a figure (``euros`` by ``€8,000``);
* **am/pm** is said by the figure itself: a value with a 12-hour time is checked by its 24-hour form
  only, so ``11:30pm`` is never grounded by "11:30am" (:func:`twelve_hour_forms`);
* a **compound** is one word or two (``Pure Gym`` = ``PureGym``, ``week end`` = ``weekend``);
* an **acronym** written in capitals stands for consecutive words of the turn whose initials it
  spells, small joining words allowed (``UoM`` = "University of Manchester", ``EM`` = "engineering
  manager").

Numbers are values too: ``"seventy"`` and ``70`` are one value (:func:`as_value`), and so are
``"true"``/``"yes"`` and ``True``. The figures a turn offers, in their normal forms, include its
number words, an hour said without am/pm (both readings) and the dates it says relative to the
turn's time (:func:`number_forms`, :func:`turn_dates`).

Synonyms and translations (``veggie``, ``Lisboa``, ``hypertension``) are not forms of the turn's
words: they stay refused (docs/memory.md, "Grounding alone").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from ..grounding import _figure_forms
from ..temporal import find_times

__all__ = [
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "SPELLED_NUMBERS",
    "as_value",
    "number_forms",
    "said_otherwise",
    "says_none",
    "spelled_number",
    "turn_dates",
    "twelve_hour_forms",
]

NUMBER_WORDS: dict[str, int | float] = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "thousand": 1000,
    "dozen": 12,
    "a dozen": 12,
    "couple": 2,
    "a couple": 2,
    "once": 1,
    "twice": 2,
    "single": 1,
    "double": 2,
    "half": 0.5,
}
ORDINAL_WORDS = {
    w: i + 2
    for i, w in enumerate(
        "second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
        "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()
    )
}
"""Ordinals that state a number ("third grade" for a grade of 3); "first" is left out: it is mostly
an order, not a count ("my first smartphone")."""
_YES_NO = {"true": True, "false": False, "yes": True, "no": False}
_SPELLED_UNITS = {
    w: n
    for w, n in NUMBER_WORDS.items()
    if isinstance(n, int) and n < 20 and " " not in w and w not in ("single", "once", "twice", "double", "couple")
} | {
    "dozen": 12,
    "a dozen": 12,
}
_SPELLED_TENS = {w: n for w, n in NUMBER_WORDS.items() if isinstance(n, int) and 20 <= n <= 90 and n % 10 == 0}
_SPELLED_SCALES = {w: int(NUMBER_WORDS[w]) for w in ("hundred", "thousand")}
SPELLED_NUMBERS = {w: n for w, n in {**_SPELLED_UNITS, **_SPELLED_TENS}.items() if " " not in w}
"""Single words that spell a number whatever their sense ("ten", "forty"): "ten weeks" says 10."""


def spelled_number(text: str) -> int | None:
    """The whole of ``text`` as a number spelled out ("seventy", "sixty-five", "twenty one",
    "two hundred", "a dozen"), else None. Words that name a number only in some senses ("single",
    "once", "half", "a couple") are not read as one."""
    words = text.strip().lower().replace("-", " ").split()
    if not words or len(words) > 4:
        return None
    if " ".join(words) in _SPELLED_UNITS:
        return _SPELLED_UNITS[" ".join(words)]
    total = 0
    current: int | None = None
    for w in words:
        if w in _SPELLED_SCALES and current is not None:
            current *= _SPELLED_SCALES[w]
            if _SPELLED_SCALES[w] >= 1000:
                total, current = total + current, None
        elif w in _SPELLED_TENS and (current is None or current % 100 == 0):
            current = (current or 0) + _SPELLED_TENS[w]
        elif w in _SPELLED_UNITS and (
            current is None or (current % 10 == 0 and current % 100 != 0) or current % 100 == 0
        ):
            current = (current or 0) + _SPELLED_UNITS[w]
        elif w == "and" and current is not None:
            continue
        else:
            return None
    return total + (current or 0)


def as_value(value: Any) -> Any:
    """The value a model meant: ``"true"``/``"false"`` and ``"yes"``/``"no"`` (any case) are
    booleans; a number spelled out as the whole value ("seventy", "twenty-one") is the number, so
    that "70" and "seventy" are one value of one fact; ``"null"`` (JSON's null written as a string,
    seen on a real model: ``user.sister.birthday = "null"``) is no value."""
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("null", "undefined"):
            return None
        if low in _YES_NO:
            return _YES_NO[low]
        n = spelled_number(low)
        if n is not None:
            return n
    return value


_CURRENCY_SIGNS = {
    "euro": "€",
    "euros": "€",
    "eur": "€",
    "pound": "£",
    "pounds": "£",
    "gbp": "£",
    "quid": "£",
    "dollar": "$",
    "dollars": "$",
    "usd": "$",
    "yen": "¥",
    "jpy": "¥",
}
_MERIDIEM = frozenset({"am", "pm"})
_JOINING = frozenset({"of", "the", "and", "for", "de", "du", "la", "&"})
_ACRONYM = re.compile(r"\b[A-Za-z][A-Za-z&]{1,5}\b")
_TWELVE_HOUR = re.compile(r"\d\s*[ap]\.?\s?m\b", re.I)


def _sign_at_figure(sign: str, text: str) -> bool:
    return re.search(rf"{re.escape(sign)}\s?\d|\d\s?{re.escape(sign)}", text) is not None


def _acronyms(value: str) -> set[str]:
    """Tokens of ``value`` written as acronyms: two to six letters, at least two of them capitals."""
    return {t.lower() for t in _ACRONYM.findall(value) if sum(c.isupper() for c in t) >= 2}


def _spells(acronym: str, words: Sequence[str]) -> bool:
    """Do consecutive ``words`` (joining words may be skipped or spelled) have ``acronym`` as
    their initials?"""
    letters = acronym.replace("&", "")
    for start in range(len(words)):
        if words[start] in _JOINING or not words[start] or words[start][0] != letters[0]:
            continue
        i, j = 0, start
        while j < len(words) and i < len(letters):
            w = words[j]
            if w and w[0] == letters[i]:
                i += 1
            elif w not in _JOINING:
                break
            j += 1
        if i == len(letters):
            return True
    return False


def said_otherwise(
    missing: Sequence[str],
    value: str,
    value_words: Sequence[str],
    turn_words: Sequence[str],
    turn_text: str,
    stem: Callable[[str], str],
) -> list[str]:
    """The words of ``missing`` (words of ``value`` not found in the turn) that the turn does not
    say in another form either. ``value_words``: the value's words in order; ``turn_words`` the
    turn's (lower case, in order); ``stem`` compares words the way the caller does."""
    if not missing:
        return []
    turn_stems = {stem(w) for w in turn_words}
    joined_turn = {stem(a + b) for a, b in zip(turn_words, turn_words[1:], strict=False)}
    acronyms = _acronyms(value)
    twelve_hour = _TWELVE_HOUR.search(value) is not None
    left: list[str] = []
    for w in missing:
        i = value_words.index(w) if w in value_words else -1
        neighbours = [value_words[k] for k in (i - 1, i + 1) if i >= 0 and 0 <= k < len(value_words)]
        if w in _CURRENCY_SIGNS and _sign_at_figure(_CURRENCY_SIGNS[w], turn_text):
            continue
        if w in _MERIDIEM and twelve_hour:
            continue
        if stem(w) in joined_turn:  # "puregym" said as "Pure Gym"
            continue
        if any(stem(w + n) in turn_stems or stem(n + w) in turn_stems for n in neighbours):  # "Pure Gym"
            continue
        if w in acronyms and _spells(w, turn_words):
            continue
        left.append(w)
    return left


def twelve_hour_forms(written: str, forms: set[str]) -> set[str]:
    """The forms a figure of a value is checked by: a 12-hour time (``11:30pm``) by its 24-hour
    form only, not by its bare hour, so that the other half of the day does not ground it."""
    if _TWELVE_HOUR.search(written):
        return {f for f in forms if ":" in f} or forms
    return forms


_CLOCK = re.compile(
    r"\b(?:at|by|from|until|till|to|before|after|around|about)\s+(\d{1,2})(?::([0-5]\d))?(?![\d:.,])"
    r"(?!\s*(?:am|pm|a\.m|p\.m|%|percent|[kcm]?m\b|kg|mg|g\b|lbs?|miles?|hours?|hrs?|minutes?|mins?|days?|weeks?"
    r"|months?|years?|people|persons?|times|kids|euros?|dollars?|pounds?|st\b|nd\b|rd\b|th\b|k\b))",
    re.IGNORECASE,
)
"""An hour said without am/pm after a word of time ("in bed by 11", "open at 7 and close at 3")."""


def number_forms(words: Sequence[str], text: str, at: datetime | None = None) -> set[str]:
    """The normal forms of every figure the text offers (``services/grounding.py``), of its number
    words, of an hour said without am/pm (both readings: "by 11" is 11:00 or 23:00), and, when the
    turn's time ``at`` is known, of its dates said relative to it ("tomorrow", "on the 30th" — the
    last one and the next one)."""
    forms = set(_figure_forms(text))
    joined = " ".join(words)
    for word, n in NUMBER_WORDS.items():
        if f" {word} " in f" {joined} ":
            forms.add(str(n))
    forms |= {str(ORDINAL_WORDS[w]) for w in words if w in ORDINAL_WORDS}  # "in third grade": 3
    for m in _CLOCK.finditer(text):
        h, mm = int(m.group(1)), m.group(2) or "00"
        if 1 <= h <= 12:
            forms |= {f"{h}:{mm}", f"{h % 12 + 12}:{mm}", f"{h % 12}:{mm}"}
    for day, granularity in turn_dates(text, at):
        forms |= {f"{day.year:04d}-{day.month:02d}", f"{day.year:04d}"}
        if granularity in ("day", "minute"):
            forms |= {day.isoformat(), f"--{day.month:02d}-{day.day:02d}", str(day.day)}
    return forms


@lru_cache(maxsize=512)
def turn_dates(text: str, at: datetime | None) -> tuple[tuple[date, str], ...]:
    """The days (and months, years) the text names relative to ``at``, each in both readings."""
    if at is None or at.tzinfo is None:
        return ()
    out: list[tuple[date, str]] = []
    for tense in (None, "future"):
        for r in find_times(text, at, tense=tense):
            out.append((r.at.astimezone(at.tzinfo).date(), r.granularity))
    return tuple(out)


NONE_WORDS = frozenset({"none", "nothing", "nobody", "no one", "n/a"})


def says_none(value: Any) -> bool:
    """Whether a value says there is none ("none", "nobody"): no value of the key's thing."""
    return isinstance(value, str) and value.strip().lower() in NONE_WORDS
