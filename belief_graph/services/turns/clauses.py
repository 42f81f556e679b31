"""What a turn asserts: sentences cut into clauses, each with its mood (pure functions, no model).

People state facts inside questions, requests and asides ("Can you suggest a gift for my sister,
who turns 30 in May?", "I moved to Porto last week, what's a good gym near Bolhão?"), and they say
things that are not facts at all in the same breath ("if I moved to Berlin I'd learn German",
"should I get a dog?", "I don't live in Lisbon any more"). Extraction grounding
(``services/turns/extraction_grounding.py``) asks of each extracted fact whether the turn *asserts* it, so
it needs to know which parts of a turn assert something. The rules, from English grammar rather
than from any model:

1. **Sentences** end at ``.``, ``!``, ``?``, a line break or an emoji before a capital.
2. **Clauses**: a sentence is cut at ``,`` ``;`` ``:`` dashes and brackets, and before the words
   that open a subordinate clause (``because``, ``since``, ``now that``, ``although``, ``if``,
   ``unless``, ``whether``...). A piece with neither subject nor verb of its own (a list item:
   "cycling and climbing") continues the clause before it and keeps its mood.
3. **Mood** of a clause:

   * ``question`` — it opens like a question (a *wh*-word, an auxiliary followed by a subject:
     "can you", "should I", an opener such as "any idea"), or it is the last clause of a sentence
     that ends with ``?`` and nothing in it says otherwise ("..., any tips?");
   * ``hypothetical`` — a condition, wish or possibility: ``if``, ``unless``, ``suppose``,
     ``imagine``, ``what if``, ``in case``, ``whether``, ``wish``, ``maybe``, ``perhaps``,
     ``might``, ``could``, ``would`` / ``'d`` (but "I'd like / love / prefer / rather" states a
     preference), ``should`` (advice is not a fact), "thinking about", "considering", "not sure";
   * ``request`` — it opens with a verb asking the assistant to act ("remind me to call the vet",
     "book a table for four"); what follows "that" in it is asserted ("note that my passport
     expires in June");
   * ``quoted`` — somebody else's words in quotes ("Dad: 'your cousin got a job at Panasonic'");
   * ``negated`` — a statement with a negation ("I don't live in Lisbon any more"): it asserts
     that something is *not* so;
   * ``small_talk`` — greetings, thanks and acknowledgements only;
   * ``assert`` — everything else: a statement.

   A clause that opens a subordinate clause presupposing its content ("because I'm vegetarian",
   "since I moved", "now that I'm in Porto", ", who turns 30 in May", ", which is due Friday") is
   ``assert`` wherever it stands, in a question too.
4. **Presupposed spans** (``services/turns/clause_spans.py``): inside a question or request, a possessive
   phrase ("my new flat in Porto", "our twins", "my wife Ana") asserts that what it names exists;
   the span runs from ``my``/``our`` for at most four words and stops at a word that opens a new
   phrase (``and``, ``to``, ``that``, ``who``...); so do a factive verb's complement, a request
   to change the speaker's own record and a clause of the speaker's embedded without "that".
5. **Whose fact**: a clause whose subject is a person of the speaker's life ("my boss is vegan",
   "my brother lives in Lyon") states a fact about that person; :attr:`Clause.party` names them
   (kinship and social roles and pets: a closed list, with their synonyms).

Deliberately simple: no parser, no model. Where it errs it should err toward *not asserting*
(a fact lost and recorded beats a fact memory was never told).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from .clause_spans import embedded_statement, factive_span, past_or_embedded, possessive_spans
from .clause_words import (
    ACTION_VERBS,
    ADVERBS,
    AUXILIARIES,
    COUNT_WORDS,
    EMBEDS_QUESTION,
    FUNCTION_CAPS,
    HYPOTHETICAL_OPENERS,
    HYPOTHETICAL_PHRASES,
    HYPOTHETICAL_WORDS,
    KIN_WITHOUT_MY,
    LEADING_FILLERS,
    NEGATIONS,
    NOT_A_PERSON_AFTER,
    PARTY_GROUPS,
    PARTY_WORDS,
    PERFORMATIVE,
    POSSESSIVE_PRONOUNS,
    PREFERENCE_AFTER_WOULD,
    PRESUPPOSING,
    PRONOUNS_3RD,
    QUESTION_OPENERS,
    QUESTION_WORDS,
    RELATIVE,
    REQUEST_VERBS,
    SMALL_TALK_PHRASES,
    SMALL_TALK_WORDS,
    STATIVE,
    STOPS_SPAN,
    SUBJECTS,
    SUBORDINATORS,
    THIRD_PERSON_NP,
    says_change,
)

__all__ = [
    "NAMED",
    "PARTY_GROUPS",
    "Clause",
    "Mood",
    "clauses",
    "is_small_talk",
    "party_of",
    "says_change",
    "split_sentences",
    "tokens",
]

Mood = Literal["assert", "question", "request", "hypothetical", "negated", "quoted", "small_talk"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+|(?<=[\u2600-\u27bf\U0001f300-\U0001faff])\s+(?=[A-Z])")
"""Sentences end at ``.`` ``!`` ``?``, a line break, or an emoji before a capital ("last month 😤 Can you")."""
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_PUNCT_CUT = re.compile(r"\s*(?:(?<!\d)[,:]|[,:](?!\d)|[;()\[\]]|\s[-–—]+\s|[–—])\s*")  # not "1,200", "9:40"

_CUT_BEFORE = re.compile(
    r"\s+(?=(?:because|bc|cuz|since|now that|given that|ever since|although|though|whereas|if|unless|whether|in case"
    r"|as if|as though|acts like|act like|acting like)\b)"
    r"|\s+(?=(?:and|but|or|so|then)\s+(?:i|i'm|i've|i'd|i'll|my|our|we|we're|she|he|they|it|it's|there|the)\b)"
    r"|\s+(?=(?:when|once|until|after|before|while)\s+(?:i|i'm|my|our|we|she|he|they|it|the|his|her|their)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Clause:
    """One clause of a turn: its text, mood, and the party it is about when that is not the speaker."""

    text: str
    mood: Mood
    party: str | None = None
    """The person (or pet) of the speaker's life the clause's subject names ("sister"), else None."""
    sentence: int = 0
    presupposed: tuple[str, ...] = ()
    """Possessive spans of a non-asserting clause that still assert ("my new flat in Porto")."""
    subject: str | None = None
    """When :attr:`party` is :data:`NAMED`: the name the clause opens with ("ollie")."""


NAMED = "*named*"
"""The party of a clause whose subject is a name ("Ollie moved to Glasgow", "Finn's birthday is in
May"): somebody or something other than the speaker."""


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.lower().replace("’", "'").replace("‘", "'")


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (accents removed, apostrophes kept inside words)."""
    return _TOKEN.findall(_norm(text))


def split_sentences(text: str) -> list[str]:
    return [p.strip() for p in _SENTENCE.split(text) if p and p.strip()]


def _strip_fillers(words: list[str]) -> list[str]:
    i = 0
    while i < len(words) - 1 and words[i] in LEADING_FILLERS:
        i += 1
    return words[i:]


def _opens_question(words: list[str]) -> bool:
    w = _strip_fillers(words)
    if not w:
        return False
    first, second = w[0], (w[1] if len(w) > 1 else "")
    if first in QUESTION_WORDS:
        return True
    if first in AUXILIARIES and second in SUBJECTS:
        return True
    return " ".join(w).startswith(QUESTION_OPENERS)


def _starts_with(words: list[str], phrases: tuple[str, ...]) -> bool:
    w = " ".join(_strip_fillers(words))
    return any(w == p or w.startswith(p + " ") for p in phrases)


def _hypothetical(words: list[str]) -> bool:
    joined = " " + " ".join(words) + " "
    if any(f" {p} " in joined for p in HYPOTHETICAL_PHRASES):
        return True
    for i, w in enumerate(words):
        if w not in HYPOTHETICAL_WORDS:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if (w in ("would", "could", "should") or w.endswith("'d")) and nxt in PREFERENCE_AFTER_WOULD:
            continue  # "I'd like a window seat", "I would rather": a preference, stated
        if w in ("should", "must", "could") and nxt in PERFORMATIVE:
            continue  # "I should mention I'm allergic to nuts": the mention is the statement
        return True
    return False


def _is_request(piece: str, words: list[str]) -> bool:
    """ "Remind me to ...", "book a table": a verb asking the assistant to act, followed by what to
    act on; not a record's label ("Order #88213 confirmed", "Plan: Pro", "plan Basic")."""
    w = _strip_fillers(words)
    if not w or w[0] not in REQUEST_VERBS:
        return False
    raw = piece.split()
    first = next((t.lower().strip(",.!?:;") for t in raw if t.lower().strip(",.!?:;").split("-")[0] == w[0]), "")
    if "-" in first:
        return False  # a noun made of the verb ("Check-in 14 Oct", "Follow-up on Friday"), not a request
    at = next((i for i, t in enumerate(raw) if t.lower().strip(",.!?:;") == w[0]), None)
    nxt = raw[at + 1] if at is not None and at + 1 < len(raw) else ""
    return not nxt or not (nxt[:1].isupper() or nxt[:1].isdigit() or nxt[:1] == "#")


def _relative(words: list[str]) -> bool:
    """ ", who turns 30", ", which is due Friday": a relative clause (not "where can I ...")."""
    w = _strip_fillers(words)
    if not w or w[0].split("'")[0] not in RELATIVE:  # "who's 5": who is
        return False
    return not (len(w) > 2 and w[1] in AUXILIARIES and w[2] in SUBJECTS)


def _aux_first(words: list[str]) -> bool:
    """ "is amoxicillin ok", "does Hoka run small": an auxiliary opens it (the subject may be a name)."""
    w = _strip_fillers(words)
    return len(w) > 1 and w[0] in AUXILIARIES


def _wh_aux(words: list[str]) -> bool:
    """ "when does ...", "when's ...": a *wh*-word asking, not opening a subordinate clause."""
    w = _strip_fillers(words)
    return len(w) > 1 and (w[0].endswith("'s") or w[1] in AUXILIARIES)


def _negated(words: list[str]) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in words)


