"""``belief-graph bench memory`` for the study ``belief_graph_lab.benchmarks.memory``: options, printing, ``--json``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.embeddings import LocalMiniLMEmbedder
from belief_graph.errors import LLMUnavailable, ValidationError
from belief_graph.facade import BeliefGraph
from belief_graph.llm import ChatModel, make_chat_model
from belief_graph.llm.factory import resolve_provider

from ...benchmarks.memory import MODELS, goals, grounding_on_suite, read_journal, run_memory, summarize
from ...benchmarks.memory_models import Noise
from ...benchmarks.memory_suite import CATEGORIES, SuiteError, load_suite

__all__ = ["bench_memory"]

_COLUMNS = (
    ("items", "items"),
    ("correct", "correct"),
    ("correct_when_said", "when said"),
    ("keys_per_fact", "keys/fact"),
    ("surfaced", "surfaced"),
    ("stale_in_context", "stale ctx"),
    ("false_stored", "false-stored"),
    ("dropped_turns", "dropped"),
    ("unreadable_turns", "unreadable"),
    ("unknown_with_gold", "unknown w/ gold"),
    ("conflated", "conflated"),
    ("calls", "calls"),
    ("seconds", "s"),
)


def bench_memory(
    ctx: typer.Context,
    model: list[str] = typer.Option(
        None, "--model", "-m", help="scripted, noisy or live (repeat for several; default scripted and noisy)."
    ),
    category: list[str] = typer.Option(None, "--category", "-c", help="Only these categories (repeatable)."),
    limit: int = typer.Option(0, "--limit", help="At most this many items per category (0: all)."),
    suite: list[Path] = typer.Option(None, "--suite", help="Suite files (default: the shipped suite)."),
    journal: Path = typer.Option(
        None,
        "--journal",
        help="Append each finished item here (JSON lines); a rerun skips what it holds, and needs no model "
        "for the live items it holds.",
    ),
    out: Path = typer.Option(None, "--out", help="Also write every item's result (with its questions) as JSON."),
    json_: bool = typer.Option(False, "--json", help="Print the rows and goals as one JSON object."),
) -> None:
    """Conversation in, answers out: the suite's multi-session conversations played through
    remember / derive, then asked through answer / context / belief / as_of, per category, on the
    scripted model (gold facts), the noisy extractor (gold facts perturbed at stated rates) and the
    live model, side by side."""
    models = list(dict.fromkeys(model or ["scripted", "noisy"]))
    bad = [m for m in models if m not in MODELS]
    if bad:
        raise ValidationError(f"--model is one of {', '.join(MODELS)}; got {', '.join(bad)}")
    cats = list(category or [])
    unknown = [c for c in cats if c not in CATEGORIES]
    if unknown:
        raise ValidationError(f"--category is one of {', '.join(CATEGORIES)}; got {', '.join(unknown)}")
    try:
        items = load_suite(suite or None, cats or None)
    except SuiteError as exc:
        raise ValidationError(str(exc)) from exc
    if limit:
        kept: dict[str, int] = {}
        chosen = []
        for it in items:
            if kept.get(it.category, 0) < limit:
                kept[it.category] = kept.get(it.category, 0) + 1
                chosen.append(it)
        items = chosen
    s = state(ctx).settings
    journaled = read_journal(journal)
    live_to_play = "live" in models and any(("live", it.id) not in journaled for it in items)
    if live_to_play and resolve_provider(s.llm, s.llm_server) == "replay":
        raise LLMUnavailable(
            "bench memory --model live needs a model: start `belief-graph llm serve`, or set "
            "BELIEF_GRAPH_LLM__API_KEY (or BASE_URL with PROVIDER=openai) for any OpenAI-compatible model"
        )
    with BeliefGraph.connect(settings=s) as bg:
        bg.admin.init_schema()
    noise = Noise()

    def live() -> ChatModel:
        return make_chat_model(s.llm, s.llm_server)

    say = None if json_ else (lambda m, n, total: console.print(f"  [{n}/{total}] {m}", end="\r", highlight=False))
    results = run_memory(
        s, items, models, embedder=LocalMiniLMEmbedder(), live_model=live, noise=noise, journal=journal, progress=say
    )
    rows = summarize(results)
    judged = goals(rows) if "noisy" in models else []
    data: dict[str, Any] = {
        "noise": noise.as_dict(),
        "rows": rows,
        "goals": judged,
        "grounding": grounding_on_suite(items),
    }
    if "live" in models:
        names = sorted({r.chat_model or "unknown" for r in results if r.model == "live"})
        data["live_model"] = ", ".join(names)  # the models the live items were played on
    if out is not None:
        import json

        full = {**data, "items": [r.as_dict() for r in results]}
        out.write_text(json.dumps(full, indent=2, default=str) + "\n", encoding="utf-8")
    if json_:
        print_json(data)
        return
    show(rows, judged, noise, data["grounding"])


def show(
    rows: Sequence[Mapping[str, Any]],
    judged: Sequence[Mapping[str, Any]],
    noise: Noise,
    grounding: Mapping[str, Mapping[str, Any]],
) -> None:
    table(
        "bench memory: per category and model (rates as fractions; empty: does not apply)",
        ["category", "model", *[h for _, h in _COLUMNS]],
        [[r["category"], r["model"], *[r[k] for k, _ in _COLUMNS]] for r in rows],
    )
    rates = ", ".join(f"{k} {v:g}" for k, v in noise.as_dict().items() if k != "seed")
    console.print(f"noisy extractor: {rates} (seed {noise.seed})", highlight=False, markup=False)
    table(
        "extraction grounding alone on the suite (no model): gold statements refused, traps let through;"
        " cited: with the stand-in models' evidence and inferences taken on it",
        ["items", "gold statements", "refused", "refused, cited", "traps", "let through", "let through, cited"],
        [
            [
                h,
                g["gold"],
                g["gold_refused"],
                g["gold_refused_cited"],
                g["traps"],
                g["traps_accepted"],
                g["traps_accepted_cited"],
            ]
            for h, g in grounding.items()
        ],  # fmt: skip
    )
    if judged:
        table(
            "goals (noisy extractor at its default rates)",
            ["goal", "measured", "met"],
            [[g["goal"], g["value"], {True: "yes", False: "NO", None: "n/a"}[g["met"]]] for g in judged],
        )
