"""The Rashomon scenario: eight observations of a client engagement, three perspectives, four queries.

:func:`load_scenario` parses ``lab/belief_graph_lab/data/rashomon.yaml``; :func:`setup_scenario` loads the
shipped perspectives (``belief_graph/data/perspectives.yaml``) and the observations into a memory
space; :class:`ScriptedRashomon` answers the LLM jobs (encode, propose, critique) with the
hand-written answers of the file, mapped to the run's ids. ``belief-graph demo rashomon``, the
perspectives study and the perspectives tests use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from belief_graph.facade import BeliefGraph
from belief_graph.llm import ScriptedModel, Unavailable
from belief_graph.llm.scripted import Reply
from belief_graph.services.perspectives import example_perspectives_path, interpretation_id, read_perspectives

__all__ = ["Scenario", "ScriptedRashomon", "data_path", "load_scenario", "setup_scenario"]


def data_path(name: str) -> Traversable:
    """A data file of the lab (``rashomon.yaml``)."""
    return files("belief_graph_lab") / "data" / name


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
    perspectives = bg.perspectives.add(read_perspectives(example_perspectives_path()))
    keys: dict[str, str] = {}
    for o in scenario.observations:
        ep = bg.add_episode(o["text"].strip(), o["agent"], conversation="acme", at=datetime.fromisoformat(o["at"]))
        keys[o["key"]] = ep.id
    if script is not None:
        script.space = bg.space
        script.episodes.update({v: k for k, v in keys.items()})
        script.names.update({p.id: p.name for p in perspectives})
    return keys
