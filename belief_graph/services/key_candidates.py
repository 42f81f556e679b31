"""The known keys ``remember`` shows the extract job (pure functions).

A model files a turn's facts under the keys it is shown when they look like the same thing, so the
list decides much of a fact's identity before the engine sees it. Without a key schema it holds:

1. **the keys stored rules read from what people say**: a rule's first premise (``user.city`` for
   a timezone rule, ``user.employer`` for an office rule) and any premise that is a fixed key. A
   conclusion follows a conversation only when its premise lands under that key, and nothing
   names it before the first time it is said; so these come first (at most half of the list);
2. **the registry's keys closest to the turn** and **the keys of the closest active claims**, as
   before, **without a rule's lookup tables**: a premise whose key is filled from an earlier
   premise's value (``city.{city}.timezone``, ``org.{org}.office_city``) reads reference data the
   rule looks values up in. Shown beside a turn that names the city, such a key is where a model
   puts the user's own fact ("I'm in Denver" filed as ``city.Denver.timezone = Mountain Standard
   Time``: the local model did so on the first turn of each of four derived items, and filed
   ``user.city = Denver`` once the lookup keys were not shown). A turn that does state reference
   data ("Octavo moved its office to Leeds") is still extracted; identity aligns the key the model
   coins with the one memory holds.

With a key schema the schema's keys are the list (``remember``), and nothing here applies.

The same reading gives the keys rules **derive** and let nobody write (``direct_writes: refuse``,
the default): a fact a model files under one ("The new office is in Leeds" as ``user.office_city``,
which a rule derives from ``user.employer``) is refused by ``remember`` with that reason, as a fact
of the turn, instead of failing the turn's whole write with :class:`~belief_graph.errors.DerivedKeyConflict`
and losing the facts beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..models.rules import RuleSpec

__all__ = ["RuleKeys", "candidate_keys", "rule_keys"]

_SLOT = re.compile(r"\{[^{}]+\}")


@dataclass(frozen=True)
class RuleKeys:
    """What the active rules read (the keys wanted from conversations, the lookup tables) and the
    keys they derive and let nobody write."""

    wanted: tuple[str, ...] = ()
    """Fixed premise keys (``user.city``), in rule order, each once."""
    lookups: tuple[re.Pattern[str], ...] = ()
    """Key patterns of premises filled from an earlier premise's value (``city\\.[^.]+\\.timezone``)."""

    derived: tuple[tuple[re.Pattern[str], str], ...] = ()
    """Conclusion key patterns of the rules that refuse direct writes, with the rule's name."""

    def is_lookup(self, key: str) -> bool:
        return any(p.fullmatch(key) for p in self.lookups)

    def derived_by(self, key: str) -> str | None:
        """The rule that derives ``key`` and refuses direct writes to it, or None."""
        return next((name for p, name in self.derived if p.fullmatch(key)), None)


def _pattern(template: str) -> re.Pattern[str]:
    parts = _SLOT.split(template)
    return re.compile(r"[^.]+".join(re.escape(p) for p in parts))


def rule_keys(specs: Iterable[RuleSpec]) -> RuleKeys:
    """The keys wanted, the lookup tables and the derived keys of ``specs`` (the module docstring)."""
    wanted: list[str] = []
    lookups: list[re.Pattern[str]] = []
    derived: list[tuple[re.Pattern[str], str]] = []
    for spec in specs:
        if spec.direct_writes == "refuse":
            derived.append((_pattern(spec.conclusion.key), spec.name))
        bound: set[str] = set()
        for i, p in enumerate(spec.premises):
            slots = {s[1:-1] for s in _SLOT.findall(p.key)}
            if not slots:
                wanted.append(p.key)
            elif i > 0 and slots <= bound:
                lookups.append(_pattern(p.key))
            bound.add(p.as_)
            bound |= slots
    return RuleKeys(tuple(dict.fromkeys(wanted)), tuple(lookups), tuple(derived))


def candidate_keys(reads: RuleKeys, registry: Sequence[str], claimed: Sequence[str], *, cap: int) -> list[str]:
    """At most ``cap`` keys: the wanted keys (at most half), then the registry's and the claimed
    ones that are no lookup table, each once."""
    first = list(reads.wanted[: max(1, cap // 2)]) if reads.wanted else []
    rest = [k for k in (*registry, *claimed) if not reads.is_lookup(k)]
    return list(dict.fromkeys(first + rest))[:cap]
