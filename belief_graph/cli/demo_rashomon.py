"""``belief-graph demo rashomon``: the concession scenario ("Rashomon memory").

Eight observations of a simulated client engagement, three perspectives (relationship, risk,
finance: ``belief_graph/data/perspectives.yaml``), four queries
(``belief_graph/data/rashomon.yaml``). The demo loads both into its own space, encodes (printing
which of the 24 possible observation x perspective encodings passed, per perspective), then
deliberates each query and prints the attack graph (edges with reasons), the grounded labels, the
mode and the answer; finally it retracts one episode and shows the deliberation that cited it
turn stale, and fresh again on restore.

LLM: a real chat model when one is configured — an API key, or the local server of ``belief-graph
llm serve`` while it runs (``make_client`` through the settings, like the main demo; ``--real-llm``
insists on one); otherwise the hand-written answers shipped in ``rashomon.yaml`` through a
:class:`~belief_graph.llm.ScriptedModel` — labelled "SCRIPTED" wherever they are shown.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import typer
import yaml

from ..facade import BeliefGraph
from ..llm import ScriptedModel, Unavailable
from ..llm.factory import resolve_provider
from ..llm.scripted import Reply
from ..models.perspectives import DeliberationRecord, EncodeResult
from ..repositories import AdminRepository
from ..services.perspectives import example_perspectives_path, interpretation_id, read_perspectives
from .common import console, print_json, state, table

__all__ = [
    "RASHOMON_SPACE",
    "Scenario",
    "ScriptedRashomon",
    "data_path",
    "demo_rashomon",
    "load_scenario",
    "setup_scenario",
]

RASHOMON_SPACE = "demo-rashomon"
SCRIPTED_LABEL = (
    "SCRIPTED answers (hand-written in belief_graph/data/rashomon.yaml, NOT a language model): "
    "`./scripts/demo.sh --real-llm` runs a real local model, or set BELIEF_GRAPH_LLM__API_KEY"
)


def data_path(name: str) -> Traversable:
    """A data file shipped in the package (``perspectives.yaml``, ``rashomon.yaml``)."""
    return files("belief_graph") / "data" / name


@dataclass
class Scenario:
    """The parsed ``rashomon.yaml``."""

    title: str
    observations: list[dict[str, Any]]
    queries: list[dict[str, str]]
    scripted: dict[str, Any]
    study: list[dict[str, str]]

    def query(self, key: str) -> str:
        return next(q["text"] for q in self.queries if q["key"] == key)


def load_scenario(path: Traversable | None = None) -> Scenario:
    src = path if path is not None else data_path("rashomon.yaml")
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    return Scenario(
        title=data["title"],
        observations=data["observations"],
        queries=data["queries"],
        scripted=data["scripted"],
        study=data.get("study", []),
    )


@dataclass
class ScriptedRashomon:
    """The scenario's hand-written LLM answers as a :class:`ScriptedModel` (encode, propose_all,
    critique_all, and the per-perspective propose / critique). Answers are keyed by observation
    key / query text / perspective name and mapped to the run's real ids: fill :attr:`episodes`
    (episode id -> observation key) and :attr:`space` before the first call."""

    scenario: Scenario
    space: str = ""
    episodes: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    """perspective id -> name (filled by :func:`setup_scenario`)."""

    def model(self) -> ScriptedModel:
        m = ScriptedModel("scripted-rashomon")
        m.respond("encode", self._encode)
        m.respond("propose_all", self._propose_all)
        m.respond("critique_all", self._critique_all)
        m.respond("propose", self._propose)
        m.respond("critique", self._critique)
        return m

    # -- helpers -------------------------------------------------------------------------------
    def _episode(self, key: str) -> str | None:
        return next((e for e, k in self.episodes.items() if k == key), None)

    def _script(self, question: str) -> dict[str, Any] | None:
        key = next((q["key"] for q in self.scenario.queries if q["text"] == question), None)
        return self.scenario.scripted["deliberations"].get(key) if key else None

    def _proposal(self, script: dict[str, Any], name: str, beliefs: list[Mapping[str, Any]]) -> dict[str, Any] | None:
        p = script["proposals"].get(name)
        if p is None:
            return None
        offered = {b["id"] for b in beliefs}
        cites = []
        for key in p["cite"]:
            ep = self._episode(key)
            cid = interpretation_id(self.space, name, ep) if ep else None
            if cid in offered:
                cites.append(cid)
        return {"text": p["text"], "citations": cites}

    # -- responders ------------------------------------------------------------------------------
    def _encode(self, inputs: Mapping[str, Any]) -> Reply:
        name = inputs["perspective"]["name"]
        script = self.scenario.scripted["encodings"].get(name, {})
        items = []
        for o in inputs["observations"]:
            enc = script.get(self.episodes.get(o["id"], ""))
            if enc:
                items.append(
                    {
                        "observation": o["id"],
                        "relevant": True,
                        "interpretation": enc["text"].strip(),
                        "concepts": list(enc["concepts"]),
                        "confidence": 0.8,
                    }
                )
            else:
                items.append(
                    {
                        "observation": o["id"],
                        "relevant": False,
                        "interpretation": None,
                        "concepts": [],
                        "confidence": 0.8,
                    }
                )
        return {"items": items}

    def _propose_all(self, inputs: Mapping[str, Any]) -> Reply:
        script = self._script(inputs["question"])
        if script is None:
            return Unavailable(f"no scripted answer for the question {inputs['question']!r}")
        out = []
        for entry in inputs["perspectives"]:
            p = entry["perspective"]
            prop = self._proposal(script, p["name"], entry["beliefs"])
            if prop is not None:
                out.append({"perspective": p["id"], **prop})
        return {"proposals": out}

    def _propose(self, inputs: Mapping[str, Any]) -> Reply:
        script = self._script(inputs["question"])
        prop = self._proposal(script, inputs["perspective"]["name"], inputs["beliefs"]) if script else None
        if prop is None:
            return Unavailable(f"no scripted answer for the question {inputs['question']!r}")
        return prop

    def _attacks(
        self, question: str, critics: list[Mapping[str, Any]], proposals: list[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        script = self._script(question) or {"attacks": []}
        pid = {c["name"]: c["id"] for c in critics}
        by_author = {p["perspective"]: p["id"] for p in proposals}
        out = []
        for a in script["attacks"]:
            target_persp = next(
                (x for x in proposals if x["perspective"] and self._name_of(x["perspective"]) == a["target"]), None
            )
            if a["by"] in pid and target_persp is not None:
                out.append(
                    {"by": pid[a["by"]], "target": by_author[target_persp["perspective"]], "reason": a["reason"]}
                )
        return out

    def _name_of(self, perspective_id: str) -> str | None:
        return self.names.get(perspective_id)

    def _critique_all(self, inputs: Mapping[str, Any]) -> Reply:
        critics = [c["perspective"] for c in inputs["perspectives"]]
        return {"attacks": self._attacks(inputs["question"], critics, inputs["proposals"])}

    def _critique(self, inputs: Mapping[str, Any]) -> Reply:
        me = inputs["perspective"]
        attacks = self._attacks(inputs["question"], [me], inputs["proposals"])
        return {"attacks": [{"target": a["target"], "reason": a["reason"]} for a in attacks]}


def setup_scenario(bg: BeliefGraph, scenario: Scenario, script: ScriptedRashomon | None = None) -> dict[str, str]:
    """Load the shipped perspectives and the scenario's episodes into ``bg``'s space; returns
    observation key -> episode id (and fills ``script``'s id maps)."""
    perspectives = bg.perspective_service.add(read_perspectives(example_perspectives_path()))
    keys: dict[str, str] = {}
    for o in scenario.observations:
        ep = bg.add_episode(o["text"].strip(), o["agent"], conversation="acme", at=datetime.fromisoformat(o["at"]))
        keys[o["key"]] = ep.id
    if script is not None:
        script.space = bg.space
        script.episodes.update({v: k for k, v in keys.items()})
        script.names.update({p.id: p.name for p in perspectives})
    return keys


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
        from ..localserver import LocalServer

        srv = LocalServer(s.server, s.neo4j)
        t0 = time.perf_counter()
        status = srv.start(progress=(lambda msg: None) if json_ else (lambda msg: console.print(f"  {msg}")))
        if not json_:
            console.print(f"  local Neo4j running: {status.bolt_uri} ({time.perf_counter() - t0:.1f}s)")
        s = s.model_copy(update={"neo4j": srv.neo4j})  # the password start() may have generated
    scenario = load_scenario()
    real = resolve_provider(s.llm, s.llm_server) in ("openai", "local")
    if real_llm and not real:
        from ..errors import LLMUnavailable

        raise LLMUnavailable(
            "--real-llm: no real model is configured: start `belief-graph llm serve` "
            "(./scripts/demo.sh --real-llm does) or set BELIEF_GRAPH_LLM__API_KEY"
        )
    script = ScriptedRashomon(scenario)
    space = st.space or RASHOMON_SPACE
    with BeliefGraph.connect(space=space, settings=s, chat_model=None if real else script.model()) as bg:
        bg.init_schema()
        AdminRepository(bg.graph, space).delete_space(space)
        label = bg.llm.describe() if real else SCRIPTED_LABEL
        keys = setup_scenario(bg, scenario, script)
        key_of = {v: k for k, v in keys.items()}
        enc = bg.encode()
        records = [bg.deliberate(q["text"], batched=not per_perspective) for q in scenario.queries]
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
            f"  space {space!r}; perspectives: " + "; ".join(f"{p.name} ({p.goal})" for p in bg.perspectives()),
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
    again = bg.deliberation(rec.id)
    console.print(
        f"  deliberation {rec.id[:8]}... ({rec.query!r}) stale: {again.stale} "
        f"({len(again.stale_citations)} cited interpretation(s) withdrawn)",
        markup=False,
        highlight=False,
    )
    bg.restore([ep], "it was the right account after all", agent="user:demo")
    console.print(f"  restore o7: stale again? {bg.deliberation(rec.id).stale}", markup=False, highlight=False)