def _strip_lead(words: list[str]) -> list[str]:
    """Fillers and subordinators before a clause's subject ("because my roommate works nights")."""
    i = 0
    while i < len(words) - 1 and (words[i] in LEADING_FILLERS or words[i] in SUBORDINATORS):
        i += 1
    return words[i:]


def party_of(words: list[str], *, predicate: bool = True) -> str | None:
    """The party a clause's subject names when the clause says something *of* them: "my sister is
    30", "my wife Ana loves pottery", "my sister just moved to Hamburg", "my sister Anjali's
    birthday is ..." (a verb or a possessive follows the party). ``predicate`` False: any
    possessive phrase naming a party ("my wife Ana"). Whether an action's object is the speaker's
    ("my landlord raised the rent") is decided by the grounding check, which knows the key."""
    w = _strip_lead(words)
    if len(w) < 2 or w[0] not in ("my", "our"):
        return None
    for i, cand in enumerate(w[1:4], start=1):
        base = cand.removesuffix("'s").removesuffix("s'")
        party = (
            base if base in PARTY_WORDS else (base[:-1] if base.endswith("s") and base[:-1] in PARTY_WORDS else None)
        )
        if party is not None and i + 1 < len(w) and w[i + 1] in NOT_A_PERSON_AFTER:
            return None  # "my mother tongue", "my father's side"
        if party is not None:
            if not predicate or cand.endswith("'s") and cand not in ("it's", "that's"):
                return party  # "my sister's birthday": of the sister either way
            rest = [t for t in w[i + 1 : i + 6] if t not in ADVERBS]
            for _ in range(
                2
            ):  # a name after the noun ("my wife Ana loves"), or a role's second word ("my team lead Priyanka swears")
                if rest and rest[0].endswith("'s"):
                    return party  # "my sister Anjali's birthday"
                if rest and not _verb_like(rest[0]) and len(rest) > 1:
                    rest = rest[1:]
            return party if rest and (_verb_like(rest[0]) or rest[0].endswith("'s")) else None
        if cand in STOPS_SPAN:
            break
    return None


