"""The driver's log records reach belief_graph's logger, not a library user's stderr (no database:
the driver is built, never connected). Each case runs in a fresh interpreter, as a program using
the library does: under pytest the root logger has pytest's handlers, and Python's last-resort
handler, which printed these records, never runs."""

from __future__ import annotations

import subprocess
import sys

RETRY = "Transaction failed and will be retried in 0.93s (Neo.TransientError.Transaction.DeadlockDetected)"

PROGRAM = f"""
import logging, sys
from belief_graph.db.driver import create_driver
from belief_graph.settings import Neo4jSettings

{{setup}}
driver = create_driver(Neo4jSettings(uri="bolt://127.0.0.1:1", password="not-used"))
logging.getLogger("neo4j.session").warning({RETRY!r})
logging.getLogger("neo4j.notifications").warning("a performance hint")
logging.getLogger("neo4j").debug("a debug line")
driver.close()
{{after}}
"""


def _run(setup: str = "", after: str = "") -> subprocess.CompletedProcess[str]:
    code = PROGRAM.format(setup=setup, after=after)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_nothing_is_printed_to_a_program_that_configured_no_logging() -> None:
    r = _run()
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and r.stdout == ""


def test_the_records_arrive_under_belief_graph() -> None:
    setup = """
got = []
class Keep(logging.Handler):
    def emit(self, record):
        got.append((record.name, record.levelname, record.getMessage()))
logging.getLogger("belief_graph").addHandler(Keep())
"""
    r = _run(setup, "print(sorted(got))")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(
        sorted(
            [
                ("neo4j.notifications", "WARNING", "a performance hint"),
                ("neo4j.session", "WARNING", RETRY),
            ]
        )
    )
    assert r.stderr == ""


def test_a_program_that_configured_logging_gets_them_through_its_root_handler() -> None:
    """basicConfig on the root: the records still arrive (via belief_graph.neo4j), once each."""
    r = _run("logging.basicConfig(format='%(name)s|%(message)s', stream=sys.stdout)")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines.count(f"neo4j.session|{RETRY}") == 1
    assert lines.count("neo4j.notifications|a performance hint") == 1
    assert "a debug line" not in r.stdout
