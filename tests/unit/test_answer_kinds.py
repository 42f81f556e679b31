"""The extractive answer takes only a statement of the kind the question asks."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph.services.answers import _of_the_kind_asked

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("question", "statement", "value", "fits"),
    [
        ("Where are Sofia and Luca going for their anniversary?", "Their anniversary is on 23 May.", "May 23", False),
        ("Where does the user live?", "The user lives in Porto.", "Porto", True),
        ("When is the wedding?", "The user is getting married on 19 September 2026.", "2026-09-19", True),
        ("When is the wedding?", "The user lives in Porto.", "Porto", False),
        ("How many kids does Ana have?", "The user has two kids.", 2, True),
        ("How old is Ana?", "The user lives in Porto.", "Porto", False),
        ("How much does the user earn per year?", "The user's annual income is 85,000 euros", 85000, True),
        ("Which gym does Amara go to?", "The user trains at PureGym.", "PureGym", True),
    ],
)
def test_a_statement_answers_the_kind_of_question_asked(question: str, statement: str, value: Any, fits: bool) -> None:
    assert _of_the_kind_asked(question, statement, value) is fits


@pytest.mark.parametrize(
    ("question", "key", "statement", "fits"),
    [
        ("Which company in Munich hired Ines?", "user.german.level", "The user is at B2 level in German.", False),
        ("Which company in Munich hired Ines?", "user.employer", "The user works at a company in Munich.", True),
        ("What breed is Sofia's dog?", "user.dog.breed", "The user's dog is a lab.", True),
        ("What breed is Sofia's dog?", "user.dog.age", "The user's dog is 11 years old.", False),
        ("Which editor does Yuki use?", None, "The user edits code in Zed, a new editor.", True),
        # no thing named: "what's", "what day", "which of" take any statement of the kind asked
        ("What's Chloe's mobile number?", "user.phone", "The user's phone is +44 7700 900123.", True),
        ("What day is the talk?", "user.talk.date", "The talk is on Friday June 5.", True),
    ],
)
def test_a_question_naming_the_thing_it_asks_for_takes_a_belief_that_names_it(
    question: str, key: str | None, statement: str, fits: bool
) -> None:
    from belief_graph.services.answers import _names_the_thing_asked

    assert _names_the_thing_asked(question, key, statement) is fits
