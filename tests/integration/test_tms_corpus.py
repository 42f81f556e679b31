"""The TMS scenarios of ``tests/data/corpus/tms`` pass step by step against the real engine.

Mapping (DESIGN.md "Support"): every corpus node is a claim. A node that is evidence at any point
gets an episode ``ev(x)`` and the justification ``x <- ev(x)``; the corpus's evidence set is then
"the episodes that are not retracted". Nodes that are not evidence initially have their episode
retracted once before step 0 (one audit). ``retract`` steps retract the episodes, ``assert`` steps
restore them. The labelling after every step must equal the scenario's ``expected`` IN/OUT sets,
and each audit must withdraw exactly the claims that went IN -> OUT and reinstate exactly those
that went OUT -> IN.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph

# BELIEF_GRAPH_TEST_CORPUS=<folder holding argumentation/ and tms/> reads another copy of the corpus.
CORPUS = Path(os.environ.get("BELIEF_GRAPH_TEST_CORPUS") or Path(__file__).resolve().parents[1] / "data" / "corpus")
TMS = CORPUS / "tms"
SCENARIOS = sorted(p for p in TMS.glob("*.json"))


def test_corpus_present() -> None:
    assert len(SCENARIOS) == 11, SCENARIOS


class World:
    """A corpus scenario built through the public API (derive / retract / restore)."""

    def __init__(self, bg: BeliefGraph, sc: dict[str, Any]) -> None:
        self.bg = bg
        self.sc = sc
        self.claim: dict[str, str] = {}  # node name -> claim id
        self.ev: dict[str, str] = {}  # node name -> episode id
        ever = set(sc["evidence"])
        for step in sc["steps"]:
            ever.update(step.get("assert", []))
            ever.update(step.get("retract", []))
        for x in sc["nodes"]:
            if x in ever:
                self.ev[x] = bg.add_episode(f"evidence for {x}", agent="user:corpus").id
                self.claim[x] = bg.derive(x, [self.ev[x]], agent="agent:corpus", rule="evidence").id
        pending = list(sc["justifications"])
        while pending:
            ready = [j for j in pending if all(p in self.claim for p in j["premises"])]
            assert ready, f"cannot build {sc['name']}: no justification has all premises ({pending})"
            for j in ready:
                c = self.bg.derive(
                    j["conclusion"], [self.claim[p] for p in j["premises"]], agent="agent:corpus", rule=j["id"]
                )
                if j["conclusion"] in self.claim:
                    assert c.id == self.claim[j["conclusion"]], "same statement must return the same claim"
                self.claim[j["conclusion"]] = c.id
                pending.remove(j)
        assert set(self.claim) == set(sc["nodes"]), "every node must be a claim"
        dormant = [self.ev[x] for x in self.ev if x not in sc["evidence"]]
        if dormant:
            bg.retract(dormant, "not evidence in the initial state")

    def labels(self) -> tuple[list[str], list[str]]:
        statuses = {x: self.bg.beliefs.claim(cid).status.value for x, cid in self.claim.items()}
        ins = sorted(x for x, s in statuses.items() if s == "active")
        outs = sorted(x for x, s in statuses.items() if s != "active")
        assert all(statuses[x] == "withdrawn" for x in outs), statuses  # claims are never retracted here
        return ins, outs


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_step_by_step(bg: BeliefGraph, path: Path) -> None:
    sc = json.loads(path.read_text())
    expected = {e["after_step"]: e for e in sc["expected"]}
    w = World(bg, sc)
    ins, outs = w.labels()
    assert (ins, outs) == (sorted(expected[0]["in"]), sorted(expected[0]["out"])), "initial state"
    name_of = {cid: x for x, cid in w.claim.items()}
    for k, step in enumerate(sc["steps"], start=1):
        before = set(ins)
        if "retract" in step:
            audit = bg.retract([w.ev[x] for x in step["retract"]], f"step {k}")
        else:
            audit = bg.restore([w.ev[x] for x in step["assert"]], f"step {k}")
        ins, outs = w.labels()
        assert ins == sorted(expected[k]["in"]), f"step {k} IN"
        assert outs == sorted(expected[k]["out"]), f"step {k} OUT"
        assert {name_of[i] for i in audit.withdrawn_ids} == before - set(ins), f"step {k} withdrew"
        assert {name_of[i] for i in audit.reinstated_ids} == set(ins) - before, f"step {k} reinstated"
        assert set(audit.roots) == {w.ev[x] for x in step.get("retract", step.get("assert", []))}


def test_counting_trap_explained(bg: BeliefGraph) -> None:
    """c1 <- c2, c2 <- c1, c1 <- e: retracting e withdraws both (counting would keep them)."""
    sc = json.loads((TMS / "counting_trap_mutual_support.json").read_text())
    w = World(bg, sc)
    audit = bg.retract([w.ev["e"]], "e was wrong")
    assert set(audit.withdrawn_ids) == {w.claim["e"], w.claim["c1"], w.claim["c2"]}
    c1 = next(e for e in audit.entries if e.id == w.claim["c1"])
    # both families of c1 are broken: the one from e and the one from c2
    assert len(c1.lost) == 2 and any(w.claim["e"] in x for x in c1.lost) and any(w.claim["c2"] in x for x in c1.lost)
    restored = bg.restore([w.ev["e"]], "e was right after all")
    assert set(restored.reinstated_ids) == {w.claim["e"], w.claim["c1"], w.claim["c2"]}
