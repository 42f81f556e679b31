"""How ``bench all`` judges the repair goal: at the sizes the goal names (10^3 claims and more),
with the workspace alone printed beside them, not judged."""

from __future__ import annotations

from typing import Any

from belief_graph.benchmarks.all_studies import GOAL_MIN_CLAIMS, revision_rows


def _out(*rows: tuple[int, float, float]) -> dict[str, Any]:
    return {
        "region": 10,
        "rows": [{"claims": c, "retract_ms_median": r, "restore_ms_median": s} for c, r, s in rows],
        "ratio_largest_smallest": {"retract_ms_median": 0.9, "db_hits_retract": 1.0},
    }


def test_the_workspace_alone_is_printed_but_not_judged() -> None:
    first = revision_rows(_out((68, 5.0, 5.18), (1000, 4.21, 4.68), (10000, 4.15, 4.41)), 1.5)[0]
    assert first["met"] is True
    assert "restore 4.68 ms at 1000 claims" in first["measured"]
    assert "alone (68 claims): retract 5.0 ms, restore 5.18 ms" in first["measured"]
    assert first["ratio"] == round(4.68 / 1.5, 3)


def test_a_slow_size_in_the_goal_range_fails_the_goal() -> None:
    first = revision_rows(_out((68, 3.0, 3.0), (1000, 4.0, 4.0), (10000, 4.2, 5.3)), 1.5)[0]
    assert first["met"] is False
    assert "restore 5.3 ms at 10000 claims" in first["measured"]


def test_without_a_size_in_the_goal_range_every_size_is_judged() -> None:
    assert GOAL_MIN_CLAIMS == 1000
    first = revision_rows(_out((200, 5.5, 4.0)), 1.5)[0]
    assert first["met"] is False and "alone" not in first["measured"]
