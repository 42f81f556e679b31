"""Deliberation by argument against a real Neo4j, with scripted LLM answers: the
retrieval mode follows from the grounded extension of the stored attack graph (select, compose,
conflict; 0 edges -> compose; complete mutual attack among three -> conflict), LLM call counts,
recorded rejections of bad LLM items, typed errors that write nothing, and staleness."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import EncodingError, NotFoundError, ValidationError
from belief_graph.llm import ScriptedModel
from belief_graph.services.check import run_check
from belief_graph.services.deliberation import deliberation_ns

NAMES = ("finance", "relationship", "risk")
QUERY = "Should the subsidiary get the same discount?"


class World:
    def __init__(self, bg: BeliefGraph, model: ScriptedModel, episodes: list[str]) -> None:
        self.bg, self.model, self.episodes = bg, model, episodes

    def script(
        self,
        attacks: Sequence[tuple[str, str]] = (),
        *,
        cite: Mapping[str, list[str]] | None = None,
        extra: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Every perspective proposes (citing its first belief unless ``cite`` says otherwise);
        ``attacks``: (by, target perspective) pairs; ``extra``: raw attack items added as-is."""

        def propose_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
            out = []
            for e in inputs["perspectives"]:
                name = e["perspective"]["name"]
                cites = cite[name] if cite and name in cite else [e["beliefs"][0]["id"]]
                out.append({"perspective": e["perspective"]["id"], "text": f"{name} says so", "citations": cites})
            return {"proposals": out}

        def critique_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
            pid = {c["perspective"]["name"]: c["perspective"]["id"] for c in inputs["perspectives"]}
            prop = {p["perspective"]: p["id"] for p in inputs["proposals"]}
            return {
                "attacks": [
                    {"by": pid[a], "target": prop[pid[t]], "reason": f"{a} objects to {t}"}
                    for a, t in attacks
                    if a in pid and t in pid and pid[t] in prop
                ]
                + list(extra)
            }

        def propose(inputs: Mapping[str, Any]) -> dict[str, Any]:
            return {"text": f"{inputs['perspective']['name']} says so", "citations": [inputs["beliefs"][0]["id"]]}

        def critique(inputs: Mapping[str, Any]) -> dict[str, Any]:
            me = inputs["perspective"]["name"]
            names = {p["perspective"]: p["id"] for p in inputs["proposals"]}
            by_name = {n: pid for pid, n in self.names().items()}
            return {
                "attacks": [
                    {"target": names[by_name[t]], "reason": f"{me} objects to {t}"}
                    for a, t in attacks
                    if a == me and by_name.get(t) in names
                ]
            }

        self.model.respond("propose_all", propose_all).respond("critique_all", critique_all)
        self.model.respond("propose", propose).respond("critique", critique)

    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.bg.perspectives.all()}

    def calls(self) -> int:
        return self.bg.llm_usage().llm.calls


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


@pytest.fixture()
def world(base_settings, graph) -> Iterator[World]:  # type: ignore[no-untyped-def]
    """Three perspectives, three episodes, every perspective interprets every episode (hashing
    embeddings: these tests are about the attack graph, not about retrieval quality)."""
    space = f"test-delib-{uuid.uuid4().hex[:10]}"
    model = ScriptedModel().respond("encode", _encode_all)
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=HashingEmbedder(), chat_model=model) as bg:
        try:
            for n in NAMES:
                bg.perspectives.add_one(
                    n, f"the {n} goal", [{"name": f"{n.title()}Concept", "description": n}], relevance=-1.0
                )
            eps = [
                bg.add_episode(t, "agent:crm").id
                for t in (
                    "Acme got 15% off to stay",
                    "The discount was agreed by email only",
                    "Acme Logistics wants the same",
                )
            ]
            assert bg.perspectives.encode().passed == 9
            bg.llm.meter.reset()
            yield World(bg, model, eps)
        finally:
            graph.write("admin.delete_space", space=space)


def _labels(d: Any) -> dict[str, str]:
    return {p.perspective: p.label for p in d.proposals}


def _count(graph: Any, space: str, label: str) -> int:
    return graph.driver.execute_query(
        "MATCH (n:$($label)) WHERE n.space = $s RETURN count(n) AS n", s=space, label=label, database_=graph.database
    ).records[0]["n"]


def _attack_edges(graph: Any, space: str) -> int:
    return graph.driver.execute_query(
        "MATCH (a:Proposal)-[r:ATTACKS]->(:Proposal) WHERE a.space = $s RETURN count(r) AS n",
        s=space,
        database_=graph.database,
    ).records[0]["n"]


