"""Grounding one extracted fact in ``remember``: the turn first, then what memory and the model's
own statement add (pure functions; the rules are :mod:`belief_graph.services.turns.extraction_grounding`).

1. **The turn**: :func:`~.extraction_grounding.check_fact` on the fact as the model gave it.
2. **What memory holds**: refused, but the fact's key holds a current belief, the check is made
   again knowing it: an edit of the held value states only what changed ("Lessons are at 11 now,
   not 10" for a held "Saturdays 10:00"), and "Jess moved out" states ``none`` for a held Jess.
3. **The statement's own form of the value**: still refused, the model gave the value as a
   proper name the turn does not say ("Wien", "CDMX", "Golang") while its own statement names it
   in the turn's words ("The user lives in Vienna"): when the statement names exactly one name
   (not a month or a weekday), it shares no word with the value and it is grounded where the value
   would be, memory keeps the turn's form. (A name that is part of the value, "Pixel" of "Pixel 9", is the value with something the
   turn does not say: refused.) The statement is what the
   model says the turn asserts; its value field is one more place for a model to drift.

4. **A value the speaker takes up**: still refused, a value the turn names where it states nothing
   (a request, somebody else's words) and a later clause of the speaker's takes up with a pro-form
   ("Could you send the filter to Leipzig instead of Hamburg? I moved there") is kept, with where it
   was named and the words that took it up (:mod:`.anaphora`).
5. **An inference on its evidence**: still refused, a value the turn does not say at all but the
   model concluded, citing the turn's words it rests on ("Sam and I broke up" for ``single``), is
   kept as an inference when the citation holds (:mod:`.inference`); ``remember`` then takes it as
   ``policy.inferences`` says (any, only for a fact memory holds, or none).

A value the turn does not state in any of these ways stays refused, with the turn's reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...llm.jobs import ExtractedFact
from ..temporal import MONTH_NAMES, WEEKDAY_NAMES
from .anaphora import check_taken_up
from .clauses import tokens
from .extraction_grounding import FactCheck, check_fact
from .inference import check_inference
from .stems import stem

__all__ = ["Grounded", "ground_fact", "statement_names"]


@dataclass(frozen=True)
class Grounded:
    """The fact to keep (its value possibly in the turn's form) and the check that decided it."""

    fact: ExtractedFact
    check: FactCheck
    note: str = ""
    """Set when the value was taken in the statement's form ("value 'Wien' read as 'Vienna' ...") or
    taken up by the speaker's pro-form ("value 'Leipzig' named in ..., taken up by 'I moved there'")."""
    inferred_from: str | None = None
    """The turn's words an inferred value rests on (rule 5); None for a value the turn states."""


_NAME = re.compile(
    r"(?<![\w'’])([A-Z][\w’'-]*(?:\.[\w’'-]+)*(?:\s+(?:of|de|da|do|del|la|le|von|van)?\s*[A-Z][\w’'-]*(?:\.[\w’'-]+)*)*)"
)
"""A run of capitalised words ("Mexico City", "University of Leeds"); a full stop ends it."""
_TIME_STEMS = frozenset(stem(w) for w in MONTH_NAMES + WEEKDAY_NAMES)
"""Months and weekdays, by stem: "Tuesdays" is a weekday too."""


def statement_names(text: str) -> list[str]:
    """The proper names of a statement ("The user lives in Mexico City": "Mexico City"), the words
    that open its sentences, months and weekdays, and possessives ("Chloe's cat") left out: a
    possessive names whose fact it is."""
    out = []
    for m in _NAME.finditer(text):
        name = m.group(1).rstrip(".,;:")
        opens = m.start() == 0 or text[: m.start()].rstrip().endswith((".", "!", "?", ":"))
        if opens or name.endswith(("'s", "’s")) or name in out or {stem(t) for t in tokens(name)} <= _TIME_STEMS:
            continue  # a sentence's capital says nothing ("... last week! Still living out of boxes")
        out.append(name)
    return out


def ground_fact(
    f: ExtractedFact, turn: str, *, user: bool, at: datetime | None, held: Callable[[str | None], Any]
) -> Grounded:
    """Whether ``f`` is grounded in ``turn`` (module docstring); ``held(key)`` is the value of the
    key's current belief, or None."""
    check = check_fact(f.key, f.value, f.text, turn, speaker_is_user=user, at=at)
    if check.grounded:
        return Grounded(f, check)
    now = held(f.key)
    if now is not None:
        again = check_fact(f.key, f.value, f.text, turn, speaker_is_user=user, at=at, held=now)
        if again.grounded:
            return Grounded(f, again)
    if isinstance(f.value, str) and f.value[:1].isupper():
        names = statement_names(f.text)
        own = set(tokens(f.value))  # a name sharing a word with the value is a part of it, no other form
        found = [
            n
            for n in names
            if not own & set(tokens(n)) and check_fact(f.key, n, f.text, turn, speaker_is_user=user, at=at).grounded
        ]
        if len(names) == 1 and len(found) == 1:
            note = f"value {f.value!r} read as {found[0]!r}, the statement's form, which the turn states"
            return Grounded(f.model_copy(update={"value": found[0]}), FactCheck(True), note)
    taken = check_taken_up(f, turn, user=user)
    if taken.grounded:
        return Grounded(f, taken, taken.reason)
    if f.evidence:
        inferred = check_inference(f, turn, user=user, at=at)
        if inferred.grounded:
            return Grounded(f, inferred, inferred_from=f.evidence.strip())
        return Grounded(f, FactCheck(False, f"{check.reason}; not taken as an inference: {inferred.reason}"))
    return Grounded(f, check)