def is_small_talk(words: list[str]) -> bool:
    """Nothing left once greetings, thanks, acknowledgements and fillers are taken out."""
    rest = " " + " ".join(words) + " "
    for phrase in SMALL_TALK_PHRASES:
        rest = rest.replace(" " + " ".join(tokens(phrase)) + " ", " ")
    return all(w in SMALL_TALK_WORDS for w in rest.split())


def _verb_like(word: str) -> bool:
    return (
        word in STATIVE
        or word in AUXILIARIES
        or word in ACTION_VERBS
        or word.endswith("ed")
        or (word.endswith("s") and len(word) > 3 and not word.endswith("ss"))
    )


def _named_subject(piece: str, words: list[str], initial: bool) -> tuple[str | None, str | None]:
    """The party of a clause opened by somebody else: a name ("Ollie moved to Glasgow", "Finn's
    birthday is ..."; a capital at the start of a sentence says nothing, so there only with a
    possessive), kin without "my" ("Dad's only 65"), a phrase naming people ("the rest of the team
    is in Berlin", "the neighbour's dog Bruno barks"). Returns ``(party, subject words)``."""
    w = _strip_lead(words)
    if len(w) < 2:
        return None, None
    first, nxt = w[0], w[1]
    base = first.removesuffix("'s")
    if base in KIN_WITHOUT_MY and (first.endswith("'s") or _verb_like(nxt)):
        return base, None
    if first in THIRD_PERSON_NP:
        for i in range(1, min(len(w), 7)):
            if _verb_like(w[i]) and not (
                w[i].endswith("s") and i + 1 < len(w) and not _verb_like(w[i + 1]) and w[i] not in STATIVE
            ):
                subject = [t.removesuffix("'s") for t in w[1:i]]
                cased = piece.split()
                # a capital names somebody, but the speaker's "I" does not ("the only pension I have")
                named = any(
                    t[:1].isupper() and t.strip(",.!?;:()") != "I" and t[:2] not in ("I'", "I’")
                    for t in cased[1 : i + 1]
                )
                if any(t in PARTY_WORDS or t.rstrip("s") in PARTY_WORDS for t in subject) or named:
                    return NAMED, " ".join(subject)
                return None, None
        return None, None
    opener = next((t for t in piece.split() if t.lower().strip(",.!?:;\"'()") == first), "")
    if not opener[:1].isupper() or base in FUNCTION_CAPS or base in REQUEST_VERBS or not base.isalpha():
        return None, None
    verbal = base.endswith("ly") or (base.endswith(("ed", "ing")) and len(base) > 4)  # "Finally", "Started", "Driving"
    if verbal or base in POSSESSIVE_PRONOUNS | COUNT_WORDS:
        return None, None  # "Mine's still 5.4", "Six months smoke-free"
    if first.endswith("'s") or _verb_like(nxt):
        return NAMED, base
    return None, None


