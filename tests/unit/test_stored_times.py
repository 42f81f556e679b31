"""Stored times read back: Neo4j's nanoseconds, ``Z``, no offset (UTC), and the floor of a new write."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from belief_graph.models import parse_time, time_after

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("2026-05-13T09:10:00.123456789Z", datetime(2026, 5, 13, 9, 10, 0, 123456, tzinfo=UTC)),
        ("2026-05-13T11:10:00+02:00", datetime(2026, 5, 13, 9, 10, tzinfo=UTC)),
        ("2026-05-13T09:10:00", datetime(2026, 5, 13, 9, 10, tzinfo=UTC)),
    ],
)
def test_a_stored_time_is_read_as_an_aware_datetime(at: str, expected: datetime) -> None:
    t = parse_time(at)
    assert t == expected and t.tzinfo is not None


def test_a_time_that_is_none_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_time("last Tuesday")


def test_a_write_is_never_earlier_than_the_version_it_follows() -> None:
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert parse_time(time_after(future)) == parse_time(future) + timedelta(microseconds=1)
    assert parse_time(time_after(None)) <= datetime.now(UTC)
