"""Grounding of extracted facts (the write side of DESIGN.md §2 "Grounding"). Pure functions.

A chat model that extracts facts from a turn may invent: a value from a question ("What's the
weather like today?" -> ``weather = sunny``), a value copied from the prompt's own example, a
normalised value the speaker never said, the city of a hypothetical ("if I moved to Berlin..."),
another person's attribute as the user's ("my boss is vegan" -> ``user.diet = vegan``). Memory must
not *store* what the turn does not assert, whatever the model, so ``remember`` checks every
extracted fact against the turn it came from before anything is written, and records each refusal
with its reason. People also state facts inside questions and requests ("Can you suggest a gift for
my sister, who turns 30 in May?"), so the check judges each **fact** against the parts of the turn
that assert something, never the turn's punctuation:

1. **The turn** is cut into clauses, each with a mood (``services/turns/clauses.py``): ``assert``,
   ``question``, ``hypothetical``, ``negated`` or ``small_talk``. What the turn *asserts* is its
   ``assert`` clauses (subordinate clauses that presuppose their content included: "because I'm
   vegetarian", ", who turns 30 in May") and the possessive phrases of its questions and requests
   ("a good gym near my new flat in Porto"). Only a turn that is nothing but small talk skips the
   model call (:func:`turn_kind`).
2. **The value** must be stated in what the turn asserts:

   * a number: the same number is written there (``1,200`` = ``1200``, ``80k`` = ``80000``) or
     spelled out (``three`` = 3, up to ``twenty`` and the tens); a value the model spelled out
     (``"seventy"``) is the number (:func:`as_value`);
   * a string with figures (a date, an amount, a time): each figure appears there in any common
     format (``2027-03-31`` = ``31 March 2027``, the normal forms of the answer-grounding check),
     with its unit written apart or not (``50 mg`` = ``50mg``); an hour said without am/pm after a
     word of time is either reading ("in bed by 11" states ``23:00``); and, when the turn's time is
     known, a date said relative to it is the date it names ("tomorrow", "on the 30th" — the last
     or the next —, "this Friday", "next month"), so a model that resolved it is not refused;
   * a string: each of its content words appears there, compared by a light stem (``stocks`` =
     ``stock``, ``aggressively`` = ``aggressive``); a value of three or more parts (content words
     and figures) may miss a third of its words (a paraphrased list, "Mercy General Hospital" for
     "Mercy General", "2014 Honda Civic" for "my 2014 Civic"); a value made only of common words
     (``May``, ``no``) needs those words; a value that carries its own negation ("no meat",
     "non-smoker") may come from a negated clause; a word the turn says in another form is said
     (``services/turns/value_forms.py``: a currency word by its sign, am/pm by the time, a compound
     written in one word or two, an acronym by the words it spells), and so is a number spelled
     out inside the value ("ten weeks" by "10 weeks old") and a phone number however spaced;
   * ``none`` (``nothing``, ``nobody``): the key's thing said with a negation before it ("no known
     allergies"), a verb that ends it ("left the band") or "-free" after it ("car-free");
   * a boolean: ``true`` needs the key's own words (``user.vegetarian`` in "I'm vegetarian") in an
     asserting clause, ``false`` in a negated one ("I'm not vegetarian any more");
   * no value: at least half the content words of the fact's text appear there, and a key's own
     words (its last segment) are not all missing from them.
   An agent's record relays documents: what it quotes ("Email digest: '2 nights from 14 Oct'")
   is asserted by the record; a person's quotation is somebody else's words.
3. **Whose fact**: a fact under a key about the speaker (``user.*``) whose value the turn states
   only of a person of the speaker's life ("my brother lives in Lyon") is refused unless the key
   names that person (``user.brother.city``); so is one whose attribute the turn gives only as
   someone else's ("her birthday's on the 28th" for ``user.birthday``); and the other way round,
   a key about such a person (``user.boss.diet``) for a value the speaker says of themself ("For
   the record I'm the opposite of vegan, pescatarian").

A value the model wrote as the string ``"true"``/``"false"`` or ``"yes"``/``"no"`` is a boolean
(:func:`as_value`). A
refused value that the turn does say in a question, a hypothetical or a negation is refused with
that reason ("'Berlin' is said only in a hypothetical: 'if I moved to Berlin I'd learn German'").

The check is deliberately conservative: a fact whose value the model normalised
(``America/New_York`` for "I'm on Eastern time") is refused — a false refusal loses one fact
(recorded, with its reason, on the episode), a false acceptance would store something memory was
never told.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from ..grounding import _figure_forms
from ..temporal import MONTH_NAMES, WEEKDAY_NAMES
from .clauses import NAMED, PARTY_GROUPS, Clause, Mood, clauses, party_of, tokens
from .stems import STOP_WORDS, content_stems, key_stems, split_ident, stem
from .value_forms import (
    SPELLED_NUMBERS,
    as_value,
    number_forms,
    said_otherwise,
    says_none,
    turn_dates,
    twelve_hour_forms,
)

_PARTY_NAMES = frozenset(w for g in PARTY_GROUPS for w in g)

__all__ = [
    "FactCheck",
    "about_speaker_only",
    "asserted_stems",
    "check_fact",
    "content_stems",
    "key_stems",
    "parties_saying",
    "turn_kind",
]

TurnKind = Literal["statement", "question", "small_talk"]


_NEGATION_IN_VALUE = frozenset("no not non never without none free".split())
_NEGATIVE_KEY_WORDS = frozenset(
    """dislike dislikes allergy allergies allergic avoid avoids avoided intolerance intolerant hate hates
    restriction restrictions phobia phobias fear fears never not no without cannot cant dont won wont""".split()
)
"""A key whose attribute is itself negative (``user.food_dislike``, ``user.son.allergy``): its value is
stated by a negated clause ("I can't stand mushrooms", "he can't have eggs")."""
_NEGATION_WORDS = frozenset(
    """not no never none nothing neither nor without cannot nope dont doesnt didnt isnt arent wasnt werent cant
    wont wouldnt shouldnt havent hasnt hadnt""".split()
)


def _negative_key(key: str | None) -> bool:
    return bool(key) and any(w in _NEGATIVE_KEY_WORDS for w in split_ident(key or ""))


@dataclass(frozen=True)
class FactCheck:
    """Whether a fact is grounded in its source turn; ``reason`` says why not (one line)."""

    grounded: bool
    reason: str = ""


def turn_kind(text: str) -> TurnKind:
    """``small_talk`` when the turn is nothing but greetings, thanks and acknowledgements (no model
    call is made for it); ``statement`` when a clause asserts or denies something; else
    ``question`` (questions, requests and hypotheticals only: it still reaches extraction, since
    their possessive phrases and subordinate clauses can state facts)."""
    moods = {c.mood for c in clauses(text)}
    if moods <= {"small_talk"}:
        return "small_talk"
    if moods & {"assert", "negated"}:
        return "statement"
    return "question"


_UNIT_TOKEN = re.compile(r"(\d+(?:[.,]\d+)?)([a-z]+)")


def _unit_split(token: str) -> tuple[str, ...]:
    m = _UNIT_TOKEN.fullmatch(token)
    return (m.group(1), m.group(2)) if m else (token,)


def _said_stems(words: Sequence[str], text: str, at: datetime | None) -> set[str]:
    """Stems the text offers beyond its own words: the unit of a figure written with it ("50mg"
    offers "mg"), and the month and weekday of a date said relative to the turn ("tomorrow")."""
    out = {stem(m.group(2)) for w in words if (m := _UNIT_TOKEN.fullmatch(w))}
    for day, granularity in turn_dates(text, at):
        out.add(stem(MONTH_NAMES[day.month - 1]))
        if granularity in ("day", "minute"):
            out.add(stem(WEEKDAY_NAMES[day.weekday()]))
    return out


def _num_form(value: float) -> str:
    return str(int(value)) if float(value) == int(value) else repr(float(value)).rstrip("0").rstrip(".")


def _content(words: Iterable[str]) -> list[str]:
    """Words that carry the meaning: no stop words, nothing with a digit (figures are compared
    as figures)."""
    return [t for t in words if t not in STOP_WORDS and not any(c.isdigit() for c in t)]


def _word_hits(words: Sequence[str], stems: set[str]) -> list[str]:
    """The words of ``words`` missing from ``stems`` (compared by stem)."""
    return [w for w in words if stem(w) not in stems]


@dataclass(frozen=True)
class _Part:
    """A piece of the turn that asserts (or denies) something, with whose fact it states."""

    text: str
    mood: Mood
    party: str | None
    words: tuple[str, ...]
    subject: str | None = None
    """The name a clause of a :data:`NAMED` party opens with."""
    sentence: int = 0
    """The sentence of the turn the part is in."""

    @property
    def stems(self) -> set[str]:
        return {stem(t) for t in self.words}


def _is_negation(word: str) -> bool:
    return word in _NEGATION_WORDS or word.endswith("n't")


def _parts(source_text: str, *, relayed: bool = False) -> tuple[list[_Part], list[Clause]]:
    """The asserting and negated parts of the turn (clauses, and the possessive phrases of its
    questions and hypotheticals), and every clause (for the reasons of refusals). A negation
    governs what follows it: in "Priyanka swears by Vim and says 'real engineers don't...'" and
    "Pickle can't hold it", Vim and Pickle are asserted. ``relayed``: the turn is an agent's
    record, whose quotations are what it relays ("Email digest: '2 nights from 14 Oct'"), so a
    quoted statement asserts what it says; a person's quotation is somebody else's words."""
    cls = clauses(source_text)
    parts: list[_Part] = []
    for c in cls:
        words = tokens(c.text)
        mood = c.mood
        if mood == "quoted" and relayed:
            mood = "negated" if any(_is_negation(w) for w in words) else "assert"
        n = c.sentence
        if mood == "assert":
            parts.append(_Part(c.text, "assert", c.party, tuple(words), c.subject, n))
        elif mood == "negated":
            cut = next((i for i, w in enumerate(words) if _is_negation(w)), 0)
            if cut:
                parts.append(_Part(" ".join(words[:cut]), "assert", c.party, tuple(words[:cut]), c.subject, n))
            parts.append(_Part(" ".join(words[cut:]), "negated", c.party, tuple(words[cut:]), c.subject, n))
        for span in c.presupposed:
            sw = tokens(span)
            if sw and sw[0].endswith("'s") and sw[0] not in ("my", "our"):  # "Anjali's birthday on July 22"
                parts.append(_Part(span, "assert", NAMED, tuple(sw), sw[0].removesuffix("'s"), n))
            else:
                parts.append(_Part(span, "assert", party_of(sw, predicate=False), tuple(sw), None, n))
    return parts, cls


def asserted_stems(source_text: str, *, speaker_is_user: bool = True) -> set[str]:
    """The stems of the words the turn asserts or denies (its ``assert`` and ``negated`` parts, the
    possessive phrases of its questions included): what it says, not what it asks or supposes."""
    parts, _ = _parts(source_text, relayed=not speaker_is_user)
    return {s for p in parts for s in p.stems}


def parties_saying(
    source_text: str, stems: set[str], *, speaker_is_user: bool = True
) -> list[tuple[str | None, str | None]]:
    """Whose fact each asserting part holding one of ``stems`` states, as ``(party, name)``: party
    None for the speaker's own, a party word ("brother") or :data:`NAMED` for another person's;
    name: the name a :data:`NAMED` part opens with ("ava")."""
    parts, _ = _parts(source_text, relayed=not speaker_is_user)
    return [(p.party, p.subject) for p in parts if p.stems & stems]


def about_speaker_only(key: str | None) -> bool:
    """A key about the speaker that names nobody else (``user.birthday``, not ``user.sister.birthday``)."""
    return _about_speaker(key) and not any(_key_names_party(key, w) for g in PARTY_GROUPS for w in g)


_MOOD_NAMES = {
    "question": "a question",
    "request": "a request",
    "hypothetical": "a hypothetical",
    "negated": "a negation",
    "quoted": "a quotation",
    "small_talk": "small talk",
}


def _elsewhere(found: Callable[[Sequence[str], str], bool], cls: Sequence[Clause], shown: str) -> str:
    """Why a value the asserting parts do not state was refused: where the turn does say it."""
    for c in cls:
        if c.mood != "assert" and found(tokens(c.text), c.text):
            text = c.text if len(c.text) <= 80 else c.text[:77] + "..."
            return f"value {shown} is said only in {_MOOD_NAMES[c.mood]}: {text!r}"
    return ""


def _key_names_party(key: str | None, party: str) -> bool:
    if not key:
        return False
    words = {stem(w) for w in split_ident(key)}
    if party == NAMED:  # a named person may be any party the key names ("Finn" for user.son.birthday)
        return any(stem(w) in words for g in PARTY_GROUPS for w in g)
    group = next((g for g in PARTY_GROUPS if party in g), frozenset({party}))
    return any(stem(w) in words for w in group)


_THIRD_PERSON = frozenset("her his their its".split())


def _about_speaker(key: str | None) -> bool:
    return bool(key) and key.split(".", 1)[0].lower() in ("user", "me", "self", "i", "my")  # type: ignore[union-attr]


def _whose(
    key: str | None, holding: Sequence[_Part], shown: str, value_words: Sequence[str] = (), first_person: bool = True
) -> FactCheck:
    """Refuse a fact about the speaker that the turn states only of another person (or of a named
    one: "Ollie moved to Glasgow")."""
    if not holding or not _about_speaker(key) or not first_person:
        return FactCheck(True)
    own = set(value_words) | {stem(w) for w in split_ident(key or "")}
    attribute = {stem(w) for w in _content(split_ident((key or "").rsplit(".", 1)[-1]))}

    def speaker_s(p: _Part) -> bool:
        """Whether a part with a party still states the speaker's fact."""
        said = (p.subject or "").split()
        others = [w for w in said if w in _PARTY_NAMES and not _key_names_party(key, w)]
        if p.party == NAMED and not others and any(w in own or stem(w) in own for w in said):
            return True  # the value or the key's own word opens it: "Rent is 1,200", "The Loose Ends gig"
        ws = list(p.words)
        first_value = next((i for i, w in enumerate(ws) if w in value_words), len(ws))
        if any(w in ("me", "us") for w in ws[:first_value]):
            return True  # the speaker is the object, before the value: "the company relocated me to Accra"
        # "my landlord raised the rent to 1,400" for user.rent: the party acts on the speaker's thing
        return any(ws[i] in ("the", "my", "our") and stem(ws[i + 1]) in attribute for i in range(len(ws) - 1))

    def someone_elses(p: _Part) -> bool:
        """ "her birthday's on the 28th" for user.birthday: the attribute is another person's."""
        ws = list(p.words)
        pairs = [(ws[i], stem(ws[i + 1])) for i in range(len(ws) - 1)]
        return any(o in _THIRD_PERSON and a in attribute for o, a in pairs) and not any(
            o in ("my", "our") and a in attribute for o, a in pairs
        )

    if attribute and len((key or "").split(".")) == 2 and all(someone_elses(p) for p in holding):
        return FactCheck(False, f"value {shown}: the turn says it of someone else's {' '.join(sorted(attribute))}")
    parties = [None if speaker_s(p) else p.party for p in holding]
    if any(p is None or _key_names_party(key, p) for p in parties):
        return FactCheck(True)
    who = next(p for p in parties if p is not None)
    if who == NAMED:
        name = next((p.subject for p in holding if p.party == NAMED), "someone")
        return FactCheck(False, f"value {shown}: the turn says it of {str(name).title()}, not of {key!r}")
    return FactCheck(False, f"value {shown}: the turn says it of the speaker's {who}, not of {key!r}")


