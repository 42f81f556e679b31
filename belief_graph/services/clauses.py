"""What a turn asserts: sentences cut into clauses, each with its mood (pure functions, no model).

People state facts inside questions, requests and asides ("Can you suggest a gift for my sister,
who turns 30 in May?", "I moved to Porto last week, what's a good gym near Bolhão?"), and they say
things that are not facts at all in the same breath ("if I moved to Berlin I'd learn German",
"should I get a dog?", "I don't live in Lisbon any more"). Extraction grounding
(``services/extraction_grounding.py``) asks of each extracted fact whether the turn *asserts* it, so
it needs to know which parts of a turn assert something. The rules, from English grammar rather
than from any model:

1. **Sentences** end at ``.``, ``!``, ``?`` or a line break.
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
   * ``negated`` — a statement with a negation ("I don't live in Lisbon any more"): it asserts
     that something is *not* so;
   * ``small_talk`` — greetings, thanks and acknowledgements only;
   * ``assert`` — everything else: a statement.

   A clause that opens a subordinate clause presupposing its content ("because I'm vegetarian",
   "since I moved", "now that I'm in Porto", ", who turns 30 in May", ", which is due Friday") is
   ``assert`` wherever it stands, in a question too.
4. **Presupposed spans**: inside a question or request, a possessive phrase ("my new flat in
   Porto", "our twins", "my wife Ana") asserts that what it names exists; the span runs from
   ``my``/``our`` for at most four words and stops at a word that opens a new phrase (``and``,
   ``to``, ``that``, ``who``...).
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

__all__ = ["PARTY_GROUPS", "Clause", "Mood", "clauses", "is_small_talk", "party_of", "split_sentences", "tokens"]

Mood = Literal["assert", "question", "request", "hypothetical", "negated", "small_talk"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_PUNCT_CUT = re.compile(r"\s*(?:(?<!\d)[,:]|[,:](?!\d)|[;()\[\]]|\s[-–—]+\s|[–—])\s*")  # not "1,200", "9:40"

_QUESTION_WORDS = frozenset(
    "what what's whats when when's where where's who who's whom whose why why's how how's which".split()
)
_AUXILIARIES = frozenset(
    """do does did is are was were am can could would will should shall may might must have has had
    isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't haven't hasn't""".split()
)
_SUBJECTS = frozenset(
    "i you we they he she it there this that these those my your our the a an anyone someone u ya".split()
)
_QUESTION_OPENERS = (
    "i wonder",
    "tell me",
    "any idea",
    "any ideas",
    "any tips",
    "any suggestions",
    "any recommendations",
    "do you know",
    "can you tell",
    "could you tell",
    "what about",
    "how about",
)
_LEADING_FILLERS = frozenset(
    """and but so also oh ok okay well anyway anyways actually plus then now hey hi btw yeah yes no right
    honestly basically though also too just""".split()
)
# Words that open a subordinate clause; the clause they open is asserted (presupposed true).
_PRESUPPOSING = (
    "because",
    "since",
    "now that",
    "given that",
    "ever since",
    "as",
    "although",
    "though",
    "while",
    "whereas",
    "after",
    "when",
    "once",
)
# Words that open a clause whose content is not asserted.
_HYPOTHETICAL_OPENERS = (
    "if",
    "unless",
    "whether",
    "in case",
    "what if",
    "suppose",
    "supposing",
    "imagine",
    "assuming",
    "say",
)
_CUT_BEFORE = re.compile(
    r"\s+(?=(?:because|since|now that|given that|ever since|although|though|whereas|if|unless|whether|in case)\b)"
    r"|\s+(?=(?:and|but|or|so|then)\s+(?:i|i'm|i've|i'd|i'll|my|our|we|we're|she|he|they|it|it's|there)\b)",
    re.IGNORECASE,
)
_RELATIVE = frozenset("who which where whose whom".split())
# Verbs that open a request to the assistant ("remind me to call the vet", "book a table for four").
# Verbs that say something *of* their subject (being, having, liking, living, working...).
_STATIVE = frozenset(
    """is was are were 's has had have lives lived works worked turns turned turned loves loved likes liked hates
    prefers eats ate drinks speaks studies studied plays played drives owns owned goes went gets got uses used
    needs wants is't isn't wasn't doesn't don't didn't can't won't will would just""".split()
)
_ADVERBS = frozenset("just also still now really recently finally always never already actually currently".split())
_PRONOUNS_3RD = frozenset("he she they he's she's they're his her their".split())
_REQUEST_VERBS = frozenset(
    """remind book find suggest recommend help tell show give send add set schedule plan write draft check look
    make call order buy get note save remember list compare explain translate summarize summarise search
    cancel move update keep track let please""".split()
)

