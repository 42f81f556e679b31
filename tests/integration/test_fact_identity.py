"""Fact identity through ``remember``: a fact said under another key meets the belief it updates or
contradicts, against the real Neo4j with a scripted model (the model's keys drift on purpose)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from scripted_replies import choose, classify, facts, revisit

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel


@pytest.fixture()
def model() -> ScriptedModel:
    m = ScriptedModel()
    m.respond("classify", classify("UPDATE"))
    m.respond("disambiguate", choose())
    m.respond("revisit", revisit())  # a turn naming another laptop does not change the work laptop
    return m


def _active(bg: BeliefGraph, prefix: str = "user.") -> dict[str, Any]:
    return {k.key: k.value for k in bg.keys.all(prefix=prefix) if k.value is not None}


def test_an_update_under_a_drifted_key_supersedes_the_belief_it_changes(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon.", agent="user:ana")
    model.respond("extract", facts({"key": "user.location.city", "value": "Porto", "text": "The user lives in Porto."}))
    r = mbg.remember("I moved to Porto, any gym tips?", agent="user:ana")
    assert (r.keys[0].how, r.keys[0].key, r.keys[0].relation) == ("aligned", "user.city", "same_statement")
    assert r.results[0].op == WriteOp.UPDATE and r.results[0].superseded.value == "Lisbon"  # type: ignore[union-attr]
    assert _active(mbg) == {"user.city": "Porto"}  # one current belief, not two
    assert model.calls_for("disambiguate") == []  # sure: no call


def test_plural_and_nesting_variants_align_without_a_call(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.pets", "two cats", "The user has two cats.", agent="user:ana")
    model.respond("extract", facts({"key": "user.profile.pet", "value": "two cats", "text": "The user has 2 cats."}))
    r = mbg.remember("We have two cats at home.", agent="user:ana")
    assert (r.keys[0].key, r.keys[0].relation) == ("user.pets", "same_attribute")
    assert r.results[0].op == WriteOp.NOOP and _active(mbg) == {"user.pets": "two cats"}


def test_a_conflicting_statement_under_another_key_is_a_dispute_by_policy(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    mbg.conflicts.set_policy("user.*", "authority")
    mbg.conflicts.set_authority("agent:hr", "*", 0.9)
    mbg.conflicts.set_authority("agent:scraper", "*", 0.2)
    mbg.assert_claim("user.employer", "Acme", "The user works at Acme.", agent="agent:hr")
    model.respond("extract", facts({"key": "user.company", "value": "Globex", "text": "The user works at Globex."}))
    r = mbg.remember("Profile scrape: the user works at Globex.", agent="agent:scraper")
    assert r.keys[0].key == "user.employer"
    assert r.results[0].op == WriteOp.DISPUTED and r.results[0].dispute is not None
    assert mbg.belief("user.employer").value == "Acme"  # type: ignore[union-attr]
    assert [d.key for d in mbg.conflicts.disputes("open")] == ["user.employer"]
    assert mbg.keys.all(prefix="user.company") == []  # never a second belief


def test_another_person_s_fact_stays_that_person_s(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.sister.city", "Lyon", "The user's sister lives in Lyon.", agent="user:ana")
    model.respond("extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto."}))
    r = mbg.remember("I live in Porto.", agent="user:ana")
    assert (r.keys[0].how, r.keys[0].key) == ("new", "user.city")
    assert _active(mbg) == {"user.city": "Porto", "user.sister.city": "Lyon"}


def test_sibling_keys_are_asked_about_and_the_model_s_choice_holds(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.work_laptop", "ThinkPad X1", "The user's work laptop is a ThinkPad X1.", agent="user:ana")
    model.respond(
        "extract",
        facts(
            {
                "key": "user.personal_laptop",
                "value": "MacBook Air",
                "text": "The user's personal laptop is a MacBook Air.",
            }
        ),
    )
    r = mbg.remember("My personal laptop is a MacBook Air.", agent="user:ana")
    (asked,) = model.calls_for("disambiguate")
    assert asked.inputs["known_keys"] == ["user.work_laptop"]  # the candidate it is shown
    assert (r.keys[0].how, r.keys[0].key) == ("kept", "user.personal_laptop")
    assert _active(mbg) == {"user.work_laptop": "ThinkPad X1", "user.personal_laptop": "MacBook Air"}
    # the same question answered the other way: the model recognises the fact
    model.respond("disambiguate", choose("user.work_laptop"))
    model.respond(
        "extract",
        facts({"key": "user.job_laptop", "value": "ThinkPad T14", "text": "The user's work laptop is a ThinkPad T14."}),
    )
    r2 = mbg.remember("Work swapped my laptop for a ThinkPad T14.", agent="user:ana")
    assert (r2.keys[0].how, r2.keys[0].key) == ("asked", "user.work_laptop")
    assert mbg.belief("user.work_laptop").value == "ThinkPad T14"  # type: ignore[union-attr]


def test_with_a_key_schema_facts_land_on_declared_keys_or_under_other(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.beliefs.register_key("user.hobby", "a pastime the user enjoys")  # registered, not declared
    mbg.keys.declare_schema(
        [
            {"key": "user.city", "description": "the city the user lives in", "type": "string"},
            {"key": "user.employer", "description": "the company the user works for", "type": "string"},
        ],
        agent="user:admin",
    )
    model.respond(
        "extract",
        facts(
            {"key": "user.profile.city", "value": "Porto", "text": "The user lives in Porto."},
            {"key": "user.employer", "value": "Acme", "text": "The user works at Acme."},
            {"key": "user.favorite_tea", "value": "oolong", "text": "The user's favourite tea is oolong."},
        ),
    )
    r = mbg.remember("I live in Porto, work at Acme, and oolong is my favourite tea.", agent="user:ana")
    (extract,) = model.calls_for("extract")
    assert set(extract.inputs["known_keys"]) == {"user.city", "user.employer"}  # the schema's keys only
    assert [(k.how, k.key) for k in r.keys] == [
        ("aligned", "user.city"),
        ("known", "user.employer"),
        ("other", "other.user.favorite_tea"),
    ]
    assert _active(mbg) == {"user.city": "Porto", "user.employer": "Acme"}
    assert _active(mbg, "other.") == {"other.user.favorite_tea": "oolong"}  # kept for review


def test_a_schema_that_refuses_unknown_facts_refuses_them(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.keys.declare_schema(
        [{"key": "user.city", "description": "the city the user lives in", "type": "string"}],
        unknown="refuse",
        agent="user:admin",
    )
    model.respond(
        "extract",
        facts(
            {"key": "user.city", "value": "Porto", "text": "The user lives in Porto."},
            {"key": "user.favorite_tea", "value": "oolong", "text": "The user's favourite tea is oolong."},
        ),
    )
    r = mbg.remember("I live in Porto and oolong is my favourite tea.", agent="user:ana")
    assert [w.claim.key for w in r.results] == ["user.city"]
    assert r.rejected[0]["key"] == "user.favorite_tea" and "not in the space's key schema" in r.rejected[0]["reason"]
    assert _active(mbg, "other.") == {}


def test_db_check_and_doctor_report_likely_duplicate_keys_until_they_are_merged(mbg: BeliefGraph, run_cli: Any) -> None:
    mbg.assert_claim("user.city", "Porto", "The user lives in Porto.", agent="user:ana")
    mbg.assert_claim("user.location.city", "Lisbon", "The user lives in Lisbon.", agent="user:ana")
    mbg.assert_claim("user.sister.city", "Lyon", "The user's sister lives in Lyon.", agent="user:ana")
    mbg.assert_claim("user.pets", "a cat", "The user has a cat.", agent="user:ana")
    mbg.assert_claim("user.pet", "a cat", "The user owns a cat.", agent="user:ana")
    found = {(d.keys, d.relation) for d in mbg.keys.duplicates()}
    assert found == {
        (("user.city", "user.location.city"), "same_statement"),
        (("user.pet", "user.pets"), "same_attribute"),
    }
    report = mbg.admin.check()
    assert report.ok and report.duplicates is not None and len(report.duplicates) == 2  # a warning, not broken
    out = run_cli(["--space", mbg.space, "db", "check", "--json"])
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)["likely_duplicate_keys"]
    assert [(d["keys"], d["values"]) for d in listed] == [
        (["user.city", "user.location.city"], ["Porto", "Lisbon"]),
        (["user.pet", "user.pets"], ["a cat", "a cat"]),
    ]
    text = run_cli(["--space", mbg.space, "db", "check"], COLUMNS="200").stdout
    assert "belief-graph memory merge-keys user.location.city user.city" in text
    doctor = {c.name: c for c in mbg.admin.doctor(sample=5).checks}["duplicate_keys"]
    assert doctor.ok is True and "2 likely duplicate key pair(s)" in doctor.detail
    mbg.keys.merge("user.location.city", "user.city", agent="user:ana", reason="one fact")
    mbg.keys.merge("user.pets", "user.pet", agent="user:ana", reason="one fact")
    assert mbg.keys.duplicates() == [] and mbg.admin.check().duplicates == []


def test_remember_records_when_a_fact_became_true_and_as_of_follows_it(mbg: BeliefGraph, model: ScriptedModel) -> None:
    from datetime import UTC, datetime

    model.respond("extract", facts({"key": "user.city", "value": "Lisbon", "text": "The user lives in Lisbon."}))
    mbg.remember("I live in Lisbon.", agent="user:ana", at=datetime(2026, 1, 10, 9, 0, tzinfo=UTC))
    model.respond("extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto."}))
    r = mbg.remember(
        "By the way, I moved to Porto two weeks ago, any tips?",
        agent="user:ana",
        at=datetime(2026, 3, 15, 9, 0, tzinfo=UTC),
    )
    assert r.results[0].claim.valid_from.startswith("2026-03-01")  # type: ignore[union-attr]
    assert mbg.beliefs.as_of("user.city", datetime(2026, 2, 1, tzinfo=UTC), basis="valid").value == "Lisbon"  # type: ignore[union-attr]
    assert mbg.beliefs.as_of("user.city", datetime(2026, 3, 5, tzinfo=UTC), basis="valid").value == "Porto"  # type: ignore[union-attr]
    assert (
        mbg.beliefs.as_of("user.city", datetime(2026, 1, 5, tzinfo=UTC), basis="valid") is None
    )  # before anything was said


def test_a_caller_naming_facts_its_own_way_finds_the_fact_its_key_names(mbg: BeliefGraph) -> None:
    mbg.assert_claim("user.pets", "a cat", "The user has a cat.", agent="user:ana")
    mbg.assert_claim("project.atlas.about.deadline", "2026-08-03", "Atlas is due on 3 August 2026.", agent="user:ana")
    mbg.assert_claim("user.home_city", "Porto", "The user lives in Porto.", agent="user:ana")
    mbg.assert_claim("user.work_city", "Braga", "The user works in Braga.", agent="user:ana")
    assert mbg.keys.identify("user.pets") == "user.pets"
    assert mbg.keys.identify("user.pet") == "user.pets"
    assert mbg.keys.identify("me.pets") == "user.pets"
    assert mbg.keys.identify("project.atlas.deadline") == "project.atlas.about.deadline"
    assert mbg.keys.identify("user.city") is None  # home or work: it does not guess
    assert mbg.keys.identify("user.sister.pets") is None


def test_a_fact_the_turn_states_under_its_own_key_is_no_candidate_for_another(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    """ "We moved to York two weeks ago! My job's still in Leeds": the turn updates user.city to York,
    so user.work_city = Leeds (the value user.city held) is a new fact, not user.city restated."""
    mbg.assert_claim("user.city", "Leeds", "The user lives in Leeds.", agent="user:ruth")
    model.respond(
        "extract",
        facts(
            {"key": "user.city", "value": "York", "text": "The user lives in York."},
            {"key": "user.work_city", "value": "Leeds", "text": "The user works in Leeds."},
        ),
    )
    r = mbg.remember("Update: we moved to York two weeks ago! My job's still in Leeds.", agent="user:ruth")
    assert [(k.proposed, k.key) for k in r.keys] == [("user.city", "user.city"), ("user.work_city", "user.work_city")]
    assert _active(mbg) == {"user.city": "York", "user.work_city": "Leeds"}
