"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.grounded``: options, printing, ``--json``."""

from __future__ import annotations

from pathlib import Path

import typer

from belief_graph.cli.common import console, print_json, state
from belief_graph.errors import ValidationError

from ...benchmarks.grounded import default_corpus, measure
from .options import numbers, words

__all__ = ["bench_grounded"]


def _f(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _pairs(xs: list[float]) -> str:
    return "-" if not xs else f"{min(xs):.2f}" if len(xs) == 1 else f"{min(xs):.2f}..{max(xs):.2f}"


def bench_grounded(
    ctx: typer.Context,
    corpus: Path = typer.Option(
        None, "--corpus", help="ICCMA corpus folder (default: the subset in tests/data/corpus/argumentation)."
    ),
    no_corpus: bool = typer.Option(False, "--no-corpus", help="Skip the corpus."),
    corpus_limit: int = typer.Option(0, "--corpus-limit", help="Only the first N corpus files (0 = all)."),
    sizes: str = typer.Option("1000,10000,100000", "--sizes", help="Generated sizes (arguments), comma-separated."),
    families: str = typer.Option("chain,dchain", "--families", help="Generated families: chain, dchain."),
    repeat: int = typer.Option(3, "--repeat", min=1, help="Timed runs per generated case (best is reported)."),
    corpus_repeat: int = typer.Option(1, "--corpus-repeat", min=1, help="Timed runs per corpus file."),
    profile: bool = typer.Option(True, "--profile/--no-profile", help="One extra PROFILE run for db hits."),
    small: str = typer.Option(
        "3,4,5,6,7,8,9,10,11,12", "--small", help="Small-framework sizes (deliberation latency); '' skips them."
    ),
    small_repeat: int = typer.Option(21, "--small-repeat", min=1, help="Solves per small framework (median)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """In-database grounded solve vs export + formal-argumentation, side by side, with the ratio."""
    svc = state(ctx).engine().argumentation
    folder = None if no_corpus else (corpus or default_corpus())
    if corpus is not None and not corpus.is_dir():
        raise ValidationError(f"--corpus {corpus} is not a folder")
    size_list = numbers(sizes, "--sizes")
    fams = words(families)
    small_list = numbers(small, "--small")
    data = measure(
        svc,
        corpus=folder,
        corpus_limit=corpus_limit,
        sizes=size_list,
        families=fams,
        repeat=repeat,
        corpus_repeat=corpus_repeat,
        profile=profile,
        small=small_list,
        small_repeat=small_repeat,
        progress=None if json_ else (lambda m: console.print(f"[dim]{m}[/dim]")),
    )
    if json_:
        print_json(data)
        return
    cols = [
        "case",
        "args",
        "attacks",
        "waves",
        "stmts",
        "import s",
        "db s",
        "export s",
        "py build s",
        "py solve s",
        "write s",
        "ext s",
        "db/ext",
        "pairs",
        "db us/arg",
        "ext us/arg",
        "hits/(a+r)",
        "ok",
    ]
    rows = [
        [
            r["case"],
            r["arguments"],
            r["attacks"],
            r["waves"],
            r["round_trips"],
            _f(r["import_s"], 2),
            _f(r["db_s"]),
            _f(r["export_s"]),
            _f(r["build_s"]),
            _f(r["solve_s"]),
            _f(r["write_s"]),
            _f(r["ext_s"]),
            _f(r["ratio"], 2),
            _pairs(r["ratio_pairs"]),
            _f(r["db_us_per_argument"], 1),
            _f(r["ext_us_per_argument"], 1),
            _f(r["hits_per_unit"], 1),
            "yes" if r["ok"] else "NO",
        ]
        for r in data["corpus"] + data["cases"]
    ]
    typer.echo(
        "grounded labelling IN THE GRAPH: solved in Neo4j, labels written (db) vs export + formal-argumentation + "
        "labels written back in one batched UNWIND (ext); db/ext < 1: the database is faster; "
        "pairs: lowest..highest db/ext of the runs made one right after the other"
    )
    widths = [max(len(str(c)), *(len(str(r[i])) for r in rows)) for i, c in enumerate(cols)]
    for line in [cols, *rows]:
        typer.echo(
            "  ".join(
                str(v).ljust(w) if i == 0 else str(v).rjust(w)
                for i, (v, w) in enumerate(zip(line, widths, strict=True))
            )
        )
    big = [r for r in data["cases"] if r["arguments"] == max((c["arguments"] for c in data["cases"]), default=0)]
    for r in big:
        typer.echo(
            f"{r['case']}: {r['db_us_per_argument']:.1f} us per argument in the database (goal <= 20), "
            f"{r['ext_us_per_argument']:.1f} exported, solved and written back"
        )
    if data.get("small"):
        sm = data["small"]
        typer.echo(
            f"small frameworks (deliberations), median of {sm['repeat']} solves each, ms: "
            + ", ".join(
                f"{r['arguments']} args {r['db_ms_median']:.2f} (ext {r['ext_ms_median']:.2f})" for r in sm["rows"]
            )
        )
        typer.echo(
            f"  all small solves: db median {sm['db_ms_median']:.2f} ms (goal <= 3), "
            f"ext median {sm['ext_ms_median']:.2f} ms, db/ext {sm['db_ms_median'] / sm['ext_ms_median']:.2f}; "
            f"commit floor (one-node write transaction) of the same rounds {sm['floor_ms_median']:.2f} ms, "
            f"db/floor {sm['db_over_floor']:.2f}"
        )
    s = data["summary"]
    typer.echo(
        f"database faster in {s['db_faster_cases']} of {s['cases']} rows; results identical: {s['all_ok']}; "
        f"db hits per argument+attack {_f(s['hits_per_unit_min'], 1)}..{_f(s['hits_per_unit_max'], 1)}"
    )
