"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.llm_quality``: options, printing, ``--json``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.errors import LLMUnavailable
from belief_graph.facade import BeliefGraph
from belief_graph.llm import (
    ChatModel,
    make_chat_model,
)
from belief_graph.llm.factory import resolve_provider

from ...benchmarks.llm_quality import load_labels, oracle_model, run_quality

__all__ = ["bench_llm_quality"]


def bench_llm_quality(
    ctx: typer.Context,
    scripted: bool = typer.Option(False, "--scripted", help="The oracle answering the labels instead of a model."),
    limit: int = typer.Option(0, "--limit", help="At most this many items per category (0: all)."),
    out: Path = typer.Option(None, "--out", help="Also write the full result (every row) as JSON here."),
    json_: bool = typer.Option(False, "--json", help="Print the numbers as one JSON object."),
) -> None:
    """LLM quality on the labelled set, per job and category, for the configured chat model;
    false-stored facts with extraction grounding off and on, side by side."""
    st = state(ctx)
    s = st.settings
    if scripted:
        model: ChatModel = oracle_model(load_labels())
    else:
        if resolve_provider(s.llm, s.llm_server) == "replay":
            raise LLMUnavailable(
                "bench llm-quality needs a model: start `belief-graph llm serve`, set "
                "BELIEF_GRAPH_LLM__API_KEY (or BASE_URL with PROVIDER=openai), or use --scripted"
            )
        model = make_chat_model(s.llm, s.llm_server)
    with BeliefGraph.connect(settings=s) as bg:
        bg.admin.init_schema()
    data = run_quality(
        s,
        model,
        limit=limit or None,
        progress=None if json_ else (lambda m: console.print(f"  {m}", highlight=False, markup=False)),
    )
    if scripted:
        data["model_description"] = "scripted oracle: answers the labels (a check of the scoring; not a model)"
    if out is not None:
        out.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    if json_:
        print_json({k: v for k, v in data.items() if k != "rows"})
        return
    show(data)


def show(data: Mapping[str, Any]) -> None:
    console.print(f"model: {data['model_description']}   ({data['seconds']} s)", highlight=False, markup=False)
    off, on = data["remember"]["ungrounded"], data["remember"]["grounded"]
    table(
        "remember: the same model answers, extraction grounding off | on",
        [
            "category",
            "n",
            "accuracy off | on",
            "false-stored off | on",
            "calls (live/replayed)",
            "tokens in/out",
            "seconds",
        ],
        [
            [
                c,
                off[c]["n"],
                f"{off[c]['accuracy']} | {on[c]['accuracy']}",
                f"{off[c]['false_stored']} | {on[c]['false_stored']}",
                f"{off[c]['calls'] + on[c]['calls']}/{on[c]['replayed']}",
                f"{off[c]['tokens_in'] + on[c]['tokens_in']}/{off[c]['tokens_out'] + on[c]['tokens_out']}",
                round(off[c]["seconds"] + on[c]["seconds"], 1),
            ]
            for c in off
        ],
    )
    rows = []
    for job, cats in data["jobs"].items():
        for c, v in cats.items():
            rows.append(
                [
                    job,
                    c,
                    v["n"],
                    v["accuracy"],
                    v.get("false_stored", ""),
                    v["calls"],
                    f"{v['tokens_in']}/{v['tokens_out']}",
                    v["seconds"],
                ]
            )
    table(
        "per job (extract: the raw answer before grounding; false = facts outside the labels)",
        ["job", "category", "n", "accuracy", "false", "calls", "tokens in/out", "seconds"],
        rows,
    )
