"""Command groups that other installed packages add to ``belief-graph``, through entry points.

A package declares ``[project.entry-points."belief_graph.cli"]`` with a callable
``register(app: typer.Typer) -> None``. The lab (``lab/belief_graph_lab`` in a checkout: the
benchmarks, demos and scenarios, kept out of the runtime wheel) registers ``bench``, ``demo`` and
``llm record-demo`` this way. Where it is not installed, ``belief-graph bench`` and
``belief-graph demo`` are hidden commands that say how to get them and exit 2. An entry point that
fails to load (an editable install whose folder is gone) does not take the other commands down:
its failure is what those stand-ins say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib.metadata import EntryPoint, entry_points

import typer

from ..errors import ConfigurationError

__all__ = ["ENTRY_POINT_GROUP", "LAB_COMMANDS", "add_plugin_commands"]

ENTRY_POINT_GROUP = "belief_graph.cli"
LAB_COMMANDS = ("bench", "demo")
"""The lab's command groups: where they are missing, a hidden command says how to get them."""

_LAB_HINT = (
    "`belief-graph {name}` is part of belief_graph_lab (the benchmarks, demos and scenarios), which is "
    "not installed here: the runtime package does not ship it. From a checkout of belief_graph run "
    "./scripts/bootstrap.sh, or `pip install -e ./lab` in its environment"
)


def _names(app: typer.Typer) -> set[str]:
    groups = {g.name for g in app.registered_groups if g.name}
    commands = {c.name for c in app.registered_commands if c.name}
    return groups | commands


def _missing(name: str, failures: list[str]) -> Callable[[], None]:
    def command() -> None:
        why = f" (an installed plugin failed to load: {'; '.join(failures)})" if failures else ""
        raise ConfigurationError(_LAB_HINT.format(name=name) + why)

    command.__doc__ = f"Not installed: {name} comes with belief_graph_lab."
    return command


def add_plugin_commands(app: typer.Typer, found: Iterable[EntryPoint] | None = None) -> list[str]:
    """Let each installed ``belief_graph.cli`` entry point add its commands to ``app``; then add a
    hidden stand-in for each lab command still missing. Returns the entry points' names.

    ``found`` replaces the installed entry points (tests)."""
    eps = list(entry_points(group=ENTRY_POINT_GROUP) if found is None else found)
    failures: list[str] = []
    for ep in sorted(eps, key=lambda e: e.name):
        try:
            register = ep.load()
        except Exception as exc:  # any failure to import a plugin: the stand-ins say it
            failures.append(f"{ep.name} = {ep.value}: {type(exc).__name__}: {exc}")
            continue
        register(app)
    present = _names(app)
    for name in LAB_COMMANDS:
        if name not in present:
            app.command(
                name,
                hidden=True,
                add_help_option=False,
                context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
            )(_missing(name, failures))
    return [ep.name for ep in eps]
