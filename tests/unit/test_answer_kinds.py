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