def _speech(quote: str) -> bool:
    """A quotation that is somebody's words (a clause), not a title ("'Padaria Flor de Sal'")."""
    w = tokens(quote)
    return len(w) >= 3 and any(_verb_like(t) or t in SUBJECTS for t in w)


_QUOTE = re.compile(r"(?:^|\s)['\"“‘](.{6,}?)['\"”’](?=[\s.,!?;:]|$)")


_NAME_POSSESSIVE = re.compile(r"\b([A-Z][a-z]+)['’]s\s+((?:[\w-]+\s*){1,5})")


def _name_possessives(piece: str) -> tuple[str, ...]:
    """ "a week before Anjali's birthday on July 22": a named person's possessive presupposes."""
    spans = []
    for m in _NAME_POSSESSIVE.finditer(piece):
        if m.group(1).lower() in FUNCTION_CAPS:
            continue
        rest = []
        for t in tokens(m.group(2)):
            if t in STOPS_SPAN and t not in ("on", "in", "at"):
                break
            rest.append(t)
        if rest:
            spans.append(" ".join([m.group(1).lower() + "'s", *rest]))
    return tuple(spans)


def _trailing_party(words: list[str]) -> str | None:
    """The party a possessive phrase at the very end of a clause names ("... for my sister", "...
    and his cousin Yusuf")."""
    for i in range(len(words) - 1, max(-1, len(words) - 5), -1):
        if words[i] in ("my", "our"):
            return party_of(words[i:], predicate=False)
        if words[i] in ("his", "her", "their"):
            return party_of(["my", *words[i + 1 :]], predicate=False)
    return None