def test_select_one_survivor(world: World, graph) -> None:  # type: ignore[no-untyped-def]
    world.script([("finance", "relationship"), ("finance", "risk")])
    d = world.bg.deliberations.deliberate(QUERY)
    assert _labels(d) == {"finance": "IN", "relationship": "OUT", "risk": "OUT"}
    assert d.mode == "select" and d.answer == "finance says so"
    assert d.llm_calls == 2 and world.calls() == 2  # one propose_all + one critique_all
    assert {(a.by, a.reason) for a in d.attacks} == {
        ("finance", "finance objects to relationship"),
        ("finance", "finance objects to risk"),
    }
    # the labels are the grounded extension computed in Neo4j, stored on the Proposal nodes
    rows = graph.driver.execute_query(
        "MATCH (x:Proposal:Argument {space: $s, ns: $ns})-[:ANSWERS]->(:Deliberation {id: $id}) "
        "RETURN x.perspective AS p, x.label AS label, [m IN labels(x) WHERE m IN ['In', 'Out', 'Undec']] AS marks",
        s=world.bg.space,
        ns=deliberation_ns(d.id),
        id=d.id,
        database_=graph.database,
    ).records
    assert {r["p"]: r["label"] for r in rows} == _labels(d)
    # each proposal carries exactly the mark of its label (Browser and Bloom colour by it)
    assert {r["p"]: r["marks"] for r in rows} == {"finance": ["In"], "relationship": ["Out"], "risk": ["Out"]}
    assert run_check(graph, world.bg.space, only=["grounded_labels"]).ok
    # the OGM reads them (Argument and the mark are optional labels of Proposal)
    ogm = world.bg.admin.ogm()
    assert sorted(p.label for p in ogm.Proposal.nodes.filter(space=world.bg.space).all()) == ["IN", "OUT", "OUT"]
    why = world.bg.argumentation.explain_label(deliberation_ns(d.id), d.proposal_of("risk").id)  # type: ignore[union-attr]
    assert why.label == "OUT" and "IN" in why.reason


def test_zero_edges_compose_keeps_each_parts_citations(world: World) -> None:
    world.script([])
    d = world.bg.deliberations.deliberate(QUERY)
    assert set(_labels(d).values()) == {"IN"} and d.mode == "compose" and not d.attacks
    assert [p.perspective for p in d.parts] == list(NAMES)
    for part in d.parts:
        prop = d.proposal_of(part.perspective)
        assert prop is not None and part.citations == prop.citations and part.citations
        assert f"[{part.perspective}] {part.text} (cites {', '.join(part.citations)})" in (d.answer or "")
    assert world.calls() == 2


def test_compose_two_survivors_with_one_edge(world: World) -> None:
    world.script([("risk", "finance")])
    d = world.bg.deliberations.deliberate(QUERY)
    assert _labels(d) == {"finance": "OUT", "relationship": "IN", "risk": "IN"}
    assert d.mode == "compose" and [p.perspective for p in d.parts] == ["relationship", "risk"]


def test_complete_mutual_attack_among_three_is_a_conflict(world: World, graph) -> None:  # type: ignore[no-untyped-def]
    world.script([(a, t) for a in NAMES for t in NAMES if a != t])
    d = world.bg.deliberations.deliberate(QUERY)
    assert set(_labels(d).values()) == {"UNDEC"} and d.mode == "conflict"
    assert _count(graph, world.bg.space, "Undec") == 3 and _count(graph, world.bg.space, "In") == 0
    assert d.answer is None and not d.parts  # no forced resolution
    assert len(d.attacks) == 6 and len(d.proposals) == 3  # every proposal, every attack between them
    assert _attack_edges(graph, world.bg.space) == 6
    assert world.calls() == 2


def test_mutual_pair_and_one_unattacked_selects_it(world: World) -> None:
    world.script([("finance", "risk"), ("risk", "finance")])
    d = world.bg.deliberations.deliberate(QUERY)
    assert _labels(d) == {"finance": "UNDEC", "relationship": "IN", "risk": "UNDEC"} and d.mode == "select"


def test_per_perspective_mode_gives_the_same_labels_with_one_call_each(world: World) -> None:
    world.script([("finance", "relationship"), ("finance", "risk")])
    d = world.bg.deliberations.deliberate(QUERY, batched=False)
    assert not d.batched and d.mode == "select" and _labels(d)["finance"] == "IN"
    assert d.llm_calls == 6
    usage = world.bg.llm_usage().llm
    assert usage.calls_for("propose") == 3 and usage.calls_for("critique") == 3 and usage.calls_for("propose_all") == 0


