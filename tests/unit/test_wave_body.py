"""The wave body is written three times (start_grounded runs two batches of waves,
propagate_waves the rest): the copies must stay identical, or a framework needing more than 32 waves would be solved by
different rules after the hand-off."""

from __future__ import annotations

import textwrap

from belief_graph.db.registry import get_registry


def _wave_bodies(name: str) -> list[str]:
    text = get_registry()[name].text
    bodies, at = [], 0
    while (start := text.find("// wave k begins", at)) >= 0:
        end = text.index("// wave k ends", start)
        lines = text[start:end].splitlines()
        bodies.append(textwrap.dedent("\n".join(line for line in lines[1:])))
        at = end
    return bodies


def test_start_and_propagate_run_the_same_wave_body() -> None:
    first = _wave_bodies("argumentation.start_grounded")
    rest = _wave_bodies("argumentation.propagate_waves")
    assert len(first) == 2 and len(rest) == 1  # start: waves 1..32 and 32 more from the next non-empty one
    assert "c.frontier = k" in rest[0] and "shortestPath" in rest[0]  # the markers enclose the real body
    assert first == rest * 2


def test_solver_statements_pin_their_plans() -> None:
    """The solver statements carry `CYPHER replan=skip` (a replan of these large statements
    only costs time: the frontier index statistics change with every import). An edit once cut
    the line out of propagate_waves without any test noticing."""
    reg = get_registry()
    for name in ("argumentation.start_grounded", "argumentation.propagate_waves"):
        assert reg[name].text.lstrip().startswith("CYPHER replan=skip\n"), name
