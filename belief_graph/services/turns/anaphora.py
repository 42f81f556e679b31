"""A value the turn names where it states nothing, taken up by the speaker's own pro-form (pure
functions).

People name the new value in a request or in somebody else's words and then say, in a clause of
their own, that it is theirs: "Could you send the filter to Leipzig instead of Hamburg? **I moved
there** in January", "my coach reckons sub-3:45 is on for Berlin and **I'm going for it**".
Grounding (:mod:`.extraction_grounding`) refuses the value, rightly for its own clause (a request
states nothing; the coach's words are the coach's), and an inference (:mod:`.inference`) is only
for a value the turn does not say at all; refusing it leaves the old value current, a stale answer.
The engine does not resolve the pro-form (that is a parser's work, and "there" might point at
Hamburg as well); it checks that the value the model chose is a **possible antecedent** of a
pro-form by which the speaker takes something up, and keeps the fact when:

1. the fact is about the speaker alone (``user.city``, not ``user.sister.city``), told by a user:
   the speaker's clause makes it the speaker's fact, and nobody else's;
2. the value is **named** in the turn (its words in a row) in a clause that does not assert it of
   the speaker, and not as the alternative turned down: "instead of Hamburg", "rather than",
   "better than email", "not Hamburg" name what the speaker does not take;
3. a **later clause** of the same sentence or the next is the speaker's own assertion (no other
   person its subject, not negated, not a question, a request or a hypothetical, no modal: "I'll
   move there" is a plan) and holds a pro-form standing for a thing: ``there`` for a value named
   after a preposition of place ("to Leipzig", "in Porto"), ``it`` (not opening the clause, not
   followed by a form of *be*: "it's raining" points at nothing) for any value; not ``that``, which
   mostly joins clauses ("now that I'm down to one coffee");
4. that clause says the speaker **took it up**: a change ("moved", "switched", "started", "bought":
   :func:`~.clause_words.says_change`) or a choice ("going for", "went with", "decided on", "signed
   up for", "booked"). "Should I move to Lisbon? I've always loved it there" takes nothing up.

``remember`` reports a fact kept this way among its warnings, with where its value was named and the
words that took it up.
"""

from __future__ import annotations

from ...llm.jobs import ExtractedFact
from .clause_words import IRREALIS_MODALS, NEGATIONS, says_change
from .clauses import Clause, clauses, tokens
from .extraction_grounding import FactCheck, about_speaker_only
from .value_forms import as_value

__all__ = ["check_taken_up"]

_PLACE_PREPOSITIONS = frozenset("to in at near into from around".split())
"""What a value named after one of these is a place: ``there`` may stand for it."""
_TURNED_DOWN = (("instead", "of"), ("rather", "than"), ("than",), ("not",), ("except",), ("but", "not"))
"""Words before a value that turn it down: what follows them is the alternative not taken."""
_BE = frozenset("is are was were be been being isn't wasn't".split())
_OPENERS = frozenset("and so but then also".split())
"""Conjunctions a clause may open with before its subject ("and I'm going for it")."""
_CHOICES = (
    ("going", "for"),
    ("go", "for"),
    ("went", "for"),
    ("going", "with"),
    ("go", "with"),
    ("went", "with"),
    ("decided", "on"),
    ("settled", "on"),
    ("opted", "for"),
    ("signed", "up"),
    ("chose",),
    ("picked",),
    ("booked",),
    ("took",),
)
"""The speaker choosing what was named: with a pro-form ("I'm going for it", "I booked it")."""


def _run_at(needle: list[str], hay: list[str]) -> int:
    """Where ``needle`` starts as a run of ``hay``, or -1."""
    n = len(needle)
    return next((i for i in range(len(hay) - n + 1) if hay[i : i + n] == needle), -1)


def _turned_down(before: list[str]) -> bool:
    return any(tuple(before[-len(p) :]) == p for p in _TURNED_DOWN if len(before) >= len(p))


def _pro_forms(words: list[str], place: bool) -> bool:
    """Whether the clause's words hold a pro-form that may stand for the value (rule 3)."""
    lead = 0
    while lead < len(words) and words[lead] in _OPENERS:
        lead += 1
    for i, w in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else ""
        if w == "there" and place and after not in _BE and i > lead:
            return True
        if w == "it" and i > lead and after not in _BE:
            return True
    return False


def _takes_up(clause: Clause, words: list[str]) -> bool:
    """Rules 3 and 4 but the pro-form: the speaker's own plain assertion of a change or a choice."""
    if clause.mood != "assert" or clause.party is not None:
        return False
    if any(w in NEGATIONS or w.endswith("n't") or w in IRREALIS_MODALS for w in words):
        return False
    chose = any(_run_at(list(p), words) >= 0 for p in _CHOICES)
    return chose or says_change(clause.text)


def check_taken_up(f: ExtractedFact, turn: str, *, user: bool) -> FactCheck:
    """Whether ``f``'s value, named in the turn where it is not stated, is taken up by the speaker
    (the module docstring's four rules); ``reason`` says where it was named and by what, or why not."""
    value = as_value(f.value)
    if not user or not about_speaker_only(f.key):
        return FactCheck(False, "only a fact about the speaker is taken up by the speaker's words")
    if not isinstance(value, str) or not tokens(value):
        return FactCheck(False, "no value named to take up")
    needle = tokens(value)
    cls = clauses(turn)
    for i, c in enumerate(cls):
        words = tokens(c.text)
        at = _run_at(needle, words)
        if at < 0 or _turned_down(words[:at]) or (c.mood == "assert" and c.party is None):
            continue  # not named, named as the alternative turned down, or stated by the speaker
        place = at > 0 and words[at - 1] in _PLACE_PREPOSITIONS
        for later in cls[i + 1 :]:
            if later.sentence > c.sentence + 1:
                break
            lw = tokens(later.text)
            if _takes_up(later, lw) and _pro_forms(lw, place):
                return FactCheck(True, f"value {f.value!r} named in {c.text!r}, taken up by {later.text!r}")
    return FactCheck(False, f"value {f.value!r} is taken up by no clause of the speaker's")
