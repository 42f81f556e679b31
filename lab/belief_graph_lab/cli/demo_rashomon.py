"""``belief-graph demo rashomon``: the concession scenario ("Rashomon memory").

Eight observations of a simulated client engagement, three perspectives (relationship, risk,
finance: ``belief_graph/data/perspectives.yaml``), four queries (``lab/belief_graph_lab/data/rashomon.yaml``;
the scenario itself is ``belief_graph_lab.scenarios.rashomon``). The demo loads both into its own space,
encodes (printing which of the 24 possible observation x perspective encodings passed, per
perspective), then deliberates each query and prints the attack graph (edges with reasons), the
grounded labels, the mode and the answer; finally it retracts one episode and shows the
deliberation that cited it turn stale, and fresh again on restore.

LLM: a real chat model when one is configured — an API key, or the local server of ``belief-graph
llm serve`` while it runs (``make_client`` through the settings, like the main demo; ``--real-llm``
insists on one); otherwise the hand-written answers shipped in ``rashomon.yaml`` through a
:class:`~belief_graph.llm.ScriptedModel` — labelled "SCRIPTED" wherever they are shown.
"""

from __future__ import annotations

import time
from typing import Any

import typer

from belief_graph.cli.common import console, print_json, state, table
from belief_graph.facade import BeliefGraph
from belief_graph.llm.factory import resolve_provider
from belief_graph.models.perspectives import DeliberationRecord, EncodeResult
from belief_graph.repositories import AdminRepository

from ..scenarios.rashomon import ScriptedRashomon, load_scenario, setup_scenario

__all__ = ["RASHOMON_SPACE", "demo_rashomon"]

RASHOMON_SPACE = "demo-rashomon"
SCRIPTED_LABEL = (
    "SCRIPTED answers (hand-written in lab/belief_graph_lab/data/rashomon.yaml, NOT a language model): "
    "`./scripts/demo.sh --real-llm` runs a real local model, or set BELIEF_GRAPH_LLM__API_KEY"
)


def demo_rashomon(
    ctx: typer.Context,
    server: bool = typer.Option(
        True,
        "--server/--no-server",
        help="Start the local Neo4j first (use --no-server with your own BELIEF_GRAPH_NEO4J__URI).",
    ),
    per_perspective: bool = typer.Option(
        False, "--per-perspective", help="One propose and one critique call per perspective instead of one each."
    ),
    json_: bool = typer.Option(False, "--json", help="Print the encodings and deliberations as JSON."),
    real_llm: bool = typer.Option(
        False, "--real-llm", help="Insist on a real model (the local `belief-graph llm serve`, or an API key)."
    ),
) -> None:
    """The concession scenario: 8 observations, 3 perspectives, 4 queries; deliberation by argument."""
    st = state(ctx)
    s = st.settings
    if server:
        from belief_graph.localserver import LocalServer

        srv = LocalServer(s.server, s.neo4j)
        t0 = time.perf_counter()
        status = srv.start(progress=(lambda msg: None) if json_ else (lambda msg: console.print(f"  {msg}")))
        if not json_:
            console.print(f"  local Neo4j running: {status.bolt_uri} ({time.perf_counter() - t0:.1f}s)")
        s = s.model_copy(update={"neo4j": srv.neo4j})  # the password start() may have generated
    scenario = load_scenario()
    real = resolve_provider(s.llm, s.llm_server) in ("openai", "local")
    if real_llm and not real:
        from belief_graph.errors import LLMUnavailable

        raise LLMUnavailable(
            "--real-llm: no real model is configured: start `belief-graph llm serve` "
            "(./scripts/demo.sh --real-llm does) or set BELIEF_GRAPH_LLM__API_KEY"
        )
    script = ScriptedRashomon(scenario)
    space = st.space or RASHOMON_SPACE
    with BeliefGraph.connect(space=space, settings=s, chat_model=None if real else script.model()) as bg:
        bg.admin.init_schema()
        AdminRepository(bg.graph, space).delete_space(space)
        label = bg.llm.describe() if real else SCRIPTED_LABEL
        keys = setup_scenario(bg, scenario, script)
        key_of = {v: k for k, v in keys.items()}
        enc = bg.perspectives.encode()
        records = [bg.deliberations.deliberate(q["text"], batched=not per_perspective) for q in scenario.queries]
        if json_:
            print_json(
                {
                    "space": space,
                    "llm": label,
                    "scripted": not real,
                    "encode": {
                        **enc.summary(),
                        "cells": [dict(c.model_dump(), observation=key_of[c.episode]) for c in enc.cells],
                    },
                    "deliberations": [r.model_dump() for r in records],
                }
            )
            return
        console.rule(f"Rashomon memory: {scenario.title}")
        console.print(f"  LLM: {label}", markup=False, highlight=False)
        console.print(
            f"  space {space!r}; perspectives: " + "; ".join(f"{p.name} ({p.goal})" for p in bg.perspectives.all()),
            markup=False,
            highlight=False,
        )
        for o in scenario.observations:
            console.print(f"  [{o['key']}] {o['text'].strip()}", markup=False, highlight=False)
        _print_encoding(enc, key_of, real)
        for q, rec in zip(scenario.queries, records, strict=True):
            _print_deliberation(q["key"], rec, key_of, bg, real)
        _print_staleness(bg, records[0], keys)


