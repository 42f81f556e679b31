"""``bench memory --model live`` on the real local model, on the suite's two shortest items of two
categories: the whole path runs (every fact-carrying turn reaches the model, every question is
asked) and scores. How well a 1.5B model does is measured by the bench, not asserted here."""

from __future__ import annotations

import pytest

from belief_graph.llm import make_chat_model
from belief_graph.llmserver import LLMServerStatus
from belief_graph.settings import Settings
from belief_graph_lab.benchmarks.memory import run_memory, summarize
from belief_graph_lab.benchmarks.memory_suite import load_suite

pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1800)]


def _shortest(category: str) -> list:  # type: ignore[type-arg]
    items = load_suite(categories=[category])
    return sorted(items, key=lambda i: (sum(1 for _ in i.turns()), len(i.questions), i.id))[:1]


def test_the_memory_bench_runs_end_to_end_on_the_real_model(
    real_settings: Settings,
    graph,  # type: ignore[no-untyped-def]
    embedder,  # type: ignore[no-untyped-def]
    local_llm: LLMServerStatus,
) -> None:
    items = _shortest("update") + _shortest("distractor")
    results = run_memory(
        real_settings,
        items,
        ["live"],
        embedder=embedder,
        live_model=lambda: make_chat_model(real_settings.llm, real_settings.llm_server),
    )
    assert [r.item for r in results] == [i.id for i in items]
    for r, item in zip(results, items, strict=True):
        assert r.model == "live" and r.calls > 0
        # every turn that states a fact reached the model; a reply the small model botched (invalid
        # after the repairs, or timed out on a loaded machine) is counted apart, as the model's loss
        assert r.fact_turns > 0 and r.dropped == 0, r.errors
        assert r.unreadable == sum(1 for e in r.errors if "EncodingError" in e)
        assert r.questions == len(item.questions) == len(r.notes)
        assert not [e for e in r.errors if "Unavailable" in e], r.errors
    assert sum(r.written for r in results) > 0, [r.errors for r in results]  # something said was stored
    rows = summarize(results)
    assert {(x["category"], x["model"]) for x in rows} == {("update", "live"), ("distractor", "live"), ("all", "live")}
