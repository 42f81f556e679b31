"""``bench llm-quality``: the labelled set, the scoring (with the label oracle: everything right),
and the side-by-side grounding measurement (with a scripted model that invents values), against
the real Neo4j. The numbers of a real model are in docs/llm.md."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings
from belief_graph_lab.benchmarks.llm_quality import (
    CATEGORIES,
    load_labels,
    oracle_model,
    run_quality,
    value_matches,
)


def test_the_labelled_set_is_big_enough_and_well_formed() -> None:
    labels = load_labels()
    us = labels["utterances"]
    assert len(us) >= 60 and len({u["id"] for u in us}) == len(us)
    assert {u["category"] for u in us} == set(CATEGORIES)
    for u in us:
        quiet = u["category"] in ("question", "small_talk")
        assert bool(u.get("expect")) != quiet, u["id"]
        if u["category"] in ("update", "change", "contradiction"):
            assert u["prior"] and u["action"] in ("UPDATE", "REPLACE")
            assert all(f["key"] == u["prior"][0]["key"] for f in u["expect"])
        if u["category"] == "contradiction":
            assert u["prior"][0]["agent"] != u.get("agent", "user:alice")
        if u["category"] == "several_facts":
            assert len(u["expect"]) >= 2
    assert len(labels["encodings"]) >= 12 and {e["relevant"] for e in labels["encodings"]} == {True, False}
    assert len(labels["critiques"]) >= 12 and {c["attack"] for c in labels["critiques"]} == {True, False}
    assert {e["perspective"] for e in labels["encodings"]} <= set(labels["perspectives"])


@pytest.mark.parametrize(
    ("expected", "stored", "ok"),
    [
        ("Lisbon", "Lisbon", True),
        ("Lisbon", "lisbon, Portugal", True),
        ("Toyota Corolla", "Toyota Corolla hybrid", True),
        ("pediatric nurse", "nurse", True),
        ("Lisbon", "Porto", False),
        (7, "7", True),
        (7, 7.0, True),
        (80000, "80k", True),
        (2000, "2,000 euros", False),
        ("2027-05-15", "15 May 2027", True),
        ("2027-05-15", "2027-06-15", False),
        (3, "three", False),
        ("May", "may", True),
        (True, "true", True),
        ("vegan", "vegetarian", False),
    ],
)
def test_value_matching(expected: Any, stored: Any, ok: bool) -> None:
    assert value_matches(expected, stored) is ok


def test_the_oracle_scores_everything_right(base_settings: Settings, graph: Any) -> None:
    labels = load_labels()
    data = run_quality(base_settings, oracle_model(labels), limit=2, labels=labels)
    for mode in ("ungrounded", "grounded"):
        assert data["remember"][mode]["all"]["accuracy"] == 1.0, data["rows"][f"remember_{mode}"]
        assert data["remember"][mode]["all"]["false_stored"] == 0
    for job in ("extract", "classify", "encode", "critique"):
        assert data["jobs"][job]["all"]["accuracy"] == 1.0, (job, data["rows"][job])
    assert data["remember"]["grounded"]["question"]["calls"] == 0  # no extraction call for a question


def test_grounding_lowers_false_stored_facts_side_by_side(base_settings: Settings, graph: Any) -> None:
    """A model that answers every turn with the right facts plus an invented one (and a fact for
    every question): without grounding the inventions are stored, with grounding none is."""
    labels = load_labels()
    by_text = {u["text"]: u for u in labels["utterances"]}

    def extract(inputs: Any) -> dict[str, Any]:
        turn = inputs["turns"][-1]
        u = by_text[turn["text"]]
        facts = [
            {
                "source": turn["id"],
                "key": f.get("key") or f"fact.{u['id']}_{n}",
                "value": f["value"],
                "text": turn["text"],
                "kind": "semantic",
                "confidence": 0.9,
            }
            for n, f in enumerate(u.get("expect") or [])
        ]
        facts.append(
            {
                "source": turn["id"],
                "key": "user.timezone",
                "value": "Europe/Berlin",
                "text": "The user's timezone is Europe/Berlin",
                "kind": "semantic",
                "confidence": 0.5,
            }
        )
        return {"facts": facts}

    model = oracle_model(labels)
    model.respond("extract", extract)  # the most recent responder wins
    assert isinstance(model, ScriptedModel)
    data = run_quality(base_settings, model, limit=1, labels=labels)
    off, on = data["remember"]["ungrounded"]["all"], data["remember"]["grounded"]["all"]
    assert off["false_stored"] >= len(labels["perspectives"]) and on["false_stored"] == 0
    assert on["accuracy"] == 1.0 and off["accuracy"] < on["accuracy"]
