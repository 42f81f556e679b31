"""The conversation suite of ``bench memory``: it loads, follows its format, and has what the bench
promises in every category."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from belief_graph.services.turns.clauses import clauses
from belief_graph_lab.benchmarks.memory_suite import CATEGORIES, SuiteError, load_suite


def test_every_category_has_at_least_30_items_with_their_origin() -> None:
    items = load_suite()
    counts = Counter(i.category for i in items)
    assert set(counts) == set(CATEGORIES)
    assert min(counts.values()) >= 30
    assert all("written for belief_graph" in i.origin for i in items)


def test_every_category_states_facts_inside_questions_and_requests() -> None:
    for cat in CATEGORIES:
        turns = [t for i in load_suite(categories=[cat]) for _, _, _, t in i.turns() if t.states]
        asking = [t for t in turns if any(c.mood in ("question", "request") for c in clauses(t.text))]
        assert len(asking) * 3 >= len(turns), f"{cat}: {len(asking)} of {len(turns)} fact turns also ask"


def test_a_malformed_item_is_a_suite_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "items:\n"
        "  - id: upd-999\n    category: update\n    origin: written for belief_graph, a test\n"
        "    user: user:x\n    facts: {a: {key: user.a, about: a}, b: {key: user.a, about: b}}\n"
        "    sessions: [{at: 2026-01-01T00:00:00Z, turns: [{agent: user:x, text: hi}]}]\n"
        "    questions: [{ask: q, unknown: true}]\n",
        encoding="utf-8",
    )
    with pytest.raises(SuiteError, match="(?s)upd-999.*share the key"):
        load_suite([bad])
