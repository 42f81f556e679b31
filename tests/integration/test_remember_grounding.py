"""Extraction grounding on the write side, against the real Neo4j: a model that invents values
(a scripted one, to make it certain) gets nothing stored that the turn does not state; questions
and small talk store no fact and make no model call; every refusal is recorded on the episode."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from scripted_replies import classify, facts

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings


def _claims(bg: BeliefGraph) -> list[dict[str, Any]]:
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) RETURN c.key AS key, c.value AS value ORDER BY key", s=bg.space
    ).records
    return [dict(r) for r in rows]


def _episode_rejections(bg: BeliefGraph, episode_id: str) -> list[dict[str, Any]]:
    rows = bg.graph.driver.execute_query(
        "MATCH (e:Episode {space: $s, id: $id}) RETURN e.rejections AS r", s=bg.space, id=episode_id
    ).records
    return [json.loads(x) for x in rows[0]["r"] or []]


@pytest.fixture()
def model() -> ScriptedModel:
    return ScriptedModel()


def _connect(settings: Settings, space: str, embedder: Any, model: ScriptedModel) -> BeliefGraph:
    return BeliefGraph.connect(space=space, settings=settings, embedder=embedder, chat_model=model)


@pytest.fixture()
def mbg(base_settings, graph, embedder, space, model) -> Iterator[BeliefGraph]:  # type: ignore[no-untyped-def]
    with _connect(base_settings, space, embedder, model) as b:
        yield b


def test_a_question_reaches_extraction_and_stores_only_what_it_asserts(mbg: BeliefGraph, model: ScriptedModel) -> None:
    model.respond("extract", facts({"key": "weather.today", "value": "sunny", "text": "The weather is sunny"}))
    r = mbg.remember("What's the weather like today?", agent="user:alice")
    assert r.extracted and len(model.calls_for("extract")) == 1  # read, not dropped for its punctuation
    assert r.results == [] and _claims(mbg) == []
    reason = "the turn asserts nothing (it is a question)"
    assert r.rejected == [{"text": "The weather is sunny", "key": "weather.today", "value": "sunny", "reason": reason}]
    assert _episode_rejections(mbg, r.episode.id) == r.rejected


def test_a_fact_inside_a_question_is_stored_and_the_question_s_content_is_not(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond(
        "extract",
        facts(
            {"key": "user.city", "value": "Porto", "text": "The user moved to Porto"},
            {"key": "user.gym", "value": "Bolhao", "text": "The user goes to a gym near Bolhao"},
        ),
    )
    r = mbg.remember("I moved to Porto last week, what's a good gym near Bolhão?", agent="user:alice")
    assert [(w.claim.key, w.claim.value) for w in r.results] == [("user.city", "Porto")]
    assert [x["key"] for x in r.rejected] == ["user.gym"]
    assert "only in a question" in r.rejected[0]["reason"]


def test_small_talk_stores_no_fact(mbg: BeliefGraph, model: ScriptedModel) -> None:
    model.respond("extract", facts({"key": "user.mood", "value": "great", "text": "The user feels great"}))
    r = mbg.remember("Thanks a lot, that's great!", agent="user:alice")
    assert r.results == [] and _claims(mbg) == [] and model.calls == []
    assert "small talk" in r.rejected[0]["reason"]


def test_an_invented_value_is_refused_and_recorded_the_stated_one_is_written(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond(
        "extract",
        facts(
            {"key": "user.city", "value": "Lisbon", "text": "The user lives in Lisbon"},
            {"key": "user.timezone", "value": "Europe/Berlin", "text": "The user's timezone is Europe/Berlin"},
        ),
    )
    r = mbg.remember("I moved to Lisbon last month. How is the weather there?", agent="user:alice")
    assert [(w.op, w.claim.key, w.claim.value) for w in r.results] == [(WriteOp.ADD, "user.city", "Lisbon")]
    assert _claims(mbg) == [{"key": "user.city", "value": "Lisbon"}]
    rec = _episode_rejections(mbg, r.episode.id)
    assert [(x["key"], x["value"]) for x in rec] == [("user.timezone", "Europe/Berlin")]
    assert "not stated in the turn" in rec[0]["reason"] and rec == r.rejected


def test_an_update_needs_its_new_value_stated(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:alice")
    model.respond("extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto"}))
    r = mbg.remember("I'm not sure where I will live next year.", agent="user:alice")
    assert r.results == [] and mbg.belief("user.city").value == "Lisbon"  # type: ignore[union-attr]
    assert r.rejected[0]["value"] == "Porto" and model.calls_for("classify") == []
    assert r.rejected[0]["reason"] == "the turn asserts nothing (it is a hypothetical)"


def test_grounding_off_stores_what_the_model_says(
    base_settings,
    graph,
    embedder,
    space,  # type: ignore[no-untyped-def]
    model: ScriptedModel,
) -> None:
    """The switch exists to measure what grounding prevents (bench llm-quality)."""
    settings = base_settings.model_copy(
        update={"policy": base_settings.policy.model_copy(update={"ground_extraction": False})}
    )
    model.respond("extract", facts({"key": "weather.today", "value": "sunny", "text": "The weather is sunny"}))
    with _connect(settings, space, embedder, model) as b:
        r = b.remember("What's the weather like today?", agent="user:alice")
        assert [(w.claim.key, w.claim.value) for w in r.results] == [("weather.today", "sunny")]
        assert r.rejected == [] and r.episode.rejections == []


def test_a_value_of_another_type_than_the_key_holds_is_converted_or_refused(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    """Seen on a real model: "1350" (a string) for a key that holds numbers made the whole remember
    fail; now it is converted when it says the number, refused (recorded) when it does not."""
    mbg.assert_claim("user.monthly_rent", 1200, "The user's rent is 1,200 a month", agent="agent:finance")
    model.respond("extract", facts({"key": "user.monthly_rent", "value": "1,350", "text": "The rent is 1,350"}))
    model.respond("classify", classify("UPDATE"))  # another agent's belief, another value: an update here
    r = mbg.remember("My rent is 1,350 a month.", agent="user:alice")
    assert [(w.claim.key, w.claim.value) for w in r.results] == [("user.monthly_rent", 1350)]
    assert mbg.belief("user.monthly_rent").value == 1350  # type: ignore[union-attr]
    model.respond(
        "extract",
        facts({"key": "user.monthly_rent", "value": "about 1400 euros", "text": "The rent is about 1400 euros"}),
    )
    r = mbg.remember("My rent is about 1400 euros now.", agent="user:alice")
    assert r.results == [] and "holds number values" in r.rejected[0]["reason"]
    assert mbg.belief("user.monthly_rent").value == 1350  # type: ignore[union-attr]


def test_a_date_said_relative_to_the_turn_is_stored_as_the_model_resolved_it(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    """ "tomorrow" said on 10 February is 11 February: the model's resolved date is grounded by the
    turn's own time (``at``), and a date the turn does not name is still refused."""
    from datetime import UTC, datetime

    said = datetime(2026, 2, 10, 9, 0, tzinfo=UTC)
    model.respond(
        "extract",
        facts(
            {
                "key": "user.appointments.dentist",
                "value": "2026-02-11",
                "text": "The user's dentist visit is on 2026-02-11",
            },
            {"key": "user.appointments.checkup", "value": "2026-02-14", "text": "The user's checkup is on 2026-02-14"},
        ),
    )
    r = mbg.remember("Wisdom tooth coming out at the dentist tomorrow.", agent="user:tomas", at=said)
    assert [(w.claim.key, w.claim.value) for w in r.results] == [("user.appointments.dentist", "2026-02-11")]
    assert [x["key"] for x in r.rejected] == ["user.appointments.checkup"]
