"""What stored rules mean for ``remember``, against the real Neo4j: extraction is shown a rule's
premise first and its lookup table never (the premise filed under that key derives the conclusion
in the same write); a fact the model files under a key a rule derives is refused as that fact's,
and the turn's other facts are written."""

from __future__ import annotations

from scripted_replies import classify, facts, revisit

from belief_graph import BeliefGraph
from belief_graph.llm import ScriptedModel

TIMEZONE = {
    "name": "home_timezone",
    "premises": [{"key": "user.city", "as": "city"}, {"key": "city.{city}.timezone", "as": "tz"}],
    "conclusion": {"key": "user.timezone", "value": "{tz}", "text": "The user's local timezone is {tz}."},
}


def test_extraction_is_shown_the_rules_premise_not_its_lookup_table(mbg: BeliefGraph, model: ScriptedModel) -> None:
    for city, tz in (("Denver", "America/Denver"), ("Berlin", "Europe/Berlin")):
        mbg.assert_claim(f"city.{city}.timezone", tz, f"{city} is in the {tz} timezone.", agent="system:world")
    mbg.rules.add(TIMEZONE, agent="user:admin")
    model.respond("classify", classify("ADD"))
    model.respond("extract", facts({"key": "user.city", "value": "Denver", "text": "The user lives in Denver."}))
    model.respond("revisit", revisit())
    mbg.remember(
        "I'm in Denver and the rest of the team is in Berlin, what's a sane window for calls?", agent="user:camila"
    )
    shown = model.calls_for("extract")[0].inputs["known_keys"]
    assert shown[0] == "user.city"
    assert not [k for k in shown if k.startswith("city.")], shown
    derived = mbg.belief("user.timezone")
    assert derived is not None and derived.value == "America/Denver"


OFFICE = {
    "name": "office_city",
    "premises": [{"key": "user.employer", "as": "org"}, {"key": "org.{org}.office_city", "as": "oc"}],
    "conclusion": {"key": "user.office_city", "value": "{oc}", "text": "The user's office is in {oc}."},
}


def test_a_fact_under_a_derived_key_is_refused_and_the_turns_other_facts_are_written(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    for org, city in (("Octavo", "Manchester"), ("Larkspur", "Leeds")):
        mbg.assert_claim(f"org.{org}.office_city", city, f"{org}'s office is in {city}.", agent="system:world")
    mbg.rules.add(OFFICE, agent="user:admin")
    mbg.assert_claim("user.employer", "Octavo", "The user works at Octavo.", agent="user:dev")
    assert mbg.belief("user.office_city").value == "Manchester"  # type: ignore[union-attr]
    model.respond("classify", classify("UPDATE"))
    model.respond(
        "extract",
        facts(
            {"key": "user.employer", "value": "Larkspur", "text": "The user works at Larkspur."},
            {"key": "user.office_city", "value": "Leeds", "text": "The user's office is in Leeds."},
        ),
    )
    model.respond("revisit", revisit())
    r = mbg.remember("Started at Larkspur on Monday, so it's the Leeds office for me now.", agent="user:dev")
    assert [x.claim.key for x in r.results] == ["user.employer"], r
    assert [(x["key"], x["value"]) for x in r.rejected] == [("user.office_city", "Leeds")]
    assert "derived by rule 'office_city'" in r.rejected[0]["reason"]
    assert mbg.belief("user.employer").value == "Larkspur"  # type: ignore[union-attr]
    assert mbg.belief("user.office_city").value == "Leeds"  # type: ignore[union-attr]  # by the rule