_CEASING = frozenset(
    "quit quitting left leaving cancelled canceled cancelling sold selling stopped gave ended dropped".split()
)
"""Verbs that end having something ("left the band", "cancelled my gym membership")."""
_LEAVING = re.compile(r"^(?:has |have |had |just )?(?:left|quit|moved out|passed away|died|is gone|gone)\b")
"""What follows a held value that is no longer so ("Jess moved out", "Karim left")."""


def _nothing_of(key: str, parts: Sequence[_Part], shown: str, *, first_person: bool, held: Any = None) -> FactCheck:
    """A value that says there is none ("none" for ``user.allergies``) is stated where the turn
    says the key's thing with a negation before it ("no known allergies", "no more 20-hour cap"),
    a verb that ends it ("left the band") or "-free" after it ("car-free"), or says the value memory
    holds with a verb of leaving after it ("Jess moved out" for a held ``user.roommate = Jess``)."""
    named = _content(split_ident(key.rsplit(".", 1)[-1]))
    words = {stem(w) for w in named}
    gone = {stem(w) for w in _content(tokens(held))} if isinstance(held, str) else set()

    def leaves(p: _Part) -> bool:
        ws = list(p.words)
        return any(stem(w) in gone and _LEAVING.search(" ".join(ws[i + 1 : i + 4])) for i, w in enumerate(ws))

    if gone and (leaving := [p for p in parts if p.mood == "assert" and leaves(p)]):
        return _whose(key, leaving, shown, first_person=first_person)

    def ends(p: _Part) -> bool:
        ws = list(p.words)
        return any(
            stem(w) in words
            and (
                any(_is_negation(x) or x in _CEASING for x in ws[max(0, i - 4) : i])
                or ws[i + 1 : i + 2] in (["free"], ["less"])
                or (p.mood == "negated" and i > 0)
            )
            for i, w in enumerate(ws)
        )

    holding = [p for p in parts if ends(p)]
    if not words or not holding:
        return FactCheck(False, f"value {shown}: the turn never says there is no {' '.join(named)!r}")
    return _whose(key, holding, shown, first_person=first_person)