def _bare_possessive(words: list[str]) -> bool:
    """ "my new manager" right after a comma: a possessive phrase with no verb of its own (not
    "and my manager's in New York")."""
    return (
        bool(words)
        and words[0] in ("my", "our")
        and len(words) <= 5
        and not any(t in STATIVE or t.endswith("'s") or _verb_like(t) for t in words[1:])
    )


def _trailing_names(text: str) -> str:
    """The capitalised words that end a clause ("... first 1:1 with Dana" -> "Dana")."""
    names: list[str] = []
    for word in reversed(text.strip(" .!?\"'").split()):
        if word[:1].isupper() and word.isalpha():
            names.insert(0, word)
        else:
            break
    return " ".join(names)


def _last_party(spans: tuple[str, ...]) -> str | None:
    named = [p for p in (party_of(tokens(sp), predicate=False) for sp in spans) if p]
    return named[-1] if named else None


def _pieces(sentence: str) -> list[str]:
    out: list[str] = []
    for part in _PUNCT_CUT.split(sentence):
        subs = [sub.strip() for sub in _CUT_BEFORE.split(part) if sub and sub.strip(" .!?\"'“”*_")]
        for sub in subs:
            # "any idea when the train leaves": an embedded question, not a subordinate clause
            if (
                out
                and sub.lower().startswith(("when ", "once ", "until ", "after ", "before "))
                and (out[-1].lower().rstrip(" ?.!").endswith(EMBEDS_QUESTION))
            ):
                out[-1] = f"{out[-1]} {sub}"
            else:
                out.append(sub)
    return out


def _has_own_subject_or_verb(words: list[str]) -> bool:
    """A piece that can stand as a clause: it has a subject-like opening or a finite verb."""
    w = _strip_fillers(words)
    if not w:
        return False
    if w[0] in SUBJECTS or w[0] in QUESTION_WORDS or w[0] in AUXILIARIES or w[0] in RELATIVE:
        return True
    if w[0].endswith(("'m", "'re", "'s", "'ve", "'ll", "'d")):
        return True
    if (_starts_with(w, PRESUPPOSING) or _starts_with(w, HYPOTHETICAL_OPENERS)) and len(w) > 1:
        return True  # a subordinator with nothing after it ("what about since?") opens no clause
    return any(t in AUXILIARIES or t.endswith(("'m", "'re", "'ve")) for t in w[1:4])


def _name_then_verb(piece: str, words: list[str]) -> bool:
    """ "Kwame Asante moved to Sun 11 Oct": a name of capitals, then a verb, is a clause of its own."""
    cased = [t.strip(",.!?:;\"'()") for t in piece.split()][:4]
    for i, t in enumerate(cased[1:], start=1):
        if not all(c[:1].isupper() and c.isalpha() and c.lower() not in FUNCTION_CAPS for c in cased[:i]):
            return False
        if t.lower() in ACTION_VERBS or t.lower() in STATIVE or (t.islower() and past_or_embedded(t)):
            return True
    return False


