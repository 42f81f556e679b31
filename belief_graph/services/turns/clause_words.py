"""The closed word classes of English that :mod:`belief_graph.services.turns.clauses` reads turns with:
question words and auxiliaries, fillers, subordinators, modals of possibility, verbs that open
requests, negations, greetings and thanks, the people (and pets) of a speaker's life, and the
words that say something changed (:func:`says_change`). They are
grammar, not a model's habits; some were added while reading how grounding read the odd-numbered
items of the conversation suite, whose even-numbered items are held out (docs/memory.md)."""

from __future__ import annotations

import re
import unicodedata

QUESTION_WORDS = frozenset(
    "what what's whats when when's where where's who who's whom whose why why's how how's which".split()
)

AUXILIARIES = frozenset(
    """do does did is are was were am can could would will should shall may might must have has had
    isn't aren't wasn't weren't don't doesn't didn't can't couldn't won't wouldn't shouldn't haven't hasn't""".split()
)

SUBJECTS = frozenset(
    "i you we they he she it there this that these those my your our the a an anyone someone u ya".split()
)

QUESTION_OPENERS = (
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

LEADING_FILLERS = frozenset(
    """and but or so also oh ok okay well anyway anyways actually plus then now hey hi btw yeah yes no right
    honestly basically though also too just""".split()
)

# Words that open a subordinate clause; the clause they open is asserted (presupposed true).
PRESUPPOSING = (
    "because",
    "bc",
    "cuz",
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
HYPOTHETICAL_OPENERS = (
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

RELATIVE = frozenset("who which where whose whom".split())

# Verbs that open a request to the assistant ("remind me to call the vet", "book a table for four").
# Verbs that say something *of* their subject (being, having, liking, living, working...).
STATIVE = frozenset(
    """is was are were 's has had have lives lived works worked turns turned turned loves loved likes liked hates
    prefers eats ate drinks speaks studies studied plays played drives owns owned goes went gets got uses used
    needs wants is't isn't wasn't doesn't don't didn't can't won't will would just""".split()
)

ADVERBS = frozenset("just also still now really recently finally always never already actually currently".split())

SUBORDINATORS = frozenset(
    "because bc cuz since as although though while when once whereas after before until that".split()
)

NOT_A_PERSON_AFTER = frozenset("tongue language nature land country board side figure ship".split())

PRONOUNS_3RD = frozenset("he she they he's she's they're his her their".split())

REQUEST_VERBS = frozenset(
    """remind book find suggest recommend help tell show give send add set schedule plan write draft check look
    make call order buy get note save remember list compare explain translate summarize summarise search
    cancel move update keep track let please""".split()
)

HYPOTHETICAL_WORDS = frozenset(
    """if unless suppose supposing imagine wish maybe perhaps might could would i'd we'd you'd he'd she'd they'd
    should whether hypothetically theoretically someday possibly""".split()
)

HYPOTHETICAL_PHRASES = (
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
    "as if",
    "as though",
    "acts like",
    "act like",
    "acting like",
)

PREFERENCE_AFTER_WOULD = frozenset("like love prefer rather enjoy".split())

PERFORMATIVE = frozenset("mention add say note tell point clarify".split())

NEGATIONS = frozenset(
    """not no never none nothing neither nor without don't doesn't didn't isn't aren't wasn't weren't can't cannot
    couldn't won't wouldn't shouldn't haven't hasn't hadn't dont doesnt didnt isnt arent wasnt werent cant wont
    wouldnt shouldnt havent hasnt hadnt ain't nope""".split()
)

STOPS_SPAN = frozenset(
    """and or but to that who which where when because since if so than then is are was were be been has have had
    do does did will would can could should might may must for with from at by about while""".split()
)

# Whole phrases first (longest first), then single words: what greetings, thanks and
# acknowledgements are made of. A sentence with nothing else is small talk.
SMALL_TALK_PHRASES = tuple(
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

SMALL_TALK_WORDS = frozenset(
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

PARTY_WORDS = frozenset(w for g in PARTY_GROUPS for w in g)

EMBEDDED_VERBS = frozenset(
    """bought got made took moved had was left found met started began went saw paid sold built won lost chose
    wrote ran drove adopted booked joined rented signed picked ordered switched live work have own use drive love
    keep can go usually normally always""".split()
)

IRREALIS_MODALS = frozenset("might could would should may will shall must i'd we'd i'll we'll".split())

FUNCTION_CAPS = frozenset(
    """i i'm i've i'd i'll the a an my our your this that these those it it's we we're you you're he she they
    there here what when where who why how which can could would should will do does did is are was were
    have has had just so and but or if also any anyone some no not""".split()
)

KIN_WITHOUT_MY = frozenset("mom mum mother mama dad father papa grandma grandpa granny nana".split())

ACTION_VERBS = frozenset(
    "got made took left went began ran drove bought sold won lost found met came became hit put set cut quit let".split()
)

POSSESSIVE_PRONOUNS = frozenset("mine yours ours hers his theirs".split())

THIRD_PERSON_NP = frozenset("the a an his her their half most all everyone everybody nobody".split())

EMBEDS_QUESTION = ("idea", "know", "wonder", "sure", "ask", "asking", "tell me", "remember", "decide", "unsure")

COUNT_WORDS = frozenset(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
    hundreds thousand thousands dozen dozens several few many both""".split()
)
"""Words that count: a clause opening with one ("Six months smoke-free") is not opened by a name."""


_CHANGE = re.compile(
    r"\b(?:now|no\s+longer|any\s?more|moved|moving|move|switched|switching|switch|changed|changing|change|new|"
    r"started|starting|quit|left|joined|became|become|since|from\s+now\s+on|as\s+of|upgraded|downgraded|"
    r"transferred|promoted|sold|bought|traded|replaced|rebooked|rescheduled|postponed|cancell?ed|pushed|"
    r"updated?|renamed|reorg|effective|instead|used\s+to)\b",
    re.IGNORECASE,
)


def says_change(text: str) -> bool:
    """Whether the turn says that something changed ("now", "moved", "switched", "no longer",
    "since", "rebooked", "effective"...). A source that gives another value than memory holds
    *without* saying anything changed disagrees with the belief rather than updating it."""
    return _CHANGE.search(unicodedata.normalize("NFKD", text).lower().replace("’", "'")) is not None
