"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.tenants``: options, printing, ``--json``."""

from __future__ import annotations

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.errors import ValidationError

from ...benchmarks.tenants import run_tenants
from .options import numbers, say

__all__ = ["bench_tenants"]


def bench_tenants(
    ctx: typer.Context,
    tenant: int = typer.Option(1000, "--tenant", help="Claims of the measured space."),
    shares: str = typer.Option("1,0.1,0.01", "--shares", help="The tenant's share of the indexed claims, per step."),
    queries: int = typer.Option(30, "--queries", help="Recalls per share."),
    others: int = typer.Option(10, "--others", help="Other spaces the rest is spread over."),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench spaces."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Recall latency of one space as other spaces fill the vector index they share."""
    share_list = numbers(shares, "--shares", float)
    if not share_list or any(not 0 < s <= 1 for s in share_list) or tenant < 50 or queries < 5 or others < 1:
        raise ValidationError("--shares in (0, 1], --tenant at least 50, --queries at least 5, --others at least 1")
    bg = state(ctx).engine()
    out = run_tenants(
        bg,
        tenant,
        share_list,
        queries,
        others,
        keep,
        progress=say(json_),
    )
    if json_:
        print_json(out)
        return
    table(
        f"recall (k=5, hybrid) of one space of {tenant} claims as other spaces fill the shared vector index, "
        f"{queries} queries per share",
        [
            "tenant share",
            "claims in index",
            "recall p50 / p95 ms",
            "x alone",
            "fetch rounds (mean)",
            "largest fetch",
            "stopped",
            "self@1",
        ],
        [
            [
                r["share"],
                r["claims_in_index"],
                f"{r['recall_ms_p50']} / {r['recall_ms_p95']}",
                r["recall_p50_over_alone"],
                r["rounds_mean"],
                r["fetch_max"],
                ", ".join(f"{k} {v}" for k, v in r["stopped"].items()),
                r["self_at_1"],
            ]
            for r in out["rows"]
        ],
    )
    console.print(f"bench tenants: {out['seconds']} s", highlight=False)