_HYPOTHETICAL_WORDS = frozenset(
    """if unless suppose supposing imagine wish maybe perhaps might could would i'd we'd you'd he'd she'd they'd
    should whether hypothetically theoretically someday possibly""".split()
)
_HYPOTHETICAL_PHRASES = (
    "what if",
    "in case",
    "thinking about",
    "thinking of",
    "considering",
    "not sure",
    "in theory",
    "dreaming of",
    "toying with",
    "on the fence",
)
_PREFERENCE_AFTER_WOULD = frozenset("like love prefer rather enjoy".split())
_PERFORMATIVE = frozenset("mention add say note tell point clarify".split())
_NEGATIONS = frozenset(
    """not no never none nothing neither nor without don't doesn't didn't isn't aren't wasn't weren't can't cannot
    couldn't won't wouldn't shouldn't haven't hasn't hadn't dont doesnt didnt isnt arent wasnt werent cant wont
    wouldnt shouldnt havent hasnt hadnt ain't nope""".split()
)
_STOPS_SPAN = frozenset(
    """and or but to that who which where when because since if so than then is are was were be been has have had
    do does did will would can could should might may must for with from at by about while""".split()
)

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
# People (and pets) of the speaker's life: a clause whose subject is one of them states that
# party's fact. Each group lists words that name the same party.
PARTY_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(g.split())
    for g in (
        "mom mum mother mama mommy ma",
        "dad father papa daddy pa",
        "parent parents folks",
        "sister sis",
        "brother bro",
        "sibling siblings",
        "wife spouse partner",
        "husband spouse hubby partner",
        "partner",
        "boyfriend bf partner",
        "girlfriend gf partner",
        "fiance fiancee partner",
        "son",
        "daughter",
        "kid kids child children",
        "baby",
        "twins twin",
        "boss manager supervisor",
        "colleague coworker co-worker teammate",
        "friend buddy",
        "roommate flatmate housemate",
        "neighbor neighbour",
        "aunt",
        "uncle",
        "cousin",
        "grandma grandmother granny nan nana",
        "grandpa grandfather granddad",
        "niece",
        "nephew",
        "landlord landlady",
        "doctor dentist therapist physio",
        "teacher tutor coach",
        "client customer",
        "dog puppy",
        "cat kitten",
        "pet",
        "in-laws mother-in-law father-in-law",
        "team",
    )
)
_PARTY_WORDS = frozenset(w for g in PARTY_GROUPS for w in g)


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
    while i < len(words) - 1 and words[i] in _LEADING_FILLERS:
        i += 1
    return words[i:]


def _opens_question(words: list[str]) -> bool:
    w = _strip_fillers(words)
    if not w:
        return False
    first, second = w[0], (w[1] if len(w) > 1 else "")
    if first in _QUESTION_WORDS:
        return True
    if first in _AUXILIARIES and second in _SUBJECTS:
        return True
    return " ".join(w).startswith(_QUESTION_OPENERS)


def _starts_with(words: list[str], phrases: tuple[str, ...]) -> bool:
    w = " ".join(_strip_fillers(words))
    return any(w == p or w.startswith(p + " ") for p in phrases)


def _hypothetical(words: list[str]) -> bool:
    joined = " " + " ".join(words) + " "
    if any(f" {p} " in joined for p in _HYPOTHETICAL_PHRASES):
        return True
    for i, w in enumerate(words):
        if w not in _HYPOTHETICAL_WORDS:
            continue
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if (w in ("would", "could", "should") or w.endswith("'d")) and nxt in _PREFERENCE_AFTER_WOULD:
            continue  # "I'd like a window seat", "I would rather": a preference, stated
        if w in ("should", "must", "could") and nxt in _PERFORMATIVE:
            continue  # "I should mention I'm allergic to nuts": the mention is the statement
        return True
    return False


def _relative(words: list[str]) -> bool:
    """ ", who turns 30", ", which is due Friday": a relative clause (not "where can I ...")."""
    w = _strip_fillers(words)
    if not w or w[0].split("'")[0] not in _RELATIVE:  # "who's 5": who is
        return False
    return not (len(w) > 2 and w[1] in _AUXILIARIES and w[2] in _SUBJECTS)


def _wh_aux(words: list[str]) -> bool:
    """ "when does ...", "when's ...": a *wh*-word asking, not opening a subordinate clause."""
    w = _strip_fillers(words)
    return len(w) > 1 and (w[0].endswith("'s") or w[1] in _AUXILIARIES)


