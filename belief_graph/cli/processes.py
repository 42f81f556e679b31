"""The commands every local server process has: ``stop``, ``status`` and ``logs``.

``belief-graph server`` (Neo4j) and ``belief-graph llm`` (llama-server) each run one process of
their own; :func:`add_process_commands` gives their Typer app the three commands that only differ
by which process they ask and how its status is printed. :func:`progress` prints the lines a
process reports while it is installed or started.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import typer

from .common import console


class ServerProcess(Protocol):
    """What the three commands ask of a process (``LocalServer``, ``LocalLLMServer``)."""

    def stop(self) -> Any: ...

    def status(self) -> Any: ...

    def log_tail(self, n: int = ...) -> str: ...


def progress(msg: str) -> None:
    """One progress line, indented, printed as it is (no rich markup: paths may hold brackets)."""
    console.print(f"  {msg}", highlight=False, markup=False)


def add_process_commands(
    app: typer.Typer,
    process: Callable[[typer.Context], ServerProcess],
    show: Callable[[Any, bool], None],
    *,
    stop_help: str,
    status_help: str,
    logs_help: str,
) -> None:
    """Add ``stop``, ``status`` (exit code 3 when not running; ``--quiet``) and ``logs -n`` to ``app``.

    ``process(ctx)`` builds the process from the command's settings; ``show(status, json_)`` prints
    a status (``--json``: as JSON)."""

    @app.command("stop", help=stop_help)
    def stop(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
        show(process(ctx).stop(), json_)

    @app.command("status", help=status_help)
    def status(
        ctx: typer.Context,
        json_: bool = typer.Option(False, "--json"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing; exit 0 when running, 3 when not."),
    ) -> None:
        st = process(ctx).status()
        if not quiet:
            show(st, json_)
        if not st.running:
            raise typer.Exit(3)

    @app.command("logs", help=logs_help)
    def logs(ctx: typer.Context, lines: int = typer.Option(40, "-n", help="How many lines.")) -> None:
        typer.echo(process(ctx).log_tail(lines))
