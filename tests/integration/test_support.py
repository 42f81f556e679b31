"""Justifications and selective reconsolidation (DESIGN.md "Support") against a real Neo4j."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph
from belief_graph.cli import app
from belief_graph.db.driver import Graph
from belief_graph.errors import AuditNotFound, ClaimNotFound, ValidationError


def _space_snapshot(graph: Graph, space: str) -> dict[str, Any]:
    """Every node (labels + properties) and relationship of a space, for 'nothing was written'."""
    with graph.driver.session(database=graph.database) as s:
        nodes = s.run(
            "MATCH (n) WHERE n.space = $space RETURN labels(n) AS l, properties(n) AS p ORDER BY p.id", space=space
        ).data()
        rels = s.run(
            "MATCH (n)-[r]->(m) WHERE n.space = $space RETURN type(r) AS t, n.id AS a, m.id AS b, properties(r) AS p "
            "ORDER BY a, t, b",
            space=space,
        ).data()
    return {
        "nodes": [json.dumps(x, sort_keys=True, default=str) for x in nodes],
        "rels": [json.dumps(x, sort_keys=True, default=str) for x in rels],
    }


def _status(bg: BeliefGraph, *ids: str) -> list[str]:
    rows = bg.support.repo.find_nodes(list(ids))
    return [rows[i]["status"] for i in ids]


@pytest.fixture()
def lab(bg: BeliefGraph) -> dict[str, str]:
    """e1, e2 evidence; a <- e1; b <- a; c <- e1 OR c <- e2; d <- b AND c; x <- e2 (independent)."""
    e1 = bg.add_episode("Run 1: the assay showed a 40% drop", "user:lab").id
    e2 = bg.add_episode("Run 2: the replication showed a 38% drop", "user:lab").id
    a = bg.derive("The drug lowers the marker", [e1], agent="agent:analyst", rule="observation").id
    b = bg.derive("The marker is drug-sensitive", [a], agent="agent:analyst").id
    c = bg.derive("The effect is reproducible", [e1], agent="agent:analyst").id
    assert bg.derive("The effect is reproducible", [e2], agent="agent:analyst").id == c
    d = bg.derive("Plan: run a dose-response study", [b, c], agent="agent:planner").id
    x = bg.derive("Run 2 used the new protocol", [e2], agent="agent:analyst").id
    return {"e1": e1, "e2": e2, "a": a, "b": b, "c": c, "d": d, "x": x}


# -- derive ------------------------------------------------------------------------------------


def test_derive_adds_or_alternatives_to_the_same_claim(bg: BeliefGraph, lab: dict[str, str]) -> None:
    sup = bg.support.supports(lab["c"])
    assert [sorted(p.id for p in f.premises) for f in sup.families] == [[lab["e1"]], [lab["e2"]]]
    assert all(f.intact for f in sup.families) and not sup.base
    # the same premise set again: nothing new
    assert bg.derive("The effect is reproducible", [lab["e2"]], agent="agent:other").id == lab["c"]
    assert len(bg.support.supports(lab["c"]).families) == 2
    # an AND family of two premises
    fam = bg.support.supports(lab["d"]).families
    assert len(fam) == 1 and sorted(p.id for p in fam[0].premises) == sorted([lab["b"], lab["c"]])
    assert bg.beliefs.claim(lab["d"]).kind == "derived"


def test_derive_with_a_key_is_the_fact_version(bg: BeliefGraph, lab: dict[str, str]) -> None:
    p1 = bg.derive("Next: dose-response study", [lab["d"]], key="project.next", agent="agent:planner")
    assert bg.belief("project.next") == p1
    p2 = bg.derive("Next: animal study", [lab["x"]], key="project.next", agent="agent:planner")
    assert bg.belief("project.next") == p2
    assert bg.beliefs.claim(p1.id).status.value == "superseded"
    # the same statement again (same key and text) is the same claim, not a new version
    again = bg.derive("Next: animal study", [lab["e2"]], key="project.next", agent="agent:planner")
    assert again.id == p2.id and len(bg.support.supports(p2.id).families) == 2


def test_bad_derive_input_is_refused_without_writing(bg: BeliefGraph, graph: Graph, lab: dict[str, str]) -> None:
    before = _space_snapshot(graph, bg.space)
    with pytest.raises(ValidationError, match="at least one premise"):
        bg.derive("Something", [], agent="agent:x")
    with pytest.raises(ValidationError, match="unknown premise"):
        bg.derive("Something", ["no-such-id"], agent="agent:x")
    with pytest.raises(ValidationError, match="its own justification"):
        bg.derive("The effect is reproducible", [lab["c"], lab["e1"]], agent="agent:x")
    with pytest.raises(ValidationError, match="blank"):
        bg.derive("  ", [lab["e1"]], agent="agent:x")
    with pytest.raises(ValidationError, match="malformed fact key"):
        bg.derive("Something", [lab["e1"]], key="not a key", agent="agent:x")
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        with BeliefGraph.connect(space=other, settings=bg.settings, embedder=bg.embedder) as bg2:
            with pytest.raises(ValidationError, match="unknown premise"):
                bg2.derive("Cross-space", [lab["e1"]], agent="agent:x")  # a premise of another space
    finally:
        graph.write("admin.delete_space", space=other)
    assert _space_snapshot(graph, bg.space) == before


def test_a_new_claim_needs_premises_that_hold(bg: BeliefGraph, lab: dict[str, str]) -> None:
    bg.retract([lab["e1"]], "bad run")
    with pytest.raises(ValidationError, match="do not hold"):
        bg.derive("Built on sand", [lab["a"]], agent="agent:x")
    # ... but a dormant alternative may be recorded on an existing claim
    assert bg.derive("The marker is drug-sensitive", [lab["e1"]], agent="agent:x").id == lab["b"]
    assert _status(bg, lab["b"]) == ["withdrawn"]


# -- retract / restore ------------------------------------------------------------------------------


def test_retract_withdraws_exactly_and_restore_reinstates(bg: BeliefGraph, lab: dict[str, str]) -> None:
    L = lab
    audit = bg.retract([L["e1"]], "the assay was contaminated", agent="user:reviewer")
    assert audit.op == "retract" and audit.mode == "justification" and audit.agent == "user:reviewer"
    assert audit.root_ids == [L["e1"]]
    assert set(audit.withdrawn_ids) == {L["a"], L["b"], L["d"]}
    assert set(audit.retained_ids) == {L["c"]}  # the replication still supports it
    assert audit.region == 4  # a, b, c, d: x is not downstream of e1
    assert _status(bg, L["e1"], L["e2"], L["a"], L["b"], L["c"], L["d"], L["x"]) == [
        "retracted",
        "active",
        "withdrawn",
        "withdrawn",
        "active",
        "withdrawn",
        "active",
    ]
    c_entry = next(e for e in audit.entries if e.id == L["c"])
    assert c_entry.via is not None and c_entry.via in bg.support.supports(L["c"]).intact
    d_entry = next(e for e in audit.entries if e.id == L["d"])
    assert d_entry.lost and L["b"] in d_entry.lost[0]

    back = bg.restore([L["e1"]], "the re-run was clean")
    assert set(back.reinstated_ids) == {L["a"], L["b"], L["d"]}
    assert set(back.retained_ids) == {L["c"]}
    assert _status(bg, L["e1"], L["a"], L["b"], L["c"], L["d"]) == ["active"] * 5
    # revisions are immutable: the history of a keeps active -> withdrawn -> active
    history = [x.action for x in bg.support.audits_for_claim(L["a"])]
    assert history == ["WITHDREW", "REINSTATED"]
    assert [x.statuses for x in bg.support.audits_for_claim(L["a"])] == [["withdrawn"], ["active"]]


def test_and_family_with_two_premises_inside_the_region(bg: BeliefGraph) -> None:
    """p <- (q AND r), q and r both downstream of e; q survives through f, r does not: p goes."""
    e = bg.add_episode("E", "user:lab").id
    f = bg.add_episode("F", "user:lab").id
    q = bg.derive("Q", [e], agent="a").id
    bg.derive("Q", [f], agent="a")
    r = bg.derive("R", [e], agent="a").id
    p = bg.derive("P", [q, r], agent="a").id
    audit = bg.retract([e], "E is wrong")
    assert set(audit.withdrawn_ids) == {r, p} and set(audit.retained_ids) == {q}


def test_retract_a_claim_root(bg: BeliefGraph, lab: dict[str, str]) -> None:
    audit = bg.retract([lab["c"]], "the reproducibility claim is overstated")
    assert audit.root_ids == [lab["c"]] and set(audit.withdrawn_ids) == {lab["d"]}
    assert _status(bg, lab["c"], lab["d"], lab["b"]) == ["retracted", "withdrawn", "active"]
    back = bg.restore([lab["c"]], "it is fine")
    # the restored claim itself is re-evaluated and holds again through its justifications
    assert set(back.reinstated_ids) == {lab["c"], lab["d"]}
    assert _status(bg, lab["c"], lab["d"]) == ["active", "active"]


def test_a_withdrawn_current_belief_is_not_returned(bg: BeliefGraph, lab: dict[str, str]) -> None:
    plan = bg.derive("Next: dose-response study", [lab["d"]], key="project.next", agent="agent:planner")
    bg.retract([lab["e1"]], "bad run")
    assert bg.beliefs.claim(plan.id).status.value == "withdrawn"
    assert bg.belief("project.next") is None
    bg.restore([lab["e1"]], "good run")
    assert bg.belief("project.next") == plan


def test_reinstated_version_that_lost_current_becomes_superseded(bg: BeliefGraph, lab: dict[str, str]) -> None:
    old = bg.derive("Next: dose-response study", [lab["d"]], key="project.next", agent="agent:planner")
    bg.retract([lab["e1"]], "bad run")
    new = bg.derive("Next: animal study", [lab["x"]], key="project.next", agent="agent:planner")
    assert bg.belief("project.next") == new
    assert bg.beliefs.claim(old.id).status.value == "withdrawn"  # superseding kept its lost support visible
    bg.restore([lab["e1"]], "good run")
    assert bg.beliefs.claim(old.id).status.value == "superseded"
    assert bg.belief("project.next") == new


def test_derive_reinstates_a_withdrawn_claim_with_a_new_justification(bg: BeliefGraph, lab: dict[str, str]) -> None:
    bg.retract([lab["e1"]], "bad run")
    assert _status(bg, lab["a"], lab["b"], lab["d"]) == ["withdrawn"] * 3
    e3 = bg.add_episode("Run 3: independent lab confirms the drop", "user:lab2").id
    again = bg.derive("The drug lowers the marker", [e3], agent="agent:analyst")
    assert again.id == lab["a"] and again.status.value == "active"
    assert _status(bg, lab["b"], lab["d"]) == ["active", "active"]
    derive_audit = bg.support.audits(limit=1)[0]
    assert derive_audit.op == "derive" and derive_audit.reinstated == 3


def test_modes_none_and_influence(bg: BeliefGraph, lab: dict[str, str]) -> None:
    none = bg.retract([lab["e1"]], "roots only", mode="none")
    assert none.mode == "none" and not none.withdrawn_ids and none.region == 0
    assert _status(bg, lab["e1"], lab["a"], lab["c"]) == ["retracted", "active", "active"]
    bg.restore([lab["e1"]], "back", mode="none")
    infl = bg.retract([lab["e1"]], "everything reachable", mode="influence")
    assert set(infl.withdrawn_ids) == {lab["a"], lab["b"], lab["c"], lab["d"]}  # c over-revised
    back = bg.restore([lab["e1"]], "back", mode="influence")
    assert set(back.reinstated_ids) == {lab["a"], lab["b"], lab["c"], lab["d"]}
    assert _status(bg, lab["a"], lab["b"], lab["c"], lab["d"]) == ["active"] * 4


def test_bad_retract_input_is_refused_without_writing(bg: BeliefGraph, graph: Graph, lab: dict[str, str]) -> None:
    before = _space_snapshot(graph, bg.space)
    with pytest.raises(ClaimNotFound):
        bg.retract(["no-such-id"], "x")
    with pytest.raises(ClaimNotFound):
        bg.retract([lab["e1"], "no-such-id"], "x")  # one bad root: nothing at all is retracted
    with pytest.raises(ValidationError, match="at least one root"):
        bg.retract([], "x")
    with pytest.raises(ValidationError, match="reason"):
        bg.retract([lab["e1"]], "  ")
    with pytest.raises(ValidationError, match="mode"):
        bg.retract([lab["e1"]], "x", mode="everything")
    with pytest.raises(ValidationError, match="not retracted"):
        bg.restore([lab["e1"]], "x")
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        with BeliefGraph.connect(space=other, settings=bg.settings, embedder=bg.embedder) as bg2:
            with pytest.raises(ClaimNotFound):
                bg2.retract([lab["e1"]], "a root in another space")
            assert _space_snapshot(graph, other)["nodes"] == []
    finally:
        graph.write("admin.delete_space", space=other)
    assert _space_snapshot(graph, bg.space) == before
    bg.retract([lab["e1"]], "now for real")
    with pytest.raises(ValidationError, match="already retracted"):
        bg.retract([lab["e1"]], "twice")


def test_justifications_are_immutable_and_scratch_marks_are_gone(
    bg: BeliefGraph, graph: Graph, lab: dict[str, str]
) -> None:
    def justifications() -> list[str]:
        with graph.driver.session(database=graph.database) as s:
            rows = s.run(
                "MATCH (j:Justification {space: $space}) RETURN properties(j) AS p ORDER BY p.id", space=bg.space
            ).data()
        return [json.dumps(r["p"], sort_keys=True, default=str) for r in rows]

    before = justifications()
    bg.retract([lab["e1"]], "bad")
    bg.restore([lab["e1"]], "good")
    bg.retract([lab["e1"], lab["e2"]], "both bad", mode="influence")
    assert justifications() == before
    with graph.driver.session(database=graph.database) as s:
        leftovers = s.run(
            "MATCH (n) WHERE n.space = $space AND (n._rc IS NOT NULL OR n._rc_in IS NOT NULL OR n._rc_miss IS NOT NULL "
            "OR n:RcFrontier) RETURN count(n) AS n",
            space=bg.space,
        ).single()
    assert leftovers is not None and leftovers["n"] == 0


def test_audits_and_audit(bg: BeliefGraph, lab: dict[str, str]) -> None:
    a1 = bg.retract([lab["e1"]], "first")
    a2 = bg.restore([lab["e1"]], "second")
    listed = bg.support.audits()
    assert [a.id for a in listed[:2]] == [a2.id, a1.id]
    assert listed[1].withdrew == 3 and listed[1].roots == [lab["e1"]]
    got = bg.support.audit(a1.id)
    assert got.reason == "first" and set(got.withdrawn_ids) == set(a1.withdrawn_ids)
    with pytest.raises(AuditNotFound):
        bg.support.audit("no-such-audit")
    assert [x.action for x in bg.support.audits_for_claim(lab["e1"])] == ["ROOT", "ROOT"]
    assert bg.support.audits_for_claim(lab["x"]) == []


# -- working context -----------------------------------------------------------------------------------


def test_context_uses_active_beliefs_with_certificates(bg: BeliefGraph, lab: dict[str, str]) -> None:
    audit = bg.retract([lab["e1"]], "bad run")
    wc = bg.context(budget_tokens=10_000)
    ids = set(wc.claim_ids)
    assert ids == {lab["c"], lab["x"]}
    assert not (wc.cited_ids() & set(audit.withdrawn_ids + [lab["e1"]]))
    c_item = next(i for i in wc.items if i.claim.id == lab["c"])
    assert c_item.certificate is not None and [p.id for p in c_item.certificate.premises] == [lab["e2"]]
    assert "Run 2" in wc.text and wc.used_tokens == sum(i.tokens for i in wc.items)
    # the budget cuts the ranking
    small = bg.context(budget_tokens=wc.items[0].tokens)
    assert len(small.items) == 1 and small.omitted == 1
    # query ranking (vector index) and exact keys
    plan = bg.derive("Next: animal study of the marker", [lab["x"]], key="project.next", agent="agent:planner")
    by_key = bg.context(keys=["project.next"], budget_tokens=10_000)
    assert by_key.claim_ids == [plan.id]
    by_query = bg.context(query="is the effect reproducible?", budget_tokens=10_000, limit=5)
    assert lab["c"] in by_query.claim_ids and not (set(by_query.claim_ids) & set(audit.withdrawn_ids))
    assert by_query.items[0].score is not None
    with pytest.raises(ValidationError):
        bg.context(budget_tokens=0)


# -- CLI --------------------------------------------------------------------------------------------------


def test_cli_support_commands(bg: BeliefGraph, lab: dict[str, str]) -> None:
    runner = CliRunner()

    def run(*args: str) -> Any:
        r = runner.invoke(app, ["--space", bg.space, "support", *args])
        assert r.exit_code == 0, r.output
        return r

    out = json.loads(run("retract", lab["e1"], "--reason", "contaminated", "--json").output)
    assert set(
        out["entries"][i]["id"] for i in range(len(out["entries"])) if out["entries"][i]["action"] == "WITHDREW"
    ) == {lab["a"], lab["b"], lab["d"]}
    audit_id = out["id"]
    assert json.loads(run("audit", audit_id, "--json").output)["reason"] == "contaminated"
    assert json.loads(run("audits", "--json").output)[0]["id"] == audit_id
    assert json.loads(run("supports", lab["c"], "--json").output)["intact"]
    assert "withdrawn" in run("history", lab["a"]).output
    ctx = json.loads(run("context", "--budget", "5000", "--json").output)
    assert {i["claim"]["id"] for i in ctx["items"]} == {lab["c"], lab["x"]}
    run("restore", lab["e1"], "--reason", "clean after all")
    d = json.loads(run("derive", "A new conclusion", "-p", lab["x"], "--agent", "agent:cli", "--json").output)
    assert d["status"] == "active"
    assert "mode justification" in run("audit", audit_id).output
    bad = runner.invoke(app, ["--space", bg.space, "support", "retract", "no-such-id", "--reason", "x"])
    assert bad.exit_code != 0


def test_a_corroboration_without_evidence_is_an_independent_support(bg: BeliefGraph) -> None:
    """assert_claim by a second agent with the same value adds an empty justification (the agent's
    own assertion): retracting the first agent's evidence keeps the belief (RETAINED)."""
    e = bg.add_episode("I moved to Lisbon last month", "user:alice").id
    first = bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="agent:a", evidence=[e])
    bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="agent:b")
    families = bg.support.supports(first.claim.id).families
    assert any(not f.premises for f in families), "assert_claim records the corroboration as an empty family"
    audit = bg.retract([e], "wrong user")
    assert audit.retained_ids == [first.claim.id]
    assert bg.belief("user.city") is not None
    item = bg.context(keys=["user.city"]).items[0]
    assert item.certificate is not None and item.certificate.premises == []
    assert "asserted by agent:b" in item.text


def test_demo_story_evidence(bg: BeliefGraph) -> None:
    import io

    from rich.console import Console

    from belief_graph_lab.cli.demo_revision import story_evidence

    buf = io.StringIO()
    out = story_evidence(bg, Console(file=buf, width=160))
    n = out["names"]
    assert set(out["retract"].withdrawn_ids) == {n["observation"], n["interpretation"], n["mechanism"], n["plan"]}
    assert out["retract"].retained_ids == [n["target"]]
    assert set(out["restore"].reinstated_ids) == set(out["retract"].withdrawn_ids)
    assert not (out["context"].cited_ids() & set(out["retract"].withdrawn_ids + [n["run 42"]]))
    text = buf.getvalue()
    assert "WITHDREW" in text and "RETAINED" in text and "REINSTATED" in text and "mode justification" in text
