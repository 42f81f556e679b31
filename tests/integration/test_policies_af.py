"""The ``argumentation`` conflict strategy: grounded extension over conflicting values, in Cypher."""

from __future__ import annotations

from belief_graph import BeliefGraph, WriteOp


def test_argumentation_strategy(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.timezone", "argumentation")
    bg.conflicts.set_authority("agent-a", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent-b", "user.timezone", 0.2)
    bg.conflicts.set_authority("agent-c", "user.timezone", 0.95)
    bg.conflicts.set_authority("agent-d", "user.*", 0.95)
    a = bg.assert_claim("user.timezone", "PST", "Pacific time", agent="agent-a")
    # weaker challenger: its argument is OUT, the incumbent stays; the settled dispute keeps the trail
    b = bg.assert_claim("user.timezone", "EST", "Eastern time", agent="agent-b")
    assert b.op == WriteOp.DISPUTED and b.strategy == "argumentation"
    assert b.dispute is not None and b.dispute.status == "resolved" and b.dispute.rule == "argumentation"
    assert bg.beliefs.claim(b.claim.id).status.value == "superseded" and bg.belief("user.timezone").value == "PST"  # type: ignore[union-attr]
    # the attack graph of the conflict is in the database, labelled by the grounded extension
    ex = bg.argumentation.explain_label("dispute:user.timezone", "EST")
    assert ex.label == "OUT"
    # a stronger challenger: IN, the incumbent OUT -> it supersedes
    c = bg.assert_claim("user.timezone", "CST", "Central time", agent="agent-c")
    assert c.op == WriteOp.SUPERSEDED and c.superseded is not None and c.superseded.id == a.claim.id
    assert "'CST' 0.95 IN" in c.reason and "'PST' 0.9 OUT" in c.reason
    # equal weights attack each other: UNDEC, an open dispute
    d = bg.assert_claim("user.timezone", "MST", "Mountain time", agent="agent-d")
    assert d.op == WriteOp.DISPUTED and d.dispute is not None and d.dispute.status == "open"
    assert "undecided" in d.reason and bg.belief("user.timezone").value == "CST"  # type: ignore[union-attr]
    assert bg.argumentation.explain_label("dispute:user.timezone", "MST").label == "UNDEC"


def test_explain_shows_the_audits_of_reconsolidation(bg: BeliefGraph) -> None:
    ep = bg.add_episode("Run 7: the assay shows growth", agent="user:lab")
    c = bg.derive("The compound promotes growth", [ep.id], agent="agent:analyst")
    bg.retract([ep.id], "contaminated sample")
    ex = bg.beliefs.explain(c.id)
    assert ex.claim.status.value == "withdrawn"
    assert [a["action"] for a in ex.audits] == ["WITHDREW"] and ex.audits[0]["reason"] == "contaminated sample"
    assert "contaminated sample" in ex.text()
    bg.restore([ep.id], "sample was fine")
    assert [a["action"] for a in bg.beliefs.explain(c.id).audits] == ["WITHDREW", "REINSTATED"]
