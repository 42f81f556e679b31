"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.recall``: options, printing, ``--json``."""

from __future__ import annotations

import typer

from belief_graph.cli.common import console, print_json, state
from belief_graph.errors import ValidationError
from belief_graph.models import new_id
from belief_graph.repositories.retrieval import RetrievalRepository

from ...benchmarks.recall import GENERATORS, _describe, index_config, measure_recall
from .options import numbers

__all__ = ["bench_recall"]


def bench_recall(
    ctx: typer.Context,
    sizes: str = typer.Option("10000,100000", "--sizes", help="Comma-separated numbers of claims."),
    queries: int = typer.Option(50, "--queries", help="Queries per size."),
    k: int = typer.Option(10, "-k", "--k", help="Neighbours per query (recall@k)."),
    fetch: str = typer.Option("50,200", "--fetch", help="Over-fetch variants: candidates asked of the index."),
    vectors: str = typer.Option("clustered", "--vectors", help="Synthetic distribution: clustered or nested."),
    seed: int = typer.Option(7, "--seed"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Recall@k and p50/p95 latency: the Neo4j vector index vs an exact cosine scan, side by side."""
    ns = numbers(sizes, "--sizes")
    fetches = tuple(numbers(fetch, "--fetch"))
    if not ns or any(n < 20 for n in ns) or any(n > 2_000_000 for n in ns):
        raise ValidationError("each size must be between 20 and 2,000,000 claims")
    if vectors not in GENERATORS:
        raise ValidationError(f"--vectors is one of {', '.join(GENERATORS)}, got {vectors!r}")
    if any(f < k or f > 10_000 for f in fetches):
        raise ValidationError("each --fetch must be between k and 10000")
    if not 1 <= k <= 100 or not 1 <= queries <= 10_000 or any(queries > n for n in ns):
        raise ValidationError("k must be 1..100 and --queries 1..10000 (and at most the size)")
    bg = state(ctx).engine()
    dim = bg.settings.embedding.dimension
    index = index_config(RetrievalRepository(bg.graph, "__bench_recall__"))
    rows = []
    for n in ns:
        repo = RetrievalRepository(bg.graph, f"__bench_recall__{new_id()}")
        if not json_:
            console.print(f"bench recall: {n} claims ...", highlight=False)
        rows.append(
            measure_recall(
                repo, n, dim, queries, k, seed, log=None if json_ else console.print, fetches=fetches, vectors=vectors
            )
        )
    if json_:
        print_json({"vectors": f"synthetic {vectors} (see docs/retrieval.md)", "index": index, "rows": rows})
        return
    from rich.table import Table

    t = Table(
        title=f"bench recall: Neo4j vector index vs exact cosine scan\n(recall@{k}, {queries} queries, "
        f"dimension {dim}, synthetic {vectors} vectors)\n{_describe(index)}"
    )
    t.add_column("claims", justify="left")
    for r in rows:
        t.add_column(f"{r['claims']:,}", justify="right")
    t.add_row("load s", *[f"{r['load_s']:.1f}" for r in rows])
    t.add_row("index refresh wait s", *[f"{r['index_wait_s']:.1f}" for r in rows])

    def label(name: str, f: int | None) -> str:
        return "exact Cypher scan" if name == "exact" else f"index, ask {f} keep {k}"

    names = list(rows[0]["paths"])
    for name in names:
        f = rows[0]["paths"][name]["fetch"]
        t.add_row(f"recall@{k} {label(name, f)}", *[f"{r['paths'][name]['recall']:.3f}" for r in rows])
    for name in names:
        f = rows[0]["paths"][name]["fetch"]
        t.add_row(
            f"p50 / p95 ms {label(name, f)}",
            *[f"{r['paths'][name]['p50_ms']:.1f} / {r['paths'][name]['p95_ms']:.1f}" for r in rows],
        )
    for name in names:
        if name != "exact":
            f = rows[0]["paths"][name]["fetch"]
            t.add_row(
                f"exact p50 / p50 {label(name, f)}", *[f"{r['paths'][name]['exact_p50_over_p50']}x" for r in rows]
            )
    console.print(t)
