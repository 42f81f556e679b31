"""Revisit: the held beliefs a turn touches that extraction left alone (``remember``'s step 3b).

A model extracting facts from a turn misses some, and the change of something memory already holds
is the costly miss: said in passing, inside a question ("Does the amlodipine my doctor switched me
to from lisinopril clash with grapefruit?", "How often should I charge the Tesla I traded my Civic
in for?"), it leaves the old value current, so every later answer is stale. The engine knows what
it holds, so it does not depend on the extractor alone:

1. **touched** (:func:`touched`): among the active beliefs closest to the turn (the vector index,
   ``policy.key_candidates`` of them), those whose value or attribute the turn names — a content
   word of the value ("lisinopril", "Civic"; a boolean's statement, "spayed") or of the key's last
   segment ("medication") — and that no extracted fact of the turn landed on; when the turn says
   that something changed ("I've moved to Zed", :func:`~.clause_words.says_change`) and no extracted
   fact landed on a held belief, the closest one it does not name too, since a change is often said
   by its new value alone; at most
   ``policy.revisit_limit``, closest first;
2. **revisit** (one LLM call for all of them, the ``revisit`` job): the model is shown the
   beliefs and the turn and says, for each, whether the turn changes it and to what — a narrow
   question a small model answers better than "extract everything";
3. what it says changed becomes an extracted fact under the belief's key (:func:`as_facts`) (a fact
   extraction kept under a *new* key with that same value is the same change: it is folded into
   the held key, one fact, not two), and
   from there is treated like any other: grounded against the turn (a value the turn does not
   state is refused), classified against the belief (update, contradiction, same), written
   through the one write path.

No belief touched, no call. ``policy.revisit = false`` turns the step off.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from datetime import date

from ..llm.jobs import ExtractedFact, Revisits
from ..models import Claim
from ..policies import same_value
from .temporal import MONTH_NAMES, WEEKDAY_NAMES
from .turns.clause_words import says_change
from .turns.stems import content_stems, key_stems
from .turns.value_forms import as_value

__all__ = ["as_facts", "touched"]


def touched(
    text: str, near: Sequence[tuple[Claim, float]], covered: Collection[str], limit: int, *, explained: bool = False
) -> list[Claim]:
    """The beliefs of ``near`` (claims with their similarity to the turn) whose value or attribute
    ``text`` names, not under a key in ``covered`` (what extraction already said), closest first.
    A boolean's value is what its statement says ("The user's cat is spayed": "spayed"), a date's
    its month and weekday ("2026-06-04": "June", "Thursday"). When the
    turn says that something changed ("I've moved to Zed") and no extracted fact landed on a held
    belief (``explained`` False), the closest belief it does not name comes too (within the limit):
    a change is often said by the new value alone."""
    said = content_stems(text)
    fresh = [
        claim for claim, _ in sorted(near, key=lambda cs: -cs[1]) if claim.key is not None and claim.key not in covered
    ]
    fresh = [c for i, c in enumerate(fresh) if all(o.key != c.key for o in fresh[:i])]
    named = [c for c in fresh if (_value_stems(c) | key_stems(c.key or "")) & said][:limit]
    if says_change(text) and not explained and len(named) < limit:
        named += [c for c in fresh if c not in named][:1]
    return sorted(named, key=fresh.index)


def _value_stems(claim: Claim) -> set[str]:
    if claim.value is None:
        return set()
    if isinstance(claim.value, bool):
        subject = content_stems(" ".join((claim.key or "").split(".")[:-1])) | {"user"}
        return content_stems(claim.text) - subject
    value = str(claim.value)
    if _ISO_DAY.match(value):  # a date is said by its month and weekday too ("not Thursday")
        day = date.fromisoformat(value[:10])
        value += f" {MONTH_NAMES[day.month - 1]} {WEEKDAY_NAMES[day.weekday()]}"  # not strftime: locale-free
    return content_stems(value)


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def as_facts(out: Revisits, beliefs: Sequence[Claim], source: str) -> list[ExtractedFact]:
    """What the model said changed, as extracted facts of turn ``source`` under the beliefs' keys."""
    by_key = {b.key: b for b in beliefs}
    facts = []
    for r in out.items:
        belief = by_key.get(r.key)
        if belief is None or not r.changed or r.value is None or not r.text.strip():
            continue
        if same_value(as_value(r.value), belief.value):  # "changed" to what memory holds: a small model's echo
            continue
        facts.append(
            ExtractedFact(
                source=source,
                key=belief.key,
                value=r.value,
                text=r.text,
                kind="semantic",
                confidence=0.8,
                evidence=r.evidence,
            )
        )
    return facts
