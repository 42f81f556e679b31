"""Why an argument has its grounded label: the decisive attackers, read from the stored labels.

IN: every attacker is OUT (or there is none); OUT: an attacker is IN (the one of the earliest
wave is decisive); UNDEC: no attacker is IN and some stay undecided. Pure: the row comes from
``cypher/argumentation/explain_argument.cypher`` through the argumentation service.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..models.argumentation import AttackerInfo, LabelExplanation

__all__ = ["explain_row"]


def _names(items: Sequence[AttackerInfo]) -> str:
    return ", ".join(a.name for a in items)


def explain_row(ns: str, row: Mapping[str, Any]) -> LabelExplanation:
    """The explanation of one argument's stored label from its row (``argumentation.explain``):
    its label and wave, its attackers with their labels and waves, its targets. A label that no
    longer follows from the attackers' labels (the graph changed since the last solve) is said."""
    name, label, wave = row["name"], row["label"], row["wave"]
    attackers: list[AttackerInfo] = row["attackers"]
    by_label = {lab: [a for a in attackers if a.label == lab] for lab in ("IN", "OUT", "UNDEC")}
    stale = ""
    if label == "IN":
        decisive = attackers
        if not attackers:
            reason = "IN: it has no attacker"
        else:
            reason = f"IN: every attacker is OUT ({_names(attackers)})"
        if len(by_label["OUT"]) != len(attackers):
            stale = "an attacker is not OUT"
    elif label == "OUT":
        ins = sorted(by_label["IN"], key=lambda a: (a.wave if a.wave is not None else 1 << 62, a.name))
        decisive = ins[:1]
        reason = f"OUT: attacked by {ins[0].name}, which is IN (wave {ins[0].wave})" if ins else "OUT"
        if not ins:
            stale = "no attacker is IN"
    else:
        decisive = by_label["UNDEC"]
        self_attack = any(a.name == name for a in decisive)
        reason = f"UNDEC: no attacker is IN, and undecided attacker(s) remain: {_names(decisive)}"
        if self_attack:
            reason += " (it attacks itself)"
        if by_label["IN"] or not decisive:
            stale = "an attacker is IN" if by_label["IN"] else "no attacker is UNDEC"
    if stale:
        reason += f" [stale: {stale}; the attack graph changed since the last ground, run it again]"
    return LabelExplanation(
        ns=ns,
        name=name,
        label=label,
        wave=wave,
        reason=reason,
        decisive=decisive,
        attackers=attackers,
        targets=row["targets"],
    )