def _negated(words: list[str]) -> bool:
    return any(w in _NEGATIONS or w.endswith("n't") for w in words)


def party_of(words: list[str], *, predicate: bool = True) -> str | None:
    """The party a clause's subject names when the clause says something *of* them: "my sister is
    30", "my boss's a vegan", "my wife Ana loves pottery" (a stative verb follows the party); not
    "my landlord raised the rent" (an action, whose object may be the speaker's). ``predicate``
    False: any possessive phrase naming a party ("my wife Ana")."""
    w = _strip_fillers(words)
    if len(w) < 2 or w[0] not in ("my", "our"):
        return None
    for i, cand in enumerate(w[1:4], start=1):
        base = cand.removesuffix("'s").removesuffix("s'")
        party = (
            base if base in _PARTY_WORDS else (base[:-1] if base.endswith("s") and base[:-1] in _PARTY_WORDS else None)
        )
        if party is not None:
            if not predicate or cand.endswith("'s") and cand not in ("it's", "that's"):
                return party  # "my sister's birthday": of the sister either way
            rest = [t for t in w[i + 1 : i + 5] if t not in _ADVERBS]
            if rest and rest[0] not in _STATIVE and len(rest) > 1:
                rest = rest[1:]  # a name after the noun: "my wife Ana loves ..."
            return party if rest and rest[0] in _STATIVE else None
        if cand in _STOPS_SPAN:
            break
    return None


def is_small_talk(words: list[str]) -> bool:
    """Nothing left once greetings, thanks, acknowledgements and fillers are taken out."""
    rest = " " + " ".join(words) + " "
    for phrase in _SMALL_TALK_PHRASES:
        rest = rest.replace(" " + " ".join(tokens(phrase)) + " ", " ")
    return all(w in _SMALL_TALK_WORDS for w in rest.split())


def _possessive_spans(words: list[str]) -> tuple[str, ...]:
    """ "my new flat in Porto", and a relative clause attached to it ("my sister who turns 30")."""
    spans = []
    for i, w in enumerate(words):
        if w not in ("my", "our"):
            continue
        span = [w]
        j = i + 1
        while j < len(words) and j <= i + 4:
            if words[j] == "and" and j + 1 < len(words) and words[j + 1] not in _STOPS_SPAN | _SUBJECTS:
                span.append(words[j])  # "my Monday and Thursday mornings", not "my car and I"
                j += 1
                continue
            if words[j] in _STOPS_SPAN or words[j] in ("my", "our"):
                break
            span.append(words[j])
            j += 1
        if j < len(words) and words[j] in ("who", "which", "that", "whose") and len(span) > 1:
            for nxt in words[j : j + 8]:
                if nxt in ("and", "but", "or", "so", "if"):
                    break
                span.append(nxt)
        if len(span) > 1:
            spans.append(" ".join(span))
    return tuple(spans)


_FACTIVE = re.compile(
    r"\b(?:know|knew|realize|realise|realized|realised|remember|notice|noticed|heard|hear|forgot|forget|"
    r"mention|mentioned|told you|tell you)\s+(?:that\s+)?(.+)$"
)


def _factive_span(words: list[str]) -> tuple[str, ...]:
    """ "did you know I got promoted", "did I tell you my sister moved": a factive verb presupposes
    its complement (not "do you know where ...", "I forget whether ...")."""
    m = _FACTIVE.search(" ".join(words))
    if m is None:
        return ()
    rest = m.group(1).split()
    if not rest or rest[0] in _QUESTION_WORDS or rest[0] in ("if", "whether", "how", "to"):
        return ()
    return (" ".join(rest),)


_EMBEDDED_VERBS = frozenset(
    """bought got made took moved had was left found met started began went saw paid sold built won lost chose
    wrote ran drove adopted booked joined rented signed picked ordered switched live work have own use drive love
    keep can go usually normally always""".split()
)


def _embedded_statement(words: list[str]) -> tuple[str, ...]:
    """ "... to the iPhone 15 I caved and bought yesterday?": a clause of the speaker's embedded in a
    question or request (a relative clause without "that") is asserted, with the phrase it describes."""
    for i in range(3, len(words) - 1):
        if words[i - 1] in _QUESTION_WORDS or words[i - 1] in ("if", "whether", "should", "could", "can"):
            continue  # "do you know where I can buy ...": an embedded question, not a statement
        if words[i] in ("i", "we") and any(t in _EMBEDDED_VERBS for t in words[i + 1 : i + 4]):
            return (" ".join(words[i - 3 :]),)
    return ()


