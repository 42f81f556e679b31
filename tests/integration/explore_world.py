"""A small memory with one instance of every curated question, shared by the exploration tests
(curated queries, cypher-shell, Neo4j Browser, HTML views, Bloom).

Built through the public API only (scripted LLM answers and hashing embeddings: these tests are
about what is drawn, not about retrieval quality)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
PERSPECTIVES = ("finance", "relationship", "risk")


def artifacts_dir(kind: str) -> Path:
    """Where screenshots are kept (CI keeps ``.ci/work/artifacts``; ``BELIEF_GRAPH_TEST_ARTIFACTS`` overrides)."""
    root = Path(os.environ.get("BELIEF_GRAPH_TEST_ARTIFACTS", ROOT / ".ci" / "work" / "artifacts"))
    d = root / kind
    d.mkdir(parents=True, exist_ok=True)
    return d


def chromium() -> str:
    """Debian's Chromium (installed by scripts/bootstrap.sh); a missing one fails the test."""
    exe = os.environ.get("BELIEF_GRAPH_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise AssertionError("Chromium is not installed: run scripts/bootstrap.sh (apt-get install chromium)")
    return exe


CHROMIUM_FLAGS = [
    "--no-sandbox",  # as root, Chromium's sandbox refuses to start
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@dataclass
class World:
    space: str
    settings: Settings
    ids: dict[str, str] = field(default_factory=dict)
    expected: dict[str, Any] = field(default_factory=dict)

    def params(self) -> dict[str, dict[str, Any]]:
        """Parameters (besides space) for every curated question, naming this world's things."""
        return {
            "explore.why_believed": {"key": "user.timezone"},
            "explore.find_dependents": {"id": self.ids["ep_city"]},
            "explore.show_audit": {"id": self.ids["audit"]},
            "explore.show_history": {"key": "user.risk_tolerance"},
            "explore.list_open_disputes": {},
            "explore.show_attack_graph": {"id": self.ids["deliberation"]},
            "explore.show_perspective": {"name": "finance"},
            "explore.find_stale": {},
            "explore.show_framework": {"name": "af1", "limit": 300},
        }


def _encode_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
    name = inputs["perspective"]["name"]
    concept = inputs["perspective"]["concepts"][0]["name"]
    return {
        "items": [
            {
                "observation": o["id"],
                "relevant": True,
                "interpretation": f"For {name}: {o['text']}",
                "concepts": [concept],
                "confidence": 0.7,
            }
            for o in inputs["observations"]
        ]
    }


def _propose_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "proposals": [
            {
                "perspective": e["perspective"]["id"],
                "text": f"{e['perspective']['name']} says so",
                "citations": [e["beliefs"][0]["id"]],
            }
            for e in inputs["perspectives"]
        ]
    }


def _critique_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
    pid = {c["perspective"]["name"]: c["perspective"]["id"] for c in inputs["perspectives"]}
    prop = {p["perspective"]: p["id"] for p in inputs["proposals"]}
    return {
        "attacks": [
            {"by": pid["finance"], "target": prop[pid[t]], "reason": f"finance objects to {t}"}
            for t in ("relationship", "risk")
        ]
    }


def build_world(settings: Settings, tmp: Path) -> Iterator[World]:
    space = f"test-explore-{uuid.uuid4().hex[:10]}"
    model = (
        ScriptedModel()
        .respond("encode", _encode_all)
        .respond("propose_all", _propose_all)
        .respond("critique_all", _critique_all)
    )
    world = World(space, settings)
    with BeliefGraph.connect(space=space, settings=settings, embedder=HashingEmbedder(), chat_model=model) as bg:
        try:
            # why is X believed / what depends on E: episode -> city -> derived timezone
            ep_city = bg.add_episode("Alice: I moved to Paris", "user:alice").id
            city = bg.assert_claim("user.city", "Paris", "Alice lives in Paris", "user:alice", evidence=[ep_city]).claim
            bg.derive("Alice's timezone is Europe/Paris", [city.id], "user.timezone", agent="agent:tz", rule="city-tz")
            # a fact's history: two versions
            bg.assert_claim("user.risk_tolerance", "cautious", "Alice is cautious with money", "user:alice")
            bg.assert_claim("user.risk_tolerance", "aggressive", "Alice now wants aggressive investments", "user:alice")
            # an audit: retract the evidence of a base fact
            ep_pet = bg.add_episode("Alice: I have a dog", "user:alice").id
            bg.assert_claim("user.pet", "dog", "Alice has a dog", "user:alice", evidence=[ep_pet])
            audit = bg.retract([ep_pet], "Alice was joking about the dog")
            # an open dispute
            bg.conflicts.set_policy("user.role", "authority")
            bg.conflicts.set_authority("agent:hr", "user.role", 0.9)
            bg.conflicts.set_authority("agent:gossip", "user.role", 0.2)
            bg.assert_claim("user.role", "engineer", "Alice is an engineer", "agent:hr")
            bg.assert_claim("user.role", "manager", "Alice is a manager", "agent:gossip")
            # a deliberation between three perspectives; finance attacks the two others
            for n in PERSPECTIVES:
                bg.perspectives.add_one(
                    n, f"the {n} goal", [{"name": f"{n.title()}Concept", "description": n}], relevance=-1.0
                )
            for t in ("Acme got 15% off to stay", "Acme Logistics wants the same"):
                bg.add_episode(t, "agent:crm")
            bg.perspectives.encode()
            d = bg.deliberations.deliberate("Should the subsidiary get the same discount?")
            # an argumentation framework: a -> b -> c (grounded: a IN, b OUT, c IN)
            apx = tmp / "af1.apx"
            apx.write_text("arg(a).\narg(b).\narg(c).\natt(a,b).\natt(b,c).\n")
            bg.argumentation.import_framework(apx, "af1")
            bg.argumentation.ground_framework("af1")

            history = bg.beliefs.history("user.risk_tolerance")
            cited = {c["id"] for p in d.proposals for c in p.cited}
            world.ids.update(ep_city=ep_city, city=city.id, audit=audit.id, deliberation=d.id)
            world.expected.update(
                # Fact, derived claim, its justification, the city claim, its justification, the episode
                support=6,
                history=1 + len(history) + sum(len(v.revisions) for v in history),
                # the audit, its root episode, the withdrawn claim, the justification between them
                audit=1 + len(audit.entries) + 1,
                deliberation=1 + len(d.proposals) + len(PERSPECTIVES) + len(cited),
                framework=1 + 3,
                labels={p.perspective: p.label for p in d.proposals},
            )
            assert len(audit.entries) == 2 and d.mode == "select"
            yield world
        finally:
            bg.graph.write("admin.delete_space", space=space)
