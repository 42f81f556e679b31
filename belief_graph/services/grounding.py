"""The programmatic grounding check of an answer (DESIGN.md §2, "Grounding"). Pure functions.

An answer passes when

* it is exactly ``unknown`` (no citation needed), or it cites at least one belief;
* every citation is one of the beliefs it was given (the working context);
* every **figure** in the answer — numbers, percentages, amounts, years, times and dates in
  common formats (``2027-03-31``, ``31/03/2027``, ``31 March 2027``, ``March 31``) — appears in a
  cited belief's text, key or value (compared in a normal form: ``1,200`` = ``1200``,
  ``12.0`` = ``12``, a date = ``YYYY-MM-DD``/``MM-DD``);
* every **named value** in the answer appears (case-insensitively, as a word) in a cited belief
  or in the question: a capitalised word that does not start a sentence, a quoted string, and any
  word that is the value of a belief in the context but of none the answer cites (an answer
  naming ``Porto`` must cite the belief that says Porto).

The check is deliberately conservative: a false rejection turns an answer into ``unknown``, a
false acceptance would state something memory was never told.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "GroundingProblem",
    "check_grounding",
    "extract_figures",
    "extract_named_values",
    "is_unknown",
]

_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for m in names
}
_MONTH_RE = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_ISO_DATETIME = re.compile(
    r"\b(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d:])"
)
"""A timestamp (a belief's ``since``: ``2026-12-07T01:58:12.123+00:00``) is one date and one time,
never the numbers 2026, 12 and 7 that would ground an invented "7%"."""
_ISO_MONTH = re.compile(r"\b(\d{4})-(\d{2})\b(?!-\d)")
_PHONE = re.compile(r"(?<![\w.])(\+\d{1,3}[\s-]?)?(\(?\d{1,5}\)?(?:[\s.-]\d{2,6}){1,5})(?!\w|[.,]\d)")
_SLASH_DATE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + _MONTH_RE + r")(?:,?\s+(\d{4}))?\b", re.I)
_MONTH_DAY = re.compile(r"\b(" + _MONTH_RE + r")\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", re.I)
_MONTH_YEAR = re.compile(r"\b(" + _MONTH_RE + r")\s+(\d{4})\b", re.I)
_TIME = re.compile(r"\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b")
_TIME_12H = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.I)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?:[kKmM]\b)?")
_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")
_QUOTED = re.compile(r"[\"“]([^\"”]{2,60})[\"”]")

# Words that may start a sentence (or appear capitalised) without naming a value.
_COMMON = frozenset(
    """a an the this that these those it its it's he she they them their his her hers our ours we i you your
    yours my mine me us there here yes no not none nothing unknown according based as in on at for from to by with
    of and or but if when while since because so then also however therefore currently now today memory user
    user's users agent project team the answer note is are was were be been has have had do does did will would can
    could should may might must about after before during per each every all some any most more less than one
    mr mrs ms dr""".split()
)
_MONTH_WORDS = frozenset(_MONTHS)
_WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())


@dataclass(frozen=True)
class GroundingProblem:
    """One reason an answer is not grounded (``kind``: citation, figure, name, empty)."""

    kind: str
    detail: str

    def __str__(self) -> str:
        return self.detail


def is_unknown(text: str) -> bool:
    """``unknown`` (any case, optional final period) means memory does not know."""
    return text.strip().lower().rstrip(".!") == "unknown"


def _num(s: str) -> str:
    """Normal form of a number: no thousands separators, no trailing zero decimals, k/m expanded."""
    s = s.strip().lstrip("+")
    mult = 1
    if s[-1:] in ("k", "K"):
        mult, s = 1000, s[:-1]
    elif s[-1:] in ("m", "M"):
        mult, s = 1_000_000, s[:-1]
    s = s.replace(",", "")
    try:
        v = float(s) * mult
    except ValueError:
        return s
    if v == int(v):
        return str(int(v))
    return repr(v).rstrip("0").rstrip(".")


def _month(m: str) -> int:
    return _MONTHS[m.lower().rstrip(".")]


def _date(y: int | None, mo: int, d: int | None) -> str | None:
    if not 1 <= mo <= 12 or (d is not None and not 1 <= d <= 31):
        return None
    if y is not None and y < 100:
        y += 2000
    if d is None:
        return f"{y:04d}-{mo:02d}" if y is not None else None
    return f"{y:04d}-{mo:02d}-{d:02d}" if y is not None else f"--{mo:02d}-{d:02d}"


def extract_figures(text: str) -> list[tuple[str, set[str]]]:
    """Every figure in ``text`` as ``(as written, normal forms)``. A date yields its normal forms
    (``2027-03-31`` and ``--03-31``); ``31/03/2027`` is read day-first and month-first (both forms
    are accepted: the check only needs to know whether a cited belief holds the same date)."""
    out: list[tuple[str, set[str]]] = []
    spans: list[tuple[int, int]] = []

    def add(m: re.Match[str], forms: set[str]) -> None:
        forms = {f for f in forms if f}
        if forms:
            out.append((m.group(0), forms))
            spans.append(m.span())

    def taken(m: re.Match[str]) -> bool:
        a, b = m.span()
        return any(a < e and s < b for s, e in spans)

    for m in _ISO_DATETIME.finditer(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        add(m, {_date(y, mo, d) or "", _date(None, mo, d) or "", f"{int(m.group(4))}:{m.group(5)}"})
    for m in _ISO_DATE.finditer(text):
        if taken(m):
            continue
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        add(m, {_date(y, mo, d) or "", _date(None, mo, d) or ""})
    for m in _ISO_MONTH.finditer(text):  # "2027-08": the month of a year
        if not taken(m):
            add(m, {_date(int(m.group(1)), int(m.group(2)), None) or ""})
    for m in _PHONE.finditer(text):  # "07700 900123" = "07700900123" = "+44 7700 900123"
        digits = re.sub(r"\D", "", m.group(2))
        if taken(m) or len(digits) < 7 or (m.group(1) is None and not digits.startswith("0")):
            continue
        national = digits if digits.startswith("0") else "0" + digits
        add(m, {"tel:" + national})
    for m in _SLASH_DATE.finditer(text):
        if taken(m):
            continue
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        add(m, {_date(y, b, a) or "", _date(y, a, b) or "", _date(None, b, a) or "", _date(None, a, b) or ""})
    for m in _DAY_MONTH.finditer(text):
        if taken(m):
            continue
        d, mo, ys = int(m.group(1)), _month(m.group(2)), m.group(3)
        yy = int(ys) if ys else None
        add(m, {_date(yy, mo, d) or "", _date(None, mo, d) or ""} if yy else {_date(None, mo, d) or ""})
    for m in _MONTH_DAY.finditer(text):
        if taken(m):
            continue
        mo, d, ys = _month(m.group(1)), int(m.group(2)), m.group(3)
        yy = int(ys) if ys else None
        add(m, {_date(yy, mo, d) or "", _date(None, mo, d) or ""} if yy else {_date(None, mo, d) or ""})
    for m in _MONTH_YEAR.finditer(text):
        if taken(m):
            continue
        add(m, {_date(int(m.group(2)), _month(m.group(1)), None) or ""})
    for m in _TIME_12H.finditer(text):  # "5am", "7:30 pm": the 24-hour form too
        if taken(m):
            continue
        h, mm = int(m.group(1)), m.group(2) or "00"
        if 1 <= h <= 12:
            h24 = (h % 12) + (12 if m.group(3).lower() == "p" else 0)
            add(m, {f"{h24}:{mm}", str(h)})
    for m in _TIME.finditer(text):  # "1:46:00" is "1:46"
        if taken(m):
            continue
        add(m, {f"{int(m.group(1))}:{m.group(2)}"} if m.group(3) in (None, "00") else {m.group(0)})
    for m in _NUMBER.finditer(text):
        if taken(m):
            continue
        w = m.group(0)
        phone = {"tel:" + w} if w.isdigit() and w.startswith("0") and len(w) >= 7 else set()
        if w.startswith("+") and w[1:].isdigit() and len(w) >= 11:  # "+33612345678": the country code is 1-3 digits
            phone = {"tel:0" + w[1 + k :] for k in (1, 2, 3)}
        out.append((w, {_num(w)} | phone))
        spans.append(m.span())
    return out


def _figure_forms(text: str) -> set[str]:
    """Every normal form a text offers: its figures, dates, and for a full date its month-day and
    year-month forms and the year (so a belief dated ``2027-03-31`` grounds ``March 2027``)."""
    forms: set[str] = set()
    for _, fs in extract_figures(text):
        forms |= fs
        for f in fs:
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}", f):
                forms |= {f[:7], f"--{f[5:]}", f[:4], str(int(f[5:7])), str(int(f[8:]))}
            elif re.fullmatch(r"\d{4}-\d{2}", f):
                forms |= {f[:4]}
    return forms


def _words(text: str) -> set[str]:
    return {w.lower().strip("'-") for w in _WORD.findall(text)}


def extract_named_values(text: str, known_values: Iterable[str] = ()) -> list[str]:
    """Named values in ``text``: quoted strings; runs of capitalised words (``New York``,
    ``Dana Kim``) minus common words, months and weekdays (a sentence's first word counts only
    when it is not a common word); and any of ``known_values`` (belief values) that occur as words."""
    names: list[str] = []
    quoted = [m.group(1).strip() for m in _QUOTED.finditer(text)]
    names += quoted
    rest = _QUOTED.sub(" . ", text)
    for sentence in re.split(r"[.!?;:]\s+|\n|\[[^\]]*\]|[(),]", rest):
        run: list[str] = []
        for tok in sentence.split() + [""]:
            word = tok.strip("\"'“”‘’.,!?;:")
            low = word.lower()
            if low.endswith("'s"):
                word, low = word[:-2], low[:-2]
            cap = (
                bool(word)
                and word[0].isupper()
                and low not in _COMMON
                and low not in _MONTH_WORDS
                and low not in _WEEKDAYS
                and _WORD.fullmatch(word) is not None
            )
            if cap:
                run.append(word)
            else:
                if run:
                    names.append(" ".join(run))
                run = []
    words = _words(text)
    for v in known_values:
        vw = _words(v)
        if vw and vw <= words and not vw <= _COMMON:
            names.append(v)
    seen: set[str] = set()
    return [n for n in names if not (n.lower() in seen or seen.add(n.lower()))]  # type: ignore[func-returns-value]


def _belief_text(b: Any) -> str:
    parts = [str(getattr(b, "text", "") or "")]
    key = getattr(b, "key", None)
    if key:
        parts.append(str(key).replace(".", " ").replace("_", " "))
    value = getattr(b, "value", None)
    if value is not None:
        parts.append(str(value))
    return " ".join(parts)


def _since_forms(b: Any) -> set[str]:
    """The normal forms of a belief's ``since`` (when it became true): the date, its month of the
    year ("since December 2026") and the time, never their loose numbers (a belief true since the
    7th grounds no "7%")."""
    since = getattr(b, "since", None)
    forms = {f for _, fs in extract_figures(str(since)) for f in fs} if since else set()
    return forms | {f[:7] for f in forms if re.fullmatch(r"\d{4}-\d{2}-\d{2}", f)}


def check_grounding(
    question: str, beliefs: Sequence[Any], text: str, citations: Sequence[str]
) -> list[GroundingProblem]:
    """Problems that keep ``text`` (citing ``citations``) from being grounded in ``beliefs``
    (objects with ``id``, ``text``, ``key``, ``value``: e.g. ``BeliefView``). Empty = grounded."""
    problems: list[GroundingProblem] = []
    ids = {str(b.id) for b in beliefs}
    if not text.strip():
        return [GroundingProblem("empty", "the answer is empty (say 'unknown' when no belief supports one)")]
    if is_unknown(text):
        return []
    unknown_ids = [c for c in citations if c not in ids]
    if unknown_ids:
        problems.append(
            GroundingProblem(
                "citation", f"citations {unknown_ids} are not beliefs of the working context (one of {sorted(ids)})"
            )
        )
    if not citations:
        problems.append(
            GroundingProblem(
                "citation", "the answer cites no belief: cite the beliefs it uses, or answer exactly 'unknown'"
            )
        )
    cited = [b for b in beliefs if str(b.id) in set(citations)]
    cited_text = " ".join(_belief_text(b) for b in cited)
    cited_forms = _figure_forms(cited_text) | {f for b in cited for f in _since_forms(b)}
    stray = []
    for written, forms in extract_figures(text):
        if not forms & cited_forms:
            stray.append(written)
    if stray:
        problems.append(
            GroundingProblem(
                "figure", f"figures {stray} appear in no cited belief: state only figures the cited beliefs contain"
            )
        )
    allowed = _words(cited_text) | _words(question)
    allowed_low = cited_text.lower() + " " + question.lower()
    values = [str(b.value) for b in beliefs if isinstance(getattr(b, "value", None), str)]
    unnamed = []
    for name in extract_named_values(text, values):
        nw = _words(name)
        if not nw or nw <= allowed or name.lower() in allowed_low:
            continue
        unnamed.append(name)
    if unnamed:
        problems.append(
            GroundingProblem(
                "name", f"named values {unnamed} appear in no cited belief: name only what the cited beliefs say"
            )
        )
    return problems
