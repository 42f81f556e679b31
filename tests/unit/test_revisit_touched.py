"""Which held beliefs a turn touches (services/revisit.py): by a word of their value or attribute,
not under a key extraction already covered, closest first, capped; and what a revisit answer becomes."""

from __future__ import annotations

from belief_graph.llm.jobs import Revisits
from belief_graph.models import Claim
from belief_graph.services.revisit import as_facts, touched

MED = Claim(id="c1", key="user.medication", value="lisinopril 10 mg", text="The user takes lisinopril", agent="user:o")
CAR = Claim(id="c2", key="user.car", value="2014 Honda Civic", text="The user drives a 2014 Civic", agent="user:o")
CITY = Claim(id="c3", key="user.city", value="Leeds", text="The user lives in Leeds", agent="user:o")
VEGAN = Claim(id="c4", key="user.vegan", value=True, text="The user is vegan", agent="user:o")
NOTE = Claim(id="c5", key=None, value=None, text="The user mentioned lisinopril", agent="user:o")
NEAR = [(MED, 0.8), (CAR, 0.7), (CITY, 0.9), (VEGAN, 0.6), (NOTE, 0.95)]

AMLODIPINE = "Does the amlodipine my doctor switched me to from lisinopril clash with grapefruit?"


def test_a_belief_whose_value_the_turn_names_is_touched() -> None:
    assert touched("Does the amlodipine clash with lisinopril?", NEAR, covered=(), limit=3) == [MED]
    assert touched("How often should I charge a Tesla like my Civic?", NEAR, (), 3) == [CAR]


def test_a_belief_whose_attribute_the_turn_names_is_touched() -> None:
    assert touched("Which city has the best climbing gyms?", NEAR, (), 3) == [CITY]
    assert touched("Being vegan, what should I cook?", NEAR, (), 3) == [VEGAN]  # a boolean by its key
    spayed = Claim(id="c6", key="user.cat.neutered", value=True, text="The user's cat is spayed", agent="a:vet")
    assert touched("Intake: cat is not spayed.", [*NEAR, (spayed, 0.1)], (), 3) == [spayed]  # or its statement


def test_nothing_is_touched_when_the_turn_names_no_belief_or_extraction_covered_it() -> None:
    assert touched("What's a good gym near the office?", NEAR, (), 3) == []
    assert touched("Does the amlodipine clash with lisinopril?", NEAR, covered={"user.medication"}, limit=3) == []


def test_a_turn_that_says_a_change_touches_the_closest_belief_it_does_not_name_too() -> None:
    """ "I've moved to Zed": the change is said by the new value alone."""
    assert touched("ok hear me out: I've moved to Zed.", NEAR, (), 3) == [CITY]
    assert touched(AMLODIPINE, NEAR, covered=(), limit=3) == [CITY, MED]
    assert touched(AMLODIPINE, NEAR, covered=(), limit=1) == [MED]  # what the turn names first
    assert touched("I'm not vegan any more, what should I cook?", NEAR, (), 3) == [CITY, VEGAN]
    # an extracted fact that landed on a held belief is the change the turn says
    assert touched(AMLODIPINE, NEAR, covered={"user.car"}, limit=3, explained=True) == [MED]


def test_the_closest_come_first_and_the_limit_holds() -> None:
    text = "Leeds, lisinopril and my Civic: still vegan?"
    assert touched(text, NEAR, (), 2) == [CITY, MED]
    assert touched(text, NEAR, (), 10) == [CITY, MED, CAR, VEGAN]  # a keyless claim is never revisited


def test_what_the_model_says_changed_becomes_a_fact_under_the_belief_s_key() -> None:
    """Only a change to another value: a model that calls a belief changed and gives the value memory
    holds (the local 1.5B does, repaired or not) changes nothing."""
    out = Revisits.model_validate(
        {
            "items": [
                {
                    "key": "user.medication",
                    "changed": True,
                    "value": "amlodipine 5 mg",
                    "text": "The user takes amlodipine 5 mg",
                },
                {"key": "user.car", "changed": True, "value": "2014 Honda Civic", "text": "The user drives a Civic"},
                {"key": "user.pet", "changed": True, "value": "x", "text": "not a belief shown"},
            ]
        }
    )
    (fact,) = as_facts(out, [MED, CAR], source="turn-0")
    assert (fact.key, fact.value, fact.source, fact.text) == (
        "user.medication",
        "amlodipine 5 mg",
        "turn-0",
        "The user takes amlodipine 5 mg",
    )


def test_a_held_date_is_touched_by_its_month_or_weekday() -> None:
    talk = Claim(id="c7", key="user.talk.date", value="2026-06-04", text="The talk is on 4 June", agent="user:l")
    assert touched("My slot is Friday June 5, not Thursday.", [(talk, 0.5)], covered={"user.talk.time"}, limit=3) == [
        talk
    ]
