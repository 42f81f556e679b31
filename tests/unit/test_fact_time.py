"""When a fact of a turn became true: the time expression nearest to where the turn states it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph.services.temporal import fact_time

SAID = datetime(2026, 5, 20, 18, 40, tzinfo=UTC)


@pytest.mark.parametrize(
    ("turn", "value", "expected"),
    [
        ("I moved to Porto last week, what's a good gym?", "Porto", datetime(2026, 5, 13, tzinfo=UTC)),
        ("Mila turned six in August and started school on Monday", 6, datetime(2025, 8, 1, tzinfo=UTC)),
        (
            "Mila turned six in August and started at Grundschule am Park on Monday",
            "Grundschule am Park",
            datetime(2026, 5, 18, tzinfo=UTC),
        ),
        ("I'm moving to Berlin next month.", "Berlin", SAID),  # a plan is not a start: the turn's time
        ("I live in Porto.", "Porto", SAID),
        ("Since March I've been vegan. My sister lives in Lyon.", "Lyon", SAID),  # another sentence's time
        ("Two weeks ago I got a cat.", "cat", datetime(2026, 5, 6, tzinfo=UTC)),
    ],
)
def test_the_time_nearest_to_the_value_in_its_sentence(turn: str, value: object, expected: datetime) -> None:
    assert fact_time(turn, value, SAID) == expected


def test_without_a_turn_time_a_relative_expression_counts_from_now_and_nothing_else_is_set() -> None:
    got = fact_time("I started at Acme two weeks ago.", "Acme", None)
    assert got is not None and abs((datetime.now(UTC) - got).days - 14) <= 1
    assert fact_time("I work at Acme.", "Acme", None) is None
    assert fact_time("I work at Acme.", "Acme", datetime(2999, 1, 1, tzinfo=UTC)) is None  # never ahead of now
