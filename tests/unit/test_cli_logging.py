"""The CLI keeps the driver's retry warnings out of its output unless --verbose (no database)."""

from __future__ import annotations

import logging

import pytest
from typer.testing import CliRunner

from belief_graph.cli import app, configure_logging

RETRY = "Transaction failed and will be retried in 0.93s (Neo.TransientError.Transaction.DeadlockDetected)"


def test_retry_warnings_are_silent_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging(verbose=False)
    logging.getLogger("neo4j").warning(RETRY)
    logging.getLogger("neo4j.notifications").warning("a performance hint")
    out, err = capfd.readouterr()
    assert RETRY not in err and "performance hint" not in err and not out


def test_verbose_shows_them_once(capfd: pytest.CaptureFixture[str]) -> None:
    configure_logging(verbose=True)
    configure_logging(verbose=True)  # twice: one handler, not two
    logging.getLogger("neo4j").warning(RETRY)
    _, err = capfd.readouterr()
    assert err.count(RETRY) == 1 and err.startswith("neo4j: ")
    configure_logging(verbose=False)


def test_the_cli_callback_configures_it(capfd: pytest.CaptureFixture[str]) -> None:
    logging.getLogger("neo4j").handlers.clear()
    logging.getLogger("neo4j").setLevel(logging.NOTSET)
    logging.getLogger("neo4j").propagate = True
    CliRunner().invoke(app, ["llm", "prompts"])
    logging.getLogger("neo4j").warning(RETRY)
    _, err = capfd.readouterr()
    assert RETRY not in err
