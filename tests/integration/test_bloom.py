"""The Bloom / Explore perspective shipped in bloom/: current with the code, a category for every
label, rule-based colours by status and grounded label, and every search phrase runs (EXPLAIN) with
the parameters its phrase names."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from belief_graph.console.bloom import LABELS, PERSPECTIVE_FILE, perspective_json
from belief_graph.console.browser import GROUNDED_LABELS, STATUS_LABELS
from belief_graph.console.curated import questions
from belief_graph.db.driver import Graph
from belief_graph.db.registry import get_registry

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / PERSPECTIVE_FILE


@pytest.fixture(scope="module")
def persp() -> dict[str, Any]:
    return dict(json.loads(SHIPPED.read_text(encoding="utf-8")))


def test_the_shipped_file_is_what_the_code_generates() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == perspective_json(get_registry()), (
        "regenerate: belief-graph bloom perspective -o " + PERSPECTIVE_FILE
    )


def test_structure(persp: dict[str, Any]) -> None:
    for key in (
        "name",
        "id",
        "categories",
        "labels",
        "relationshipTypes",
        "templates",
        "palette",
        "hiddenRelationshipTypes",
        "hideUncategorisedData",
        "metadata",
        "version",
    ):
        assert key in persp, key
    cats = persp["categories"]
    assert len({c["id"] for c in cats}) == len(cats)
    names = [c["labels"][0] for c in cats]
    # every label the cypher/ statements create has a category (RcFrontier: transient worklist label)
    used = set()
    for path in (ROOT / "cypher").rglob("*.cypher"):
        for m in re.finditer(r"\(\w*((?::[A-Z]\w*)+)", path.read_text()):
            used |= set(m.group(1).strip(":").split(":"))
    assert used - {"RcFrontier"} <= set(names), used - set(names)
    # status labels come first, so a claim with a status label takes its colour; then the grounded
    # marks, so an argument or proposal takes the colour of its label
    assert names[: len(STATUS_LABELS)] == list(STATUS_LABELS.values())
    marks = list(GROUNDED_LABELS.values())
    assert names[len(STATUS_LABELS) : len(STATUS_LABELS) + len(marks)] == marks
    assert set(LABELS) <= set(names)
    for c in cats:
        assert c["captionKeys"] and c["captionKeys"][0] in {p["name"] for p in c["properties"]}, c["name"]
        assert re.fullmatch(r"#[0-9A-F]{6}", c["color"]), c
    by = {c["name"]: c for c in cats}
    claim_rules = {(r["basedOn"], r["conditionValue"]) for r in by["Claim"]["styleRules"]}
    assert claim_rules == {("status", s) for s in STATUS_LABELS}
    for label in ("Argument", "Proposal"):
        assert {(r["basedOn"], r["conditionValue"], r["color"]) for r in by[label]["styleRules"]} == {
            ("label", "IN", "#2E7D32"),
            ("label", "OUT", "#C62828"),
            ("label", "UNDEC", "#F9A825"),
        }
    assert [(by[m]["color"], by[m]["captionKeys"]) for m in marks] == [
        ("#2E7D32", ["label"]),
        ("#C62828", ["label"]),
        ("#F9A825", ["label"]),
    ]
    assert by["Justification"]["size"] < by["Claim"]["size"]


def test_search_phrases_are_the_curated_questions(persp: dict[str, Any]) -> None:
    qs = questions(get_registry())
    assert [t["cypher"] for t in persp["templates"]] == [q.query.text for q in qs]
    for t, q in zip(persp["templates"], qs, strict=True):
        params = [p["name"] for p in t["params"]]
        assert params == [f"${p}" for p in q.query.params]
        for p in params:
            assert p in t["text"], (t["text"], p)  # the phrase asks for every parameter
        assert set(re.findall(r"\$\w+", t["cypher"])) == set(params)


def test_every_saved_query_plans(persp: dict[str, Any], graph: Graph) -> None:
    for t in persp["templates"]:
        with graph.driver.session(database=graph.database) as session:
            summary = session.run("EXPLAIN " + t["cypher"]).consume()
        assert summary.plan is not None, t["name"]