def _mark(real: bool) -> str:
    return "" if real else " [SCRIPTED]"


def _print_encoding(enc: EncodeResult, key_of: dict[str, str], real: bool) -> None:
    console.rule("encode: each perspective reads every observation")
    rows = []
    for e in enc.episodes:
        row: list[Any] = [key_of[e]]
        for p in enc.perspectives:
            c = enc.cell(e, p)
            if c.cached:
                row.append("decided before (not sent)")
                continue
            pre = f"{c.score:+.2f} {'pass' if c.prefilter else 'drop'}" if c.score is not None else "-"
            llm = "" if c.relevant is None else (" -> relevant" if c.relevant else " -> not relevant")
            row.append(pre + llm + (f" REJECTED: {c.rejected}" if c.rejected else ""))
        rows.append(row)
    table(
        "pre-filter (cosine to the closest concept or goal) -> LLM decision" + _mark(real),
        ["obs"] + enc.perspectives,
        rows,
    )
    for p, cells in enc.by_perspective().items():
        passed = [c for c in cells if c.passed]
        console.print(f"  {p}: {len(passed)} of {len(cells)} observations encoded", markup=False, highlight=False)
        for c in passed:
            console.print(
                f"    [{key_of[c.episode]}] {c.text} ({', '.join(c.concepts)})", markup=False, highlight=False
            )
    s = enc.summary()
    console.print(
        f"  encodings passed: {s['passed']} of {s['possible']} possible (pre-filter passed {s['prefiltered']}); "
        f"LLM calls: {s['llm_calls']}{_mark(real)}",
        markup=False,
        highlight=False,
    )


def _print_deliberation(
    qkey: str, rec: DeliberationRecord, key_of: dict[str, str], bg: BeliefGraph, real: bool
) -> None:
    console.rule(f"{qkey}: {rec.query}")
    name = {p.id: p.perspective for p in rec.proposals}
    episode_of = {c["id"]: c.get("episode") for p in rec.proposals for c in p.cited}
    table(
        "proposals" + _mark(real),
        ["perspective", "label", "proposal", "cites"],
        [
            [p.perspective, p.label, p.text, ", ".join(key_of.get(episode_of.get(c) or "", c) for c in p.citations)]
            for p in rec.proposals
        ],
    )
    console.print(
        f"  attack graph ({len(rec.attacks)} edges, grounded extension computed in Neo4j):",
        markup=False,
        highlight=False,
    )
    for a in rec.attacks:
        console.print(f"    {name[a.attacker]} -> {name[a.target]}: {a.reason}", markup=False, highlight=False)
    if not rec.attacks:
        console.print("    (no attacks)", markup=False, highlight=False)
    for r in rec.rejections:
        console.print(f"    rejected {r.stage} item of {r.perspective}: {r.reason}", markup=False, highlight=False)
    console.print(
        "  labels: "
        + ", ".join(f"{p.perspective} {p.label}" for p in rec.proposals)
        + (f"; abstained: {', '.join(rec.abstained)}" if rec.abstained else ""),
        markup=False,
        highlight=False,
    )
    console.print(f"  mode: {rec.mode}   (LLM calls: {rec.llm_calls})", markup=False, highlight=False)
    if rec.mode == "conflict":
        console.print(
            "  answer: no forced resolution - the perspectives disagree; every proposal is shown above "
            "with the attacks between them",
            markup=False,
            highlight=False,
        )
    elif rec.mode == "compose":
        console.print("  answer (composed, each part keeps its citations):", markup=False, highlight=False)
        for part in rec.parts:
            cites = ", ".join(key_of.get(episode_of.get(c) or "", c) for c in part.citations)
            console.print(f"    [{part.perspective}] {part.text} (cites {cites})", markup=False, highlight=False)
    else:
        console.print(f"  answer: {rec.answer}", markup=False, highlight=False)


def _print_staleness(bg: BeliefGraph, rec: DeliberationRecord, keys: dict[str, str]) -> None:
    console.rule("interpretations are claims: retract an observation")
    ep = keys["o7"]
    audit = bg.retract([ep], "the subsidiary's request was withdrawn: logged on the wrong account", agent="user:demo")
    console.print(
        f"  retract o7: audit withdrew {audit.withdrew} interpretation(s) (one per perspective that encoded it)",
        markup=False,
        highlight=False,
    )
    again = bg.deliberations.get(rec.id)
    console.print(
        f"  deliberation {rec.id[:8]}... ({rec.query!r}) stale: {again.stale} "
        f"({len(again.stale_citations)} cited interpretation(s) withdrawn)",
        markup=False,
        highlight=False,
    )
    bg.restore([ep], "it was the right account after all", agent="user:demo")
    console.print(f"  restore o7: stale again? {bg.deliberations.get(rec.id).stale}", markup=False, highlight=False)
