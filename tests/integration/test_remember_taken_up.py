"""A value named in a request and taken up by the speaker's "I moved there", against the real Neo4j:
``remember`` keeps it and the held value is updated (not left current beside it), says where it was
named, and refuses the alternative the speaker turned down."""

from __future__ import annotations

from scripted_replies import classify, facts, revisit

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel

TURN = "Could you send the replacement filter to Leipzig instead of Hamburg? I moved there at the start of January."


def test_a_city_named_in_a_request_and_taken_up_updates_the_held_one(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.city", "Hamburg", "The user lives in Hamburg.", agent="user:lena")
    model.respond("classify", classify("UPDATE"))
    model.respond(
        "extract",
        facts(
            {"key": "user.city", "value": "Leipzig", "text": "The user lives in Leipzig."},
            {"key": "user.city", "value": "Hamburg", "text": "The user lives in Hamburg."},  # turned down
        ),
    )
    model.respond("revisit", revisit())
    r = mbg.remember(TURN, agent="user:lena")
    assert [x.op for x in r.results] == [WriteOp.UPDATE], r
    now = mbg.belief("user.city")
    assert now is not None and now.value == "Leipzig"
    rows = mbg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s, key: 'user.city'}) WHERE c.status = 'active' RETURN count(c) AS n", s=mbg.space
    ).records
    assert rows[0]["n"] == 1  # one current belief for the fact: Hamburg superseded, not beside it
    assert any("taken up by 'I moved there at the start of January.'" in w for w in r.warnings), r.warnings
    assert [x["value"] for x in r.rejected] == ["Hamburg"]
    assert "said only in" in r.rejected[0]["reason"] or "taken up by no clause" in r.rejected[0]["reason"]
