"""``belief-graph bench all``: every study in one run (``belief_graph_lab.benchmarks.all_studies``), its table, ``--json`` and ``--out``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from belief_graph.cli.common import print_json, state, table
from belief_graph.errors import ValidationError

from ...benchmarks.all_studies import STUDIES, run_all
from .options import say, words, write_out

__all__ = ["bench_all"]


def _met(v: bool | None) -> str:
    return "-" if v is None else "yes" if v else "NO"


def show(out: dict[str, Any]) -> None:
    table(
        f"bench all ({out['preset']} sizes), commit {out['commit']}, load average {out['loadavg_start']} -> "
        f"{out['loadavg_end']}, {out['seconds']} s; ratio = measured / the baseline of the same run",
        ["study", "figure", "goal", "measured", "ratio", "met"],
        [
            [
                r["study"],
                r["figure"],
                r["goal"],
                r["measured"],
                "-" if r["ratio"] is None else r["ratio"],
                _met(r["met"]),
            ]
            for r in out["rows"]
        ],
    )


def bench_all(
    ctx: typer.Context,
    full: bool = typer.Option(False, "--full", help="The sizes the goals are stated at (10^6 claims: hours here)."),
    tiny: bool = typer.Option(False, "--tiny", help="The smallest sizes (checks the structure; numbers mean little)."),
    only: str = typer.Option("", "--only", help=f"Comma-separated subset of: {', '.join(STUDIES)}."),
    out_file: Path = typer.Option(None, "--out", help="Also write the table and every study's result as JSON here."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Every study with small default sizes, one table: study, figure, goal, measured, ratio to a same-run baseline."""
    if full and tiny:
        raise ValidationError("--full and --tiny exclude each other")
    chosen = words(only) or None
    unknown = sorted(set(chosen or []) - set(STUDIES))
    if unknown:
        raise ValidationError(f"unknown studies {', '.join(unknown)} (known: {', '.join(STUDIES)})")
    bg = state(ctx).engine()
    preset = "full" if full else "tiny" if tiny else "default"
    out = run_all(
        bg,
        preset,
        chosen,
        out_file=out_file,
        progress=say(json_),
    )
    out["command"] = (
        "belief-graph bench all"
        + (f" --{preset}" if preset != "default" else "")
        + (f" --only {only}" if chosen else "")
    )
    write_out(out_file, out)
    if json_:
        print_json(out)
        return
    show(out)
