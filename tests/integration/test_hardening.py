"""Regression tests of the reliability and security defects, each against the real server: every
test here failed before its fix (the defect it names is in its docstring)."""

from __future__ import annotations

from pathlib import Path

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import NotFoundError

REPO = Path(__file__).resolve().parents[2]


def _count(bg: BeliefGraph) -> tuple[int, int]:
    """Nodes and relationships of the test's space."""
    rows = bg.graph.driver.execute_query(
        "MATCH (n {space: $s}) OPTIONAL MATCH (n)-[r]-() RETURN count(DISTINCT n) AS n, count(DISTINCT r) AS r",
        s=bg.space,
    ).records
    return int(rows[0]["n"]), int(rows[0]["r"])


# --- policy patterns: linear matching ---------------------------------------------------------------


def test_hostile_policy_pattern_does_not_stall_writes(bg: BeliefGraph) -> None:
    """``set_policy("*.*.*.*.*.*.*.*.*.zz")`` made one write to a 40-segment key take 12 s (Cypher
    ``=~`` backtracking, x4 per extra ``*``). Matching now counts its character comparisons: the
    writes below (pass 1 and pass 2, strategy and authority look-ups) stay within a linear bound."""
    hostile = "*.*.*.*.*.*.*.*.*.zz"
    bg.set_policy(hostile, "authority")
    bg.set_authority("*", hostile, 0.9)
    bg.set_policy("s.*", "recency")
    key = ".".join(["s"] * 40)
    repo = bg._beliefs.policies
    repo.match_steps = 0
    first = bg.assert_claim(key, "a", "first", agent="agent-a")
    second = bg.assert_claim(key, "b", "second", agent="agent-b")
    assert first.op == WriteOp.ADD and second.op == WriteOp.SUPERSEDED and second.strategy == "recency"
    calls_bound = 8  # match_policy / match_authority calls of two writes, generously
    rules = 3
    assert 0 < repo.match_steps <= calls_bound * rules * len(key) * len(hostile), repo.match_steps
    # and a key that does end in 'zz' is covered by the hostile rule (authority decides)
    zkey = ".".join(["s"] * 39 + ["zz"])
    assert bg.policy_for(zkey)[1].pattern == hostile  # type: ignore[union-attr]


# --- tenancy: a space cannot enlist another space's proposal -----------------------------------------


def test_enlist_refuses_a_proposal_of_another_space(bg: BeliefGraph, graph) -> None:  # type: ignore[no-untyped-def]
    """``argumentation.enlist(ns, [id])`` matched proposals by id alone: space B could move space
    A's proposal into B (and flip A's deliberation label through it)."""
    other = bg.space + "-a"
    pid = f"proposal-{other}"
    try:
        graph.driver.execute_query(
            "CREATE (:Proposal {id: $id, space: $s, deliberation: 'd-1', perspective: 'p', text: 't'})",
            id=pid, s=other,
        )
        before = _count(bg)
        with pytest.raises(NotFoundError):
            bg.argumentation.enlist("deliberation:x", [pid])
        row = graph.driver.execute_query(
            "MATCH (p:Proposal {id: $id}) RETURN p.space AS space, p:Argument AS enlisted, p.ns AS ns", id=pid
        ).records[0]
        assert (row["space"], row["enlisted"], row["ns"]) == (other, False, None)
        assert _count(bg) == before
    finally:
        graph.write("admin.delete_space", space=other)
