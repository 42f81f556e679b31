"""Extraction grounding against the conversation suite, no model: it must keep letting gold
statements through and keep stopping traps. The bounds sit a little above what was measured when
the clause rules were written (docs/memory.md, "Grounding alone"), on both halves of the suite,
so a rule that helps one half by hurting the other fails here; and the same with the stand-in
models' citations, where inferences must give back gold without letting many more traps through."""

from __future__ import annotations

from belief_graph_lab.benchmarks.memory import grounding_on_suite
from belief_graph_lab.benchmarks.memory_suite import load_suite


def test_grounding_refuses_few_gold_statements_and_lets_few_traps_through_on_both_halves() -> None:
    got = grounding_on_suite(load_suite())
    for half in ("odd", "even"):
        assert got[half]["gold"] > 400 and got[half]["traps"] > 100
        assert got[half]["gold_refused"] <= 0.19, (half, got[half])
        assert got[half]["traps_accepted"] <= 0.27, (half, got[half])
        # inferences on the stand-in models' citations give back gold and let through few more traps
        assert got[half]["gold_refused_cited"] <= got[half]["gold_refused"] - 0.015, (half, got[half])
        assert got[half]["traps_accepted_cited"] <= got[half]["traps_accepted"] + 0.035, (half, got[half])
