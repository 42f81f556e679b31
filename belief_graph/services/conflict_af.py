"""The ``argumentation`` conflict strategy: conflicting values of one fact attack each other,
authority decides which attacks succeed, and Dung's grounded extension (computed in Cypher by the
argumentation engine) decides.

For a write that conflicts with another agent's belief on ``key``:

* one argument per distinct value held on the key (every active or disputed claim, every
  corroboration, and the challenger), named by the value itself so the attack graph reads well in
  Bloom; its weight is the summed authority of the agents holding it (unseeded agents get the
  documented default, with a warning);
* every pair of different values conflicts; ``u`` attacks ``v`` unless ``v`` is strictly
  preferred (weight(u) >= weight(v)) — the usual preference-based reduction: equal weights give a
  mutual attack, a stronger value defeats a weaker one;
* the graph is stored in the namespace ``dispute:<key>`` (replacing the previous one: it is a
  view of the current conflict, kept for inspection with ``bg.explain_label``) and grounded in the
  same write transaction.

Challenger IN and incumbent OUT: the challenger supersedes. Challenger OUT: the incumbent stays
(recorded as a settled dispute). Otherwise (UNDEC): an open dispute.
"""

from __future__ import annotations

from ..db.driver import Tx
from ..models import Claim, ClaimInput
from ..models.argumentation import Attack
from .argumentation import ArgumentationService
from .beliefs import BeliefService
from .policy import Decision, _norm, authority_weights

__all__ = ["argumentation_decider", "dispute_ns"]


def dispute_ns(key: str) -> str:
    return f"dispute:{key}"


def _name(value: object) -> str:
    text = str(value).strip()
    return text[:200] if text else "(empty)"


def argumentation_decider(b: BeliefService, key: str, incumbent: Claim, data: ClaimInput, tx: Tx) -> Decision:
    positions = [(str(r["agent"]), r["value"]) for r in b.versions.positions(key, tx)]
    positions.append((data.agent, data.value))
    agents = sorted({a for a, _ in positions})
    weights, warnings = authority_weights(b.policies.match_authority(key, agents, tx), b.policy.default_authority)
    latest: dict[str, object] = {}
    for agent, value in positions:  # an agent counts once, for its latest position
        latest[agent] = value
    names: dict[object, str] = {}
    weight: dict[str, float] = {}
    holders: dict[str, list[str]] = {}
    for agent, value in latest.items():
        n = names.setdefault(_norm(value), _name(value))
        weight[n] = weight.get(n, 0.0) + weights[agent]
        holders.setdefault(n, []).append(agent)
    for value in (incumbent.value, data.value):  # both sides are arguments even if nobody else holds them
        n = names.setdefault(_norm(value), _name(value))
        weight.setdefault(n, 0.0)
        holders.setdefault(n, [])
    ch, inc = names[_norm(data.value)], names[_norm(incumbent.value)]
    args = sorted(weight)
    attacks = [
        Attack(attacker=u, target=v, reason=f"conflicting values of {key} ({weight[u]:g} >= {weight[v]:g})",
               by=",".join(sorted(holders[u])))
        for u in args for v in args if u != v and weight[u] >= weight[v]
    ]
    ns = dispute_ns(key)
    svc = ArgumentationService(b.graph, b.space)
    svc.repo.delete_arguments(ns, tx)
    svc.repo.create_arguments(tx, ns, args)
    svc.repo.merge_attacks(tx, ns, attacks)
    result = svc.ground_tx(tx, ns)
    lc, li = result.label_of(ch), result.label_of(inc)
    summary = ", ".join(f"{n!r} {weight[n]:g} {result.label_of(n)}" for n in args)
    if lc == "IN" and li == "OUT":
        return Decision(True, f"grounded extension: {summary}", warnings)
    if lc == "OUT":
        return Decision(False, f"grounded extension: {summary}", warnings, by="argumentation")
    return Decision(None, f"grounded extension leaves the conflict undecided: {summary}", warnings)
