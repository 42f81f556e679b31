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
   * ``quoted`` — somebody else's words in quotes ("Dad: 'your cousin got a job at Panasonic'");
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

__all__ = [
    "NAMED",
    "PARTY_GROUPS",
    "Clause",
    "Mood",
    "clauses",
    "is_small_talk",
    "party_of",
    "split_sentences",
    "tokens",
]

Mood = Literal["assert", "question", "request", "hypothetical", "negated", "quoted", "small_talk"]

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
    """and but or so also oh ok okay well anyway anyways actually plus then now hey hi btw yeah yes no right
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
    "until",
    "before",
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
    r"|\s+(?=(?:and|but|or|so|then)\s+(?:i|i'm|i've|i'd|i'll|my|our|we|we're|she|he|they|it|it's|there|the)\b)"
    r"|\s+(?=(?:when|once|until|after|before|while)\s+(?:i|i'm|my|our|we|she|he|they|it|the|his|her|their)\b)",
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
_SUBORDINATORS = frozenset("because since as although though while when once whereas after before until that".split())
_NOT_A_PERSON_AFTER = frozenset("tongue language nature land country board side figure ship".split())
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
        "son boy",
        "daughter girl",
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


def _is_request(piece: str, words: list[str]) -> bool:
    """ "Remind me to ...", "book a table": a verb asking the assistant to act, followed by what to
    act on; not a record's label ("Order #88213 confirmed", "Plan: Pro", "plan Basic")."""
    w = _strip_fillers(words)
    if not w or w[0] not in _REQUEST_VERBS:
        return False
    raw = piece.split()
    at = next((i for i, t in enumerate(raw) if t.lower().strip(",.!?:;") == w[0]), None)
    nxt = raw[at + 1] if at is not None and at + 1 < len(raw) else ""
    return not nxt or not (nxt[:1].isupper() or nxt[:1].isdigit() or nxt[:1] == "#")


def _relative(words: list[str]) -> bool:
    """ ", who turns 30", ", which is due Friday": a relative clause (not "where can I ...")."""
    w = _strip_fillers(words)
    if not w or w[0].split("'")[0] not in _RELATIVE:  # "who's 5": who is
        return False
    return not (len(w) > 2 and w[1] in _AUXILIARIES and w[2] in _SUBJECTS)


def _aux_first(words: list[str]) -> bool:
    """ "is amoxicillin ok", "does Hoka run small": an auxiliary opens it (the subject may be a name)."""
    w = _strip_fillers(words)
    return len(w) > 1 and w[0] in _AUXILIARIES


def _wh_aux(words: list[str]) -> bool:
    """ "when does ...", "when's ...": a *wh*-word asking, not opening a subordinate clause."""
    w = _strip_fillers(words)
    return len(w) > 1 and (w[0].endswith("'s") or w[1] in _AUXILIARIES)


def _negated(words: list[str]) -> bool:
    return any(w in _NEGATIONS or w.endswith("n't") for w in words)


def _strip_lead(words: list[str]) -> list[str]:
    """Fillers and subordinators before a clause's subject ("because my roommate works nights")."""
    i = 0
    while i < len(words) - 1 and (words[i] in _LEADING_FILLERS or words[i] in _SUBORDINATORS):
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
            base if base in _PARTY_WORDS else (base[:-1] if base.endswith("s") and base[:-1] in _PARTY_WORDS else None)
        )
        if party is not None and i + 1 < len(w) and w[i + 1] in _NOT_A_PERSON_AFTER:
            return None  # "my mother tongue", "my father's side"
        if party is not None:
            if not predicate or cand.endswith("'s") and cand not in ("it's", "that's"):
                return party  # "my sister's birthday": of the sister either way
            rest = [t for t in w[i + 1 : i + 6] if t not in _ADVERBS]
            for _ in range(
                2
            ):  # a name after the noun ("my wife Ana loves"), or a role's second word ("my team lead Priyanka swears")
                if rest and rest[0].endswith("'s"):
                    return party  # "my sister Anjali's birthday"
                if rest and not _verb_like(rest[0]) and len(rest) > 1:
                    rest = rest[1:]
            return party if rest and (_verb_like(rest[0]) or rest[0].endswith("'s")) else None
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


_IRREALIS_MODALS = frozenset("might could would should may will shall must i'd we'd i'll we'll".split())


def _embedded_statement(words: list[str]) -> tuple[str, ...]:
    """ "... to the iPhone 15 I caved and bought yesterday?": a clause of the speaker's embedded in a
    question or request (a relative clause without "that") is asserted, with the phrase it describes."""
    for i in range(3, len(words) - 1):
        if words[i - 1] in _QUESTION_WORDS or words[i - 1] in ("if", "whether", "should", "could", "can"):
            continue  # "do you know where I can buy ...": an embedded question, not a statement
        if words[i + 1] in _IRREALIS_MODALS:
            continue  # "... I might go to $110": not a statement
        if words[i] in ("i", "we") and any(t in _EMBEDDED_VERBS for t in words[i + 1 : i + 4]):
            return (" ".join(words[i - 3 :]),)
    return ()


_FUNCTION_CAPS = frozenset(
    """i i'm i've i'd i'll the a an my our your this that these those it it's we we're you you're he she they
    there here what when where who why how which can could would should will do does did is are was were
    have has had just so and but or if also any anyone some no not""".split()
)
_KIN_WITHOUT_MY = frozenset("mom mum mother mama dad father papa grandma grandpa granny nana".split())


