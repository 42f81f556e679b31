"""A value a model wrote in another form than the turn's is grounded; an invented one is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph.services.grounding import extract_figures
from belief_graph.services.turns.extraction_grounding import check_fact

AT = datetime(2026, 8, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("key", "value", "turn"),
    [
        ("user.car_budget", "8000 euros", "Hunting for a used hatchback here in Valencia, max €8,000."),
        ("user.rent", "1450 pounds", "I pay £1,450 a month for a room in Hackney."),
        ("user.talk.time", "11:30am", "My slot is Friday June 5 at 11:30."),
        ("user.bedtime", "11pm", "I'm in bed by 11 most nights."),
        ("user.dog.age", "ten weeks", "New puppy!! A beagle called Rollo, 10 weeks old."),
        ("user.gym", "Pure Gym", "Give me a leg day I can do at PureGym on Mondays."),
        ("user.gym", "PureGym", "I train at Pure Gym on Mondays."),
        ("user.team.location", "SF", "I'm in Singapore and my team's in San Francisco."),
        ("user.education.university", "UoM", "I transferred to the University of Manchester last week."),
        ("user.job_title", "EM", "I'm an engineering manager with 4 reports."),
        ("user.phone", "07700900123", "Can you save my number? It's 07700 900123."),
        ("user.phone", "+44 7700 900123", "Can you save my number? It's 07700 900123."),
        ("user.phone", "07700 900123", "CRM contact card: Chloe Martin, mobile +44 7700 900123."),
        ("user.phone", "06 12 34 56 78", "Contact record: Hugo Laurent, mobile +33 6 12 34 56 78."),
        ("user.phone", "+33612345678", "Contact record: Hugo Laurent, mobile 06.12.34.56.78."),
        ("user.passport.expiry", "2027-08", "My passport expires in August 2027."),
        ("user.half_marathon.best_time", "1:46:00", "Ran a 1:46 half on Sunday."),
    ],
)
def test_a_normalised_value_is_grounded(key: str, value: str, turn: str) -> None:
    check = check_fact(key, value, "", turn, at=AT, speaker_is_user=not turn.startswith("CRM"))
    assert check.grounded, check.reason


@pytest.mark.parametrize(
    ("key", "value", "turn"),
    [
        ("user.car_budget", "8000 euros", "Hunting for a used hatchback, max $8,000."),  # another currency
        ("user.talk.time", "11:30pm", "My slot is at 11:30am on Friday."),  # the other half of the day
        ("user.dog.age", "ten weeks", "A beagle called Rollo, 10 months old."),  # another unit
        ("user.team.location", "SF", "My team is in Seattle and I'm in Singapore."),  # spells nothing
        ("user.education.university", "UoM", "I study at the University of Leeds."),
        ("user.phone", "07700 900124", "Can you save my number? It's 07700 900123."),  # another digit
        ("user.phone", "06 12 34 56 79", "Contact record: Hugo Laurent, mobile +33 6 12 34 56 78."),
        ("user.passport.expiry", "2027-08", "My passport expires in August 2026."),
        ("user.diet", "veggie", "I'm vegetarian these days."),  # a synonym is not a form of the word
        ("user.city", "Lisboa", "I live in Lisbon now."),  # nor is a translation
    ],
)
def test_another_value_is_still_refused(key: str, value: str, turn: str) -> None:
    assert not check_fact(key, value, "", turn, at=AT).grounded


def test_a_date_of_someone_elses_clause_is_not_the_speakers() -> None:
    """A value of figures is held by the part that says the figures: "next month" is the cousin's."""
    turn = "Kenta's cousin is getting married next month. We got married on August 18th 2019 in Hakone."
    assert not check_fact("user.wedding_date", "2026-09", "", turn, at=AT).grounded
    assert check_fact("user.wedding_date", "2019-08-18", "", turn, at=AT).grounded


def test_phone_numbers_and_year_months_are_one_figure() -> None:
    assert extract_figures("call 07700 900123.") == [("07700 900123", {"tel:07700900123"})]
    assert extract_figures("2027-08") == [("2027-08", {"2027-08"})]
    # a plain number run that does not look like a phone number stays numbers
    assert [f for _, f in extract_figures("rooms 12 14")] == [{"12"}, {"14"}]