_SPEAKER_IS = frozenset("i'm im am".split())
"""The speaker saying what they are ("I'm pescatarian", "I am vegan")."""
_WE = frozenset("we we're were our ours us".split())
_OTHERS = _THIRD_PERSON | frozenset("he she they him them".split())
"""Words that speak of somebody else: in a sentence with one of them, "I'm" need not be the value's subject."""


def _the_speakers_own(key: str | None, value: str, parts: Sequence[_Part], shown: str) -> str:
    """Why a value under a key about a person of the speaker's life (``user.boss.diet``) is the
    speaker's own, or "": every part stating it is the speaker's (no party, no name, no "she"),
    in sentences where the speaker says what they are ("I'm", "I am"), never name that person and
    do not speak for a "we" ("For the record I'm the opposite of vegan, pescatarian" for the
    boss's diet). The person's name is not judged here: it names them, whoever speaks."""
    if not key or not _about_speaker(key):
        return ""
    named = {stem(w) for w in split_ident(key.rsplit(".", 1)[0])}
    group = next((g for g in PARTY_GROUPS if any(stem(w) in named for w in g)), None)
    wanted = {stem(w) for w in _content(tokens(value))}
    if group is None or not wanted or "name" in split_ident(key.rsplit(".", 1)[-1]):
        return ""
    stating = [p for p in parts if p.mood == "assert" and wanted <= p.stems]
    if not stating or any(p.party is not None for p in stating):
        return ""
    around = [p for p in parts if p.sentence in {q.sentence for q in stating}]
    if any(p.party is not None or set(p.words) & (group | _OTHERS) for p in around):
        return ""
    said = {w for p in around for w in p.words}
    if not said & _SPEAKER_IS or said & _WE:
        return ""
    who = sorted(group & {w for w in split_ident(key)} or group)[0]
    return f"value {shown}: the turn says it of the speaker, not of the speaker's {who} ({key!r})"


