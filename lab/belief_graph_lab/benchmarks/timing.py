"""What the studies share to time and count work: percentiles, and an engine that profiles every statement."""

from __future__ import annotations

from collections.abc import Sequence

from belief_graph.db.driver import ProfilingRunner
from belief_graph.facade import BeliefGraph

__all__ = ["percentile", "under_profile"]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``: the nearest sample, no interpolation."""
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def under_profile(bg: BeliefGraph) -> tuple[BeliefGraph, ProfilingRunner]:
    """The same engine with every statement run under PROFILE (db hits per statement)."""
    g, prof = bg.graph.profile()
    return BeliefGraph(g, bg.settings, bg.space, bg.embedder), prof
