"""The keys a turn's extraction is shown, against the real Neo4j: a stored rule's premise first,
its lookup table never; the premise filed under that key derives the conclusion in the same write."""

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
