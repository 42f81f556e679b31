"""``belief-graph llm record-demo``: re-record the runtime's demo replay file from the lab's script."""

from __future__ import annotations

from pathlib import Path

import typer

from belief_graph.cli.common import console, print_json
from belief_graph.llm import demo_replay_path


def record_demo_cmd(
    out: Path = typer.Option(None, "--out", help="Where to write (default: the package's demo_replay.json)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Re-record the demo replay file from the hand-written demo answers through a local stub
    (the full ChatOpenAI client path; NOT a real model — the file's meta says so)."""
    from ..llm_demo import record_demo

    target = out if out is not None else Path(str(demo_replay_path()))
    summary = record_demo(target)
    if json_:
        print_json(summary)
    else:
        console.print(
            f"recorded {summary['entries']} responses into {summary['path']}: {summary['jobs']}",
            highlight=False,
            markup=False,
        )
