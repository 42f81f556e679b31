"""Re-deriving stale free-text conclusions with the LLM job ``rederive`` (real Neo4j, scripted model):
recorded with rule ``llm:rederive`` and the model's provenance, one call, never implicit."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import EncodingError, ValidationError
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings


@pytest.fixture()
def model() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture()
def rbg(base_settings: Settings, graph: Any, embedder: Any, space: str, model: ScriptedModel) -> Iterator[BeliefGraph]:
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        yield b


def _stale_plan(bg: BeliefGraph, key: str | None = None) -> tuple[str, str, str]:
    """(stale conclusion, old premise, new premise)."""
    old = bg.assert_claim("user.diet", "vegan", "The user is vegan", agent="user:a").claim.id
    concl = bg.derive("Book vegan restaurants for the user's trips", [old], key=key, agent="agent:planner").id
    new = bg.assert_claim("user.diet", "vegetarian", "The user is vegetarian now", agent="user:a").claim.id
    assert bg.beliefs.claim(concl).status.value == "stale"
    return concl, old, new


def test_a_stale_conclusion_is_rederived_from_the_current_premises(rbg: BeliefGraph, model: ScriptedModel) -> None:
    concl, old, new = _stale_plan(rbg)
    assert model.calls == []  # going stale never calls the model
    model.add(
        "rederive",
        {
            "status": "rederived",
            "text": "Book vegetarian restaurants for the user's trips",
            "value": None,
            "citations": [new],
            "rationale": "the user is vegetarian now",
        },
    )
    r = rbg.support.rederive(concl, agent="agent:planner")
    assert r.status == "rederived" and r.claim is not None and r.claim.status.value == "active"
    assert r.claim.text == "Book vegetarian restaurants for the user's trips" and r.calls == 1
    assert rbg.llm_usage().llm.calls_for("rederive") == 1
    sup = rbg.support.supports(r.claim.id)
    assert [(f.rule, [p.id for p in f.premises]) for f in sup.families] == [("llm:rederive", [new])]
    rec = rbg.graph.driver.execute_query(
        "MATCH (n:Claim {space: $s, id: $id}) OPTIONAL MATCH (n)-[:SUPERSEDES]->(o) "
        "RETURN n.llm_job AS job, n.llm_model AS model, n.llm_prompt AS prompt, n.llm_rationale AS why, o.id AS old",
        s=rbg.space,
        id=r.claim.id,
    ).records[0]
    assert rec["job"] == "rederive" and rec["model"] == r.llm_model and rec["prompt"] == "rederive@1"
    assert rec["why"] == "the user is vegetarian now" and rec["old"] == concl
    assert rbg.beliefs.claim(concl).status.value == "superseded"
    # what the model saw: the stale conclusion, the old premise, the current one
    prompt = " ".join(m.content for m in model.calls[0].messages)
    assert "The user is vegan" in prompt and "The user is vegetarian now" in prompt


def test_a_keyed_conclusion_gets_a_new_version_with_a_value(rbg: BeliefGraph, model: ScriptedModel) -> None:
    concl, _, new = _stale_plan(rbg, key="trip.restaurants")
    model.add(
        "rederive",
        {
            "status": "rederived",
            "text": "Book vegetarian restaurants",
            "value": "vegetarian",
            "citations": [new],
            "rationale": "diet changed",
        },
    )
    r = rbg.support.rederive(concl, agent="agent:planner")
    belief = rbg.belief("trip.restaurants")
    assert belief is not None and belief.id == r.claim.id and belief.value == "vegetarian"  # type: ignore[union-attr]
    assert [v.claim.status.value for v in rbg.beliefs.history("trip.restaurants")] == ["superseded", "active"]


def test_unchanged_makes_it_current_again_and_unsupported_writes_nothing(
    rbg: BeliefGraph, model: ScriptedModel
) -> None:
    concl, _, new = _stale_plan(rbg)
    model.add(
        "rederive",
        {
            "status": "unsupported",
            "text": None,
            "value": None,
            "citations": [],
            "rationale": "nothing about restaurants follows",
        },
    )
    before = rbg.admin.stats()
    r = rbg.support.rederive(concl, agent="agent:planner")
    assert r.status == "unsupported" and r.claim is None and rbg.admin.stats() == before
    assert rbg.beliefs.claim(concl).status.value == "stale"
    model.add(
        "rederive",
        {
            "status": "unchanged",
            "text": "Book vegan restaurants for the user's trips",
            "value": None,
            "citations": [new],
            "rationale": "vegetarians eat at vegan places",
        },
    )
    r = rbg.support.rederive(concl, agent="agent:planner")
    assert r.status == "unchanged" and r.claim is not None and r.claim.id == concl
    assert rbg.beliefs.claim(concl).status.value == "active"
    assert [f.rule for f in rbg.support.supports(concl).families if f.current] == ["llm:rederive"]


def test_bad_answers_and_bad_requests_write_nothing(rbg: BeliefGraph, model: ScriptedModel) -> None:
    concl, old, new = _stale_plan(rbg)
    # citing the superseded premise is refused by the job's check, every repair too
    model.add(
        "rederive",
        {"status": "rederived", "text": "Book vegan restaurants", "value": None, "citations": [old], "rationale": "x"},
    )
    before = rbg.admin.stats()
    with pytest.raises(EncodingError):
        rbg.support.rederive(concl, agent="agent:planner")
    assert rbg.admin.stats() == before and rbg.beliefs.claim(concl).status.value == "stale"
    with pytest.raises(ValidationError, match="only a stale conclusion"):
        rbg.support.rederive(new, agent="agent:planner")
    with pytest.raises(ValidationError, match="agent"):
        rbg.support.rederive(concl, agent=" ")


def test_answer_never_offers_a_stale_conclusion_to_the_model(rbg: BeliefGraph, model: ScriptedModel) -> None:
    concl, _, new = _stale_plan(rbg)
    seen: list[set[str]] = []

    def reply(inputs: Any) -> dict[str, Any]:
        seen.append({b["id"] for b in inputs["beliefs"]})
        return {"text": "The user is vegetarian now.", "citations": [new]}

    model.respond("answer", reply)
    r = rbg.answer("Which restaurants should I book for the user's trips, given the user's diet?")
    assert r.status == "answered" and r.citations == [new]
    assert seen and concl not in seen[0] and {rbg.beliefs.claim(i).status.value for i in seen[0]} == {"active"}
