"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.edits``: options, printing, ``--json``."""

from __future__ import annotations

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.errors import ValidationError

from ...benchmarks.edits import run_edits
from .options import say, sizes_or_full, timed_engine

__all__ = ["bench_edits"]


def bench_edits(
    ctx: typer.Context,
    sizes: str = typer.Option("1000,10000", "--sizes", help="Comma-separated store sizes in facts."),
    full: bool = typer.Option(False, "--full", help="Sizes 10^3, 10^4, 10^5 and 10^6 facts (about an hour here)."),
    repeats: int = typer.Option(30, "--repeats", help="Edits and plain writes per size and depth (fresh keys each)."),
    embedder: str = typer.Option(
        "hashing", "--embedder", help="hashing (the engine's cost alone) or configured (the space's embedder)."
    ),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench space (bench-edits-*)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Per-edit latency (write + re-derivation + currency, one transaction) against a plain write, side by side."""
    size_list = sizes_or_full(sizes, full)
    if not size_list or any(s < 100 for s in size_list) or repeats < 3:
        raise ValidationError("--sizes must be at least 100 facts each, --repeats at least 3")
    bg = timed_engine(state(ctx).engine, embedder)
    out = run_edits(
        bg,
        size_list,
        repeats=repeats,
        keep=keep,
        progress=say(json_),
    )
    if json_:
        print_json(out)
        return
    table(
        f"edit (assert + re-derivation + currency, one tx) vs plain assert_claim, median of {repeats}, "
        f"embedder {out['embedder']}",
        ["facts", "instances", "depth", "edit ms", "plain ms", "edit/plain", "db hits edit", "db hits plain"],
        [
            [
                r["facts"],
                r["instances"],
                r["depth"],
                r["edit_ms_p50"],
                r["plain_ms_p50"],
                r["ratio_p50"],
                r["db_hits_edit"],
                r["db_hits_plain"],
            ]
            for r in out["rows"]
        ],
    )
    s = out["summary"]
    console.print(f"edit / plain write (p50): at most x{s['max_ratio_p50']} (goal <= 3)", highlight=False)
    for depth, d in s["by_depth"].items():
        console.print(
            f"depth {depth}: edit p50 largest/smallest store x{d['edit_p50_largest_over_smallest']} "
            f"(goal <= 1.5); db hits per edit {d['db_hits_edit']} (max/min x{d['db_hits_edit_max_over_min']})",
            highlight=False,
        )
