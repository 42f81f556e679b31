"""Replay files, the shipped demo file, the settings factory, usage accounting and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.embeddings import EmbeddingUsage
from belief_graph.errors import ConfigurationError, EncodingError, FormatError, LLMUnavailable
from belief_graph.llm import (
    LLMClient,
    RecordingModel,
    ReplayFile,
    ReplayModel,
    ScriptedModel,
    Timeout,
    Unavailable,
    UsageReport,
    demo_replay_path,
    get_prompts,
    make_chat_model,
    make_client,
    resolve_provider,
)
from belief_graph.llm.jobs import job_spec
from belief_graph.settings import LLMSettings, load_settings
from belief_graph_lab.llm_demo import DEMO_MODEL, DEMO_SCRIPT, record_demo

runner = CliRunner()


# ------------------------------------------------------------------ the shipped demo file


def test_shipped_demo_replay_is_current(tmp_path: Path) -> None:
    """Re-recording the demo script gives exactly the shipped file (else: `belief-graph llm record-demo`)."""
    fresh = ReplayFile.load(Path(str(record_demo(tmp_path / "demo.json")["path"])))
    shipped = ReplayFile.load(demo_replay_path())
    assert shipped.meta == fresh.meta
    assert shipped.entries == fresh.entries, "run `belief-graph llm record-demo` and commit the file"


def test_shipped_demo_file_says_it_is_not_a_real_model() -> None:
    rf = ReplayFile.load(demo_replay_path())
    assert rf.meta["model"] == DEMO_MODEL
    assert rf.meta["source"].startswith("NOT a real model")
    assert rf.meta["prompts"] == {n: p.version for n, p in sorted(get_prompts().items())}
    assert set(rf.jobs()) == {"extract", "classify", "disambiguate", "encode", "critique", "judge", "propose", "answer"}


def test_every_demo_step_replays_from_the_shipped_file_with_fresh_ids() -> None:
    client = LLMClient(ReplayModel.load())
    assert client.is_replay and "NOT a real model" in client.describe()
    for step in DEMO_SCRIPT:
        result = client.run(step.job, step.inputs)
        assert result.output == job_spec(step.job).output_model.model_validate(step.output)
    assert client.usage().calls == len(DEMO_SCRIPT)
    assert client.usage().total.tokens_in > 0  # the stub's estimates were recorded
    # generated ids differ from run to run; the prompts show aliases, so the replay still answers
    step = DEMO_SCRIPT[0]
    turns = [{**t, "id": "0190-" + t["id"]} for t in step.inputs["turns"]]
    out = client.extract(turns, step.inputs["known_keys"]).output
    assert out.facts[0].source == "0190-" + step.output["facts"][0]["source"]


# ------------------------------------------------------------------ replay files


def test_replay_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(FormatError, match="not JSON"):
        ReplayFile.load(bad)
    bad.write_text(json.dumps({"format": "other"}))
    with pytest.raises(FormatError, match="not a replay file"):
        ReplayFile.load(bad)
    bad.write_text(
        json.dumps({"format": "belief_graph.replay/1", "meta": {"model": "m"}, "entries": {"k": {"job": "x"}}})
    )
    with pytest.raises(FormatError, match="malformed"):
        ReplayFile.load(bad)
    with pytest.raises(LLMUnavailable, match="does not exist"):
        ReplayModel.load(tmp_path / "missing.json")


def test_recording_extends_a_file_of_the_same_model_only(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    judge = {
        "question": "q",
        "contenders": [{"id": "a", "agent": "x", "text": "A"}, {"id": "b", "agent": "y", "text": "B"}],
    }
    m1 = ScriptedModel("model-1").add("judge", {"winner": "a", "rationale": "r"})
    LLMClient(RecordingModel(m1, path)).run("judge", judge)
    LLMClient(RecordingModel(m1, path)).run("judge", {**judge, "question": "q2"})
    rf = ReplayFile.load(path)
    assert len(rf.entries) == 2 and rf.meta["model"] == "model-1"
    assert all(e["prompt"] == "judge@1" and e["attempt"] == 1 for e in rf.entries.values())
    with pytest.raises(ConfigurationError, match="holds model 'model-1'"):
        RecordingModel(ScriptedModel("model-2"), path)
    # an invalid answer is recorded (it is what the model said, and replays the same repair) ...
    m3 = ScriptedModel("model-1").add("judge", "garbage")
    with pytest.raises(EncodingError):
        LLMClient(RecordingModel(m3, path), repair_attempts=0).run("judge", {**judge, "question": "q3"})
    assert len(ReplayFile.load(path).entries) == 3
    # ... a timeout or an unreachable endpoint is not
    m4 = ScriptedModel("model-1").add("judge", Timeout(), Unavailable())
    with pytest.raises(EncodingError):
        LLMClient(RecordingModel(m4, path), repair_attempts=0).run("judge", {**judge, "question": "q4"})
    with pytest.raises(LLMUnavailable):
        LLMClient(RecordingModel(m4, path), repair_attempts=0).run("judge", {**judge, "question": "q5"})
    assert len(ReplayFile.load(path).entries) == 3


# ------------------------------------------------------------------ settings and factory


def test_provider_auto_is_replay_without_a_key_and_openai_with_one(tmp_path: Path) -> None:
    assert resolve_provider(LLMSettings()) == "replay"
    assert resolve_provider(LLMSettings(api_key=SecretStr(""))) == "replay"
    assert resolve_provider(LLMSettings(api_key=SecretStr("sk-x"))) == "openai"
    assert resolve_provider(LLMSettings(provider="openai")) == "openai"
    replay = make_chat_model(LLMSettings())
    assert isinstance(replay, ReplayModel) and replay.name == DEMO_MODEL
    from belief_graph.llm.openai import OpenAIChatModel

    live = make_chat_model(LLMSettings(api_key=SecretStr("sk-x"), model="gpt-x", base_url="http://127.0.0.1:9/v1"))
    assert isinstance(live, OpenAIChatModel) and live.name == "gpt-x"
    local = make_chat_model(LLMSettings(provider="openai", base_url="http://127.0.0.1:9/v1"))  # no key needed
    assert isinstance(local, OpenAIChatModel)
    rec = make_chat_model(
        LLMSettings(provider="openai", base_url="http://127.0.0.1:9/v1", record_file=tmp_path / "r.json")
    )
    assert isinstance(rec, RecordingModel)
    client = make_client(LLMSettings(repair_attempts=4, max_batch=7))
    assert (client.repair_attempts, client.max_batch) == (4, 7)


def test_llm_settings_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_LLM__PROVIDER", "replay")
    monkeypatch.setenv("BELIEF_GRAPH_LLM__REPLAY_FILE", str(tmp_path / "x.json"))
    monkeypatch.setenv("BELIEF_GRAPH_LLM__REPAIR_ATTEMPTS", "1")
    monkeypatch.setenv("BELIEF_GRAPH_LLM__STRUCTURED_OUTPUT", "function_calling")
    s = load_settings().llm
    assert (s.provider, s.replay_file, s.repair_attempts, s.structured_output) == (
        "replay",
        tmp_path / "x.json",
        1,
        "function_calling",
    )
    monkeypatch.setenv("BELIEF_GRAPH_LLM__PROVIDER", "magic")
    with pytest.raises(ConfigurationError, match="BELIEF_GRAPH_LLM__PROVIDER"):
        load_settings()


# ------------------------------------------------------------------ usage


def test_usage_report_lines_and_dict() -> None:
    model = ScriptedModel().add("judge", "{", {"winner": None, "rationale": "tie"})
    client = LLMClient(model)
    client.run(
        "judge",
        {
            "question": "q",
            "contenders": [{"id": "a", "agent": "x", "text": "A"}, {"id": "b", "agent": "y", "text": "B"}],
        },
    )
    report = UsageReport(llm=client.usage(), embedding=EmbeddingUsage(2, 5, 0.25), model="scripted", embedder="hash")
    d = report.to_dict()
    assert d["llm"]["jobs"]["judge"]["calls"] == 2 and d["llm"]["jobs"]["judge"]["failed"] == 1
    assert d["llm"]["total"]["unreported"] == 2
    assert d["embedding"] == {"model": "hash", "calls": 2, "items": 5, "seconds": 0.25}
    text = "\n".join(report.lines())
    assert "judge" in text and "calls 2 (ok 1, failed 1)" in text and "embedding usage (hash): calls 2, items 5" in text
    records = client.meter.records
    assert [r.outcome for r in records] == ["invalid", "ok"] and [r.attempt for r in records] == [1, 2]
    assert client.meter.reset().calls == 2 and client.usage().calls == 0


# ------------------------------------------------------------------ CLI


def test_bench_llm_json_reports_at_most_one_call_per_perspective() -> None:
    r = runner.invoke(app, ["bench", "llm", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["encode_8x3_calls"] <= 3
    assert data["encode_8x3_calls"] == 3 and data["encode_8x3_calls_unbatched"] == 24
    assert data["deliberate_calls"] is not None and data["deliberate_calls"] <= 2  # batched deliberation
    assert data["deliberate_calls_per_perspective"] == 6
    human = runner.invoke(app, ["bench", "llm"])
    assert human.exit_code == 0 and "batched" in human.output


def test_llm_cli_commands(tmp_path: Path) -> None:
    r = runner.invoke(app, ["llm", "prompts", "--json"])
    assert r.exit_code == 0 and {p["name"] for p in json.loads(r.output)} >= {"extract", "repair"}
    r = runner.invoke(app, ["llm", "info", "--json"], env={"BELIEF_GRAPH_LLM__API_KEY": ""})
    info = json.loads(r.output)
    assert info["resolved"] == "replay" and info["replay"] is True and "NOT a real model" in info["description"]
    r = runner.invoke(app, ["llm", "replay-info", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["meta"]["model"] == DEMO_MODEL
    step = DEMO_SCRIPT[-2]  # answer
    inp = tmp_path / "in.json"
    inp.write_text(json.dumps(step.inputs))
    r = runner.invoke(
        app, ["-v", "llm", "run", "answer", "--input", str(inp), "--json"], env={"BELIEF_GRAPH_LLM__API_KEY": ""}
    )
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["output"] == step.output and data["provenance"]["model"] == DEMO_MODEL
    assert "answer       calls 1" in r.stderr
    out = tmp_path / "demo.json"
    r = runner.invoke(app, ["llm", "record-demo", "--out", str(out), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["entries"] == len(DEMO_SCRIPT)
