"""A value the turn implies, taken on its cited evidence (services/turns/inference.py), and through
ground_fact, the one grounding path of extracted facts."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph.llm.jobs import ExtractedFact
from belief_graph.services.turns.fact_grounding import ground_fact
from belief_graph.services.turns.inference import check_inference, value_said

pytestmark = pytest.mark.unit


def _fact(key: str, value: Any, text: str, evidence: str | None) -> ExtractedFact:
    return ExtractedFact(
        source="t1", key=key, value=value, text=text, kind="semantic", confidence=0.9, evidence=evidence
    )


def _held(key: str | None) -> Any:
    return "in a relationship"


@pytest.mark.parametrize(
    ("turn", "key", "value", "text", "evidence"),
    [
        (
            "Sam and I broke up in April. It's fine, honestly. Anyway - any good solo hikes near Dublin?",
            "user.relationship_status",
            "single",
            "The user is single after breaking up with Sam.",
            "Sam and I broke up in April",
        ),
        (
            "Since I sold the Golf last month and started cycling to work, what's a good waterproof jacket?",
            "user.owns_car",
            False,
            "The user no longer owns a car; he sold the Golf.",
            "I sold the Golf last month",
        ),
        (
            "My brother Jake is crashing on our sofa this weekend. What's an easy dinner for four?",
            "user.has_siblings",
            True,
            "The user has a brother, Jake.",
            "My brother Jake is crashing on our sofa",
        ),
        (
            "My girlfriend Jordan wants to do the Wicklow Way with me. Is 5 days realistic?",
            "user.relationship_status",
            "in a relationship",
            "The user is in a relationship with Jordan.",
            "My girlfriend Jordan wants to do the Wicklow Way with me",
        ),
    ],
)
def test_a_value_the_turn_implies_is_kept_as_an_inference_on_its_evidence(
    turn: str, key: str, value: Any, text: str, evidence: str
) -> None:
    g = ground_fact(_fact(key, value, text, evidence), turn, user=True, at=None, held=_held)
    assert g.check.grounded, g.check.reason
    assert g.inferred_from == evidence and g.fact.value == value


@pytest.mark.parametrize(
    ("turn", "key", "value", "text", "evidence", "why"),
    [
        # the same implication without the citation: the turn's reason stands
        ("Sam and I broke up in April.", "user.relationship_status", "single", "The user is single (Sam).", None,
         "not stated"),
        # evidence the turn does not contain
        ("Sam and I broke up in April.", "user.relationship_status", "single", "The user is single (Sam).",
         "Sam and I split up", "not the turn's words"),
        # evidence inside a hypothetical, a question, a request
        ("If Sam and I broke up I'd move back to Cork.", "user.relationship_status", "single",
         "The user is single after breaking up with Sam.", "Sam and I broke up", "not asserted"),
        ("Should I sell the Golf before winter?", "user.owns_car", False, "The user sold the Golf.",
         "sell the Golf", "not asserted"),
        # the turn says the value, only in a question: how it says it decides, no inference overrules it
        ("Is Berlin nicer than Munich to live in? I'm in Hamburg now.", "user.city", "Berlin",
         "The user lives in Berlin, not Hamburg.", "I'm in Hamburg now", "says the value"),
        # a statement that says nothing of its evidence
        ("Sam and I broke up in April.", "user.relationship_status", "single", "The user is single.",
         "Sam and I broke up in April", "does not say what its evidence"),
        # a figure is stated or not, never concluded; a description is no category
        ("Ava arrived on Tuesday! We're both fine.", "user.children", 2,
         "The user has two children since Ava arrived.", "Ava arrived on Tuesday", "is a figure"),
        ("Got the raise! Celebrating tonight.", "user.salary.raise", "10 percent", "The user got a 10 percent raise.",
         "Got the raise", "is a figure"),
        ("Biscuit's slimmed down since we started the long walks.", "user.dog.medication_dose",
         "half a tablet once daily", "Biscuit's dose is now half a tablet once daily.",
         "Biscuit's slimmed down since we started the long walks", "description"),
        # somebody else's words give the user nothing, unless the statement says whom it concludes from
        ("Kenta's cousin is getting married next month and asked about our venue.", "user.relationship_status",
         "engaged", "The user is engaged and getting married next month.",
         "Kenta's cousin is getting married next month", "said of another person"),
        ("My sister's wedding is in June and I'm so excited!", "user.relationship_status", "engaged",
         "The user is engaged; the wedding is in June.", "My sister's wedding is in June", "said of another person"),
        # one word is no evidence
        ("Sam and I broke up in April.", "user.relationship_status", "single", "The user is single (Sam).",
         "Sam", "too short"),
    ],
)  # fmt: skip
def test_an_inference_without_good_evidence_is_refused_and_says_why(
    turn: str, key: str, value: Any, text: str, evidence: str | None, why: str
) -> None:
    g = ground_fact(_fact(key, value, text, evidence), turn, user=True, at=None, held=_held)
    assert not g.check.grounded and g.inferred_from is None
    assert why in g.check.reason


def test_a_value_the_turn_states_is_grounded_as_stated_not_inferred() -> None:
    turn = "I moved to Porto last week, any gym tips?"
    g = ground_fact(_fact("user.city", "Porto", "The user lives in Porto.", "I moved to Porto"), turn, user=True,
                    at=None, held=_held)  # fmt: skip
    assert g.check.grounded and g.inferred_from is None


def test_value_said_looks_at_value_words_key_words_and_figures() -> None:
    assert value_said("user.city", "Porto", "Is Porto nice?")
    assert not value_said("user.relationship_status", "single", "Sam and I broke up")
    assert value_said("user.owns_car", False, "I might sell my car")  # the key's words
    assert not value_said("user.owns_car", False, "I sold the Golf")
    assert value_said("user.children", 2, "Two kids, zero sleep")
    assert not value_said("user.children", 2, "Ava arrived on Tuesday")


def test_check_inference_quotes_its_evidence() -> None:
    f = _fact("user.owns_car", False, "The user sold the Golf.", "I sold the Golf")
    got = check_inference(f, "I sold the Golf in March.", user=True)
    assert got.grounded and "'I sold the Golf'" in got.reason
