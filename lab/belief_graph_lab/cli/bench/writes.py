"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.writes``: options, printing, ``--json``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.errors import ValidationError

from ...benchmarks.writes import run_import_bench, run_write_latency
from .options import say, sizes_or_full, timed_engine, write_out

__all__ = ["bench_writes"]


def bench_writes(
    ctx: typer.Context,
    sizes: str = typer.Option("1000,10000", "--sizes", help="Comma-separated store sizes in claims."),
    full: bool = typer.Option(False, "--full", help="Sizes 10^3 -> 10^6 and 10^4 imported claims (hours here)."),
    repeats: int = typer.Option(40, "--repeats", help="Rounds (floor, ADD, floor, UPDATE) per size."),
    import_n: int = typer.Option(
        None, "--import-n", help="Claims imported per variant (default 2000; --full 10000); 0 skips the import part."
    ),
    batch_size: int = typer.Option(250, "--batch-size", help="Import lines per transaction."),
    store_vectors: bool = typer.Option(
        True,
        "--store-vectors/--no-store-vectors",
        help="The grown store carries embeddings (the vector index grows with it).",
    ),
    embedder: str = typer.Option(
        "hashing",
        "--embedder",
        help="Embedder of the timed assert_claim writes: hashing (the engine's cost alone) or configured.",
    ),
    keep: bool = typer.Option(False, "--keep", help="Keep the bench spaces."),
    out_file: Path = typer.Option(None, "--out", help="Also write the results as JSON to this file."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """assert_claim p50/p95 against the commit floor as the store grows; bulk import claims/s with and without the
    model's embedding, next to per-claim writes and the embedder alone."""
    size_list = sizes_or_full(sizes, full)
    if not size_list or any(s < 100 for s in size_list) or repeats < 5:
        raise ValidationError("--sizes must be at least 100 claims each, --repeats at least 5")
    n_import = import_n if import_n is not None else (10_000 if full else 2_000)
    if n_import < 0 or not 1 <= batch_size <= 10_000:
        raise ValidationError("--import-n must be >= 0 and --batch-size between 1 and 10000")
    timed = timed_engine(state(ctx).engine, embedder)
    bg = state(ctx).engine()
    progress = say(json_)
    started = time.perf_counter()
    out: dict[str, Any] = {
        "latency": run_write_latency(
            timed, size_list, repeats, store_vectors=store_vectors, keep=keep, progress=progress
        )
    }
    if n_import:
        out["import"] = run_import_bench(
            bg, n_import, batch_size=batch_size, chunk=max(batch_size, n_import // 8), keep=keep, progress=progress
        )
    out["seconds"] = round(time.perf_counter() - started, 1)
    write_out(out_file, out)
    if json_:
        print_json(out)
        return
    lat = out["latency"]
    table(
        f"assert_claim on fresh keys vs the commit floor (one-node write tx), {repeats} rounds per size, "
        f"embedder {lat['embedder']}, store {'with' if store_vectors else 'without'} embeddings",
        [
            "claims",
            "floor p50/p95 ms",
            "ADD p50/p95 ms",
            "ADD/floor",
            "UPDATE p50/p95 ms",
            "UPDATE/floor",
            "db hits ADD",
            "db hits UPDATE",
            "claim node / +vector p50 ms",
            "grown in s",
        ],
        [
            [
                r["claims"],
                f"{r['floor_ms_p50']} / {r['floor_ms_p95']}",
                f"{r['add_ms_p50']} / {r['add_ms_p95']}",
                r["add_over_floor"],
                f"{r['update_ms_p50']} / {r['update_ms_p95']}",
                r["update_over_floor"],
                r["db_hits_add"],
                r["db_hits_update"],
                f"{r['claim_node_ms_p50']} / {r['claim_node_vector_ms_p50']}",
                r["grow_s"],
            ]
            for r in lat["rows"]
        ],
    )
    split = []
    for r in lat["rows"]:
        for kind in ("add", "update"):
            t = r[f"{kind}_timing"]
            top = sorted(t["ms_p50_by_statement"].items(), key=lambda kv: -kv[1])[:3]
            split.append(
                [
                    r["claims"],
                    kind.upper(),
                    t["ms_p50"],
                    f"{t['statements']}: {t['statements_ms_p50']}",
                    t["rest_ms_p50"],
                    t["client_cpu_ms_p50"],
                    ", ".join(f"{n} {v}" for n, v in top),
                ]
            )
    table(
        "where the time of a write goes (medians, ms): its statements (server + Bolt + driver), the rest "
        "(begin, commit, Python), the client's CPU",
        ["claims", "write", "wall", "statements: ms", "rest", "client CPU", "slowest statements"],
        split,
    )
    if any(r["server_cpu_ms_mean"] for r in lat["rows"]):
        kinds = ["floor", "claim_node", "claim_node_vector", "add", "update"]
        table(
            "CPU of the local Neo4j server per transaction (mean ms; a one-node write, a Claim node, a Claim node "
            "with its embedding, assert_claim ADD and UPDATE)",
            ["claims", *kinds],
            [[r["claims"], *[(r["server_cpu_ms_mean"] or {}).get(k) for k in kinds]] for r in lat["rows"]],
        )
    s = lat["summary"]
    console.print(
        f"largest / smallest store, p50: ADD x{s['add_p50_largest_over_smallest']}, UPDATE "
        f"x{s['update_p50_largest_over_smallest']} (goal <= 1.5), floor x{s['floor_p50_largest_over_smallest']}; "
        f"db hits ADD {s['db_hits_add']}, UPDATE {s['db_hits_update']}; {s['seconds']} s",
        highlight=False,
    )
    if "import" in out:
        imp = out["import"]
        table(
            f"bulk import, {imp['n']} claims per import variant (80% new keys, 20% updates), batches of "
            f"{imp['batch_size']}, interleaved in chunks of {imp['chunk']}",
            ["variant", "items", "s", "per second", "embedding share"],
            [[r["variant"], r["items"], r["seconds"], r["per_second"], r["embedding_share"]] for r in imp["rows"]],
        )
        rt = imp["ratios"]
        console.print(
            f"import / assert_claim per claim: x{rt['import_over_assert']}; with {imp['embedder']} / hashing: "
            f"x{rt['import_model_over_import_hashing']}; import with the model / the embedder alone: "
            f"x{rt['import_model_over_embedder']}; {imp['seconds']} s",
            highlight=False,
        )
    console.print(f"bench writes: {out['seconds']} s", highlight=False)
