"""A value the turn implies, taken as an inference on its cited evidence, against the real Neo4j:
with the evidence on the claim, resting on the episode (so retracting the turn takes the inference
back), as ``policy.inferences`` says (any, held facts only, off), and refused with a reason otherwise."""

from __future__ import annotations

from typing import Any

import pytest
from scripted_replies import classify, facts, revisit

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings

STATUS = "user.relationship_status"
TURN = "Sam and I broke up in April. It's fine, honestly. Any good solo hikes near Dublin?"
SINGLE = {
    "key": STATUS,
    "value": "single",
    "text": "The user is single after breaking up with Sam.",
    "evidence": "Sam and I broke up in April",
}


def _inferred_from(bg: BeliefGraph, claim_id: str) -> str | None:
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s, id: $id}) RETURN c.inferred_from AS e", s=bg.space, id=claim_id
    ).records
    return rows[0]["e"]


def _with(base_settings: Settings, space: str, embedder: Any, model: ScriptedModel, mode: str) -> BeliefGraph:
    policy = base_settings.policy.model_copy(update={"inferences": mode})
    settings = base_settings.model_copy(update={"policy": policy})
    return BeliefGraph.connect(space=space, settings=settings, embedder=embedder, chat_model=model)


def test_an_inference_changes_a_held_fact_and_leaves_with_its_turn(mbg: BeliefGraph, model: ScriptedModel) -> None:
    model.respond("classify", classify("UPDATE"))
    model.respond("extract", facts(SINGLE))
    model.respond("revisit", revisit())
    mbg.assert_claim(STATUS, "in a relationship", "The user is in a relationship with Sam.", agent="user:hannah")
    r = mbg.remember(TURN, agent="user:hannah")
    assert [x.op for x in r.results] == [WriteOp.UPDATE] and not r.rejected, r
    now = mbg.belief(STATUS)
    assert now is not None and now.value == "single"
    assert _inferred_from(mbg, now.id) == "Sam and I broke up in April"
    hit = next(h for h in mbg.recall("Is Hannah single?", k=5) if h.claim.id == now.id)
    assert hit.provenance is not None and hit.provenance.inferred_from == "Sam and I broke up in April"
    assert [e["id"] for e in hit.provenance.episodes] == [r.episode.id]  # it rests on the turn

    # the turn turns out wrong (retracted): its inference loses its only support
    mbg.retract(r.episode.id, "wrong conversation", agent="user:hannah")
    assert mbg.belief(STATUS) is None
    rows = mbg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s, id: $id}) RETURN c.status AS status", s=mbg.space, id=now.id
    ).records
    assert rows[0]["status"] == "withdrawn"


@pytest.mark.parametrize(("mode", "stored"), [("any", True), ("held", False), ("off", False)])
def test_policy_inferences_says_whether_an_inference_may_open_a_fact(
    base_settings: Settings, graph: Any, embedder: Any, space: str, model: ScriptedModel, mode: str, stored: bool
) -> None:
    model.respond("classify", classify("UPDATE"))
    model.respond("extract", facts(SINGLE))
    model.respond("revisit", revisit())
    with _with(base_settings, space, embedder, model, mode) as b:
        r = b.remember(TURN, agent="user:hannah")
        assert [x.op for x in r.results] == ([WriteOp.ADD] if stored else [])
        if stored:
            assert b.belief(STATUS).value == "single" and not r.rejected  # type: ignore[union-attr]
        else:
            assert b.belief(STATUS) is None
            assert "Sam and I broke up in April" in r.rejected[0]["reason"]
            assert ("holds no belief" if mode == "held" else "inferences are off") in r.rejected[0]["reason"]
        if mode == "held":  # held: the same inference changes the fact once memory holds it
            b.assert_claim(STATUS, "in a relationship", "The user is in a relationship with Sam.", agent="user:hannah")
            r = b.remember(TURN, agent="user:hannah")
            assert [x.op for x in r.results] == [WriteOp.UPDATE] and b.belief(STATUS).value == "single"  # type: ignore[union-attr]


def test_an_inference_without_evidence_in_what_the_turn_asserts_is_refused(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond("classify", classify("UPDATE"))
    model.respond("revisit", revisit())
    mbg.assert_claim(STATUS, "in a relationship", "The user is in a relationship with Sam.", agent="user:hannah")
    hypothetical = "If Sam and I broke up I'd move back to Cork. Any good solo hikes near Dublin?"
    model.respond("extract", facts({**SINGLE, "evidence": "Sam and I broke up"}))
    r = mbg.remember(hypothetical, agent="user:hannah")
    assert r.results == [] and "not asserted" in r.rejected[0]["reason"]
    model.respond("extract", facts({k: v for k, v in SINGLE.items() if k != "evidence"}))
    r = mbg.remember(TURN, agent="user:hannah")
    assert r.results == [] and "not stated" in r.rejected[0]["reason"]
    assert mbg.belief(STATUS).value == "in a relationship"  # type: ignore[union-attr]


def test_revisit_takes_an_inference_on_its_evidence(mbg: BeliefGraph, model: ScriptedModel) -> None:
    """Extraction missed the change; revisit sees the held belief and cites the turn's words."""
    model.respond("classify", classify("UPDATE"))
    car = "user.owns_car"
    mbg.assert_claim(car, True, "The user owns a car, a VW Golf.", agent="user:george")
    model.respond("extract", facts())

    def changed(inputs: dict) -> dict:  # type: ignore[type-arg]
        return {
            "items": [
                {
                    "key": b["key"],
                    "changed": b["key"] == car,
                    "value": False if b["key"] == car else None,
                    "text": "The user no longer owns a car: he sold the Golf." if b["key"] == car else "",
                    "evidence": "I sold the Golf last month" if b["key"] == car else None,
                }
                for b in inputs["beliefs"]
            ]
        }

    model.respond("revisit", changed)
    r = mbg.remember("Since I sold the Golf last month, what's a good waterproof jacket?", agent="user:george")
    assert [x.op for x in r.results] == [WriteOp.UPDATE], r
    now = mbg.belief(car)
    assert now is not None and now.value is False
    assert _inferred_from(mbg, now.id) == "I sold the Golf last month"
