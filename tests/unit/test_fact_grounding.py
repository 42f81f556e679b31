"""Grounding one extracted fact in remember: the turn, then what memory holds, then the statement's
own form of the value (services/turns/fact_grounding.py)."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph.llm.jobs import ExtractedFact
from belief_graph.services.turns.fact_grounding import ground_fact, statement_names

pytestmark = pytest.mark.unit


def _fact(key: str, value: Any, text: str) -> ExtractedFact:
    return ExtractedFact(source="t1", key=key, value=value, text=text, kind="semantic", confidence=0.9)


def _nothing(key: str | None) -> Any:
    return None


@pytest.mark.parametrize(
    ("value", "text", "turn", "kept"),
    [
        ("Wien", "The user lives in Vienna.", "My internet here in Vienna drops every evening.", "Vienna"),
        ("CDMX", "The user lives in Mexico City.", "Just moved to Mexico City for work!", "Mexico City"),
        ("Golang", "The user writes Go all day.", "I write Go all day at work.", "Go"),
    ],
)
def test_a_value_the_turn_says_only_in_the_statements_form_is_kept_in_that_form(
    value: str, text: str, turn: str, kept: str
) -> None:
    g = ground_fact(_fact("user.city", value, text), turn, user=True, at=None, held=_nothing)
    assert g.check.grounded and g.fact.value == kept and repr(value) in g.note


@pytest.mark.parametrize(
    ("value", "text", "turn"),
    [
        # the statement's name is said only in a hypothetical
        ("Wien", "The user lives in Vienna.", "If I moved to Vienna I'd learn German."),
        # two names of the statement are stated: which one the value is, nobody knows
        ("Munich", "The user moved from Lisbon to Porto.", "I moved from Lisbon to Porto."),
        # a value that is no name is not replaced by one
        ("veggie", "The user is vegetarian since Lisbon.", "Vegetarian since Lisbon, I am."),
        # the statement names nothing the turn says
        ("Wien", "The user lives in Vienna.", "My internet drops every evening."),
        # the statement names two things: which one the value is, nobody knows
        ("Leipzig", "The user moved to Leipzig in January.", "I moved there at the start of January."),
        ("Pro", "Lena Fischer. Plan: Pro annual.", "Lena Fischer. Plan: Pro (annual)."),
        # a capital that opens a sentence is no name ("Still living out of boxes")
        (
            "America/Toronto",
            "We moved to Toronto last week! Still living out of boxes.",
            "We moved to Toronto. Still living out of boxes.",
        ),
        # a name that is part of the value: the value says more than the turn
        ("Pixel 9", "The user bought a Pixel 9.", "Went with the battery swap, the Pixel was too pricey."),
    ],
)
def test_otherwise_the_value_stays_refused(value: str, text: str, turn: str) -> None:
    g = ground_fact(_fact("user.city", value, text), turn, user=True, at=None, held=_nothing)
    assert not g.check.grounded and g.fact.value == value and not g.note


def test_the_held_value_is_asked_for_only_when_the_turn_alone_refuses() -> None:
    asked: list[str | None] = []

    def held(key: str | None) -> Any:
        asked.append(key)
        return "Saturdays 10:00"

    f = _fact("user.piano_lesson_time", "Saturdays 11:00", "Lessons are on Saturdays at 11:00.")
    assert ground_fact(f, "Lessons are at 11 now, not 10.", user=True, at=None, held=held).check.grounded
    assert asked == ["user.piano_lesson_time"]
    ok = _fact("user.piano_lesson_time", "Saturdays 11:00", "Lessons are on Saturdays at 11:00.")
    assert ground_fact(ok, "Lessons are on Saturdays at 11:00 now.", user=True, at=None, held=held).check.grounded
    assert asked == ["user.piano_lesson_time"]


def test_statement_names_leave_out_the_opening_word_and_possessives() -> None:
    assert statement_names("Chloe's cat Miso is not spayed.") == ["Miso"]
    assert statement_names("The account of Lena Fischer is on the Pro plan since May. Still so.") == [
        "Lena Fischer",
        "Pro",
    ]
    assert statement_names("The user studied at the University of Leeds.") == ["University of Leeds"]