def _verb_like(word: str) -> bool:
    return (
        word in _STATIVE
        or word in _AUXILIARIES
        or word in _ACTION_VERBS
        or word.endswith("ed")
        or (word.endswith("s") and len(word) > 3 and not word.endswith("ss"))
    )


_ACTION_VERBS = frozenset(
    "got made took left went began ran drove bought sold won lost found met came became hit put set cut quit let".split()
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
    if base in _KIN_WITHOUT_MY and (first.endswith("'s") or _verb_like(nxt)):
        return base, None
    if first in _THIRD_PERSON_NP:
        for i in range(1, min(len(w), 7)):
            if _verb_like(w[i]) and not (
                w[i].endswith("s") and i + 1 < len(w) and not _verb_like(w[i + 1]) and w[i] not in _STATIVE
            ):
                subject = [t.removesuffix("'s") for t in w[1:i]]
                cased = piece.split()
                named = any(t[:1].isupper() for t in cased[1 : i + 1])
                if any(t in _PARTY_WORDS or t.rstrip("s") in _PARTY_WORDS for t in subject) or named:
                    return NAMED, " ".join(subject)
                return None, None
        return None, None
    opener = next((t for t in piece.split() if t.lower().strip(",.!?:;\"'()") == first), "")
    if not opener[:1].isupper() or base in _FUNCTION_CAPS or base in _REQUEST_VERBS or not base.isalpha():
        return None, None
    if base in _POSSESSIVE_PRONOUNS or base.endswith("ly") or (base.endswith("ed") and len(base) > 4):
        return None, None  # "Mine's still 5.4", "Finally moved to Prague", "Started nights at ..."
    if first.endswith("'s") or _verb_like(nxt):
        return NAMED, base
    return None, None


_POSSESSIVE_PRONOUNS = frozenset("mine yours ours hers his theirs".split())


def _speech(quote: str) -> bool:
    """A quotation that is somebody's words (a clause), not a title ("'Padaria Flor de Sal'")."""
    w = tokens(quote)
    return len(w) >= 3 and any(_verb_like(t) or t in _SUBJECTS for t in w)


_QUOTE = re.compile(r"(?:^|\s)['\"“‘](.{6,}?)['\"”’](?=[\s.,!?;:]|$)")
_THIRD_PERSON_NP = frozenset("the a an his her their half most all everyone everybody nobody".split())


_NAME_POSSESSIVE = re.compile(r"\b([A-Z][a-z]+)['’]s\s+((?:[\w-]+\s*){1,5})")


def _name_possessives(piece: str) -> tuple[str, ...]:
    """ "a week before Anjali's birthday on July 22": a named person's possessive presupposes."""
    spans = []
    for m in _NAME_POSSESSIVE.finditer(piece):
        if m.group(1).lower() in _FUNCTION_CAPS:
            continue
        rest = []
        for t in tokens(m.group(2)):
            if t in _STOPS_SPAN and t not in ("on", "in", "at"):
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
        and not any(t in _STATIVE or t.endswith("'s") or _verb_like(t) for t in words[1:])
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


_EMBEDS_QUESTION = ("idea", "know", "wonder", "sure", "ask", "asking", "tell me", "remember", "decide", "unsure")


def _pieces(sentence: str) -> list[str]:
    out: list[str] = []
    for part in _PUNCT_CUT.split(sentence):
        subs = [sub.strip() for sub in _CUT_BEFORE.split(part) if sub and sub.strip(" .!?\"'“”*_")]
        for sub in subs:
            # "any idea when the train leaves": an embedded question, not a subordinate clause
            if (
                out
                and sub.lower().startswith(("when ", "once ", "until ", "after ", "before "))
                and (out[-1].lower().rstrip(" ?.!").endswith(_EMBEDS_QUESTION))
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
            elif _starts_with(words, _HYPOTHETICAL_OPENERS) or _hypothetical(words):
                mood = "hypothetical"
            elif _starts_with(words, _PRESUPPOSING) and not (pi == 0 and _opens_question(words) and _wh_aux(words)):
                mood = "negated" if _negated(words) else "assert"
            elif (asks or not stops) and (_opens_question(words) or (asks and _aux_first(words))):
                # "Is Berlin nice in winter?"; a question's opening without a full stop counts too
                # ("what is the weather like today"), not "Did it, raised my rate to $95."
                mood = "question"
            elif _is_request(piece, words):
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
            if mood in ("assert", "negated") and any(piece.strip(" .!?,'\"“”‘’") in q for q in quoted if _speech(q)):
                mood = "quoted"  # "Dad: 'your cousin got a job at Panasonic'": somebody else's words
            moods.append(mood)
            party = party_of(words)
            if party is None and words and _strip_lead(words)[0] in _PRONOUNS_3RD:
                # "my wife Ana, she loves pottery", "for my son's birthday. He can't have eggs": the
                # last party named before, in any clause of the turn
                for c in reversed(out):
                    named = c.party or _last_party(c.presupposed + _possessive_spans(tokens(c.text)))
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
            subject = subject_of_relative
            if party is None:
                party, subject = _named_subject(piece, words, initial=pi == 0)
            if mood in ("question", "request", "hypothetical"):
                pre += _name_possessives(piece)
            out.append(Clause(piece, mood, party, si, pre, subject))
    return out
