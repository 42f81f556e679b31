"""Shared CLI plumbing: lazily-built settings and engine on the Typer context, output helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from ..facade import BeliefGraph
from ..llm.usage import UsageReport
from ..settings import Settings, load_settings


def make_console(*, stderr: bool = False, file: Any = None) -> Console:
    """A console for command output. Off a terminal (a pipe, a file, a narrow CI log) lines are not
    wrapped, so an address or an id printed in a line stays whole for whoever reads or parses it;
    on a terminal rich wraps to its width."""
    out = Console(stderr=stderr, file=file)
    out.soft_wrap = not out.is_terminal
    return out


console = make_console()
err_console = make_console(stderr=True)


@dataclass
class AppState:
    space: str | None = None
    verbose: bool = False
    _settings: Settings | None = None
    _bg: BeliefGraph | None = None
    closers: list[Any] = field(default_factory=list)

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            # `--space ""` is a bad value (refused by the settings), not "no --space"
            overrides = {"space": self.space} if self.space is not None else {}
            self._settings = load_settings(**overrides)
        return self._settings

    def engine(self, verify: bool = True) -> BeliefGraph:
        if self._bg is None:
            self._bg = BeliefGraph.connect(settings=self.settings, verify=verify)
        return self._bg

    def close(self) -> None:
        if self._bg is not None:
            if self.verbose:  # LLM and embedding usage of this command
                print_usage(self._bg.llm_usage())
            self._bg.close()
            self._bg = None


def state(ctx: typer.Context) -> AppState:
    obj = ctx.find_root().obj
    if not isinstance(obj, AppState):
        obj = AppState()
        ctx.find_root().obj = obj
    ctx.call_on_close(obj.close)
    return obj


def print_usage(report: UsageReport) -> None:
    """Print a usage report on stderr (what ``--verbose`` shows when a command ends)."""
    for line in report.lines():
        err_console.print(line, highlight=False, markup=False)


def _plain(value: Any) -> Any:
    """What ``json.dumps`` cannot write itself: a model as its JSON dump, anything else as text."""
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else str(value)


def print_json(data: Any) -> None:
    """``--json`` output: ``data`` may hold pydantic models (each written as ``model_dump(mode="json")``)."""
    typer.echo(json.dumps(data, indent=2, default=_plain, sort_keys=False))


def table(title: str, columns: list[str], rows: list[list[Any]]) -> None:
    t = Table(title=title, show_lines=False)
    for c in columns:
        t.add_column(c, overflow="fold")  # a narrow table folds a long id onto the next line, never cuts it
    for r in rows:
        t.add_row(*["" if v is None else str(v) for v in r])
    console.print(t)