def clauses(text: str) -> list[Clause]:
    """The clauses of ``text`` with their mood, in order (see the module docstring)."""
    out: list[Clause] = []
    for si, sentence in enumerate(split_sentences(text)):
        asks = sentence.rstrip(" \"'”)*_").rstrip(".!").endswith("?")
        pieces = _pieces(sentence)
        moods: list[Mood] = []
        quoted = [m.group(1) for m in _QUOTE.finditer(sentence)]
        stops = sentence.rstrip(" \"'”)*_").endswith((".", "!"))
        for pi, piece in enumerate(pieces):
            words = tokens(piece)
            subject_of_relative: str | None = None
            last = pi == len(pieces) - 1
            if not words:
                mood: Mood = moods[-1] if moods else "small_talk"
            elif is_small_talk(words):
                mood = "small_talk"
            elif pi > 0 and _relative(words):
                mood = "negated" if _negated(words) else "assert"  # ", who turns 30 in May"
            elif _starts_with(words, HYPOTHETICAL_OPENERS) or _hypothetical(words):
                mood = "hypothetical"
            elif (
                _starts_with(words, PRESUPPOSING)
                and len(_strip_fillers(words)) > 1
                and not (pi == 0 and _opens_question(words) and _wh_aux(words))
            ):
                mood = "negated" if _negated(words) else "assert"
            elif (asks or not stops) and (_opens_question(words) or (asks and _aux_first(words))):
                # "Is Berlin nice in winter?"; a question's opening without a full stop counts too
                # ("what is the weather like today"), not "Did it, raised my rate to $95."
                mood = "question"
            elif _is_request(piece, words):
                mood = "request"
            elif asks and last and not _has_own_subject_or_verb(words):
                mood = "question"  # "..., any tips?"
            elif moods and not _has_own_subject_or_verb(words) and not _name_then_verb(piece, words):
                # a list item or an apposition continues its clause; after a greeting, a fragment
                # is a telegraphic statement ("hey, UX designer here, fully remote")
                mood = moods[-1] if moods[-1] != "small_talk" else "assert"
            elif _negated(words):
                mood = "negated"
            else:
                mood = "assert"
            if mood in ("assert", "negated") and any(piece.strip(" .!?,'\"“”‘’") in q for q in quoted if _speech(q)):
                mood = "quoted"  # "Dad: 'your cousin got a job at Panasonic'": somebody else's words
            moods.append(mood)
            party = party_of(words)
            if party is None and words and _strip_lead(words)[0] in PRONOUNS_3RD:
                # "my wife Ana, she loves pottery", "for my son's birthday. He can't have eggs": the
                # last party named before, in any clause of the turn
                for c in reversed(out):
                    named = c.party or _last_party(c.presupposed + possessive_spans(tokens(c.text)))
                    if named:
                        party, subject_of_relative = named, c.subject
                        break
            elif party is None and out and out[-1].sentence == si:
                if words and pi > 0 and _relative(words):
                    # ", who turns 30": about the antecedent, the phrase that ends the clause before
                    # ("a gift for my sister, who ..."; not "my manager wants a case for Priyanka, who ...")
                    party = _trailing_party(tokens(out[-1].text))
                    names = _trailing_names(pieces[pi - 1]) if party is None else ""
                    if names:  # "his cousin Yusuf, who's 6": about Yusuf
                        party, subject_of_relative = NAMED, names.split()[-1].lower()
                elif not _has_own_subject_or_verb(words) and out[-1].party != NAMED:
                    party = out[-1].party  # the continuation of "my sister, ..." is still about her
            pre = (
                possessive_spans(words) + factive_span(words) if mood in ("question", "request", "hypothetical") else ()
            )
            if pi > 0 and mood == "assert" and (_bare_possessive(words) or _relative(words)):
                names = _trailing_names(pieces[pi - 1])
                if names:  # "with Dana, my new manager", "for Priyanka, who reports to me": about Dana
                    pre += (f"{names} {piece}",)
            if mood in ("question", "request", "hypothetical"):
                pre += embedded_statement(words)
            if mood == "request" and "that" in words:  # "note that my passport expires in June"
                pre = (" ".join(words[words.index("that") + 1 :]),)
            subject = subject_of_relative
            if party is None:
                party, subject = _named_subject(piece, words, initial=pi == 0)
            if mood in ("question", "request", "hypothetical"):
                pre += _name_possessives(piece)
            out.append(Clause(piece, mood, party, si, pre, subject))
    return out
