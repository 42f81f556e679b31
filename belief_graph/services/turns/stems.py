"""Light stems for comparing a model's words with a turn's (pure functions): ``stocks`` = ``stock``,
``aggressively`` = ``aggressive``, ``allergic`` = ``allergy``, ``Tue`` = ``Tuesday``; the function words
that carry no meaning of their own; and the words of an identifier (``growth_funds``, ``GrowthFunds``).
Shared by extraction grounding, revisit and answers."""

from __future__ import annotations

import re

from .clauses import tokens

__all__ = ["STOP_WORDS", "content_stems", "key_stems", "split_ident", "stem"]

STOP_WORDS = frozenset(
    """a an the and or but of to in on at for from by with about as is are was were be been being am i i'm im me my
    mine we our you your he she it its they them their this that these those there here has have had do does did
    not no so very really just also too than then now currently user user's users his her hers who which what
    s t will would can could should may might must into over under per each every some any all more most less
    like likes liked prefers prefer wants want kind type value""".split()
)
_SUFFIXES = ("ingly", "edly", "ness", "ment", "ings", "ing", "ies", "ied", "ers", "est", "ed", "es", "er", "ly", "s")


_ABBREVIATIONS = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december", "mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
    "thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday",
    "sun": "sunday",
}  # fmt: skip
"""Months and weekdays as they are written short ("Tue 24 Feb"): one word with their full names."""


def stem(word: str) -> str:
    word = _ABBREVIATIONS.get(word, word)
    w = word.removesuffix("'s").replace("'", "")
    if w.endswith("ies") and len(w) <= 6:  # "flies" = "fly", "tries" = "try"
        w = w[:-3] + "y"
    for suf in _SUFFIXES:
        if len(w) - len(suf) >= 3 and w.endswith(suf):
            w = w[: -len(suf)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    elif w.endswith("ic") and len(w) > 5:  # "allergic" = "allergy", "economic" = "economy"
        w = w[:-2]
    elif w.endswith("y") and len(w) > 3 and w[-2] not in "aeiouy":  # "allergy" = "allergies", "study" = "studied"
        w = w[:-1]
    return w


def content_stems(text: str) -> set[str]:
    """The light stems of a text's content words (no function words, no single letters)."""
    return {stem(w) for w in tokens(text) if w not in STOP_WORDS and len(w) > 1}


def key_stems(key: str) -> set[str]:
    """The light stems of a key's attribute words, its last segment (``user.code_editor``: code, editor)."""
    return {stem(w) for w in split_ident(key.rsplit(".", 1)[-1]) if w not in STOP_WORDS and len(w) > 1}


def split_ident(text: str) -> list[str]:
    """Words of an identifier or value: ``growth_funds``, ``GrowthFunds``, ``new-york``."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return tokens(re.sub(r"[_./\-]+", " ", spaced))