def _trailing_party(words: list[str]) -> str | None:
    """The party a possessive phrase at the very end of a clause names ("... for my sister")."""
    for i in range(len(words) - 1, max(-1, len(words) - 5), -1):
        if words[i] in ("my", "our"):
            return party_of(words[i:], predicate=False)
    return None


def _bare_possessive(words: list[str]) -> bool:
    """ "my new manager": a possessive phrase with no verb of its own."""
    w = _strip_fillers(words)
    return bool(w) and w[0] in ("my", "our") and len(w) <= 5 and not any(t in _STATIVE for t in w)


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
        for sub in _CUT_BEFORE.split(part):
            if sub and sub.strip(" .!?\"'“”*_"):
                out.append(sub.strip())
    return out


def _has_own_subject_or_verb(words: list[str]) -> bool:
    """A piece that can stand as a clause: it has a subject-like opening or a finite verb."""
    w = _strip_fillers(words)
    if not w:
        return False
    if w[0] in _SUBJECTS or w[0] in _QUESTION_WORDS or w[0] in _AUXILIARIES or w[0] in _RELATIVE:
        return True
    if w[0].endswith(("'m", "'re", "'s", "'ve", "'ll", "'d")):
        return True
    if _starts_with(w, _PRESUPPOSING) or _starts_with(w, _HYPOTHETICAL_OPENERS):
        return True
    return any(t in _AUXILIARIES or t.endswith(("'m", "'re", "'ve")) for t in w[1:4])


def clauses(text: str) -> list[Clause]:
    """The clauses of ``text`` with their mood, in order (see the module docstring)."""
    out: list[Clause] = []
    for si, sentence in enumerate(split_sentences(text)):
        asks = sentence.rstrip(" \"'”)*_").rstrip(".!").endswith("?")
        pieces = _pieces(sentence)
        moods: list[Mood] = []
        for pi, piece in enumerate(pieces):
            words = tokens(piece)
            last = pi == len(pieces) - 1
            if not words:
                mood: Mood = moods[-1] if moods else "small_talk"
            elif is_small_talk(words):
                mood = "small_talk"
            elif pi > 0 and _relative(words):
                mood = "negated" if _negated(words) else "assert"  # ", who turns 30 in May"
            elif _starts_with(words, _HYPOTHETICAL_OPENERS) or _hypothetical(words):
                mood = "hypothetical"
            elif _starts_with(words, _PRESUPPOSING) and not (pi == 0 and _opens_question(words) and _wh_aux(words)):
                mood = "negated" if _negated(words) else "assert"
            elif _opens_question(words):
                mood = "question"
            elif _strip_fillers(words)[0] in _REQUEST_VERBS:
                mood = "request"
            elif asks and last and not _has_own_subject_or_verb(words):
                mood = "question"  # "..., any tips?"
            elif moods and not _has_own_subject_or_verb(words):
                # a list item or an apposition continues its clause; after a greeting, a fragment
                # is a telegraphic statement ("hey, UX designer here, fully remote")
                mood = moods[-1] if moods[-1] != "small_talk" else "assert"
            elif _negated(words):
                mood = "negated"
            else:
                mood = "assert"
            moods.append(mood)
            party = party_of(words)
            if party is None and words and _strip_fillers(words)[0] in _PRONOUNS_3RD:
                before = [c for c in out if c.party or c.presupposed]
                if before:  # "my wife Ana, she loves pottery": the last party named before
                    party = _last_party(before[-1].presupposed) or before[-1].party
            elif party is None and out and out[-1].sentence == si:
                if words and pi > 0 and _relative(words):
                    # ", who turns 30": about the antecedent, the phrase that ends the clause before
                    # ("a gift for my sister, who ..."; not "my manager wants a case for Priyanka, who ...")
                    party = _trailing_party(tokens(out[-1].text))
                elif not _has_own_subject_or_verb(words):
                    party = out[-1].party  # the continuation of "my sister, ..." is still about her
            pre = (
                _possessive_spans(words) + _factive_span(words)
                if mood in ("question", "request", "hypothetical")
                else ()
            )
            if pi > 0 and mood == "assert" and (_bare_possessive(words) or _relative(words)):
                names = _trailing_names(pieces[pi - 1])
                if names:  # "with Dana, my new manager", "for Priyanka, who reports to me": about Dana
                    pre += (f"{names} {piece}",)
            if mood in ("question", "request", "hypothetical"):
                pre += _embedded_statement(words)
            if mood == "request" and "that" in words:  # "note that my passport expires in June"
                pre = (" ".join(words[words.index("that") + 1 :]),)
            out.append(Clause(piece, mood, party, si, pre))
    return out