def check_fact(
    key: str | None,
    value: Any,
    fact_text: str,
    source_text: str,
    *,
    speaker_is_user: bool = True,
    at: datetime | None = None,
    held: Any = None,
) -> FactCheck:
    """Is the fact (``key``, ``value``, ``fact_text``) asserted by ``source_text`` (the turn it was
    extracted from)? See the module docstring for the rules. ``speaker_is_user``: False for a turn
    an agent wrote (a record, a note), which speaks of the user in the third person, so "whose
    fact" (rule 3) does not apply. ``at``: when the turn was said (a timezone-aware time), so that
    a date said relative to it ("tomorrow", "on the 30th") states the date a model resolved.
    ``held``: the value memory holds for ``key``, if any: an edit of it states only what changed
    ("Lessons are at 11 now" turns a held "Saturdays 10:00" into "Saturdays 11:00"), and a turn
    that says the held one left ("Jess moved out") states ``none``."""
    parts, cls = _parts(source_text, relayed=not speaker_is_user)
    got = _check_parts(key, as_value(value), fact_text, parts, cls, speaker_is_user, at, held)
    plain = as_value(value)
    if got.grounded and speaker_is_user and isinstance(plain, str):
        why = _the_speakers_own(key, plain, parts, repr(plain))
        if why:
            return FactCheck(False, why)
    return got


