"""Grounding of extracted facts (the write side of DESIGN.md §2 "Grounding"). Pure functions.

A chat model that extracts facts from a turn may invent: a value from a question ("What's the
weather like today?" -> ``weather = sunny``), a value copied from the prompt's own example, a
normalised value the speaker never said. Memory must not *store* what the source does not say,
whatever the model, so ``remember`` checks every extracted fact against the turn it came from
before anything is written, and records each refusal with its reason:

1. **The turn.** It is split into sentences; each is a ``question`` (ends with ``?``, or opens
   like one: ``what``/``how``/... or an auxiliary followed by a subject, ``can you``/``do I``),
   ``small_talk`` (nothing left once greetings, thanks, acknowledgements and fillers are taken
   out: "Hi!", "Thanks, that's great", "ok cool") or a ``statement``. A turn without a statement
   stores nothing (:func:`turn_kind`: ``question`` / ``small_talk``), and no model call is made.
2. **The value.** A fact's value must be stated in the turn's *statements* (questions do not
   state values):

   * a number: the same number is written there (``1,200`` = ``1200``, ``80k`` = ``80000``) or
     spelled out (``three`` = 3, up to ``twenty`` and the tens);
   * a string with figures (a date, an amount): each figure appears there in any common format
     (``2027-03-31`` = ``31 March 2027``, the normal forms of the answer-grounding check);
   * a string: each of its content words appears there, compared by a light stem (``stocks`` =
     ``stock``, ``aggressively`` = ``aggressive``); a value of four or more content words may
     miss a quarter of them (paraphrased lists); a value made only of common words (``May``,
     ``no``) needs those words;
   * a boolean: the key's own words appear there (``user.vegetarian`` in "I'm vegetarian"), and
     ``false`` also needs a negation in that sentence ("I don't eat meat");
   * no value: at least half the content words of the fact's text appear in the statements, and
     a key's own words (its last segment) are not all missing from them.

A value the model wrote as the string ``"true"``/``"false"`` is a boolean (:func:`as_value`).

The check is deliberately conservative: a fact whose value the model normalised
(``America/New_York`` for "I'm on Eastern time") is refused — a false refusal loses one fact
(recorded, with its reason, on the episode), a false acceptance would store something memory was
never told. It does not judge polarity or truth beyond booleans ("I don't live in Lisbon" still
states ``Lisbon``): that remains the model's job.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .grounding import _figure_forms

__all__ = [
    "FactCheck",
    "as_value",
    "Sentence",
    "SentenceKind",
    "check_fact",
    "split_sentences",
    "turn_kind",
]

SentenceKind = Literal["statement", "question", "small_talk"]

_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_QUESTION_WORDS = frozenset(
    "what what's whats when when's where where's who who's whom whose why why's how how's which".split()
)
_AUXILIARIES = frozenset(
    """do does did is are was were am can could would will should shall may might must have has had
    isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't haven't hasn't""".split()
)
_SUBJECTS = frozenset("i you we they he she it there this that these those my your our the a an anyone someone".split())
_QUESTION_OPENERS = ("i wonder", "tell me", "any idea", "do you know", "can you tell", "could you tell")

