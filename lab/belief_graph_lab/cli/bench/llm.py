"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.llm``: options, printing, ``--json``."""

from __future__ import annotations

import typer

from belief_graph.cli.common import console, print_json, table

from ...benchmarks.llm import measure

__all__ = ["bench_llm"]


def bench_llm(json_: bool = typer.Option(False, "--json", help="Print the numbers as one JSON object.")) -> None:
    """LLM calls per workload (counting scripted model): batching makes calls grow with
    perspectives, not with observations x perspectives."""
    data = measure()
    if json_:
        print_json(data)
        return
    rows = [
        ["encode 8 observations x 3 perspectives (batched)", data["encode_8x3_calls"]],
        ["encode 8 observations x 3 perspectives (max_batch=1)", data["encode_8x3_calls_unbatched"]],
        ["one deliberation, 3 perspectives (batched)", data["deliberate_calls"]],
        ["one deliberation, 3 perspectives (per perspective)", data["deliberate_calls_per_perspective"]],
    ]
    table("LLM calls (scripted counting model)", ["workload", "calls"], rows)
    if data.get("notes"):
        console.print(f"note: {data['notes']['deliberate_calls']}", highlight=False, markup=False)
