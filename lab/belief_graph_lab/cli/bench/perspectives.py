"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.perspectives``: options, printing, ``--json``."""

from __future__ import annotations

import uuid

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.embeddings import LocalMiniLMEmbedder
from belief_graph.facade import BeliefGraph
from belief_graph.repositories import AdminRepository

from ...benchmarks.perspectives import run_study
from ...scenarios.rashomon import ScriptedRashomon, load_scenario

__all__ = ["bench_perspectives"]


def bench_perspectives(
    ctx: typer.Context,
    json_: bool = typer.Option(False, "--json", help="Print the numbers as one JSON object."),
) -> None:
    """Retrieval study: rank of the relevant observation, raw episode text vs the perspective's
    interpretations (real local MiniLM embeddings; scripted encodings)."""
    st = state(ctx)
    space = f"bench-perspectives-{uuid.uuid4().hex[:8]}"
    script = ScriptedRashomon(load_scenario())
    with BeliefGraph.connect(
        space=space, settings=st.settings, embedder=LocalMiniLMEmbedder(), chat_model=script.model()
    ) as bg:
        try:
            data = run_study(bg, script)
        finally:
            AdminRepository(bg.graph, space).delete_space(space)
    if json_:
        print_json(data)
        return
    table(
        f"rank of the relevant observation ({data['embedder']}; interpretations: {data['interpretations']})",
        ["perspective", "question", "obs", "raw (of 8)", "raw, same pool", "perspective (pool)"],
        [
            [
                r["perspective"],
                r["question"],
                r["relevant"],
                r["raw_rank"],
                r["raw_same_pool_rank"],
                f"{r['perspective_rank']} ({r['perspective_pool']})",
            ]
            for r in data["rows"]
        ],
    )
    s = data["summary"]
    table(
        "summary",
        ["search", "hits@1", "MRR", "mean rank", "not found"],
        [
            [name, s[c]["hits_at_1"], s[c]["mrr"], s[c]["mean_rank"], s[c]["not_found"]]
            for name, c in (
                ("raw episode text (8)", "raw_rank"),
                ("raw text, same pool", "raw_same_pool_rank"),
                ("perspective interpretations", "perspective_rank"),
            )
        ],
    )
    console.print(
        f"{data['questions']} questions; interpretations written by the scripted encoder: {data['encodings_passed']}",
        markup=False,
        highlight=False,
    )
