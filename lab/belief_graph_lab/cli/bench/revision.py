"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.revision``: options, printing, ``--json``."""

from __future__ import annotations

import time
from typing import Any

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.errors import ValidationError
from belief_graph.models.support import MODES

from ...benchmarks.revision import run_revision_latency, run_revision_pairs, run_scimap, run_wave_comparison
from .options import numbers, words

__all__ = ["bench_revision_latency", "bench_revision_pairs", "bench_scimap"]


def bench_revision_pairs(
    ctx: typer.Context,
    pairs: int = typer.Option(40, "--pairs", help="Number of (AND, OR) pairs; 40 gives the 80 worlds of the study."),
    seed: int = typer.Option(7, "--seed"),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench spaces (bench-rp-*) for inspection."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Paired AND/OR worlds: how many each mode (none / influence / justification) repairs exactly."""
    if pairs < 1:
        raise ValidationError("--pairs must be at least 1")
    bg = state(ctx).engine()
    t0 = time.perf_counter()
    out = run_revision_pairs(bg, pairs=pairs, keep=keep, seed=seed)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    if json_:
        print_json(out)
        return
    n = out["worlds"]
    console.print(
        f"{n} worlds ({pairs} AND, {pairs} OR); pairs verified identical except the grouping: "
        f"{out['pairs_verified_identical_but_grouping']}/{pairs}"
    )
    table(
        "worlds repaired exactly (stored labelling == least model)",
        ["mode", "exact", "AND", "OR", "median repair ms"],
        [
            [
                m,
                f"{out['exact'][m]}/{n}",
                f"{out['exact_by_grouping'][m]['and']}/{pairs}",
                f"{out['exact_by_grouping'][m]['or']}/{pairs}",
                out["median_repair_ms"].get(m),
            ]
            for m in MODES
        ],
    )
    console.print(f"({out['seconds']} s)")


def bench_scimap(
    ctx: typer.Context,
    workspaces: int = typer.Option(20, "--workspaces"),
    modes: str = typer.Option("none,justification", "--modes", help="Comma-separated: none, influence, justification."),
    seed: int = typer.Option(11, "--seed"),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench spaces (bench-sm-*)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Research workspaces: a reviewer invalidates an executed result; what each mode repairs."""
    mode_list = words(modes)
    bad = [m for m in mode_list if m not in MODES]
    if bad or not mode_list:
        raise ValidationError(f"--modes must be a list of {', '.join(MODES)}")
    if workspaces < 1:
        raise ValidationError("--workspaces must be at least 1")
    bg = state(ctx).engine()
    t0 = time.perf_counter()
    out = run_scimap(bg, workspaces, mode_list, keep=keep, seed=seed)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    if json_:
        print_json(out)
        return
    rows = []
    for m in mode_list:
        t = out["modes"][m]
        rows.append(
            [
                m,
                f"{t['repaired']}/{t['consequences']}",
                f"{t['preserved']}/{t['preserved_expected']}",
                f"{t['independent_in_region_preserved']}/{t['independent_in_region']}",
                t["withdrawn_cited"],
                out["median_repair_ms"].get(m),
            ]
        )
    table(
        f"{workspaces} research workspaces, one executed result invalidated in each",
        ["mode", "repaired", "preserved", "branches kept", "withdrawn cited", "median ms"],
        rows,
    )
    console.print(
        "repaired: propagated consequences (claims that lost every support) now withdrawn; "
        "preserved: claims that still have support and are still active; branches kept: of those, "
        "the ones downstream of the invalidated result (independent justification); withdrawn cited: "
        "withdrawn-worthy claims or the invalid result cited by the compiled working context; "
        "median ms: repair (retract) latency."
    )
    console.print(f"({out['seconds']} s)")


def bench_revision_latency(
    ctx: typer.Context,
    sizes: str = typer.Option(
        "1000,10000,100000,1000000",
        "--sizes",
        help="Comma-separated space sizes in claims (the workspace is measured alone first).",
    ),
    repeats: int = typer.Option(21, "--repeats", help="Retract+restore cycles per size (median reported)."),
    chains: str = typer.Option(
        "10,50,200",
        "--chains",
        help="Chain depths for the fixpoint comparison (one statement vs one per wave); '' skips it.",
    ),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench space (bench-lat-*)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Repair latency of one research workspace, alone and inside spaces of 10^3..10^6 claims."""
    size_list = numbers(sizes, "--sizes")
    depth_list = numbers(chains, "--chains")
    if any(s < 1 for s in size_list + depth_list) or repeats < 1:
        raise ValidationError("--sizes, --chains and --repeats must be positive")
    bg = state(ctx).engine()

    def progress(row: dict[str, Any]) -> None:
        if not json_:
            console.print(
                f"  {row['claims']:>9} claims: floor {row['floor_ms_median']} ms, retract "
                f"{row['retract_ms_median']} ms (x{row['retract_over_floor']}), restore "
                f"{row['restore_ms_median']} ms (x{row['restore_over_floor']}), step statements "
                f"{row['steps_retract_ms_median']} ms (db hits {row['db_hits_retract']})"
            )

    out = run_revision_latency(bg, size_list, repeats=repeats, keep=keep, progress=progress)
    out["waves"] = run_wave_comparison(bg, depth_list, repeats=min(repeats, 11), keep=keep) if depth_list else []
    if json_:
        print_json(out)
        return
    table(
        f"repair latency of one workspace ({out['workspace_claims']} claims, region {out['region']} claims), "
        f"median of {repeats}, next to the commit floor (one-node write transaction) of the same rounds",
        [
            "claims in space",
            "filler load s",
            "floor ms",
            "retract ms",
            "x floor",
            "retract min",
            "retract p90",
            "restore ms",
            "x floor",
            "steps retract ms",
            "x floor",
            "stmts",
            "server ms",
            "db hits retract",
            "db hits restore",
        ],
        [
            [
                r["claims"],
                r.get("load_s", "-"),
                r["floor_ms_median"],
                r["retract_ms_median"],
                r["retract_over_floor"],
                r["retract_ms_min"],
                r["retract_ms_p90"],
                r["restore_ms_median"],
                r["restore_over_floor"],
                r["steps_retract_ms_median"],
                r["steps_retract_over_floor"],
                f"{r['statements']['retract']} / {r['statements']['retract_steps']}",
                r["timed_retract"]["statement_server_ms"],
                r["db_hits_retract"],
                r["db_hits_restore"],
            ]
            for r in out["rows"]
        ],
    )
    rr = out["ratio_largest_smallest"]
    console.print(
        f"largest/smallest: claims x{rr['claims']}, retract latency x{rr['retract_ms_median']} "
        f"(median) x{rr['retract_ms_min']} (min), restore latency x{rr['restore_ms_median']}, "
        f"floor x{rr['floor_ms_median']}, retract/floor x{rr['retract_over_floor']}, "
        f"db hits retract x{rr['db_hits_retract']}, restore x{rr['db_hits_restore']}"
    )
    console.print(
        "x floor: median over the floor's median of the same rounds; steps: the same repair as the "
        "step statements (one round trip each, the path before support.repair); stmts: statements in "
        "the transaction (one statement / steps); server ms: what the server reports for the one "
        "statement of one timed retract (whole ms); goal: retract and restore median <= 5 ms at every "
        "size, largest/smallest <= 1.5."
    )
    if out["waves"]:
        table(
            "least fixpoint: restore of a chain of depth n (n - 1 waves), median ms",
            ["depth", "all waves in one statement", "one statement per wave"],
            [[r["depth"], r["one_statement_ms"], r["statement_per_wave_ms"]] for r in out["waves"]],
        )
