"""The README's first command runs ``belief-graph demo``: the whole tour, on the shipped replay of
the demo's LLM calls, against the real Neo4j. A change to what ``remember`` sends the model (a turn
that now reaches extraction, other candidate keys) breaks the replay; this is where it shows."""

from __future__ import annotations

import uuid
from typing import Any

from typer.testing import CliRunner

from belief_graph.cli import app

runner = CliRunner()
NO_KEY = {"BELIEF_GRAPH_LLM__API_KEY": "", "COLUMNS": "200"}


def test_the_demo_tour_runs_on_the_shipped_replay(graph: Any) -> None:
    space = f"demo-tour-{uuid.uuid4().hex[:8]}"
    r = runner.invoke(app, ["--space", space, "demo", "--no-server"], env=NO_KEY)
    assert r.exit_code == 0, (r.output, r.exception)
    out = r.output
    assert "REPLAY of hand-written answers" in out and "NOT a language model" in out
    assert "ADD        user.risk_tolerance = 'cautious'" in out
    assert "UPDATE     user.risk_tolerance = 'aggressive'" in out
    assert "(nothing extracted)" in out  # the question about the weather reached the model, which found no fact
    assert "LLM calls: classify 1, extract 3" in out
