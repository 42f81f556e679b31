"""``belief-graph server stop|status|logs`` (cli/processes.py, shared with ``belief-graph llm``) on a
Neo4j home that was never started: nothing runs, so nothing is started or stopped either. The
commands of a running server are exercised by the test suite's own server start; ``llm`` has its
stand-in server in test_llm_server_unit.py."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from belief_graph.cli import app

pytestmark = pytest.mark.unit


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "BELIEF_GRAPH_SERVER__HOME": str(tmp_path / "home"),
        "BELIEF_GRAPH_SERVER__DATA_DIR": str(tmp_path / "data"),
        "BELIEF_GRAPH_SERVER__BOLT_PORT": str(_free_port()),
        "BELIEF_GRAPH_SERVER__HTTP_PORT": str(_free_port()),
    }


def test_status_of_a_server_that_does_not_run_exits_3(env: dict[str, str], tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["server", "status"], env=env)
    assert shown.exit_code == 3
    assert "not running" in shown.output and f"data: {tmp_path / 'data'}" in shown.output
    quiet = runner.invoke(app, ["server", "status", "-q"], env=env)
    assert quiet.exit_code == 3 and quiet.output == ""
    data = json.loads(runner.invoke(app, ["server", "status", "--json"], env=env).output)
    assert data["running"] is False and data["data_dir"] == str(tmp_path / "data")


def test_stop_of_a_server_that_does_not_run_is_fine(env: dict[str, str]) -> None:
    out = CliRunner().invoke(app, ["server", "stop", "--json"], env=env)
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["running"] is False


def test_logs_take_their_line_count(env: dict[str, str]) -> None:
    out = CliRunner().invoke(app, ["server", "logs", "-n", "5"], env=env)
    assert out.exit_code == 0, out.output
    bad = CliRunner().invoke(app, ["server", "logs", "-n", "many"], env=env)
    assert bad.exit_code == 2
