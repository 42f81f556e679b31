"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.tenancy``: options, printing, ``--json``."""

from __future__ import annotations

import typer

from belief_graph.cli.common import console, print_json, state
from belief_graph.errors import ValidationError

from ...benchmarks.tenancy import measure_tenancy
from .options import numbers

__all__ = ["bench_tenancy"]


def bench_tenancy(
    ctx: typer.Context,
    big: int = typer.Option(100_000, "--big", help="Claims of the large space."),
    small: str = typer.Option("100", "--small", help="Claims of each small space, comma-separated."),
    queries: int = typer.Option(50, "--queries", help="Queries per space."),
    k: int = typer.Option(10, "-k", "--k", help="Neighbours per query (recall@k)."),
    seed: int = typer.Option(7, "--seed"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Recall@k of small spaces beside a large one: global index top-k filtered by space vs the default."""
    smalls = numbers(small, "--small")
    if not 100 <= big <= 2_000_000 or not smalls or any(not k <= n <= 100_000 for n in smalls):
        raise ValidationError("--big must be 100..2,000,000 and each --small k..100,000")
    if not 1 <= k <= 100 or not 1 <= queries <= 10_000:
        raise ValidationError("k must be 1..100 and --queries 1..10000")
    bg = state(ctx).engine()
    if not json_:
        console.print(f"bench tenancy: {big:,} claims beside {small} ...", highlight=False)
    out = measure_tenancy(bg, big, smalls, queries, k, seed, log=None if json_ else console.print)
    if json_:
        print_json(out)
        return
    from rich.table import Table

    t = Table(
        title=f"bench tenancy: recall@{k} of a small space beside {big:,} claims of another space\n"
        f"(synthetic clustered vectors, {queries} queries per space; exact scan up to "
        f"{out['exact_scan_max']:,} candidates)"
    )
    for col in ("space", "path", f"recall@{k}", "p50 / p95 ms", "fetch (median / max)"):
        t.add_column(col)
    for r in out["small"]:
        for path, label in (
            ("index_only", "global index top-fetch, then space filter"),
            ("default", "default (exact scan of a small space)"),
        ):
            m = r[path]
            fetch = "exact scan" if m["max_fetch"] == 0 else f"{m['median_fetch']:,} / {m['max_fetch']:,}"
            t.add_row(
                f"{r['space_claims']:,} claims", label, f"{m['recall']:.3f}", f"{m['p50_ms']} / {m['p95_ms']}", fetch
            )
    m = out["big"]
    t.add_row(
        f"{big:,} claims",
        "default (index)",
        f"{m['recall']:.3f}",
        f"{m['p50_ms']} / {m['p95_ms']}",
        f"{m['median_fetch']:,} / {m['max_fetch']:,}",
    )
    console.print(t)
    console.print(f"load {out['load_s']} s, index refresh wait {out['index_wait_s']} s", highlight=False)
