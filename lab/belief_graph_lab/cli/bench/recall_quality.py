"""``belief-graph bench ...`` for the study ``belief_graph_lab.benchmarks.recall_quality``: options, printing, ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from belief_graph.cli.common import console, print_json, state
from belief_graph.errors import ValidationError

from ...benchmarks.recall_quality import CONFIGS, default_suite_path, measure_recall_quality
from .options import words

__all__ = ["LLM_STEPS", "bench_recall_quality"]

LLM_STEPS = {
    "hypothesis": ("adopted + LLM hypothesis", "llm_hypothesis"),
    "rerank": ("adopted + LLM re-rank of the top 10", "llm_rerank"),
}
"""The optional LLM steps ``--llm`` / ``--llm-steps`` add: the configuration's name and its setting."""


def bench_recall_quality(
    ctx: typer.Context,
    suite: Path = typer.Option(None, "--suite", help="Suite file (default: tests/data/inference_suite.json)."),
    paraphrase: bool = typer.Option(True, "--paraphrase/--no-paraphrase", help="Also measure the paraphrase suite."),
    llm: bool = typer.Option(False, "--llm", help="Add both optional LLM steps (the configured chat model)."),
    llm_steps: str = typer.Option(
        "", "--llm-steps", help="Add only these optional LLM steps, comma-separated: hypothesis, rerank."
    ),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Recall@1, recall@5, MRR and p50 latency of recall with and without each ranking step, side by side."""
    path = suite or default_suite_path()
    if not path.is_file():
        raise ValidationError(f"suite file not found: {path} (pass --suite)")
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path} is not JSON: {exc}") from None
    para_path = default_suite_path("paraphrase_suite.json")
    para = json.loads(para_path.read_text()) if paraphrase and para_path.is_file() else None
    bg = state(ctx).engine()
    configs = list(CONFIGS)
    adopted = ("adopted (settings.retrieval)", bg.settings.retrieval, "score")
    configs.insert(0, adopted)
    wanted = words(llm_steps) or (list(LLM_STEPS) if llm else [])
    unknown = sorted(set(wanted) - set(LLM_STEPS))
    if unknown:
        raise ValidationError(f"unknown LLM step(s) {', '.join(unknown)} (known: {', '.join(LLM_STEPS)})")
    for step in wanted:
        name, setting = LLM_STEPS[step]
        configs.append((name, bg.settings.retrieval.model_copy(update={setting: True}), "score"))
    llm = bool(wanted)
    out = measure_recall_quality(
        bg, data, para, configs, llm=lambda: bg.llm, log=None if json_ else lambda m: console.print(m, highlight=False)
    )
    out["suite"] = str(path)
    if json_:
        print_json(out)
        return
    from rich.console import Console
    from rich.table import Table

    qn = out["questions"]
    t = Table(
        title=f"bench recall-quality: {out['memories']} memories, questions "
        + ", ".join(f"{p} {n}" for p, n in qn.items())
        + f"; embedder {bg.embedder.name}"
    )
    t.add_column("configuration", justify="left", no_wrap=True)
    for p in qn:
        t.add_column(f"{p} r@1 / r@5 / MRR", justify="right", no_wrap=True)
    t.add_column("p50 ms", justify="right", no_wrap=True)
    if llm:
        t.add_column("LLM calls", justify="right", no_wrap=True)
    for r in out["configs"]:
        cells = [f"{r[p]['recall@1']:.3f} / {r[p]['recall@5']:.3f} / {r[p]['mrr']:.3f}" for p in qn]
        t.add_row(r["name"], *cells, f"{r['p50_ms']:.1f}", *([str(r["llm_calls"])] if llm else []))
    # a row is wider than a pipe's default 80 columns: print it whole
    Console(width=max(console.width, 160), highlight=False).print(t)
