"""An extracted fact the turn implies rather than says, taken on its cited evidence (pure functions).

People rarely restate what changed in the words memory holds: "Sam and I broke up" leaves the user
``single``, "I sold the Golf" leaves ``user.owns_car`` false, "Ava arrived on Tuesday!" ends
``user.pregnant``, "my brother Jake" says an only child has a sibling after all. Grounding
(:mod:`.extraction_grounding`) refuses such values, because the turn does not state them; refusing
them leaves the old value current, which is a stale answer. A model that concludes them is asked to
cite the words it concluded from (``evidence`` in the extract and revisit jobs); the engine does
not judge the conclusion, it judges the citation and the shape of what is concluded, and accepts
the fact as an **inference** when:

1. the value is not said in the turn at all (none of its words; for a boolean, none of its key's
   words; for a number, not the figure): a value the turn does say was judged by how it says it
   (in a question, a hypothetical, of somebody else), and an inference does not overrule that;
2. the evidence is the turn's own words, copied (compared word by word, case and punctuation
   aside), at least two of them and one a content word;
3. every content word of the evidence is in what the turn asserts or denies: evidence taken from a
   question, a request or a hypothetical is no evidence ("if we broke up I'd move" states nothing);
4. the fact's statement shares a content word with its evidence: the statement says what the
   evidence is about ("The user is single after breaking up with Sam" for "Sam and I broke up");
5. **what is concluded is a category**, a yes or no or a word or two ("single", "in a
   relationship", "retired"), never a figure or a description: a number, a date, an amount or a
   value of more than two content words that the turn does not say is invented, not concluded
   ("Got the raise" says no "10%");
6. **whose fact**: for a key about the speaker that names nobody else (``user.birthday``), the
   evidence must be the speaker's own words about themself, or its statement must name the other
   person it concludes from ("The user has a brother, Jake" for "My brother Jake is crashing on our
   sofa"); "My boss Delia is vegan and it's her birthday this Friday" gives the user no birthday.

``remember`` then takes the inference as ``policy.inferences`` says: ``any`` (the default),
``held`` (only for a fact memory already holds: the key, once its identity is resolved, has a
current belief) or ``off``. The claim records its evidence (``inferred_from``) and, like every fact
of the turn, rests on the episode, so a retracted turn takes its inferences with it.
"""

from __future__ import annotations

import re
from datetime import datetime

from ...llm.jobs import ExtractedFact
from ..temporal import MONTH_NAMES, WEEKDAY_NAMES
from .clause_words import PARTY_GROUPS
from .clauses import NAMED, tokens
from .extraction_grounding import FactCheck, about_speaker_only, asserted_stems, parties_saying
from .stems import STOP_WORDS, content_stems, key_stems, split_ident, stem
from .value_forms import as_value, number_forms

__all__ = ["check_inference", "value_said"]

_TIME_WORDS = frozenset(MONTH_NAMES + WEEKDAY_NAMES)


def value_said(key: str | None, value: object, turn: str, at: datetime | None = None) -> bool:
    """Whether the turn says the value anywhere, in any mood: one of its content words (a boolean:
    one of its key's words; a number: the figure)."""
    value = as_value(value)
    words = tokens(turn)
    said = {stem(w) for w in words}
    if isinstance(value, bool):
        return bool(key_stems(key or "") & said)
    if isinstance(value, int | float):
        form = str(int(value)) if float(value) == int(value) else repr(float(value)).rstrip("0").rstrip(".")
        return form in number_forms(words, turn, at)
    if isinstance(value, str):
        mine = {stem(w) for w in split_ident(value) if w not in STOP_WORDS and len(w) > 1 and not w.isdigit()}
        figures = set(re.findall(r"\d+", value))
        return bool(mine & said) or bool(figures & set(re.findall(r"\d+", turn))) or not (mine or figures)
    return True  # no value: nothing to infer


def _concluded_shape(value: object) -> str:
    """Why a value is no conclusion (rule 5), or ""."""
    value = as_value(value)
    if isinstance(value, bool):
        return ""
    if isinstance(value, int | float) or (isinstance(value, str) and any(c.isdigit() for c in value)):
        return f"value {value!r} is a figure, which a turn states or not; it is not concluded"
    if isinstance(value, str) and len(content_stems(value)) > 2:
        return f"value {value!r} is a description, not a category a turn implies"
    return ""


def _names(text: str) -> set[str]:
    """Capitalised words not opening a sentence ("Jake", "Delia"), lower-cased; months and weekdays
    are no one."""
    out = set()
    for m in re.finditer(r"(?<![\w'’])([A-Z][\w’'-]*)", text):
        if m.start() and not text[: m.start()].rstrip().endswith((".", "!", "?")):
            out.add(m.group(1).lower().removesuffix("'s").removesuffix("’s"))
    return out - _TIME_WORDS


def _within(needle: list[str], hay: list[str]) -> bool:
    n = len(needle)
    return any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


def check_inference(f: ExtractedFact, turn: str, *, user: bool, at: datetime | None = None) -> FactCheck:
    """Whether ``f``, whose value the turn does not state, is an inference its evidence supports
    (the module docstring's six rules). ``reason`` says why not, or quotes the evidence."""
    evidence = (f.evidence or "").strip()
    if not evidence:
        return FactCheck(False, "no evidence cited")
    if value_said(f.key, f.value, turn, at):
        return FactCheck(False, "the turn says the value: how it says it decides")
    cited = tokens(evidence)
    if len(cited) < 2 or not content_stems(evidence):
        return FactCheck(False, f"evidence {evidence!r} is too short to rest on")
    if not _within(cited, tokens(turn)):
        return FactCheck(False, f"evidence {evidence!r} is not the turn's words")
    unasserted = content_stems(evidence) - asserted_stems(turn, speaker_is_user=user)
    if unasserted:
        return FactCheck(False, f"evidence {evidence!r} is not asserted by the turn (asked or supposed)")
    if not content_stems(evidence) & content_stems(f.text):
        return FactCheck(False, f"the statement {f.text!r} does not say what its evidence {evidence!r} is about")
    shape = _concluded_shape(f.value)
    if shape:
        return FactCheck(False, shape)
    if user and about_speaker_only(f.key):
        parties = parties_saying(turn, content_stems(evidence), speaker_is_user=user)
        if parties and not any(p is None for p, _ in parties):
            told = content_stems(f.text) | set(tokens(f.text))
            names = _names(evidence) | {n for p, name in parties if p == NAMED and name for n in name.split()}
            named = names & told
            kin = any(stem(w) in told for p, _ in parties if p != NAMED for g in PARTY_GROUPS if p in g for w in g)
            if not named and not kin:
                return FactCheck(
                    False,
                    f"evidence {evidence!r} is said of another person, and the statement {f.text!r} does not "
                    "say whom it concludes from",
                )
    return FactCheck(True, f"inferred from {evidence!r}")
