"""Perspectives against a real Neo4j: adding and loading perspectives (all or nothing),
goal-parameterized encoding of the concession scenario with scripted LLM answers and the real
local MiniLM embeddings, idempotent re-encoding, retrieval by perspective, reconsolidation of
interpretations, and the CLI (perspectives group, `demo rashomon`, `bench perspectives`)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from belief_graph import BeliefGraph
from belief_graph.cli import app
from belief_graph.errors import EpisodeNotFound, FormatError, LLMUnavailable, NotFoundError, ValidationError
from belief_graph.llm import ScriptedModel
from belief_graph.services.perspectives import example_perspectives_path, interpretation_id
from belief_graph_lab.scenarios import ScriptedRashomon, load_scenario, setup_scenario

runner = CliRunner()
NO_KEY = {"BELIEF_GRAPH_LLM__API_KEY": "", "COLUMNS": "200"}


def _count(graph: Any, space: str) -> dict[str, int]:
    rows = graph.driver.execute_query(
        "MATCH (n) WHERE n.space = $space RETURN labels(n)[0] AS l, count(*) AS n",
        space=space,
        database_=graph.database,
    ).records
    return {r["l"]: r["n"] for r in rows}


def _edges(graph: Any, space: str) -> int:
    return graph.driver.execute_query(
        "MATCH (n)-[r]->() WHERE n.space = $space RETURN count(r) AS n", space=space, database_=graph.database
    ).records[0]["n"]


# ---------------------------------------------------------------------------------------- scenario


class Loaded:
    def __init__(self, bg: BeliefGraph, script: ScriptedRashomon, keys: dict[str, str], enc: Any, model: ScriptedModel):
        self.bg, self.script, self.keys, self.enc, self.model = bg, script, keys, enc, model


@pytest.fixture(scope="module")
def scenario(base_settings, graph, embedder) -> Iterator[Loaded]:  # type: ignore[no-untyped-def]
    """The concession scenario encoded once (8 observations x 3 perspectives, scripted answers)."""
    space = f"test-rashomon-{uuid.uuid4().hex[:8]}"
    script = ScriptedRashomon(load_scenario())
    model = script.model()
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as bg:
        try:
            keys = setup_scenario(bg, script.scenario, script)
            enc = bg.perspectives.encode()
            yield Loaded(bg, script, keys, enc, model)
        finally:
            graph.write("admin.delete_space", space=space)


def test_encoding_8x3_takes_3_llm_calls_and_reports_the_matrix(scenario: Loaded) -> None:
    enc, keys = scenario.enc, scenario.keys
    assert enc.llm_calls == 3  # one encode call per perspective (the published proof of concept: 37)
    assert scenario.bg.llm_usage().llm.calls_for("encode") == 3
    assert enc.possible == 24 and len(enc.cells) == 24
    # the cheap pre-filter drops small talk for every perspective: the LLM never sees it
    assert all(not enc.cell(keys["o5"], p).prefilter for p in enc.perspectives)
    assert all(c.relevant is None for c in enc.cells if not c.prefilter)
    sent = [r for r in scenario.model.calls_for("encode")]
    assert len(sent) == 3 and all(len(r.inputs["observations"]) < 8 for r in sent)
    # the LLM decides among the pre-filtered ones: passed = the scripted relevant pairs that got through
    scripted = scenario.script.scenario.scripted["encodings"]
    expected = {(keys[o], p) for p, m in scripted.items() for o in m}
    passed = {(c.episode, c.perspective) for c in enc.cells if c.passed}
    assert passed == {pair for pair in expected if enc.cell(*pair).prefilter}
    assert enc.passed == 13 and len(enc.written) == 13
    summary = enc.summary()
    assert summary["possible"] == 24 and summary["passed"] == 13 and summary["llm_calls"] == 3
    assert summary["prefiltered"] == 21


def test_interpretations_are_justified_claims_linked_to_their_concepts(scenario: Loaded, graph) -> None:  # type: ignore[no-untyped-def]
    bg, keys = scenario.bg, scenario.keys
    cid = interpretation_id(bg.space, "risk", keys["o2"])
    rec = graph.driver.execute_query(
        "MATCH (c:Claim:Interpretation {space: $space, id: $id}) "
        "MATCH (e:Episode)-[:PREMISE_OF]->(j:Justification)-[:JUSTIFIES]->(c) "
        "RETURN c.kind AS kind, c.key AS key, c.perspective AS p, c.status AS status, c.agent AS agent, "
        "size(c.embedding) AS dim, e.id AS episode, [(c)-[:INSTANCE_OF]->(k:Concept) | k.name] AS concepts, "
        "[(pp:Perspective)-[:HAS_CONCEPT]->(k:Concept)<-[:INSTANCE_OF]-(c) | pp.name] AS owners",
        space=bg.space,
        id=cid,
        database_=graph.database,
    ).records
    assert len(rec) == 1
    r = rec[0]
    assert (r["kind"], r["key"], r["p"], r["status"], r["agent"]) == (
        "interpretation",
        None,
        "risk",
        "active",
        "perspective:risk",
    )
    assert r["dim"] == 384 and r["episode"] == keys["o2"]
    assert sorted(r["concepts"]) == ["ApprovalBypass", "ContractGap", "LegalExposure"]
    assert set(r["owners"]) == {"risk"}  # concepts of its own perspective only
    c = bg.beliefs.claim(cid)
    assert c.kind == "interpretation" and "legal review" in c.text


def test_reencoding_is_idempotent_and_makes_no_llm_call(scenario: Loaded, graph) -> None:  # type: ignore[no-untyped-def]
    bg = scenario.bg
    before, edges = _count(graph, bg.space), _edges(graph, bg.space)
    calls = bg.llm_usage().llm.calls_for("encode")
    again = bg.perspectives.encode()
    assert again.llm_calls == 0 and again.written == []
    assert bg.llm_usage().llm.calls_for("encode") == calls
    assert {c.interpretation for c in again.cells if c.passed} == {
        c.interpretation for c in scenario.enc.cells if c.passed
    }
    assert all(c.already and c.cached for c in again.cells if c.passed)
    assert all(c.cached for c in again.cells if c.relevant is False)  # "not relevant" was recorded too
    assert again.summary()["cached"] == 21 - 0 and not any(c.prefilter and not c.cached for c in again.cells)
    assert _count(graph, bg.space) == before and _edges(graph, bg.space) == edges
    one = bg.perspectives.encode([scenario.keys["o1"]], ["risk"])
    assert one.possible == 1 and one.cells[0].already and one.llm_calls == 0
    # the recorded "not relevant" decisions (JUDGED_IRRELEVANT) are edges, not claims
    n = graph.driver.execute_query(
        "MATCH (p:Perspective {space: $s})-[r:JUDGED_IRRELEVANT]->(:Episode) RETURN count(r) AS n",
        s=bg.space,
        database_=graph.database,
    ).records[0]["n"]
    assert n == 21 - 13


def test_retrieval_by_perspective_finds_what_raw_words_do_not_say(scenario: Loaded) -> None:
    bg, keys = scenario.bg, scenario.keys
    # o2's raw text never says "legal review", "exposure" or "risk"
    raw = next(o["text"] for o in scenario.script.scenario.observations if o["key"] == "o2")
    assert "legal" not in raw.lower() and "risk" not in raw.lower()
    hits = bg.perspectives.search("Where did we make commitments without legal review?", "risk", k=3)
    assert hits[0].episode == keys["o2"] and hits[0].perspective == "risk"
    assert all(h.perspective == "risk" and h.claim.kind == "interpretation" for h in hits)
    assert hits[0].score >= hits[-1].score
    fin = bg.perspectives.search("How much margin did we lose?", "finance", k=10)
    assert {h.perspective for h in fin} == {"finance"} and len(fin) == 4  # only finance's 4 interpretations
    with pytest.raises(NotFoundError):
        bg.perspectives.search("x", "marketing")
    with pytest.raises(ValidationError):
        bg.perspectives.search("  ", "risk")


def test_retracting_the_episode_withdraws_every_perspectives_interpretation(scenario: Loaded) -> None:
    bg, keys = scenario.bg, scenario.keys
    ids = {p: interpretation_id(bg.space, p, keys["o7"]) for p in ("relationship", "risk", "finance")}
    audit = bg.retract([keys["o7"]], "logged on the wrong account", agent="user:test")
    try:
        assert set(audit.withdrawn_ids) == set(ids.values())
        assert all(bg.beliefs.claim(i).status.value == "withdrawn" for i in ids.values())
        hits = bg.perspectives.search("Is an affiliate claiming the parent's terms?", "risk", k=10)
        assert ids["risk"] not in {h.claim.id for h in hits}
        with pytest.raises(ValidationError, match="retracted"):
            bg.perspectives.encode([keys["o7"]])
    finally:
        restored = bg.restore([keys["o7"]], "right account after all", agent="user:test")
    assert set(restored.reinstated_ids) == set(ids.values())
    assert all(bg.beliefs.claim(i).status.value == "active" for i in ids.values())


def test_encode_errors_are_typed_and_write_nothing(scenario: Loaded, graph) -> None:  # type: ignore[no-untyped-def]
    bg = scenario.bg
    before = _count(graph, bg.space)
    with pytest.raises(EpisodeNotFound):
        bg.perspectives.encode(["no-such-episode"])
    with pytest.raises(NotFoundError):
        bg.perspectives.encode(perspectives=["marketing"])
    with pytest.raises(ValidationError):
        bg.perspectives.encode(perspectives=[])
    with pytest.raises(ValidationError):
        bg.perspectives.encode(perspectives=["risk", "risk"])
    with pytest.raises(ValidationError):
        bg.perspectives.encode([])
    assert _count(graph, bg.space) == before


# ------------------------------------------------------------------------------ fresh-space tests


def test_add_perspective_and_bad_input(bg: BeliefGraph, graph) -> None:  # type: ignore[no-untyped-def]
    p = bg.perspectives.add_one(
        "risk",
        "Spot legal risks",
        [{"name": "Precedent", "description": "a claimable concession"}, {"name": "LegalExposure"}],
        relevance=0.2,
    )
    assert p.name == "risk" and [c.name for c in p.concepts] == ["LegalExposure", "Precedent"] and p.relevance == 0.2
    assert bg.perspectives.add_one("growth", "Grow revenue", {"Upsell": "selling more"}).concepts[0].name == "Upsell"
    before = _count(graph, bg.space)
    assert before["Perspective"] == 2 and before["Concept"] == 3
    for args in (
        ("risk", "dup", ["X"]),  # duplicate name
        ("nogoal", "  ", ["X"]),  # no goal
        ("noontology", "a goal", []),  # no ontology
        ("noontology2", "a goal", None),
        ("dupconcepts", "a goal", ["X", "X"]),
        ("bad name!", "a goal", ["X"]),
    ):
        with pytest.raises(ValidationError):
            bg.perspectives.add_one(*args)
    assert _count(graph, bg.space) == before
    # the concept embeddings are real and indexed: a risk-worded probe finds the risk concept
    rows = graph.driver.execute_query(
        "CALL db.index.vector.queryNodes('concept_embedding', 1000, $v) YIELD node, score "
        "WHERE node.space = $space RETURN node.name AS name ORDER BY score DESC LIMIT 1",
        v=bg.embedder.embed_query("a discount others can demand too"),
        space=bg.space,
        database_=graph.database,
    ).records
    assert rows[0]["name"] == "Precedent"


def test_load_perspectives_file_all_or_nothing(bg: BeliefGraph, graph, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    got = bg.perspectives.load(example_perspectives_path())
    assert [p.name for p in got] == ["finance", "relationship", "risk"]
    assert all(len(p.concepts) == 5 and p.goal for p in got)
    before = _count(graph, bg.space)
    # a file whose second perspective clashes with an existing name: nothing of it is added
    f = tmp_path / "more.json"
    f.write_text(
        json.dumps(
            {
                "perspectives": [
                    {"name": "legal", "goal": "Stay compliant", "ontology": [{"name": "Clause"}]},
                    {"name": "risk", "goal": "again", "ontology": ["X"]},
                ]
            }
        )
    )
    with pytest.raises(ValidationError, match="already exist"):
        bg.perspectives.load(f)
    dup = tmp_path / "dup.yaml"
    dup.write_text(
        "perspectives:\n  - name: a\n    goal: g\n    ontology: [X]\n  - name: a\n    goal: g\n    ontology: [Y]\n"
    )
    with pytest.raises(FormatError, match="duplicate name") as e:
        bg.perspectives.load(dup)
    assert e.value.line == 5
    assert _count(graph, bg.space) == before


def test_encode_without_perspectives_and_llm_failures_write_nothing(
    bg: BeliefGraph, graph, base_settings, embedder
) -> None:  # type: ignore[no-untyped-def]
    ep = bg.add_episode("Acme asked for a 15% discount on the renewal", "agent:crm")
    with pytest.raises(ValidationError, match="no perspectives"):
        bg.perspectives.encode()
    bg.perspectives.add_one(
        "finance",
        "Protect margin",
        [{"name": "DiscountCost", "description": "money given away by discounts"}],
        relevance=-1.0,
    )
    bg.perspectives.add_one(
        "risk", "Spot precedents", [{"name": "Precedent", "description": "a concession others claim"}], relevance=-1.0
    )
    before = _count(graph, bg.space)
    # no model answer at all: LLMUnavailable, nothing written
    with BeliefGraph.connect(
        space=bg.space, settings=base_settings, embedder=embedder, chat_model=ScriptedModel()
    ) as b2:
        with pytest.raises(LLMUnavailable):
            b2.perspectives.encode()
    assert _count(graph, bg.space) == before

    # finance answers with a concept outside its ontology every time: recorded as rejected,
    # risk's valid answer is still written
    def reply(inputs: dict[str, Any]) -> dict[str, Any]:
        concept = "Precedent" if inputs["perspective"]["name"] == "risk" else "Vibes"
        return {
            "items": [
                {
                    "observation": o["id"],
                    "relevant": True,
                    "interpretation": "It matters.",
                    "concepts": [concept],
                    "confidence": 0.5,
                }
                for o in inputs["observations"]
            ]
        }

    with BeliefGraph.connect(
        space=bg.space, settings=base_settings, embedder=embedder, chat_model=ScriptedModel().respond("encode", reply)
    ) as b3:
        r = b3.perspectives.encode()
        fin, risk = r.cell(ep.id, "finance"), r.cell(ep.id, "risk")
        assert fin.rejected and "Vibes" in fin.rejected and fin.interpretation is None
        assert risk.passed and risk.concepts == ["Precedent"]
        assert r.llm_calls == 1 + 3  # risk once; finance 1 + 2 repair turns, then rejected
    after = _count(graph, bg.space)
    assert after["Claim"] == before.get("Claim", 0) + 1


# ------------------------------------------------------------------------------------------- CLI


def test_cli_perspectives_group(bg: BeliefGraph) -> None:
    sp = ["--space", bg.space]
    r = runner.invoke(app, sp + ["perspectives", "load", "--example", "--json"], env=NO_KEY)
    assert r.exit_code == 0, r.output
    assert [p["name"] for p in json.loads(r.output)] == ["finance", "relationship", "risk"]
    r = runner.invoke(app, sp + ["perspectives", "list", "--json"], env=NO_KEY)
    assert r.exit_code == 0 and len(json.loads(r.output)) == 3
    r = runner.invoke(app, sp + ["perspectives", "show", "risk", "--json"], env=NO_KEY)
    assert r.exit_code == 0 and json.loads(r.output)["name"] == "risk"
    r = runner.invoke(
        app,
        sp + ["perspectives", "add", "legal", "--goal", "Stay compliant", "-c", "Clause: a contract clause"],
        env=NO_KEY,
    )
    assert r.exit_code == 0 and "Clause" in r.output
    r = runner.invoke(app, sp + ["perspectives", "load", "--example"], env=NO_KEY)
    assert r.exit_code != 0 and "already exist" in str(r.exception or r.output)
    r = runner.invoke(app, sp + ["perspectives", "deliberate", "What now?", "--json"], env=NO_KEY)
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["mode"] == "none" and sorted(d["abstained"]) == ["finance", "legal", "relationship", "risk"]
    r = runner.invoke(app, sp + ["perspectives", "deliberation", d["id"], "--json"], env=NO_KEY)
    assert r.exit_code == 0 and json.loads(r.output)["id"] == d["id"]
    r = runner.invoke(app, sp + ["perspectives", "deliberations", "--json"], env=NO_KEY)
    assert r.exit_code == 0 and json.loads(r.output)[0]["id"] == d["id"]


def test_cli_demo_rashomon_prints_encodings_attack_graphs_labels_and_modes(space: str, graph) -> None:  # type: ignore[no-untyped-def]
    r = runner.invoke(app, ["--space", space, "demo", "rashomon", "--no-server"], env=NO_KEY)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "SCRIPTED answers" in out and "NOT a language model" in out and "[SCRIPTED]" in out
    assert "encodings passed: 13 of 24 possible" in out and "LLM calls: 3" in out
    for mode in ("mode: conflict", "mode: compose", "mode: select"):
        assert mode in out
    assert "risk -> relationship: Matching the terms turns an unreviewed one-off" in out  # an edge with its reason
    assert "labels: finance UNDEC, relationship UNDEC, risk UNDEC" in out
    assert "(no attacks)" in out and "stale: True" in out and "stale again? False" in out
    assert out.count("(LLM calls: 2)") == 4


def test_cli_bench_perspectives_json(space: str) -> None:
    r = runner.invoke(app, ["bench", "perspectives", "--json"], env=NO_KEY)
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["embedder"] == "all-MiniLM-L6-v2" and data["questions"] >= 9
    assert {r["perspective"] for r in data["rows"]} == {"risk", "relationship", "finance"}
    for row in data["rows"]:
        assert {"question", "relevant", "raw_rank", "raw_same_pool_rank", "perspective_rank"} <= set(row)
    assert set(data["summary"]) == {"raw_rank", "raw_same_pool_rank", "perspective_rank"}
    assert data["summary"]["perspective_rank"]["mrr"] >= data["summary"]["raw_rank"]["mrr"]
