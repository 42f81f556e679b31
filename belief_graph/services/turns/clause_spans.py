"""What a question or a request still asserts (rule 4 of :mod:`belief_graph.services.turns.clauses`):
the spans a non-asserting clause presupposes. Pure functions over a clause's word tokens.

* a **possessive phrase** asserts that what it names exists ("a good gym near my new flat in
  Porto", "my sister who turns 30");
* a **factive verb** presupposes its complement ("did you know I got promoted", "remind me that my
  passport expires in June"), and a request to change the speaker's own record states what it is
  to be ("can you switch my emergency contact to my wife Layla");
* a clause of the speaker's **embedded** without "that" is asserted ("... the iPhone 15 I caved and
  bought yesterday?").
"""

from __future__ import annotations

import re

from .clause_words import EMBEDDED_VERBS, IRREALIS_MODALS, QUESTION_WORDS, STOPS_SPAN, SUBJECTS

__all__ = ["embedded_statement", "factive_span", "past_or_embedded", "possessive_spans"]


_FACTIVE = re.compile(
    r"\b(?:know|knew|realize|realise|realized|realised|remember|notice|noticed|heard|hear|forgot|forget|"
    r"mention|mentioned|told you|tell you|remind me|remind us)\s+(?:that\s+)?(.+)$"
)


_RECORD_CHANGE = re.compile(
    r"(?:^|\byou\s+)(?:please\s+)?(?:switch|change|update|set)\s+((?:my|our)\s+(?:\S+\s+){1,3}?to\s+.+)$"
)
"""A request to change the speaker's own record ("can you switch my emergency contact to Layla")."""


def factive_span(words: list[str]) -> tuple[str, ...]:
    """ "did you know I got promoted", "did I tell you my sister moved": a factive verb presupposes
    its complement (not "do you know where ...", "I forget whether ..."); a request to change the
    speaker's own record states what it is to be ("switch my emergency contact to my wife Layla")."""
    m = _FACTIVE.search(" ".join(words))
    if m is None:
        change = _RECORD_CHANGE.search(" ".join(words))
        return (change.group(1),) if change else ()
    rest = m.group(1).split()
    if not rest or rest[0] in QUESTION_WORDS or rest[0] in ("if", "whether", "how", "to"):
        return ()
    return (" ".join(rest),)


def possessive_spans(words: list[str]) -> tuple[str, ...]:
    """ "my new flat in Porto", and a relative clause attached to it ("my sister who turns 30")."""
    spans = []
    for i, w in enumerate(words):
        if w not in ("my", "our"):
            continue
        span = [w]
        j = i + 1
        while j < len(words) and j <= i + 4:
            if words[j] == "and" and j + 1 < len(words) and words[j + 1] not in STOPS_SPAN | SUBJECTS:
                span.append(words[j])  # "my Monday and Thursday mornings", not "my car and I"
                j += 1
                continue
            month = words[j] == "may" and j + 1 < len(words) and words[j + 1][:1].isdigit()  # "on May 23"
            if (words[j] in STOPS_SPAN and not month) or words[j] in ("my", "our"):
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


def embedded_statement(words: list[str]) -> tuple[str, ...]:
    """ "... to the iPhone 15 I caved and bought yesterday?": a clause of the speaker's embedded in a
    question or request (a relative clause without "that") is asserted, with the phrase it describes."""
    for i in range(3, len(words) - 1):
        if words[i - 1] in QUESTION_WORDS or words[i - 1] in ("if", "whether", "should", "could", "can"):
            continue  # "do you know where I can buy ...": an embedded question, not a statement
        if words[i + 1] in IRREALIS_MODALS:
            continue  # "... I might go to $110": not a statement
        if words[i] in ("i", "we") and any(past_or_embedded(t) for t in words[i + 1 : i + 4]):
            return (" ".join(words[i - 3 :]),)
        # "the amlodipine my doctor switched me to": somebody of the speaker's life did it to them
        if (
            words[i] in ("my", "our")
            and i + 3 < len(words)
            and past_or_embedded(words[i + 2])
            and words[i + 3] in ("me", "us")
        ):
            return (" ".join(words[i - 3 :]),)
    return ()


def past_or_embedded(word: str) -> bool:
    """A verb of a clause embedded without "that": a listed one, or a regular past ("traded")."""
    return word in EMBEDDED_VERBS or (word.endswith("ed") and len(word) > 4)