# Whole phrases first (longest first), then single words: what greetings, thanks and
# acknowledgements are made of. A sentence with nothing else is small talk.
_SMALL_TALK_PHRASES = tuple(
    sorted(
        (
            "good morning",
            "good afternoon",
            "good evening",
            "good night",
            "good day",
            "how are you",
            "how are you doing",
            "how is it going",
            "how's it going",
            "how are things",
            "what's up",
            "whats up",
            "nice to meet you",
            "nice talking to you",
            "thank you",
            "thank you so much",
            "thanks a lot",
            "thanks so much",
            "many thanks",
            "have a nice day",
            "have a good day",
            "have a good one",
            "have a great day",
            "see you",
            "see you later",
            "see you soon",
            "talk to you later",
            "talk later",
            "no worries",
            "no problem",
            "you're welcome",
            "you are welcome",
            "i'm fine",
            "i am fine",
            "i'm good",
            "i am good",
            "i'm doing well",
            "doing well",
            "not bad",
            "that's great",
            "that is great",
            "that's nice",
            "that's cool",
            "that's awesome",
            "that's fine",
            "sounds good",
            "sounds great",
            "got it",
            "all good",
            "never mind",
            "take care",
            "my pleasure",
            "long time no see",
            "how have you been",
            "appreciate it",
            "much appreciated",
            "same to you",
            "you too",
            "nice one",
            "good one",
            "fair enough",
            "makes sense",
            "of course",
        ),
        key=len,
        reverse=True,
    )
)
_SMALL_TALK_WORDS = frozenset(
    """hi hello hey hiya howdy yo thanks thank thx ty cheers ok okay k kk cool great nice awesome perfect lovely
    wonderful sure yes yeah yep yup no nope nah bye goodbye later lol haha hehe wow hmm hm um uh oh ah well alright
    fine good morning afternoon evening night please sorry again so much very too you all everyone there guys
    folks buddy mate friend again indeed right exactly absolutely totally agreed welcome bot assistant""".split()
)
_STOP = frozenset(
    """a an the and or but of to in on at for from by with about as is are was were be been being am i i'm im me my
    mine we our you your he she it its they them their this that these those there here has have had do does did
    not no so very really just also too than then now currently user user's users his her hers who which what
    s t will would can could should may might must into over under per each every some any all more most less
    like likes liked prefers prefer wants want kind type value""".split()
)
_NEGATIONS = frozenset(
    """not no never none nothing neither nor without don't doesn't didn't isn't aren't wasn't weren't can't cannot
    couldn't won't wouldn't shouldn't haven't hasn't hadn't dont doesnt didnt isnt arent wasnt werent cant wont
    wouldnt shouldnt havent hasnt hadnt""".split()
)
_NUMBER_WORDS = {
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
_SUFFIXES = ("ingly", "edly", "ness", "ment", "ings", "ing", "ies", "ied", "ers", "est", "ed", "es", "er", "ly", "s")


@dataclass(frozen=True)
class Sentence:
    text: str
    kind: SentenceKind


@dataclass(frozen=True)
class FactCheck:
    """Whether a fact is grounded in its source turn; ``reason`` says why not (one line)."""

    grounded: bool
    reason: str = ""


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.lower().replace("’", "'").replace("‘", "'")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(_norm(text))


def _stem(word: str) -> str:
    w = word.removesuffix("'s").replace("'", "")
    for suf in _SUFFIXES:
        if len(w) - len(suf) >= 3 and w.endswith(suf):
            w = w[: -len(suf)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def _sentence_kind(sentence: str) -> SentenceKind:
    s = _norm(sentence).strip().strip("\"'“”()[]*_ ")
    if not s:
        return "small_talk"
    core = s.rstrip(" …:;)\"'")
    if core.rstrip(".!").endswith("?"):
        return "question"
    words = _tokens(s)
    if words and not core.endswith((".", "!")):  # an opening like a question, without a full stop
        first, second = words[0], words[1] if len(words) > 1 else ""
        if first in _QUESTION_WORDS or (first in _AUXILIARIES and second in _SUBJECTS):
            return "question"
        if " ".join(words).startswith(_QUESTION_OPENERS):
            return "question"
    rest = " " + " ".join(words) + " "
    for phrase in _SMALL_TALK_PHRASES:
        rest = rest.replace(" " + " ".join(_tokens(phrase)) + " ", " ")
    if all(w in _SMALL_TALK_WORDS for w in rest.split()):
        return "small_talk"
    return "statement"


def split_sentences(text: str) -> list[Sentence]:
    """The sentences of ``text`` with their kind (statement, question, small talk)."""
    parts = [p.strip() for p in _SPLIT.split(text) if p and p.strip()]
    return [Sentence(p, _sentence_kind(p)) for p in parts]


def turn_kind(text: str) -> SentenceKind:
    """``statement`` when the turn states anything; else ``question`` (at least one question)
    or ``small_talk``."""
    kinds = {s.kind for s in split_sentences(text)}
    if "statement" in kinds:
        return "statement"
    return "question" if "question" in kinds else "small_talk"


def _number_forms(tokens: Sequence[str], text: str) -> set[str]:
    forms = set(_figure_forms(text))
    joined = " ".join(tokens)
    for word, n in _NUMBER_WORDS.items():
        if f" {word} " in f" {joined} ":
            forms.add(str(n))
    return forms


def _num_form(value: float) -> str:
    return str(int(value)) if float(value) == int(value) else repr(float(value)).rstrip("0").rstrip(".")


def _content(tokens: Iterable[str]) -> list[str]:
    """Words that carry the meaning: no stop words, nothing with a digit (figures are compared
    as figures)."""
    return [t for t in tokens if t not in _STOP and not any(c.isdigit() for c in t)]


def _word_hits(words: Sequence[str], stems: set[str]) -> list[str]:
    """The words of ``words`` missing from ``stems`` (compared by stem)."""
    return [w for w in words if _stem(w) not in stems]


def _split_ident(text: str) -> list[str]:
    """Words of an identifier or value: ``growth_funds``, ``GrowthFunds``, ``new-york``."""
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return _tokens(re.sub(r"[_./\-]+", " ", spaced))


def as_value(value: Any) -> Any:
    """The value a model meant: the strings ``"true"``/``"false"`` (any case) are booleans."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


def check_fact(key: str | None, value: Any, fact_text: str, source_text: str) -> FactCheck:
    """Is the fact (``key``, ``value``, ``fact_text``) stated by ``source_text`` (the turn it was
    extracted from)? See the module docstring for the rules."""
    value = as_value(value)
    sentences = split_sentences(source_text)
    statements = [s.text for s in sentences if s.kind == "statement"]
    if not statements:
        kind = turn_kind(source_text)
        return FactCheck(
            False, f"the turn is {'a question' if kind == 'question' else 'small talk'}: it states no fact"
        )
    said = " ".join(statements)
    tokens = _tokens(said)
    stems = {_stem(t) for t in tokens}
    shown = f"{value!r}" if not isinstance(value, str) else repr(value)

    if isinstance(value, bool):
        words = _content(_split_ident(key.rsplit(".", 1)[-1])) if key else []
        if not words:
            return FactCheck(
                False, f"boolean value {shown} under key {key!r}: the key names nothing to find in the turn"
            )
        missing = _word_hits(words, stems)
        if missing:
            return FactCheck(False, f"value {shown}: the turn never mentions {' '.join(missing)!r}")
        if value is False:
            negated = any(_negated(s, words) for s in statements)
            if not negated:
                return FactCheck(False, f"value {shown}: the turn mentions {' '.join(words)!r} without a negation")
        return FactCheck(True)

    if isinstance(value, int | float):
        if _num_form(value) in _number_forms(tokens, said):
            return FactCheck(True)
        return FactCheck(False, f"value {shown} is not stated in the turn (no such number in its statements)")

    if isinstance(value, str) and value.strip():
        figures = _figure_forms(value)
        if figures:
            offered = _number_forms(tokens, said)
            for written, forms in _figures_of(value):
                if not forms & offered:
                    return FactCheck(False, f"value {shown}: the figure {written!r} is not stated in the turn")
        words = _content(_split_ident(value)) or [t for t in _split_ident(value) if not any(c.isdigit() for c in t)]
        if not words:
            return FactCheck(True) if figures else FactCheck(False, f"value {shown} holds no word to find in the turn")
        missing = _word_hits(words, stems)
        allowed = len(words) // 4 if len(words) >= 4 else 0
        if len(missing) > allowed:
            return FactCheck(False, f"value {shown} is not stated in the turn (missing: {', '.join(missing)})")
        return FactCheck(True)

    # no value (or an empty one): the statement itself must come from the turn, and a key must
    # name something the turn talks about (a model copying the prompt's example key, seen on a
    # real model: `project.deadline` with no value for "We have two cats at home")
    if key:
        kwords = _content(_split_ident(key.rsplit(".", 1)[-1]))
        if kwords and len(_word_hits(kwords, stems)) == len(kwords):
            return FactCheck(False, f"key {key!r} without a value: the turn never mentions {' '.join(kwords)!r}")
    words = list(dict.fromkeys(_content(_tokens(fact_text))))
    if not words:
        return FactCheck(False, "the fact's text holds no word to find in the turn")
    missing = _word_hits(words, stems)
    if len(missing) * 2 > len(words):
        return FactCheck(
            False,
            f"the statement is not in the turn ({len(words) - len(missing)} of {len(words)} "
            f"content words found; missing: {', '.join(missing[:6])})",
        )
    return FactCheck(True)


def _figures_of(value: str) -> list[tuple[str, set[str]]]:
    from .grounding import extract_figures

    return extract_figures(value)


def _negated(sentence: str, words: Sequence[str]) -> bool:
    toks = _tokens(sentence)
    if not any(_stem(t) in {_stem(w) for w in words} for t in toks):
        return False
    return any(t in _NEGATIONS or t.endswith("n't") for t in toks)
