"""``belief-graph bench memory`` end to end against the real Neo4j: items played through remember,
scored, resumable from a journal, and the JSON rows the command promises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from belief_graph.settings import Settings
from belief_graph_lab.benchmarks.memory import run_memory, summarize
from belief_graph_lab.benchmarks.memory_models import gold_model
from belief_graph_lab.benchmarks.memory_suite import load_suite

ROW_FIELDS = {
    "category",
    "model",
    "items",
    "correct",
    "keys_per_fact",
    "surfaced",
    "stale_in_context",
    "false_stored",
    "dropped_turns",
    "unknown_with_gold",
}


def test_items_played_on_the_gold_and_noisy_models_resume_from_their_journal(
    base_settings: Settings, graph: Any, embedder: Any, tmp_path: Path
) -> None:
    items = [load_suite(categories=["update"])[2], load_suite(categories=["contradiction"])[0]]
    journal = tmp_path / "journal.jsonl"
    first = run_memory(base_settings, items, ["scripted", "noisy"], embedder=embedder, journal=journal)
    assert [(r.model, r.item) for r in first] == [(m, i.id) for m in ("scripted", "noisy") for i in items]
    assert len(journal.read_text().splitlines()) == 4
    scripted = first[0]
    assert scripted.errors == [] and scripted.fact_turns > 0 and scripted.dropped == 0
    assert scripted.keys == scripted.facts_stored > 0  # the gold keys: one key per fact
    assert scripted.questions == len(items[0].questions) and len(scripted.notes) == scripted.questions
    again = run_memory(base_settings, items, ["scripted", "noisy"], embedder=embedder, journal=journal)
    assert [r.as_dict() for r in again] == [r.as_dict() for r in first]  # read back, not played again
    rows = summarize(first)
    assert {(r["category"], r["model"]) for r in rows} == {
        (c, m) for c in ("update", "contradiction", "all") for m in ("scripted", "noisy")
    }
    assert all(ROW_FIELDS <= set(r) for r in rows)
    by = {(r["category"], r["model"]): r for r in rows}
    assert by["update", "scripted"]["surfaced"] is None  # no conflict asked about: does not apply
    assert by["contradiction", "scripted"]["surfaced"] is not None


def test_the_command_prints_rows_and_goals_as_json(run_cli: Any) -> None:
    out = run_cli(["bench", "memory", "--category", "distractor", "--limit", "1", "--json"])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {(r["category"], r["model"]) for r in data["rows"]} == {
        ("distractor", "scripted"),
        ("all", "scripted"),
        ("distractor", "noisy"),
        ("all", "noisy"),
    }
    assert all(ROW_FIELDS <= set(r) for r in data["rows"])
    assert {g["figure"] for g in data["goals"]} == {
        "dropped_turns",
        "keys_per_fact",
        "update_correct",
        "surfaced",
        "stale_in_context",
        "false_stored",
    }
    assert data["noise"]["key_drift"] == 0.35
    bad = run_cli(["bench", "memory", "--model", "gpt"])
    assert bad.returncode == 2 and "--model is one of scripted, noisy, live" in bad.stderr


def test_a_turn_the_model_cannot_read_is_counted_apart_from_a_dropped_one(
    base_settings: Settings, graph: Any, embedder: Any
) -> None:
    item = load_suite(categories=["update"])[0]
    botched = gold_model(item, name="botched").add("extract", "not json")  # every extraction reply invalid
    [r] = run_memory(base_settings, [item], ["live"], embedder=embedder, live_model=lambda: botched)
    assert r.fact_turns > 0 and r.dropped == 0  # the engine passed every fact-carrying turn on
    assert r.unreadable == r.fact_turns and r.written == 0  # the model's loss: nothing written
    assert all("EncodingError" in e for e in r.errors)
    [row] = [x for x in summarize([r]) if x["category"] == "all"]
    assert row["dropped_turns"] == 0.0 and row["unreadable_turns"] == 1.0


def test_a_live_run_its_journal_holds_whole_is_printed_again_without_a_model(
    base_settings: Settings, graph: Any, embedder: Any, tmp_path: Path, run_cli: Any
) -> None:
    item = load_suite(categories=["update"])[0]
    journal = tmp_path / "live.jsonl"
    played = run_memory(
        base_settings, [item], ["live"], embedder=embedder, live_model=lambda: gold_model(item), journal=journal
    )
    no_model = {"BELIEF_GRAPH_LLM__PROVIDER": "replay"}
    args = ["bench", "memory", "-m", "live", "-c", "update", "--journal", str(journal), "--json"]
    out = run_cli([*args, "--limit", "1"], **no_model)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert played[0].chat_model and data["live_model"] == played[0].chat_model  # the model played, not a setting
    printed = {r["category"]: r for r in data["rows"] if r["model"] == "live"}
    expected = {r["category"]: r for r in summarize(played)}
    assert printed == expected and printed["update"]["correct"] == 1.0  # the journal's figures, as played
    more = run_cli([*args, "--limit", "2"], **no_model)  # a second item the journal does not hold
    assert more.returncode == 1 and "needs a model" in more.stderr
    assert len(journal.read_text().splitlines()) == 1  # nothing played, nothing appended
