"""``argumentation``: conflicting values of one fact attack each other, authority decides which
attacks succeed, and Dung's grounded extension (computed in Cypher by the argumentation engine)
decides.

For a write that conflicts with another agent's belief on ``key``:

* one argument per distinct value held on the key (every active or disputed claim, every
  corroboration, and the challenger), named by the value itself so the attack graph reads well in
  Bloom; its weight is the summed authority of the agents holding it (unseeded agents get the
  documented default, with a warning);
* every pair of different values conflicts; ``u`` attacks ``v`` unless ``v`` is strictly
  preferred (weight(u) >= weight(v)) — the usual preference-based reduction: equal weights give a
  mutual attack, a stronger value defeats a weaker one;
* the write path stores the graph in the namespace ``dispute:<key>`` (replacing the previous one: it
  is a view of the current conflict, kept for inspection with ``bg.argumentation.explain_label``)
  and grounds it in the same write transaction.

Challenger IN and incumbent OUT: the challenger supersedes. Challenger OUT: the incumbent stays
(recorded as a settled dispute). Otherwise (UNDEC): an open dispute.
"""

from __future__ import annotations

from typing import ClassVar

from ..models import Strategy
from ..models.argumentation import Attack
from .base import ConflictContext, ConflictFramework, Decision, Need, norm_value

__all__ = ["Argumentation", "dispute_ns"]


def dispute_ns(key: str) -> str:
    """The argumentation namespace holding the conflict graph of ``key``."""
    return f"dispute:{key}"


def _name(value: object) -> str:
    text = str(value).strip()
    return text[:200] if text else "(empty)"


class Argumentation:
    name: ClassVar[Strategy] = Strategy.argumentation
    needs: ClassVar[frozenset[Need]] = frozenset({Need.positions, Need.grounding})

    def framework(self, ctx: ConflictContext) -> ConflictFramework:
        """The weighted attack graph of the values held on the key (pure)."""
        key, data, incumbent = ctx.key, ctx.challenger, ctx.incumbent
        latest: dict[str, object] = {}
        for agent, value in ctx.positions:  # an agent counts once, for its latest position
            latest[agent] = value
        names: dict[object, str] = {}
        weight: dict[str, float] = {}
        holders: dict[str, list[str]] = {}
        for agent, held in latest.items():
            n = names.setdefault(norm_value(held), _name(held))
            weight[n] = weight.get(n, 0.0) + ctx.weights[agent]
            holders.setdefault(n, []).append(agent)
        for value in (incumbent.value, data.value):  # both sides are arguments even if nobody else holds them
            n = names.setdefault(norm_value(value), _name(value))
            weight.setdefault(n, 0.0)
            holders.setdefault(n, [])
        args = sorted(weight)
        attacks = [
            Attack(
                attacker=u,
                target=v,
                reason=f"conflicting values of {key} ({weight[u]:g} >= {weight[v]:g})",
                by=",".join(sorted(holders[u])),
            )
            for u in args
            for v in args
            if u != v and weight[u] >= weight[v]
        ]
        return ConflictFramework(
            ns=dispute_ns(key),
            arguments=args,
            attacks=attacks,
            weights=weight,
            challenger=names[norm_value(data.value)],
            incumbent=names[norm_value(incumbent.value)],
        )

    def decide(self, ctx: ConflictContext) -> Decision:
        fw, result = ctx.framework, ctx.grounded
        if fw is None or result is None:
            raise ValueError("the argumentation strategy decides on a grounded framework")
        lc, li = result.label_of(fw.challenger), result.label_of(fw.incumbent)
        summary = ", ".join(f"{n!r} {fw.weights[n]:g} {result.label_of(n)}" for n in fw.arguments)
        warnings = list(ctx.warnings)
        if lc == "IN" and li == "OUT":
            return Decision(True, f"grounded extension: {summary}", warnings)
        if lc == "OUT":
            return Decision(False, f"grounded extension: {summary}", warnings, by="argumentation")
        return Decision(None, f"grounded extension leaves the conflict undecided: {summary}", warnings)
