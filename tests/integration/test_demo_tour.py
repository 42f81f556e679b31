"""The README's first command runs ``belief-graph demo``: the whole tour, on the shipped replay of
the demo's LLM calls, against the real Neo4j. A change to what ``remember`` sends the model (a turn
that now reaches extraction, other candidate keys) breaks the replay; this is where it shows."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.settings import load_settings
from belief_graph_lab.cli.demo_explore import explore_commands

BIN = str(Path(sys.executable).with_name("belief-graph"))

runner = CliRunner()
NO_KEY = {"BELIEF_GRAPH_LLM__API_KEY": "", "COLUMNS": "200"}


def test_the_demo_tour_runs_on_the_shipped_replay(graph: Any, tmp_path: Path) -> None:
    space = f"demo-tour-{uuid.uuid4().hex[:8]}"
    r = runner.invoke(app, ["--space", space, "demo", "--no-server"], env=NO_KEY)
    assert r.exit_code == 0, (r.output, r.exception)
    out = r.output
    assert "REPLAY of hand-written answers" in out and "NOT a language model" in out
    assert "ADD        user.risk_tolerance = 'cautious'" in out
    assert "UPDATE     user.risk_tolerance = 'aggressive'" in out
    assert "(nothing extracted)" in out  # the question about the weather reached the model, which found no fact
    assert "LLM calls: classify 1, extract 3" in out
    # the end of the tour: the space it wrote and the commands that show it, each one as printed
    assert "the demo wrote to the space 'demo'" in out
    assert "run `:param space => 'demo'` (the guide's first block)" in out  # --no-server: no Browser of its own
    for cmd in explore_commands():
        assert cmd in out, cmd
    _run_explore_commands(graph, tmp_path)


README = Path(__file__).resolve().parents[2] / "README.md"


def _run_explore_commands(graph: Any, tmp: Path) -> None:
    """Each command the demo prints, run as printed (the real entry point, in a fresh directory),
    finds the demo's graph; the README shows the same commands."""
    readme = README.read_text()
    settings = load_settings()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=graph.settings.uri,
        BELIEF_GRAPH_NEO4J__USER=graph.settings.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=graph.settings.password.get_secret_value(),
        BELIEF_GRAPH_SERVER__HOME=str(settings.server.home),
    )
    for cmd in explore_commands():
        assert cmd in readme, cmd
        args = shlex.split(cmd)
        done = subprocess.run(
            [BIN, *args[1:]], capture_output=True, text=True, env=env, cwd=tmp, timeout=300, stdin=subprocess.DEVNULL
        )
        assert done.returncode == 0, (cmd, done.stderr)
        if " query run " in cmd:
            assert ": 0 rows" not in done.stdout and "user." in done.stdout, (cmd, done.stdout[-800:])
        elif " shell " in cmd:
            assert "aggressive" in done.stdout, (cmd, done.stdout[-800:])
        else:
            assert "user.risk_tolerance" in (tmp / "view.html").read_text(), cmd
