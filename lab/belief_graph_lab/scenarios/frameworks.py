"""Generated argumentation frameworks (names ``a0..``): the grounded study's families and the
deliberation-sized frameworks of its latency rows; the argumentation tests use them too.

* ``chain``: ``a0 -> a1 -> ...`` (n/2 waves);
* ``dchain``: an admbuster-like double chain (a_i -> a_i+1, b_i -> b_i+1, a_i -> b_i+1,
  b_i -> a_i+1; n/4 waves);
* :func:`small_graph`: 3-12 arguments with random attacks (cycles, reinstatement, UNDEC).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from belief_graph.models.argumentation import AttackGraph

__all__ = ["FAMILIES", "chain_graph", "double_chain_graph", "small_graph"]


def chain_graph(n: int) -> AttackGraph:
    """``a0 -> a1 -> ... -> a(n-1)``: the grounded labelling needs ceil(n/2) waves."""
    names = tuple(f"a{i}" for i in range(n))
    return AttackGraph(names, tuple((names[i], names[i + 1]) for i in range(n - 1)), source=f"chain({n})")


def double_chain_graph(n: int) -> AttackGraph:
    """An admbuster-like double chain of ``n`` arguments (two rows of n/2, each argument attacking
    the next one of both rows): about n/4 waves, 2 attacks per argument."""
    m = n // 2
    a = [f"a{i}" for i in range(m)]
    b = [f"b{i}" for i in range(m)]
    attacks: list[tuple[str, str]] = []
    for i in range(m - 1):
        attacks += [(a[i], a[i + 1]), (b[i], b[i + 1]), (a[i], b[i + 1]), (b[i], a[i + 1])]
    return AttackGraph(tuple(a + b), tuple(attacks), source=f"dchain({n})")


FAMILIES: dict[str, Callable[[int], AttackGraph]] = {"chain": chain_graph, "dchain": double_chain_graph}


def small_graph(n: int, seed: int = 3) -> AttackGraph:
    """A deliberation-sized framework of ``n`` arguments: each ordered pair attacks with
    probability 0.2 (drawn with a fixed seed per size), so cycles, reinstatement and UNDEC occur."""
    rng = random.Random(seed * 1000 + n)
    names = tuple(f"a{i}" for i in range(n))
    attacks = tuple((a, b) for a in names for b in names if a != b and rng.random() < 0.2)
    return AttackGraph(names, attacks, source=f"small({n})")
