"""The foundation's write path against the real server: one current belief per fact, versions, recall."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import ClaimNotFound, ValidationError


def test_one_current_belief_per_fact(bg: BeliefGraph) -> None:
    r1 = bg.assert_claim("user.risk_tolerance", "cautious", "The user is cautious with money", agent="user:a")
    r2 = bg.assert_claim("user.risk_tolerance", "aggressive", "The user wants aggressive investments", agent="user:a")
    assert r1.op == WriteOp.ADD and r2.op == WriteOp.UPDATE
    assert r2.superseded is not None and r2.superseded.id == r1.claim.id
    cur = bg.belief("user.risk_tolerance")
    assert cur is not None and cur.value == "aggressive"
    assert bg.beliefs.claim(r1.claim.id).status.value == "superseded"
    r3 = bg.assert_claim("user.risk_tolerance", "aggressive", "The user wants aggressive investments", agent="user:a")
    assert r3.op == WriteOp.NOOP and r3.claim.id == r2.claim.id


def test_other_agent_supersedes_by_recency(bg: BeliefGraph) -> None:
    bg.assert_claim("user.timezone", "Europe/Lisbon", "The user is in Lisbon", agent="agent:a")
    r = bg.assert_claim("user.timezone", "Europe/Paris", "The user moved to Paris", agent="agent:b")
    assert r.op == WriteOp.SUPERSEDED
    assert bg.belief("user.timezone").value == "Europe/Paris"  # type: ignore[union-attr]


def test_evidence_is_linked_and_unknown_evidence_writes_nothing(bg: BeliefGraph) -> None:
    ep = bg.add_episode("I live in Porto now", agent="user:a")
    r = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:a", evidence=[ep.id])
    rows = bg.graph.driver.execute_query(
        "MATCH (e:Episode {space:$s, id:$e})-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c:Claim) RETURN c.id AS id",
        s=bg.space,
        e=ep.id,
    ).records
    assert [x["id"] for x in rows] == [r.claim.id]
    before = bg.admin.stats()
    with pytest.raises(ValidationError, match="unknown evidence"):
        bg.assert_claim("user.city", "Braga", "The user lives in Braga", agent="user:a", evidence=["nope"])
    assert bg.admin.stats() == before
    assert bg.belief("user.city").value == "Porto"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"key": "bad key!", "value": 1, "text": "x", "agent": "a"},
        {"key": "ok.key", "value": 1, "text": "   ", "agent": "a"},
        {"key": "ok.key", "value": 1, "text": "x", "agent": ""},
        {"key": "ok.key", "value": 1, "text": "x", "agent": "a", "confidence": 1.5},
    ],
)
def test_bad_input_is_typed_and_writes_nothing(bg: BeliefGraph, kwargs: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValidationError):
        bg.assert_claim(**kwargs)
    assert bg.admin.stats() == []


def test_claim_not_found(bg: BeliefGraph) -> None:
    with pytest.raises(ClaimNotFound):
        bg.beliefs.claim("missing")


def test_concurrent_writers_keep_one_current_and_a_linear_chain(bg: BeliefGraph) -> None:
    n = 12
    errors: list[Exception] = []

    def write(i: int) -> None:
        try:
            bg.assert_claim("user.mood", f"v{i}", f"The user's mood is v{i}", agent=f"agent:{i}")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    rec = bg.graph.driver.execute_query(
        """MATCH (f:Fact {space: $s, key: 'user.mood'})
           CALL { WITH f MATCH (f)-[:CURRENT]->(cur) RETURN count(cur) AS currents }
           CALL { WITH f MATCH (v:Claim)-[:VERSION_OF]->(f)
                  RETURN count(v) AS versions, sum(CASE WHEN v.status = 'active' THEN 1 ELSE 0 END) AS active }
           CALL { WITH f MATCH (a:Claim)-[:SUPERSEDES]->(b:Claim)-[:VERSION_OF]->(f)
                  RETURN count(*) AS edges, collect(a.id) AS newer, collect(b.id) AS older }
           RETURN currents, versions, active, edges, newer, older""",
        s=bg.space,
    ).records[0]
    assert rec["currents"] == 1 and rec["versions"] == n and rec["active"] == 1
    # linear chain: n-1 supersession edges, each claim supersedes at most one and is superseded at most once
    assert rec["edges"] == n - 1
    assert len(set(rec["newer"])) == n - 1 and len(set(rec["older"])) == n - 1
    # times are taken after the fact's lock: chain order is time order, no version ends before it began
    bad = bg.graph.driver.execute_query(
        """MATCH (a:Claim {space: $s, key: 'user.mood'})-[:SUPERSEDES]->(b:Claim)
           WHERE a.created_at <= b.created_at OR b.valid_to < b.valid_from OR a.valid_from < b.valid_from
           RETURN count(*) AS n""",
        s=bg.space,
    ).records[0]["n"]
    assert bad == 0
    newest = bg.beliefs.history("user.mood")[-1]
    assert bg.belief("user.mood") == bg.beliefs.as_of("user.mood", datetime.now(UTC))
    assert bg.belief("user.mood").id == newest.claim.id  # type: ignore[union-attr]


def test_evidence_must_hold_and_be_current(bg: BeliefGraph) -> None:
    ep = bg.add_episode("I moved to Porto", agent="user:a")
    bg.retract([ep.id], "the user was joking")
    old = bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:a")
    bg.assert_claim("user.city", "Braga", "The user lives in Braga", agent="user:a")
    before = bg.admin.stats()
    with pytest.raises(ValidationError, match="retracted"):
        bg.assert_claim("user.home", "Porto", "The user lives in Porto", agent="user:a", evidence=[ep.id])
    with pytest.raises(ValidationError, match="superseded"):
        bg.assert_claim(
            "user.region", "Lisbon area", "The user lives near Lisbon", agent="user:a", evidence=[old.claim.id]
        )
    assert bg.admin.stats() == before
    assert bg.belief("user.home") is None


def test_corroboration_never_takes_over_the_support_of_a_base_claim(bg: BeliefGraph) -> None:
    a = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="agent:a")
    ep = bg.add_episode("Porto shipping address on file", agent="agent:b")
    r = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="agent:b", evidence=[ep.id])
    assert r.op == WriteOp.NOOP and r.claim.id == a.claim.id
    audit = bg.retract([ep.id], "wrong customer record")
    assert audit.withdrawn_ids == []
    belief = bg.belief("user.city")
    assert belief is not None and belief.id == a.claim.id and belief.status.value == "active"


def test_recall_uses_the_vector_index_and_filters_status_and_space(bg: BeliefGraph) -> None:
    bg.assert_claim(
        "user.risk", "cautious", "The user is cautious with money and dislikes individual stocks", agent="u"
    )
    bg.assert_claim("user.lang", "Rust", "The user's favourite programming language is Rust", agent="u")
    hits = bg.recall("what is her appetite for investment risk?", k=2)
    assert hits[0].claim.key == "user.risk"
    bg.assert_claim("user.risk", "aggressive", "The user now loves risky bets on individual stocks", agent="u")
    keys_values = [(h.claim.key, h.claim.value) for h in bg.recall("investment risk appetite", k=5)]
    assert ("user.risk", "cautious") not in keys_values and ("user.risk", "aggressive") in keys_values


def test_ogm_is_bound_to_our_driver(bg: BeliefGraph) -> None:
    bg.assert_claim("user.pet", "cat", "The user has a cat", agent="u")
    ogm = bg.admin.ogm()
    found = ogm.Claim.nodes.filter(space=bg.space, status="active")
    assert [c.value for c in found] == ["cat"]
    assert ogm.db.driver is bg.graph.driver
