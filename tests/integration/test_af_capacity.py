"""A framework the server's heap cannot solve is refused before anything is written; one just
under the limit derived from the heap (argumentation/capacity.py) is solved, on the real server."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.argumentation.capacity import solve_capacity
from belief_graph.errors import LimitExceeded
from belief_graph.models.argumentation import AttackGraph


def _nodes(bg: BeliefGraph) -> int:
    records = bg.graph.driver.execute_query(
        "MATCH (x) WHERE x.space = $space RETURN count(x) AS n", space=bg.space, database_=bg.graph.database
    ).records
    return int(records[0]["n"])


def _count_writes(bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the write calls ``bg`` makes from now on (the calls still reach the server)."""
    calls: list[str] = []
    for method in ("write", "write_tx"):
        real: Callable[..., Any] = getattr(bg.graph, method)

        def spy(*args: Any, _real: Callable[..., Any] = real, _name: str = method, **kwargs: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(bg.graph, method, spy)
    return calls


def test_a_framework_the_heap_cannot_solve_is_refused_before_anything_is_written(
    bg: BeliefGraph, space: str, run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """A 12-byte ``p af 200000`` file passed the input limits: its import wrote for 34 s, then the
    solve was rolled back (TransactionMemoryExceeded) after 114 s. Now the API and the CLI refuse it
    at once, naming the limit and the setting that raises it, and write nothing."""
    f = tmp_path / "big.af"
    f.write_text("p af 200000\n")
    assert f.stat().st_size == 12
    cap = solve_capacity(bg.settings.server)
    assert cap is not None and cap.arguments < 200_000 <= bg.settings.limits.af_max_arguments
    before = _nodes(bg)
    writes = _count_writes(bg, monkeypatch)
    for attempt in (lambda: bg.argumentation.import_framework(f, "big"), lambda: bg.argumentation.solve(f)):
        with pytest.raises(LimitExceeded) as info:
            attempt()
        assert info.value.limit == cap.arguments and info.value.value == 200_000
        assert info.value.setting == cap.setting == "BELIEF_GRAPH_SERVER__HEAP"
    assert writes == []  # refused before the first write was sent
    assert _nodes(bg) == before
    for args in (["argue", "import", str(f), "--name", "big"], ["argue", "solve", str(f)]):
        r = run_cli(["--space", space, *args])
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert "200,000" in r.stderr and f"{cap.arguments:,}" in r.stderr, r.stderr
        assert "BELIEF_GRAPH_SERVER__HEAP" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert _nodes(bg) == before


def test_a_stored_framework_too_large_to_solve_is_refused_before_grounding(
    bg: BeliefGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A framework stored while the limit allowed it (a larger heap, or before this limit) is not
    grounded on a server that cannot hold the solve; its arguments keep no label."""
    from belief_graph.settings import ServerSettings

    svc = bg.argumentation
    svc.store_framework(AttackGraph.from_lists([f"a{i}" for i in range(300)], [("a0", "a1")]), "stored")
    small = type(svc)(bg.graph, bg.space, bg.settings.limits, ServerSettings(heap="1m"))  # 179 arguments
    assert small.capacity is not None and small.capacity.arguments == 179
    writes = _count_writes(bg, monkeypatch)
    with pytest.raises(LimitExceeded, match="BELIEF_GRAPH_SERVER__HEAP"):
        small.ground_framework("stored")
    assert writes == []
    solved = svc.ground_framework("stored")  # the default heap solves it
    assert len(solved.in_) == 299 and solved.out == ["a1"]


@pytest.mark.timeout(600)
def test_a_framework_just_under_the_limit_is_solved(bg: BeliefGraph) -> None:
    """The worst case the limit is derived from: every argument unattacked, so the solve labels
    them all (IN) in its one transaction. Assumes the test server runs with the heap the settings
    name (the local server does)."""
    cap = solve_capacity(bg.settings.server)
    assert cap is not None
    n = cap.arguments
    af = AttackGraph.from_lists([str(i) for i in range(1, n + 1)], [])
    result = bg.argumentation.solve(af)
    assert len(result.in_) == n and result.out == [] and result.undec == []
    with pytest.raises(LimitExceeded):
        bg.argumentation.solve(AttackGraph.from_lists([str(i) for i in range(1, n + 2)], []))