def _check_parts(
    key: str | None,
    value: Any,
    fact_text: str,
    parts: list[_Part],
    cls: list[Clause],
    speaker_is_user: bool,
    at: datetime | None,
    held: Any,
) -> FactCheck:
    """``check_fact`` on the turn's parts and clauses (read once), before its last rule (whose fact
    a value under a key about another person is)."""
    shown = repr(value)
    asserting = [p for p in parts if p.mood == "assert"]
    if not parts:
        moods = {c.mood for c in cls} - {"small_talk"}
        what = " and ".join(sorted(_MOOD_NAMES[m] for m in moods)) or "small talk"
        return FactCheck(False, f"the turn asserts nothing (it is {what})")

    if isinstance(value, bool):
        words = _content(split_ident(key.rsplit(".", 1)[-1])) if key else []
        if not words:
            return FactCheck(
                False, f"boolean value {shown} under key {key!r}: the key names nothing to find in the turn"
            )
        want = "assert" if value else "negated"

        def says(p: _Part) -> bool:  # one of the key's words ("I don't drink" for drinks_alcohol)
            return len(_word_hits(words, p.stems)) < len(words)

        def no_before(p: _Part) -> bool:  # "no more fish" for eats_fish, "no siblings": "no" denies what follows
            keys = {stem(w) for w in words}
            return any(
                stem(t) in keys and {"no", "without"} & set(p.words[max(0, j - 2) : j]) for j, t in enumerate(p.words)
            )

        holding = [
            p for p in parts if (p.mood == want and says(p)) or (not value and p.mood == "assert" and no_before(p))
        ]
        if not holding:
            if value is False and any(says(p) for p in asserting):
                return FactCheck(False, f"value {shown}: the turn mentions {' '.join(words)!r} without a negation")
            if value is True and any(says(p) for p in parts):
                return FactCheck(False, f"value {shown}: the turn mentions {' '.join(words)!r} only with a negation")
            return FactCheck(False, f"value {shown}: the turn never asserts {' '.join(words)!r}")
        return _whose(key, holding, shown, first_person=speaker_is_user)

    if isinstance(value, int | float):
        form = _num_form(value)
        holding = [p for p in asserting if form in number_forms(p.words, p.text, at)]
        if holding:
            return _whose(key, holding, shown, first_person=speaker_is_user)
        why = _elsewhere(lambda w, t: form in number_forms(w, t, at), cls, shown)
        return FactCheck(False, why or f"value {shown} is not stated in the turn (no such number where it asserts)")

    if isinstance(value, str) and says_none(value) and key:
        nothing = _nothing_of(key, parts, shown, first_person=speaker_is_user, held=held)
        if nothing.grounded:
            return nothing  # else the word itself may be said ("I'm putting none")

    if isinstance(value, str) and value.strip():
        plain = tokens(re.sub(r"[_./\\-]+", " ", value))  # "iPhone 15" is one word and a figure
        # a figure written with its unit ("50mg", "7pm") is the figure and the unit's word
        plain = [p for t in plain for p in _unit_split(t)]
        figures = [(w, twelve_hour_forms(w, f)) for w, f in (_figures_of(value) if _figure_forms(value) else [])]
        # a number spelled out inside the value is its figure: "ten weeks" is said by "10 weeks old"
        figures += [(t, {str(SPELLED_NUMBERS[t])}) for t in plain if t in SPELLED_NUMBERS]
        plain = [t for t in plain if t not in SPELLED_NUMBERS]
        # codes ("A2", "BS3") are found as written, letters and digits together
        codes = [t for t in plain if any(c.isdigit() for c in t) and any(c.isalpha() for c in t)]
        words = _content(plain) or [t for t in plain if not any(c.isdigit() for c in t)]
        words += codes
        negative = any(t in _NEGATION_IN_VALUE for t in tokens(value)) or _negative_key(key)
        pool = [p for p in parts if p.mood == "assert" or negative]

        # a value may carry the key's own words: "day shifts" for user.shift when the turn says
        # "I'm on days", "Mercy General" needs its words, "Mercy General Hospital" its third too
        named = {stem(w) for w in split_ident(key)} if key else set()
        words = [w for w in words if stem(w) not in named] or words

        def stated(ws: Sequence[str], text: str) -> bool:
            offered = number_forms(ws, text, at)
            if any(not forms & offered for written, forms in figures if written.lower() not in codes):
                return False
            if not words:
                return bool(figures)
            stems = {stem(t) for t in ws} | _said_stems(ws, text, at)
            # the figures count among the value's parts: "2014 Honda Civic" is said by "my 2014 Civic"
            parts = len(words) + len(figures)
            allowed = parts // 3 if parts >= 3 else 0
            return len(_missing(words, stems, ws, text)) <= allowed

        def _missing(ws: Sequence[str], stems: set[str], turn_words: Sequence[str], text: str) -> list[str]:
            return said_otherwise(_word_hits(ws, stems), str(value), plain, turn_words, text, stem)

        if not words and not figures:
            return FactCheck(False, f"value {shown} holds no word to find in the turn")
        joined_words = [w for p in pool for w in p.words]
        joined_text = " ".join(p.text for p in pool)
        edit = _edit_of(held, words, figures, pool, at) if not stated(joined_words, joined_text) else None
        if edit:
            return _whose(key, edit, shown, tokens(value), first_person=speaker_is_user)
        if not stated(joined_words, joined_text):
            why = _elsewhere(stated, cls, shown)
            if why:
                return FactCheck(False, why)
            missing = _missing(
                words,
                {stem(t) for t in joined_words} | _said_stems(joined_words, joined_text, at),
                joined_words,
                joined_text,
            )
            if missing:
                return FactCheck(False, f"value {shown} is not stated in the turn (missing: {', '.join(missing)})")
            fig = next((w for w, forms in figures if not forms & number_forms(joined_words, joined_text, at)), shown)
            return FactCheck(False, f"value {shown}: the figure {fig!r} is not stated in the turn")
        # the parts that say the value: one of its words, or one of its figures for a value of figures
        holding = [
            p
            for p in pool
            if set(map(stem, words)) & (p.stems | _said_stems(p.words, p.text, at))
            or (not words and any(forms & number_forms(p.words, p.text, at) for _, forms in figures))
        ]
        return _whose(key, holding, shown, tokens(value), first_person=speaker_is_user)

    # no value (or an empty one): the statement itself must come from what the turn asserts, and a
    # key must name something the turn talks about (a model copying the prompt's example key, seen
    # on a real model: `project.deadline` with no value for "We have two cats at home")
    stems = {stem(t) for p in asserting for t in p.words}
    if key:
        kwords = _content(split_ident(key.rsplit(".", 1)[-1]))
        if kwords and len(_word_hits(kwords, stems)) == len(kwords):
            return FactCheck(False, f"key {key!r} without a value: the turn never asserts {' '.join(kwords)!r}")
    words = list(dict.fromkeys(_content(tokens(fact_text))))
    if not words:
        return FactCheck(False, "the fact's text holds no word to find in the turn")
    missing = _word_hits(words, stems)
    if len(missing) * 2 > len(words):
        return FactCheck(
            False,
            f"the statement is not in what the turn asserts ({len(words) - len(missing)} of {len(words)} "
            f"content words found; missing: {', '.join(missing[:6])})",
        )
    return FactCheck(True)


