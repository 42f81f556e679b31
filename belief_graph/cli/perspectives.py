"""``belief-graph perspectives``: perspectives, goal-parameterized encoding, deliberation.

``encode`` and ``deliberate`` call the configured chat model (``BELIEF_GRAPH_LLM__*``); without an
API key the client replays the shipped demo file, which holds no answers for your data, so they
fail with a one-line ``LLMUnavailable`` error (``belief-graph demo rashomon`` shows the whole flow
with scripted answers).
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import ValidationError
from ..models.perspectives import DeliberationRecord, EncodeResult, Perspective
from ..services.perspectives import example_perspectives_path
from .common import console, print_json, state, table
from .progress import with_activity

app = typer.Typer(help="Perspectives: goal-parameterized encoding and deliberation by argument.", no_args_is_help=True)


def _p(text: str) -> None:
    console.print(text, markup=False, highlight=False)


def _print_perspective(p: Perspective) -> None:
    _p(f"{p.name}: {p.goal} (relevance {p.relevance:g}; interpretations {p.active} active of {p.interpretations})")
    for c in p.concepts:
        _p(f"  {c.name}: {c.description}")


def _print_encode(r: EncodeResult) -> None:
    rows = []
    for c in r.cells:
        rows.append(
            [
                c.episode,
                c.perspective,
                "" if c.score is None else f"{c.score:+.3f}",
                "pass" if c.prefilter else "drop",
                "" if c.relevant is None else ("yes" if c.relevant else "no"),
                c.interpretation or "",
                c.rejected or ("decided before, not sent" if c.cached else ""),
            ]
        )
    table(
        "encode: observation x perspective",
        ["episode", "perspective", "score", "pre-filter", "LLM relevant", "interpretation", "note"],
        rows,
    )
    s = r.summary()
    _p(
        f"passed {s['passed']} of {s['possible']} (pre-filter {s['prefiltered']}, written now {s['written']}, "
        f"rejected {s['rejected']}); LLM calls {s['llm_calls']}" + (f" ({r.model})" if r.model else "")
    )


def _print_deliberation(d: DeliberationRecord) -> None:
    _p(f"deliberation {d.id}: {d.query!r} at {d.at} ({'batched' if d.batched else 'per perspective'})")
    table(
        "proposals",
        ["id", "perspective", "label", "text", "citations"],
        [[p.id, p.perspective, p.label, p.text, ", ".join(p.citations)] for p in d.proposals],
    )
    name = {p.id: p.perspective for p in d.proposals}
    _p(f"attack graph: {len(d.attacks)} edge(s)")
    for a in d.attacks:
        _p(f"  {name.get(a.attacker, a.attacker)} -> {name.get(a.target, a.target)}: {a.reason}")
    for r in d.rejections:
        _p(f"  rejected ({r.stage}, {r.perspective}, {r.item}): {r.reason}")
    if d.abstained:
        _p(f"abstained (no interpretation to cite): {', '.join(d.abstained)}")
    _p(f"mode: {d.mode}" + (f"; LLM calls: {d.llm_calls}" if d.llm_calls is not None else ""))
    if d.mode == "conflict":
        _p("answer: none forced - every proposal above, with the attacks between them")
    else:
        _p(f"answer: {d.answer}")
    if d.stale:
        _p(f"STALE: cited claim(s) no longer active: {', '.join(d.stale_citations)}")


@app.command("add")
def add(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="Unique name in the space, e.g. risk."),
    goal: str = typer.Option(..., "--goal", help="What this perspective cares about."),
    concepts: list[str] = typer.Option(..., "--concept", "-c", help="'Name: description' (repeatable; at least one)."),
    relevance: float = typer.Option(None, "--relevance", help="Pre-filter threshold (raw cosine, default 0.15)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Add one perspective with its ontology."""
    ontology = []
    for c in concepts:
        head, _, desc = c.partition(":")
        ontology.append({"name": head.strip(), "description": desc.strip()})
    p = state(ctx).engine().perspectives.add_one(name, goal, ontology, relevance)
    print_json(p.model_dump()) if json_ else _print_perspective(p)


