"""Grounding that reads a turn against what memory holds, and the turns a person writes that are
not split by punctuation: edits of a held value, a held value that left, a request to change one's
own record, an emoji between sentences, a simile; and a boolean under a key named in other words
than the turn's, which stays refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph.services.turns.clauses import clauses
from belief_graph.services.turns.extraction_grounding import check_fact

pytestmark = pytest.mark.unit

NOV_4 = datetime(2026, 11, 4, 21, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("key", "value", "turn", "held", "at"),
    [
        (
            "user.piano_lesson_time",
            "Saturdays 11:00",
            "Can you keep Saturday late morning free for me? Lessons are at 11 now, not 10.",
            "Saturdays 10:00",
            None,
        ),
        (
            "user.daughter.conference",
            "Thursday 12 November, 17:00",
            "The calendar's wrong now, the school moved Ava's conference to Thursday the 12th, same time.",
            "Wednesday 11 November, 17:00",
            NOV_4,
        ),
        (
            "user.talk.date",
            "Friday June 5, 11:30",
            "Correction: my slot is Friday June 5.",
            "Thursday June 4, 11:30",
            None,
        ),
    ],
)
def test_an_edit_of_the_held_value_states_only_what_changed(
    key: str, value: str, turn: str, held: str, at: datetime | None
) -> None:
    assert not check_fact(key, value, "", turn, at=at).grounded  # without memory, part of it is unsaid
    assert check_fact(key, value, "", turn, at=at, held=held).grounded


@pytest.mark.parametrize(
    ("value", "turn", "held"),
    [
        # what changed is only asked, not stated
        ("Saturdays 11:00", "Can you keep Saturday free? Are lessons at 11 now?", "Saturdays 10:00"),
        # what changed is said nowhere
        ("Saturdays 12:00", "Lessons are at 11 now, not 10.", "Saturdays 10:00"),
        # nothing changed from the held value and the turn says none of it
        ("Saturdays 10:00", "I keep double-booking brunch.", "Saturdays 10:00"),
        # the held value is no string or number
        ("Saturdays 11:00", "Lessons are at 11 now.", True),
    ],
)
def test_an_edit_needs_the_change_stated_where_the_turn_asserts(value: str, turn: str, held: object) -> None:
    assert not check_fact("user.piano_lesson_time", value, "", turn, held=held).grounded


@pytest.mark.parametrize(
    ("turn", "grounded"),
    [
        ("Jess moved out on Sunday so it's just me now. Should I find a new flatmate?", True),
        ("Jess has left, finally some quiet.", True),
        ("Jess moved to the room upstairs.", False),
        ("Did Jess move out?", False),
        ("If Jess moved out I could not pay the rent.", False),
    ],
)
def test_none_is_stated_where_the_held_value_leaves(turn: str, grounded: bool) -> None:
    assert check_fact("user.roommate", "none", "", turn, held="Jess").grounded is grounded
    assert not check_fact("user.roommate", "none", "", turn).grounded


@pytest.mark.parametrize(
    ("key", "value", "text", "turn", "user"),
    [
        (
            "user.cat.neutered",
            True,
            "The user's cat is spayed.",
            "Vet record sync: Miso (cat, 3 yrs), spayed 2024-05-02, vaccines current.",
            False,
        ),
        ("project.calendar.sync", True, "The appointment is confirmed.", "Your appointment is confirmed.", False),
        ("menu.pescatarian.main", True, "The user has been eating fish again.", "I've been eating fish again.", True),
    ],
)
def test_a_boolean_needs_its_keys_words_whatever_its_statement_says(
    key: str, value: bool, text: str, turn: str, user: bool
) -> None:
    """The key is what would be stored: a statement the turn says does not tell what a key named in
    other words means (a small model writes garbage keys with true statements)."""
    assert not check_fact(key, value, text, turn, speaker_is_user=user).grounded


@pytest.mark.parametrize(
    ("key", "value", "turn", "grounded"),
    [
        ("user.emergency_contact", "Layla", "Can you switch my emergency contact to my wife Layla?", True),
        ("user.email", "chloe@fastmail.example", "Could you change my account to chloe@fastmail.example please?", True),
        ("user.flight_day", "Tuesday", "Please change my flight to Tuesday.", True),
        # deliberation and conditions are not requests
        ("user.flight_day", "Tuesday", "Should I change my flight to Tuesday?", False),
        ("user.flight_day", "Tuesday", "What if I change my flight to Tuesday?", False),
        # a request about something else than the speaker's record
        ("user.flight_day", "Tuesday", "Can you change the meeting to Tuesday?", False),
    ],
)
def test_a_request_to_change_ones_own_record_states_the_new_value(
    key: str, value: str, turn: str, grounded: bool
) -> None:
    assert check_fact(key, value, "", turn).grounded is grounded


def test_an_emoji_before_a_capital_ends_a_sentence() -> None:
    turn = "Landlord bumped the rent to €1,290 last month 😤 Can you help me write a polite email?"
    assert [c.mood for c in clauses(turn)] == ["assert", "question"]
    assert check_fact("user.rent", 1290, "", turn).grounded


def test_a_name_and_its_verb_open_a_clause_of_their_own() -> None:
    """A record's label that opens like a request does not make the next clause a request."""
    turn = "Schedule re-scrape (PyCon Ghana 2026): Kwame Asante moved to Sun 11 Oct 14:00, Hall A."
    moods = {c.text: c.mood for c in clauses(turn)}
    assert moods["Kwame Asante moved to Sun 11 Oct 14:00"] == "assert"
    assert check_fact("user.talk_slot", "Sunday 11 October, 14:00", "", turn, speaker_is_user=False, at=NOV_4).grounded


def test_a_simile_is_not_a_statement() -> None:
    turn = "Dad's only 65 but acts like he's 90 lol. Can you recommend a gentle tablet game for him?"
    assert check_fact("user.father.age", 65, "", turn).grounded
    assert "hypothetical" in check_fact("user.father.age", 90, "", turn).reason


def test_bc_opens_a_clause_of_its_own() -> None:
    turn = "we pushed standup to 9:30 last week bc half the squad does the school run. can you move my focus block?"
    assert [c.text for c in clauses(turn)][:2] == [
        "we pushed standup to 9:30 last week",
        "bc half the squad does the school run.",
    ]
