"""Belief store against the real server: one belief per fact with history, conflict policies, disputes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import (
    ClaimNotFound,
    DisputeNotFound,
    UnknownAgent,
    ValidationError,
)

REPO = Path(__file__).resolve().parents[2]


def _count(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query("MATCH (n {space: $s}) RETURN count(n) AS n", s=bg.space).records
    return int(rows[0]["n"])


def _rels(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query(
        "MATCH (n {space: $s})-[r]-() RETURN count(DISTINCT r) AS n", s=bg.space
    ).records
    return int(rows[0]["n"])


def _active(bg: BeliefGraph, key: str) -> int:
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s, key: $k, status: 'active'}) RETURN count(c) AS n", s=bg.space, k=key
    ).records
    return int(rows[0]["n"])


# --- users change their minds ----------------------------------------------------------------------


def test_priya_changes_her_mind(bg: BeliefGraph) -> None:
    s1 = bg.add_episode("I'm pretty cautious with money, I don't like individual stocks.", agent="user:priya")
    r1 = bg.assert_claim(
        "user.risk_appetite",
        "cautious",
        "Priya is cautious and dislikes individual stocks",
        agent="user:priya",
        evidence=[s1.id],
    )
    s2 = bg.add_episode("Actually I want to be aggressive: individual tech stocks.", agent="user:priya")
    r2 = bg.assert_claim(
        "user.risk_appetite",
        "aggressive",
        "Priya wants aggressive investing in individual tech stocks",
        agent="user:priya",
        evidence=[s2.id],
    )
    assert (r1.op, r2.op) == (WriteOp.ADD, WriteOp.UPDATE)
    # session 3 asks about her risk appetite: exactly one current belief
    belief = bg.belief("user.risk_appetite")
    assert belief is not None and belief.value == "aggressive" and _active(bg, "user.risk_appetite") == 1
    hits = bg.recall("what is her appetite for investment risk?", k=3)
    assert [h.claim.value for h in hits if h.claim.key == "user.risk_appetite"] == ["aggressive"]
    history = bg.beliefs.history("user.risk_appetite")
    assert [v.claim.value for v in history] == ["cautious", "aggressive"]
    assert history[0].claim.status.value == "superseded" and history[0].superseded_by == r2.claim.id
    assert [r.status for r in history[0].revisions] == ["active", "superseded"]
    assert history[0].revisions[-1].reason == "the same agent changed the value"
    assert history[1].current and history[1].supersedes == r1.claim.id
    # six sessions later there is still one current belief per key
    for i, v in enumerate(["moderate", "cautious", "aggressive", "moderate", "cautious", "balanced"]):
        bg.assert_claim("user.risk_appetite", v, f"Priya now says her risk appetite is {v}", agent="user:priya")
        bg.assert_claim("user.horizon_years", 5 + i, f"Priya's horizon is {5 + i} years", agent="user:priya")
        assert _active(bg, "user.risk_appetite") == 1 and _active(bg, "user.horizon_years") == 1
    assert bg.belief("user.risk_appetite").value == "balanced"  # type: ignore[union-attr]
    assert len(bg.beliefs.history("user.risk_appetite")) == 8


def test_as_of_answers_what_was_believed_then(bg: BeliefGraph) -> None:
    before = datetime.now(UTC)
    bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:a")
    between = datetime.now(UTC)
    bg.assert_claim("user.city", "Porto", "The user moved to Porto", agent="user:a")
    after = datetime.now(UTC)
    assert bg.beliefs.as_of("user.city", before - timedelta(seconds=1)) is None
    assert bg.beliefs.as_of("user.city", between).value == "Lisbon"  # type: ignore[union-attr]
    assert bg.beliefs.as_of("user.city", after).value == "Porto"  # type: ignore[union-attr]
    with pytest.raises(ValidationError):
        bg.beliefs.as_of("user.city", datetime.now())  # naive datetime is ambiguous


# --- agents disagree -------------------------------------------------------------------------------


def test_authority_dispute_and_recency_on_unconfigured_key(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.timezone", "authority")
    bg.conflicts.set_authority("agent-a", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent-b", "user.timezone", 0.2)
    a = bg.assert_claim("user.timezone", "PST", "The user is on Pacific time", agent="agent-a")
    b = bg.assert_claim("user.timezone", "EST", "The user is on Eastern time", agent="agent-b")
    assert a.op == WriteOp.ADD and b.op == WriteOp.DISPUTED and b.strategy == "authority"
    assert b.claim.status.value == "disputed" and not b.warnings
    assert bg.belief("user.timezone").value == "PST"  # type: ignore[union-attr]
    open_ = bg.conflicts.disputes("open")
    assert len(open_) == 1 and open_[0].incumbent.id == a.claim.id and open_[0].challenger.id == b.claim.id
    # unconfigured key: recency, agent-b wins, agent-a superseded, no dispute
    x = bg.assert_claim("user.food", "loves Italian", "The user loves Italian food", agent="agent-a")
    y = bg.assert_claim("user.food", "only Japanese", "The user hates Italian, only Japanese", agent="agent-b")
    assert y.op == WriteOp.SUPERSEDED and y.superseded is not None and y.superseded.id == x.claim.id
    assert bg.belief("user.food").value == "only Japanese"  # type: ignore[union-attr]
    assert bg.beliefs.claim(x.claim.id).status.value == "superseded"
    assert len(bg.conflicts.disputes("open")) == 1


def test_a_challenger_older_than_the_current_belief_wins_its_dispute_and_the_chain_stays_in_time_order(
    bg: BeliefGraph,
) -> None:
    """agent-b's challenge is parked; agent-a updates its own belief; the dispute is then settled for
    agent-b's claim, which is older than the current one: it displaces the current claim without a
    SUPERSEDES edge (an edge from the older claim would run against time and fail db check)."""
    bg.conflicts.set_policy("user.timezone", "authority")
    bg.conflicts.set_authority("agent-a", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent-b", "user.timezone", 0.2)
    bg.assert_claim("user.timezone", "PST", "The user is on Pacific time", agent="agent-a")
    b = bg.assert_claim("user.timezone", "EST", "The user is on Eastern time", agent="agent-b")
    a2 = bg.assert_claim("user.timezone", "MST", "The user is on Mountain time", agent="agent-a")
    assert b.dispute is not None and a2.op == WriteOp.UPDATE
    bg.conflicts.resolve_dispute(b.dispute.id, b.claim.id, by="user:admin", reason="asked the user")
    assert bg.belief("user.timezone").id == b.claim.id  # type: ignore[union-attr]
    assert bg.beliefs.claim(a2.claim.id).status.value == "superseded"
    report = bg.admin.check()
    assert report.ok, report.summary()
    c = bg.assert_claim("user.timezone", "CET", "The user is on Central European time", agent="agent-b")
    assert c.op == WriteOp.UPDATE and c.superseded is not None and c.superseded.id == b.claim.id
    report = bg.admin.check()
    assert report.ok, report.summary()


def test_two_os_processes_one_store(bg: BeliefGraph) -> None:
    """agent-a and agent-b are separate processes writing to one Neo4j."""
    bg.conflicts.set_policy("user.timezone", "authority")
    bg.conflicts.set_authority("agent-a", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent-b", "user.timezone", 0.2)
    script = textwrap.dedent(
        """
        import json, sys
        from belief_graph import BeliefGraph
        from belief_graph.embeddings import HashingEmbedder
        space, agent, key, value, text = sys.argv[1:6]
        with BeliefGraph.connect(space=space, embedder=HashingEmbedder(384)) as bg:
            r = bg.assert_claim(key, value, text, agent=agent)
        print(json.dumps({"op": r.op.value, "id": r.claim.id}))
        """
    )
    env = {**os.environ}

    def run(*args: str) -> dict[str, str]:
        out = subprocess.run(
            [sys.executable, "-c", script, bg.space, *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

    assert run("agent-a", "user.timezone", "PST", "Pacific time")["op"] == "ADD"
    assert run("agent-b", "user.timezone", "EST", "Eastern time")["op"] == "DISPUTED"
    assert run("agent-a", "user.food", "loves Italian", "loves Italian food")["op"] == "ADD"
    assert run("agent-b", "user.food", "only Japanese", "hates Italian, only Japanese")["op"] == "SUPERSEDED"
    assert bg.belief("user.timezone").value == "PST"  # type: ignore[union-attr]
    assert bg.belief("user.food").value == "only Japanese"  # type: ignore[union-attr]
    assert len(bg.conflicts.disputes("open")) == 1


def test_wildcard_authority_and_pattern_strategy_override(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.*", "authority")
    bg.conflicts.set_policy("user.schedule.*", "recency")  # more specific: overrides user.*
    bg.conflicts.set_policy("user.schedule.standup", "authority")  # exact key: overrides both
    bg.conflicts.set_authority("cal", "user.schedule.*", 0.8)
    bg.conflicts.set_authority("*", "user.*", 0.3)
    assert bg.conflicts.policy_for("user.schedule.monday")[0].value == "recency"
    assert bg.conflicts.policy_for("user.schedule.standup")[0].value == "authority"
    assert bg.conflicts.policy_for("user.name")[0].value == "authority"
    assert bg.conflicts.policy_for("project.deadline")[0].value == "recency"  # no rule: default
    # wildcard authority on an exact-key authority strategy: cal (0.8 via user.schedule.*) beats chat (0.3 via '*')
    bg.assert_claim("user.schedule.standup", "09:30", "Standup is at 09:30", agent="chat")
    r = bg.assert_claim("user.schedule.standup", "10:00", "Standup moved to 10:00", agent="cal")
    assert r.op == WriteOp.SUPERSEDED and "0.8" in r.reason and not r.warnings
    back = bg.assert_claim("user.schedule.standup", "09:30", "Standup is at 09:30 again", agent="chat")
    assert back.op == WriteOp.DISPUTED
    # the override: user.schedule.* is recency even though user.* is authority
    bg.assert_claim("user.schedule.monday", "gym", "Monday evening is gym", agent="cal")
    m = bg.assert_claim("user.schedule.monday", "free", "Monday evening is free", agent="chat")
    assert m.op == WriteOp.SUPERSEDED and m.strategy == "recency"
    # unseeded authority is an explicit fallback, with a warning
    bg.assert_claim("user.name", "Priya", "Her name is Priya", agent="crm")
    w = bg.assert_claim("user.name", "Pria", "Her name is Pria", agent="ocr")
    assert w.op == WriteOp.DISPUTED  # both 0.3 via '*': no out-weighing
    bg.conflicts.set_policy("team.*", "authority")
    bg.assert_claim("team.lead", "Ana", "Ana leads the team", agent="crm")
    u = bg.assert_claim("team.lead", "Rui", "Rui leads the team", agent="ocr")
    assert u.op == WriteOp.DISPUTED and len(u.warnings) == 2 and "default weight 0.5" in u.warnings[0]


def test_consensus(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.language", "consensus")
    bg.assert_claim("user.language", "Portuguese", "The user speaks Portuguese", agent="a1")
    r = bg.assert_claim("user.language", "Spanish", "The user speaks Spanish", agent="a2")
    assert r.op == WriteOp.DISPUTED  # 1 vs 1
    bg.assert_claim("user.language", "portuguese ", "The user speaks Portuguese", agent="a3")  # corroborates
    r2 = bg.assert_claim("user.language", "Spanish", "The user speaks Spanish", agent="a4")
    assert r2.op == WriteOp.DISPUTED  # Spanish 2 (a2, a4) vs Portuguese 2 (a1, a3)
    r3 = bg.assert_claim("user.language", "Spanish", "The user speaks Spanish", agent="a5")
    assert r3.op == WriteOp.SUPERSEDED and bg.belief("user.language").value == "Spanish"  # type: ignore[union-attr]
    assert _active(bg, "user.language") == 1


def test_resolve_dispute_by_hand_with_audit_trail(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.timezone", "authority")
    bg.conflicts.set_authority("agent-a", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent-b", "user.timezone", 0.2)
    a = bg.assert_claim("user.timezone", "PST", "Pacific time", agent="agent-a")
    b = bg.assert_claim("user.timezone", "EST", "Eastern time", agent="agent-b")
    assert b.dispute is not None
    with pytest.raises(ValidationError):
        bg.conflicts.resolve_dispute(b.dispute.id, winner="nobody", by="user:admin", reason="x")
    d = bg.conflicts.resolve_dispute(
        b.dispute.id, winner="challenger", by="user:admin", reason="the user confirmed EST"
    )
    assert d.status == "resolved" and d.winner == b.claim.id and d.resolved_by == "user:admin" and d.rule == "manual"
    assert bg.belief("user.timezone").value == "EST"  # type: ignore[union-attr]
    assert bg.beliefs.claim(a.claim.id).status.value == "superseded"
    assert bg.conflicts.disputes("open") == [] and len(bg.conflicts.disputes("resolved")) == 1
    ex = bg.beliefs.explain(b.claim.id)
    assert [r.status for r in ex.revisions] == ["disputed", "active"]
    assert "the user confirmed EST" in (ex.revisions[-1].reason or "")
    assert ex.disputes[0]["status"] == "resolved" and ex.disputes[0]["role"] == "CHALLENGER"
    assert ex.current and ex.supersedes == a.claim.id
    assert "resolved" in ex.text()
    with pytest.raises(ValidationError):
        bg.conflicts.resolve_dispute(b.dispute.id, winner="incumbent", by="user:admin", reason="again")
    with pytest.raises(DisputeNotFound):
        bg.conflicts.resolve_dispute("no-such-dispute", winner="incumbent", by="user:admin", reason="x")


def test_auto_resolution_rules(bg: BeliefGraph) -> None:
    # corroboration by N agents settles a dispute as soon as the N-th agent agrees
    bg.conflicts.set_policy("user.city", "authority", auto_corroboration=2)
    bg.conflicts.set_authority("crm", "user.city", 0.9)
    bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="crm")
    r1 = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="chat")
    assert r1.op == WriteOp.DISPUTED and r1.resolved == []
    r2 = bg.assert_claim("user.city", "Porto", "The user moved to Porto", agent="email")
    assert r2.op == WriteOp.DISPUTED and len(r2.resolved) == 2
    assert {d.rule for d in r2.resolved} == {"corroboration"}
    assert bg.belief("user.city").value == "Porto"  # type: ignore[union-attr]
    assert _active(bg, "user.city") == 1 and bg.conflicts.disputes("open", key="user.city") == []
    # an authority gap settles for the incumbent right away
    bg.conflicts.set_policy("user.tz", "authority", auto_authority_gap=0.5)
    bg.conflicts.set_authority("hr", "user.tz", 0.9)
    bg.conflicts.set_authority("bot", "user.tz", 0.1)
    bg.assert_claim("user.tz", "CET", "CET", agent="hr")
    g = bg.assert_claim("user.tz", "WET", "WET", agent="bot")
    assert g.op == WriteOp.DISPUTED and [d.rule for d in g.resolved] == ["authority_gap"]
    assert bg.beliefs.claim(g.claim.id).status.value == "superseded" and bg.belief("user.tz").value == "CET"  # type: ignore[union-attr]
    # age: disputes older than the rule's age are settled by auto_resolve()
    bg.conflicts.set_policy("user.pet", "authority", auto_age_days=0, auto_age_winner="challenger")
    bg.assert_claim("user.pet", "cat", "has a cat", agent="hr")
    p = bg.assert_claim("user.pet", "dog", "has a dog", agent="bot")
    assert p.op == WriteOp.DISPUTED  # age 0 applies on the next pass
    settled = bg.conflicts.auto_resolve()
    assert any(d.rule == "age" and d.winner == p.claim.id for d in settled + p.resolved)
    assert bg.belief("user.pet").value == "dog"  # type: ignore[union-attr]


def test_concurrency_8_processes_x_100_writes(bg: BeliefGraph) -> None:
    script = textwrap.dedent(
        """
        import sys
        from belief_graph import BeliefGraph
        from belief_graph.embeddings import HashingEmbedder
        space, proc = sys.argv[1], sys.argv[2]
        with BeliefGraph.connect(space=space, embedder=HashingEmbedder(384)) as bg:
            for i in range(100):
                bg.assert_claim("project.status", f"{proc}-{i}", f"status {proc}-{i}", agent=f"worker-{proc}")
        """
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, bg.space, str(p)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(8)
    ]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-2000:]
    rows = bg.graph.driver.execute_query(
        """
        MATCH (f:Fact {space: $s, key: 'project.status'})
        OPTIONAL MATCH (f)<-[:VERSION_OF]-(c:Claim)
        WITH f, count(c) AS versions
        OPTIONAL MATCH (f)-[:CURRENT]->(cur:Claim)
        WITH f, versions, count(cur) AS currents
        MATCH (a:Claim {space: $s, key: 'project.status', status: 'active'})
        WITH versions, currents, count(a) AS active
        MATCH (c:Claim {space: $s, key: 'project.status'})
        OPTIONAL MATCH (c)-[:SUPERSEDES]->(o)
        OPTIONAL MATCH (n)-[:SUPERSEDES]->(c)
        WITH versions, currents, active, c, count(DISTINCT o) AS outs, count(DISTINCT n) AS ins
        RETURN versions, currents, active, max(outs) AS max_out, max(ins) AS max_in,
               sum(CASE WHEN outs = 0 THEN 1 ELSE 0 END) AS tails, sum(CASE WHEN ins = 0 THEN 1 ELSE 0 END) AS heads
        """,
        s=bg.space,
    ).records[0]
    assert rows["versions"] == 800 and rows["currents"] == 1 and rows["active"] == 1
    # a linear chain: every version supersedes at most one and is superseded by at most one; one head, one tail
    assert rows["max_out"] == 1 and rows["max_in"] == 1 and rows["tails"] == 1 and rows["heads"] == 1


# --- bad input: typed error, nothing written -------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(key="user.x", value="v", text="   ", agent="a"), ValidationError),
        (dict(key="user x", value="v", text="t", agent="a"), ValidationError),
        (dict(key="user.x'}) DETACH DELETE n //", value="v", text="t", agent="a"), ValidationError),
        (dict(key='user."x"', value="v", text="t", agent="a"), ValidationError),
        (dict(key="user.x", value=["a", "b"], text="t", agent="a"), ValidationError),
        (dict(key="user.x", value={"a": 1}, text="t", agent="a"), ValidationError),
        (dict(key="user.x", value="v", text="t", agent="a", evidence=["no-such-episode"]), ValidationError),
        (dict(key="user.x", value="v", text="t", agent=""), ValidationError),
    ],
)
def test_bad_input_writes_nothing(bg: BeliefGraph, kwargs: dict, error: type) -> None:  # type: ignore[type-arg]
    bg.assert_claim("user.seed", "s", "seed", agent="a")
    n, r = _count(bg), _rels(bg)
    with pytest.raises(error):
        bg.assert_claim(**kwargs)
    assert (_count(bg), _rels(bg)) == (n, r)


def test_bad_input_value_type_unknown_agent_other_space(bg: BeliefGraph, base_settings, embedder, graph) -> None:  # type: ignore[no-untyped-def]
    bg.assert_claim("user.age", 41, "The user is 41", agent="a")
    n, r = _count(bg), _rels(bg)
    with pytest.raises(ValidationError, match="number"):
        bg.assert_claim("user.age", "forty-two", "The user is forty-two", agent="a")
    assert (_count(bg), _rels(bg)) == (n, r)
    # a claim from another space is not evidence here, and its dispute is not ours
    other_space = bg.space + "-other"
    try:
        with BeliefGraph.connect(space=other_space, settings=base_settings, embedder=embedder) as other:
            ep = other.add_episode("elsewhere", agent="x")
            foreign = other.assert_claim("user.age", 50, "fifty", agent="x")
        for ev in (ep.id, foreign.claim.id):
            with pytest.raises(ValidationError, match="unknown evidence"):
                bg.assert_claim("user.height", 180, "180 cm", agent="a", evidence=[ev])
        with pytest.raises(ClaimNotFound):
            bg.beliefs.explain(foreign.claim.id)
        assert (_count(bg), _rels(bg)) == (n, r)
    finally:
        graph.write("admin.delete_space", space=other_space)
    # strict agents: an unknown agent is refused, a registered one writes
    strict = base_settings.model_copy(
        update={"policy": base_settings.policy.model_copy(update={"strict_agents": True})}
    )
    with BeliefGraph.connect(space=bg.space, settings=strict, embedder=embedder) as sbg:
        with pytest.raises(UnknownAgent):
            sbg.assert_claim("user.age", 42, "The user is 42", agent="stranger")
        assert (_count(bg), _rels(bg)) == (n, r)
        # derive and retract (and restore) check the agent too
        premise = sbg.belief("user.age")
        assert premise is not None
        with pytest.raises(UnknownAgent):
            sbg.derive("The user is an adult", [premise.id], "user.adult", agent="stranger")
        with pytest.raises(UnknownAgent):
            sbg.retract([premise.id], "wrong age", agent="stranger")
        assert (_count(bg), _rels(bg)) == (n, r)
        sbg.beliefs.add_agent("stranger", kind="agent")
        assert sbg.derive("The user is an adult", [premise.id], "user.adult", agent="stranger").status == "active"
        assert sbg.assert_claim("user.age", 42, "The user is 42", agent="stranger").op == WriteOp.SUPERSEDED


@pytest.mark.parametrize("pattern", ["", "user..x", "user.x'", "user x", "a.(b)", "user.*x*y"])
def test_bad_patterns_and_weights(bg: BeliefGraph, pattern: str) -> None:
    n = _count(bg)
    with pytest.raises(ValidationError):
        bg.conflicts.set_policy(pattern, "authority")
    with pytest.raises(ValidationError):
        bg.conflicts.set_authority("a", pattern, 0.5)
    with pytest.raises(ValidationError):
        bg.conflicts.set_authority("a", "user.x", 1.5)
    with pytest.raises(ValidationError):
        bg.conflicts.set_policy("user.x", "majority")
    assert _count(bg) == n