@app.command("load")
def load(
    ctx: typer.Context,
    file: Path = typer.Argument(None, help="YAML/JSON perspective set (default with --example: the shipped set)."),
    example: bool = typer.Option(False, "--example", help="Load the shipped set (relationship, risk, finance)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Add every perspective of a file, all or nothing."""
    if (file is None) == (not example):
        raise ValidationError("give a FILE or --example (not both)")
    bg = state(ctx).engine()
    got = bg.perspectives.load(file if file is not None else example_perspectives_path())
    if json_:
        print_json([p.model_dump() for p in got])
        return
    for p in got:
        _print_perspective(p)


@app.command("list")
def list_(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """The perspectives of the space."""
    got = state(ctx).engine().perspectives.all()
    if json_:
        print_json([p.model_dump() for p in got])
        return
    table(
        "perspectives",
        ["name", "goal", "concepts", "relevance", "interpretations (active)"],
        [
            [p.name, p.goal, ", ".join(c.name for c in p.concepts), p.relevance, f"{p.interpretations} ({p.active})"]
            for p in got
        ],
    )


@app.command("show")
def show(ctx: typer.Context, name: str, json_: bool = typer.Option(False, "--json")) -> None:
    """One perspective: goal, ontology and its interpretations."""
    bg = state(ctx).engine()
    p = bg.perspectives.get(name)
    hits = bg.perspectives.interpretations(name)
    if json_:
        print_json({**p.model_dump(), "interpretation_list": [h.model_dump(mode="json") for h in hits]})
        return
    _print_perspective(p)
    table(
        f"interpretations of {name}",
        ["id", "status", "episode", "concepts", "text"],
        [[h.claim.id, h.claim.status.value, h.episode, ", ".join(h.concepts), h.claim.text] for h in hits],
    )


@app.command("encode")
@with_activity("encoding episodes per perspective (LLM + embeddings)")
def encode(
    ctx: typer.Context,
    episodes: list[str] = typer.Option(None, "--episode", "-e", help="Episode id (repeatable; default: all)."),
    perspectives: list[str] = typer.Option(None, "--perspective", "-p", help="Perspective (repeatable; default: all)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Every perspective interprets the relevant episodes in its own vocabulary."""
    r = state(ctx).engine().perspectives.encode(episodes or None, perspectives or None)
    print_json({**r.summary(), "cells": [c.model_dump() for c in r.cells]}) if json_ else _print_encode(r)


@app.command("search")
def search(
    ctx: typer.Context,
    query: str,
    perspective: str = typer.Option(..., "--perspective", "-p"),
    k: int = typer.Option(5, "--k"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Retrieval by perspective: that perspective's interpretations nearest to the query."""
    hits = state(ctx).engine().perspectives.search(query, perspective, k)
    if json_:
        print_json(hits)
        return
    table(
        f"{perspective}: {query}",
        ["score", "id", "episode", "text"],
        [[f"{h.score:.3f}", h.claim.id, h.episode, h.claim.text] for h in hits],
    )


@app.command("deliberate")
@with_activity("deliberating (propose, critique, grounded labelling)")
def deliberate(
    ctx: typer.Context,
    query: str,
    perspectives: list[str] = typer.Option(None, "--perspective", "-p", help="Perspective (repeatable; default: all)."),
    k: int = typer.Option(5, "--k", help="Interpretations each perspective retrieves."),
    per_perspective: bool = typer.Option(False, "--per-perspective", help="One propose/critique call per perspective."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Propose, critique, ground: select / compose / conflict."""
    d = state(ctx).engine().deliberations.deliberate(query, perspectives or None, k=k, batched=not per_perspective)
    print_json(d.model_dump()) if json_ else _print_deliberation(d)


@app.command("deliberation")
def deliberation(ctx: typer.Context, deliberation_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """One stored deliberation (marked STALE when a cited interpretation was withdrawn)."""
    d = state(ctx).engine().deliberations.get(deliberation_id)
    print_json(d.model_dump()) if json_ else _print_deliberation(d)


@app.command("deliberations")
def deliberations(
    ctx: typer.Context, limit: int = typer.Option(20, "--limit"), json_: bool = typer.Option(False, "--json")
) -> None:
    """The deliberations of the space, newest first."""
    got = state(ctx).engine().deliberations.all(limit)
    if json_:
        print_json([d.model_dump() for d in got])
        return
    table(
        "deliberations",
        ["id", "at", "mode", "proposals", "stale", "query"],
        [[d.id, d.at, d.mode, d.proposals, "yes" if d.stale else "", d.query] for d in got],
    )
