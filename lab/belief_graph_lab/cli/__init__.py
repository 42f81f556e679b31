"""The lab's commands, added to ``belief-graph`` through the ``belief_graph.cli`` entry point
(lab/pyproject.toml): ``bench ...`` (cli/bench/), ``demo`` and ``demo rashomon``, and
``llm record-demo``."""

from __future__ import annotations

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the lab's command groups to the ``belief-graph`` app."""
    from . import bench, demo
    from .record_demo import record_demo_cmd

    app.add_typer(bench.app, name="bench")
    app.add_typer(demo.app, name="demo")  # a group: `demo` runs the tour, `demo rashomon` the perspectives scenario
    llm = next(g.typer_instance for g in app.registered_groups if g.name == "llm" and g.typer_instance)
    llm.command("record-demo")(record_demo_cmd)


# belief_graph.cli calls register() while it is imported. Importing it here, once register exists,
# means a program that imports a lab command module before belief_graph.cli finds the app built.
import belief_graph.cli  # noqa: E402,F401