def test_bad_critiques_are_rejected_and_recorded_not_written(world: World, graph) -> None:  # type: ignore[no-untyped-def]
    ids = {n: pid for pid, n in world.names().items()}
    world.script(
        [("finance", "risk")],
        extra=[
            {"by": ids["risk"], "target": "no-such-proposal", "reason": "made up"},
        ],
    )

    # an attack on its own proposal: the critique responder cannot know proposal ids in advance,
    # so script it through a responder that attacks the attacker's own proposal
    def critique_all(inputs: Mapping[str, Any]) -> dict[str, Any]:
        own = {p["perspective"]: p["id"] for p in inputs["proposals"]}
        return {
            "attacks": [
                {"by": ids["finance"], "target": own[ids["risk"]], "reason": "finance objects to risk"},
                {"by": ids["finance"], "target": own[ids["risk"]], "reason": "again"},  # duplicate
                {"by": ids["relationship"], "target": own[ids["relationship"]], "reason": "I am wrong"},  # own
                {"by": ids["risk"], "target": "r99", "reason": "made up"},  # unknown
                {"by": ids["risk"], "target": own[ids["finance"]], "reason": "  "},  # blank reason
            ]
        }

    world.model.respond("critique_all", critique_all)
    d = world.bg.deliberations.deliberate(QUERY)
    assert len(d.attacks) == 1 and d.attacks[0].by == "finance"
    assert _attack_edges(graph, world.bg.space) == 1
    reasons = {(r.perspective, r.reason) for r in d.rejections}
    assert ("relationship", "a perspective cannot attack its own proposal") in reasons
    assert ("risk", "attack on unknown proposal 'r99'") in reasons
    assert ("finance", "duplicate attack on the same proposal") in reasons
    assert ("risk", "an attack needs a reason") in reasons
    assert all(r.stage == "critique" for r in d.rejections)
    # recorded on the stored deliberation, visible when read back
    again = world.bg.deliberations.get(d.id)
    assert {(r.perspective, r.reason) for r in again.rejections} == reasons
    assert d.mode == "compose" and _labels(d) == {"finance": "IN", "relationship": "IN", "risk": "OUT"}
    assert d.llm_calls == 2  # rejections cost no repair call


def test_citations_outside_the_proposers_interpretations_are_rejected(world: World) -> None:
    other = world.bg.perspectives.search(QUERY, "risk", k=1)[0].claim.id
    world.script([], cite={"finance": [other]})  # finance cites risk's interpretation only
    d = world.bg.deliberations.deliberate(QUERY)
    assert d.proposal_of("finance") is None and {p.perspective for p in d.proposals} == {"relationship", "risk"}
    stages = {(r.stage, r.perspective, r.item) for r in d.rejections}
    assert ("propose", "finance", other) in stages and ("propose", "finance", "proposal") in stages
    assert d.mode == "compose"


def test_bad_input_raises_typed_errors_and_writes_nothing(world: World, graph, base_settings) -> None:  # type: ignore[no-untyped-def]
    world.script([])
    space = world.bg.space
    before = (_count(graph, space, "Deliberation"), _count(graph, space, "Proposal"))
    for kwargs, err in (
        ({"query": "  "}, ValidationError),
        ({"query": QUERY, "perspectives": []}, ValidationError),
        ({"query": QUERY, "perspectives": ["risk", "risk"]}, ValidationError),
        ({"query": QUERY, "perspectives": ["marketing"]}, NotFoundError),
        ({"query": QUERY, "k": 0}, ValidationError),
    ):
        with pytest.raises(err):
            world.bg.deliberations.deliberate(**kwargs)
    # the LLM keeps answering propose_all with a proposal for an unknown perspective: EncodingError after repairs
    world.model.add("propose_all", {"proposals": [{"perspective": "p-nobody", "text": "x", "citations": []}]})
    with pytest.raises(EncodingError):
        world.bg.deliberations.deliberate(QUERY)
    assert (_count(graph, space, "Deliberation"), _count(graph, space, "Proposal")) == before
    assert world.calls() == 3  # 1 + 2 repair turns, nothing else
    with BeliefGraph.connect(
        space=f"empty-{uuid.uuid4().hex[:8]}",
        settings=base_settings,
        embedder=HashingEmbedder(),
        chat_model=ScriptedModel(),
    ) as empty:
        with pytest.raises(ValidationError, match="no perspectives"):
            empty.deliberations.deliberate(QUERY)


def test_a_perspective_without_interpretations_abstains(world: World) -> None:
    world.bg.perspectives.add_one("legal", "Stay compliant", ["Clause"])
    world.script([])
    d = world.bg.deliberations.deliberate(QUERY)
    assert d.abstained == ["legal"] and {p.perspective for p in d.proposals} == set(NAMES)
    only = world.bg.deliberations.deliberate(QUERY, ["legal"])
    assert only.mode == "none" and only.answer == "unknown" and only.llm_calls == 0


def test_retracting_a_cited_episode_makes_the_deliberation_stale_until_restored(world: World) -> None:
    world.script([])
    d = world.bg.deliberations.deliberate(QUERY)
    assert not d.stale
    cited = {c["episode"] for p in d.proposals for c in p.cited}
    ep = sorted(cited)[0]
    world.bg.retract([ep], "wrong account", agent="user:test")
    stale = world.bg.deliberations.get(d.id)
    assert stale.stale and stale.stale_citations
    assert all(c["status"] == "withdrawn" for p in stale.proposals for c in p.cited if c["episode"] == ep)
    assert any(s.stale for s in world.bg.deliberations.all() if s.id == d.id)
    world.bg.restore([ep], "right account", agent="user:test")
    assert not world.bg.deliberations.get(d.id).stale
    with pytest.raises(NotFoundError):
        world.bg.deliberations.get("no-such-deliberation")
