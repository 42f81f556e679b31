"""The wave body is written twice (start_grounded runs the first waves, propagate_waves the rest):
the two copies must stay identical, or a framework needing more than 32 waves would be solved by
different rules after the hand-off."""

from __future__ import annotations

import textwrap

from belief_graph.registry import get_registry


def _wave_body(name: str) -> str:
    text = get_registry()[name].text
    start, end = text.index("// wave k begins"), text.index("// wave k ends")
    lines = text[start:end].splitlines()
    return textwrap.dedent("\n".join(line for line in lines[1:]))


def test_start_and_propagate_run_the_same_wave_body() -> None:
    first, rest = _wave_body("argumentation.start_grounded"), _wave_body("argumentation.propagate_waves")
    assert "c.frontier = k" in first and "shortestPath" in first  # the markers enclose the real body
    assert first == rest
