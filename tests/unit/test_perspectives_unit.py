"""Pure parts of perspectives: perspective files, specs, the LLM phase of a deliberation (scripted
model, no database), the mode rule and composition, and the shipped data files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import yaml

from belief_graph.errors import EncodingError, FormatError, ValidationError
from belief_graph.llm import LLMClient, ScriptedModel
from belief_graph.models import Claim
from belief_graph.models.perspectives import InterpretationHit, Perspective, ProposalRecord
from belief_graph.services.deliberation import Slate, compose, debate, mode_of
from belief_graph.services.perspectives import (
    example_perspectives_path,
    interpretation_id,
    make_spec,
    parse_perspectives,
)


def test_shipped_example_set_and_scenario_parse() -> None:
    specs = parse_perspectives(example_perspectives_path().read_text(encoding="utf-8"), "perspectives.yaml")
    assert [s.name for s in specs] == ["relationship", "risk", "finance"]
    assert all(s.goal and len(s.ontology) == 5 for s in specs)
    from belief_graph_lab.scenarios import load_scenario

    sc = load_scenario()
    assert len(sc.observations) == 8 and len(sc.queries) == 4
    names = {s.name: {c.name for c in s.ontology} for s in specs}
    for p, enc in sc.scripted["encodings"].items():  # scripted concepts belong to their perspective
        for item in enc.values():
            assert set(item["concepts"]) <= names[p]
    assert {s["perspective"] for s in sc.study} == set(names) and len(sc.study) >= 9


@pytest.mark.parametrize(
    "text,match,line",
    [
        ("perspectives:\n  - name: a\n    ontology: [X]\n", "goal", 2),
        ("perspectives:\n  - name: a\n    goal: g\n", "ontology", 2),
        ("perspectives:\n  - name: a\n    goal: g\n    ontology: []\n", "ontology", 2),
        ("- name: a\n  goal: g\n  ontology: [X]\n- name: a\n  goal: h\n  ontology: [Y]\n", "duplicate name", 4),
        ("- name: a\n  goal: g\n  ontology: [X, X]\n", "duplicate concept", 1),
        ("- name: a\n  goal: g\n  ontology: [X]\n  colour: red\n", "unknown keys", 1),
        ("perspectives: [\n", "malformed", None),
        ("perspectives: []\n", "non-empty list", 1),
    ],
)
def test_bad_perspective_files_raise_format_error_with_line(text: str, match: str, line: int | None) -> None:
    with pytest.raises(FormatError, match=match) as e:
        parse_perspectives(text, "p.yaml")
    if line is not None:
        assert e.value.line == line


def test_json_and_mapping_ontologies() -> None:
    specs = parse_perspectives(
        '{"perspectives": [{"name": "risk", "goal": "g", "ontology": {"Precedent": "d"}, "relevance": 0.3}]}', "p.json"
    )
    assert specs[0].ontology[0].name == "Precedent" and specs[0].ontology[0].description == "d"
    assert specs[0].relevance == 0.3
    assert [c.name for c in make_spec("x", "g", ["A", {"name": "B"}]).ontology] == ["A", "B"]
    for bad in (("x", "", ["A"]), ("x", "g", []), ("1x", "g", ["A"]), ("x", "g", ["A"], 2.0)):
        with pytest.raises(ValidationError):
            make_spec(*bad)


def test_interpretation_ids_are_deterministic_per_space_perspective_episode() -> None:
    a = interpretation_id("s", "risk", "e1")
    assert a == interpretation_id("s", "risk", "e1")
    assert (
        len(
            {
                a,
                interpretation_id("s", "finance", "e1"),
                interpretation_id("t", "risk", "e1"),
                interpretation_id("s", "risk", "e2"),
            }
        )
        == 4
    )


def test_mode_rule_and_composition() -> None:
    assert mode_of({}, 0) == "none"
    assert mode_of({"a": "IN", "b": "OUT"}, 2) == "select"
    assert mode_of({"a": "IN", "b": "IN", "c": "OUT"}, 3) == "compose"
    assert mode_of({"a": "UNDEC", "b": "OUT"}, 2) == "conflict"
    text, parts = compose(
        [
            ProposalRecord(id="2", perspective="risk", text="No.", citations=["i2"]),
            ProposalRecord(id="1", perspective="finance", text="Maybe.", citations=["i1", "i3"]),
        ]
    )
    assert [p.perspective for p in parts] == ["finance", "risk"] and parts[0].citations == ["i1", "i3"]
    assert text == "[finance] Maybe. (cites i1, i3)\n[risk] No. (cites i2)"


def _slates(n: int = 3) -> list[Slate]:
    return [
        Slate(
            Perspective(id=f"p{i}", name=f"n{i}", goal="g"),
            [
                InterpretationHit(
                    claim=Claim(id=f"i{i}{j}", text=f"t{i}{j}", kind="interpretation", agent="x"),
                    perspective=f"n{i}",
                    score=1.0,
                )
                for j in range(2)
            ],
        )
        for i in range(n)
    ]


def _proposals(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "proposals": [
            {"perspective": e["perspective"]["id"], "text": "ans", "citations": [e["beliefs"][0]["id"]]}
            for e in inputs["perspectives"]
        ]
    }


def test_debate_batched_is_two_calls_and_records_rejections() -> None:
    def critique(inputs: Mapping[str, Any]) -> dict[str, Any]:
        own = {p["perspective"]: p["id"] for p in inputs["proposals"]}
        return {
            "attacks": [
                {"by": "p0", "target": own["p1"], "reason": "no"},
                {"by": "p1", "target": own["p1"], "reason": "self"},
                {"by": "p2", "target": "ghost", "reason": "who?"},
            ]
        }

    m = ScriptedModel().respond("propose_all", _proposals).respond("critique_all", critique)
    client = LLMClient(m)
    ids = iter(["A", "B", "C"])
    d = debate(client, "q?", _slates(), new_id=lambda: next(ids))
    assert d.calls == 2 and [p.id for p in d.proposals] == ["A", "B", "C"]
    assert [(a.attacker, a.target, a.by) for a in d.attacks] == [("A", "B", "n0")]
    assert {r.reason for r in d.rejections} == {
        "a perspective cannot attack its own proposal",
        "attack on unknown proposal 'ghost'",
    }
    # one proposal: nothing to critique, one call
    single = LLMClient(ScriptedModel().respond("propose_all", _proposals))
    assert debate(single, "q?", _slates(1)).calls == 1


def test_debate_per_perspective_records_a_critique_that_stays_invalid() -> None:
    def propose(inputs: Mapping[str, Any]) -> dict[str, Any]:
        return {"text": "ans", "citations": [inputs["beliefs"][0]["id"]]}

    def critique(inputs: Mapping[str, Any]) -> dict[str, Any]:
        me = inputs["perspective"]["id"]
        mine = next(p["id"] for p in inputs["proposals"] if p["perspective"] == me)
        return {"attacks": [{"target": mine, "reason": "I attack myself"}] if me == "p0" else []}

    client = LLMClient(ScriptedModel().respond("propose", propose).respond("critique", critique), repair_attempts=1)
    d = debate(client, "q?", _slates(), batched=False)
    assert len(d.proposals) == 3 and not d.attacks
    assert [(r.stage, r.perspective, r.item) for r in d.rejections] == [("critique", "n0", "critique")]
    assert "own proposal" in d.rejections[0].reason
    assert d.calls == 3 + 2 + 1 + 1  # 3 proposes, p0's critique twice (1 repair), 2 other critiques


def test_debate_batched_invalid_answer_is_an_encoding_error() -> None:
    client = LLMClient(ScriptedModel().add("propose_all", {"proposals": []}), repair_attempts=1)
    with pytest.raises(EncodingError):
        debate(client, "q?", _slates())


def test_package_data_files_are_inside_the_package() -> None:
    """hatch ships every file under belief_graph/ in the wheel ([tool.hatch.build.targets.wheel]
    packages), so data files must live there (test_wheel checks the built archive's resources);
    the scenario's data lives with the scenario in the lab package."""
    from importlib.resources import files

    for package, name in (("belief_graph", "perspectives.yaml"), ("belief_graph_lab", "rashomon.yaml")):
        f = files(package) / "data" / name
        assert f.is_file() and yaml.safe_load(f.read_text(encoding="utf-8"))
