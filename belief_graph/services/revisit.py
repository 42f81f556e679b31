"""Revisit: the held beliefs a turn touches that extraction left alone (``remember``'s step 3b).

A model extracting facts from a turn misses some, and the change of something memory already holds
is the costly miss: said in passing, inside a question ("Does the amlodipine my doctor switched me
to from lisinopril clash with grapefruit?", "How often should I charge the Tesla I traded my Civic
in for?"), it leaves the old value current, so every later answer is stale. The engine knows what
it holds, so it does not depend on the extractor alone:

1. **touched** (:func:`touched`): among the active beliefs closest to the turn (the vector index,
   ``policy.key_candidates`` of them), those whose value or attribute the turn names — a content
   word of the value ("lisinopril", "Civic") or of the key's last segment ("medication") — and
   that no extracted fact of the turn landed on; at most ``policy.revisit_limit``, closest first;
2. **revisit** (one LLM call for all of them, the ``revisit`` job): the model is shown the
   beliefs and the turn and says, for each, whether the turn changes it and to what — a narrow
   question a small model answers better than "extract everything";
3. what it says changed becomes an extracted fact under the belief's key (:func:`as_facts`), and
   from there is treated like any other: grounded against the turn (a value the turn does not
   state is refused), classified against the belief (update, contradiction, same), written
   through the one write path.

No belief touched, no call. ``policy.revisit = false`` turns the step off.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..llm.jobs import ExtractedFact, Revisits
from ..models import Claim
from ..policies import same_value
from .extraction_grounding import content_stems, key_stems
from .value_forms import as_value

__all__ = ["as_facts", "touched"]


def touched(text: str, near: Sequence[tuple[Claim, float]], covered: Collection[str], limit: int) -> list[Claim]:
    """The beliefs of ``near`` (claims with their similarity to the turn) whose value or attribute
    ``text`` names, not under a key in ``covered`` (what extraction already said), closest first."""
    said = content_stems(text)
    out: list[Claim] = []
    for claim, _ in sorted(near, key=lambda cs: -cs[1]):
        if claim.key is None or claim.key in covered or any(c.key == claim.key for c in out):
            continue
        value = set() if isinstance(claim.value, bool) or claim.value is None else content_stems(str(claim.value))
        if (value | key_stems(claim.key)) & said:
            out.append(claim)
        if len(out) >= limit:
            break
    return out


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
            ExtractedFact(source=source, key=belief.key, value=r.value, text=r.text, kind="semantic", confidence=0.8)
        )
    return facts
