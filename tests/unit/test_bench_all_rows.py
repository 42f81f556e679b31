"""How ``bench all`` judges its goals: the repair goal at the sizes it names (10^3 claims and more),
with the workspace alone printed beside them, not judged; the grounded per-argument goal on the
slowest family at the largest size."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph_lab.benchmarks.all_studies import GOAL_MIN_CLAIMS, grounded_rows, revision_rows


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


def _case(case: str, arguments: int, db_s: float, ext_s: float) -> dict[str, Any]:
    return {"case": case, "arguments": arguments, "db_s": db_s, "ext_s": ext_s, "ratio": db_s / ext_s}


def _grounded(*cases: dict[str, Any]) -> dict[str, Any]:
    faster = sum(1 for c in cases if c["ratio"] < 1)
    return {
        "corpus": [],
        "cases": list(cases),
        "summary": {"db_faster_cases": faster, "cases": len(cases), "all_ok": True},
    }


def test_the_per_argument_goal_is_judged_on_the_slowest_family_at_the_largest_size() -> None:
    # the chain comes first and meets the goal; the double chain of the same size does not
    out = _grounded(
        _case("chain(12)", 12, 0.0015, 0.0025),
        _case("chain(100000)", 100_000, 1.87, 2.76),
        _case("dchain(100000)", 100_000, 2.85, 3.62),
    )
    row = grounded_rows(out)[1]
    assert row["met"] is False
    assert "(dchain(100000))" in row["figure"]
    assert row["measured"].startswith("28.5 us vs 36.2 us")
    assert "chain(100000) 18.7 us vs 27.6 us" in row["measured"]
    assert row["ratio"] == round(2.85 / 3.62, 3)


def test_the_per_argument_goal_is_met_when_every_family_meets_it() -> None:
    out = _grounded(_case("chain(100000)", 100_000, 1.87, 2.76), _case("dchain(100000)", 100_000, 1.95, 3.62))
    assert grounded_rows(out)[1]["met"] is True


def test_below_the_stated_size_the_per_argument_goal_is_not_judged() -> None:
    out = _grounded(_case("chain(10000)", 10_000, 0.5, 0.6), _case("dchain(10000)", 10_000, 0.9, 0.8))
    rows = grounded_rows(out)
    assert rows[1]["met"] is None and "(dchain(10000))" in rows[1]["figure"]
    assert rows[0]["met"] is False and "worst dchain(10000)" in rows[0]["measured"]


def test_a_run_stops_at_the_first_study_that_loses_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    from belief_graph.errors import DatabaseUnavailable
    from belief_graph_lab.benchmarks import all_studies

    ran: list[str] = []

    def ok(name: str):  # type: ignore[no-untyped-def]
        def study(bg: Any, p: dict[str, Any], say: Any) -> tuple[list[dict[str, Any]], Any]:
            ran.append(name)
            return [{"study": name, "figure": "f", "goal": "-", "measured": "m", "ratio": None, "met": None}], {}

        return study

    def lost(bg: Any, p: dict[str, Any], say: Any) -> tuple[list[dict[str, Any]], Any]:
        ran.append("lost")
        raise DatabaseUnavailable("bolt://127.0.0.1:7687", "defunct connection")

    def broken(bg: Any, p: dict[str, Any], say: Any) -> tuple[list[dict[str, Any]], Any]:
        ran.append("broken")
        raise ValueError("a bug in one study")

    studies = {"a": ok("a"), "broken": broken, "b": ok("b"), "lost": lost, "c": ok("c"), "d": ok("d")}
    monkeypatch.setattr(all_studies, "STUDIES", studies)
    monkeypatch.setattr(all_studies, "PRESETS", {"default": {n: {} for n in studies}})
    out = all_studies.run_all(None, "default")  # type: ignore[arg-type]
    assert ran == ["a", "broken", "b", "lost"]  # another study's failure does not stop the run
    by_study = {r["study"]: r for r in out["rows"]}
    assert by_study["lost"]["figure"] == "the study failed"
    assert (
        by_study["c"]["measured"] == by_study["d"]["measured"] == "not run: the database became unreachable during lost"
    )
    assert by_study["c"]["met"] is False and out["studies"]["d"]["result"] is None