def _edit_of(
    held: Any, words: Sequence[str], figures: Sequence[tuple[str, set[str]]], pool: Sequence[_Part], at: datetime | None
) -> list[_Part]:
    """The asserting parts that state an edit of the held value: the value's words and figures the
    held value lacks (at least one) are all said there, the others are the held value's ("same
    time"). Empty when the value is no such edit."""
    if not isinstance(held, str | int | float) or isinstance(held, bool):
        return []
    text = str(held)
    kept = {stem(t) for t in tokens(text)}
    held_forms = number_forms(tokens(text), text, None)
    new_words = [w for w in words if stem(w) not in kept]
    new_figures = [forms for _, forms in figures if not forms & held_forms]
    if not new_words and not new_figures:
        return []

    def says(p: _Part) -> tuple[set[str], list[set[str]]]:
        stems = p.stems | _said_stems(p.words, p.text, at)
        offered = number_forms(p.words, p.text, at)
        return {w for w in new_words if stem(w) in stems}, [f for f in new_figures if f & offered]

    found = [(p, *says(p)) for p in pool]
    said_words = set().union(*(w for _, w, _ in found)) if found else set()
    said_figures = [f for f in new_figures if any(f in fs for _, _, fs in found)]
    if len(said_words) < len(set(new_words)) or len(said_figures) < len(new_figures):
        return []
    return [p for p, w, fs in found if w or fs]


def _figures_of(value: str) -> list[tuple[str, set[str]]]:
    from ..grounding import extract_figures

    return extract_figures(value)
