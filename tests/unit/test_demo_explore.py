"""What the demo prints at its end: the commands name its space, and Browser is told how to get
there whether the server logs in on it or on another space."""

from __future__ import annotations

from pathlib import Path

from belief_graph.localserver import ServerStatus
from belief_graph_lab.cli.demo_explore import DEMO_SPACE, browser_hint, explore_commands


def _status(browser_space: str | None, browser: bool = True) -> ServerStatus:
    return ServerStatus(
        running=True,
        bolt_uri="bolt://127.0.0.1:7687",
        browser_url="http://127.0.0.1:7474/browser/" if browser else None,
        browser_space=browser_space if browser else None,
        version="5.26.30",
        home=Path("/h"),
        data_dir=Path("/d"),
    )


def test_every_command_names_the_demo_space() -> None:
    assert DEMO_SPACE == "demo"
    assert all(cmd.startswith("belief-graph --space demo ") for cmd in explore_commands())


def test_browser_hint_says_whether_browser_logs_in_on_the_demo_space() -> None:
    on_demo = browser_hint(_status("demo"))
    assert "logs in on the space 'demo'" in on_demo and ":param" not in on_demo
    other = browser_hint(_status("default"))
    assert "logs in on the space 'default'" in other and "run `:param space => 'demo'`" in other
    assert "run `:param space => 'demo'`" in browser_hint(_status(None))  # started before the space was recorded
    assert browser_hint(None).startswith("in Neo4j Browser, run `:param space => 'demo'`")
    assert browser_hint(_status("demo", browser=False)).startswith("in Neo4j Browser")


def test_server_status_says_which_space_browser_logs_in_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    from rich.console import Console

    from belief_graph.cli import server

    buf = io.StringIO()
    monkeypatch.setattr(server, "console", Console(file=buf, width=300))
    server._show(_status("demo"), json_=False)
    assert "Browser http://127.0.0.1:7474/browser/ (logs in on the space 'demo')" in buf.getvalue()
