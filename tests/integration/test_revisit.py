"""``remember`` revisits the held beliefs a turn names that extraction left alone: against the real
Neo4j and MiniLM with a scripted model whose extraction misses the change."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from scripted_replies import classify, facts, revisit

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings

AMLODIPINE = "Does the amlodipine 5 mg my doctor switched me to from lisinopril last week clash with grapefruit?"


@pytest.fixture()
def model() -> ScriptedModel:
    m = ScriptedModel()
    m.respond("extract", facts())  # the extractor misses the change said in passing
    m.respond("classify", classify("UPDATE"))
    return m


def _connect(settings: Settings, embedder: object, space: str, model: ScriptedModel) -> BeliefGraph:
    return BeliefGraph.connect(space=space, settings=settings, embedder=embedder, chat_model=model)  # type: ignore[arg-type]


@pytest.fixture()
def mbg(
    base_settings: Settings, graph: object, embedder: object, space: str, model: ScriptedModel
) -> Iterator[BeliefGraph]:
    with _connect(base_settings, embedder, space, model) as b:
        b.assert_claim(
            "user.medication", "lisinopril 10 mg", "The user takes 10 mg lisinopril every morning", agent="user:omar"
        )
        b.assert_claim("user.city", "Leeds", "The user lives in Leeds", agent="user:omar")
        yield b


def test_a_change_the_extractor_missed_is_found_and_written_as_an_update(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond("revisit", revisit({"user.medication": ("amlodipine 5 mg", "The user takes amlodipine 5 mg")}))
    r = mbg.remember(AMLODIPINE, agent="user:omar")
    (call,) = model.calls_for("revisit")
    # the belief the turn names and, as it says a change ("switched") and extraction kept nothing,
    # the closest other belief
    assert sorted(b["key"] for b in call.inputs["beliefs"]) == ["user.city", "user.medication"]
    assert [(k.key, k.how) for k in r.keys] == [("user.medication", "revisited")]
    assert r.results[0].op == WriteOp.UPDATE and r.results[0].superseded.value == "lisinopril 10 mg"  # type: ignore[union-attr]
    assert mbg.belief("user.medication").value == "amlodipine 5 mg"  # type: ignore[union-attr]
    assert sorted(v.claim.value for v in mbg.beliefs.history("user.medication")) == [
        "amlodipine 5 mg",
        "lisinopril 10 mg",
    ]


def test_a_revisited_value_the_turn_does_not_state_is_refused(mbg: BeliefGraph, model: ScriptedModel) -> None:
    model.respond("revisit", revisit({"user.medication": ("metoprolol", "The user takes metoprolol")}))
    r = mbg.remember(AMLODIPINE, agent="user:omar")
    assert r.results == [] and r.rejected and r.rejected[0]["value"] == "metoprolol"
    assert "not stated" in r.rejected[0]["reason"]
    assert mbg.belief("user.medication").value == "lisinopril 10 mg"  # type: ignore[union-attr]


def test_no_revisit_when_extraction_covered_the_belief_or_the_turn_names_none(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond(
        "extract",
        facts({"key": "user.medication", "value": "amlodipine 5 mg", "text": "The user takes amlodipine 5 mg"}),
    )
    mbg.remember(AMLODIPINE, agent="user:omar")
    model.respond("extract", facts())
    mbg.remember("Any tips for a first half marathon?", agent="user:omar")
    assert model.calls_for("revisit") == []
    assert mbg.belief("user.medication").value == "amlodipine 5 mg"  # type: ignore[union-attr]


def test_an_unchanged_belief_stays_and_the_setting_turns_the_step_off(
    base_settings: Settings, mbg: BeliefGraph, model: ScriptedModel
) -> None:
    model.respond("revisit", revisit())
    r = mbg.remember("Is lisinopril fine with grapefruit?", agent="user:omar")
    assert len(model.calls_for("revisit")) == 1 and r.results == []
    assert mbg.belief("user.medication").value == "lisinopril 10 mg"  # type: ignore[union-attr]
    off = base_settings.model_copy(update={"policy": base_settings.policy.model_copy(update={"revisit": False})})
    with _connect(off, mbg.embedder, mbg.space, model) as b:
        b.remember(AMLODIPINE, agent="user:omar")
    assert len(model.calls_for("revisit")) == 1


def test_a_new_key_holding_the_value_a_held_belief_changed_to_is_that_belief(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    """The extractor names the change under a key of its own (``user.training_schedule``); the
    turn says a change and no extracted fact landed on a held belief, so the closest belief is
    revisited, and the model says it changed to the same value: one fact, under the held key."""
    mbg.assert_claim(
        "user.workout_days", "Monday and Thursday", "The user trains on Monday and Thursday", agent="user:omar"
    )
    model.respond(
        "extract",
        facts(
            {
                "key": "user.training_schedule",
                "value": "Tuesday and Saturday",
                "text": "The user trains on Tuesdays and Saturdays",
            }
        ),
    )
    model.respond("disambiguate", lambda inp: {"items": [{"item": it["id"], "choice": None} for it in inp["items"]]})
    model.respond(
        "revisit",
        revisit({"user.workout_days": ("Tuesday and Saturday", "The user trains on Tuesdays and Saturdays")}),
    )
    r = mbg.remember("Fair. I go Tuesdays and Saturdays now btw.", agent="user:omar")
    assert [(w.claim.key, w.op) for w in r.results] == [("user.workout_days", WriteOp.UPDATE)], r.results
    assert ("user.training_schedule", "user.workout_days", "aligned") in [(k.proposed, k.key, k.how) for k in r.keys]
    assert mbg.belief("user.training_schedule") is None
    assert mbg.belief("user.workout_days").value == "Tuesday and Saturday"  # type: ignore[union-attr]
