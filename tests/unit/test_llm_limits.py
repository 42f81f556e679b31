"""Per-job limits (max_tokens, timeouts), length stops, the HTTP 400/500 method hint and the
detection of servers that ignore ``tool_choice`` — with the scripted model and over HTTP
through ``ChatOpenAI`` to the loopback stub."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import MISSING, fields

import langchain_openai  # noqa: F401  a dev dependency: missing fails, never skips
import pytest

from belief_graph.errors import ConfigurationError, EncodingError, LLMUnavailable
from belief_graph.llm import JOBS, LLMClient, RawResponse, ScriptedModel, make_client
from belief_graph.llm.jobs import ExtractInput, Extraction, JobLimits, JobSpec, Judgement
from belief_graph.llm.openai import OpenAIChatModel
from belief_graph.llm.stub import OpenAIStub, StubReply
from belief_graph.settings import LLMSettings, load_settings

JUDGE = {
    "question": "user.timezone",
    "contenders": [
        {"id": "claim-aaa", "agent": "agent:scheduler", "text": "Lisbon"},
        {"id": "claim-bbb", "agent": "agent:travel", "text": "New York"},
    ],
}
GOOD = json.dumps({"winner": "c1", "rationale": "home time zone"})
TURNS = [{"id": f"t-{i}", "agent": "user:a", "text": f"turn {i}"} for i in range(5)]


@pytest.fixture()
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as s:
        yield s


def http_client(stub: OpenAIStub, method: str = "json_schema", **kw: object) -> LLMClient:
    model = OpenAIChatModel(
        model="test-model", api_key="sk-test", base_url=stub.url, max_retries=0, structured_output=method
    )  # type: ignore[arg-type]
    return LLMClient(model, **kw)  # type: ignore[arg-type]


def sent_cap(body: dict[str, object]) -> object:
    """The answer cap a request carried (langchain-openai sends ``max_completion_tokens``)."""
    return body.get("max_completion_tokens", body.get("max_tokens"))


# -- declared limits -----------------------------------------------------------------------------


def test_every_job_declares_limits_and_a_new_job_must() -> None:
    for spec in JOBS.values():
        assert isinstance(spec.limits, JobLimits), spec.name
        tokens, seconds = spec.limits.for_items(0)
        assert tokens >= 256 and seconds >= 90, spec.name
    limits = next(f for f in fields(JobSpec) if f.name == "limits")
    assert limits.kw_only and limits.default is MISSING and limits.default_factory is MISSING
    with pytest.raises(TypeError, match="limits"):
        JobSpec("x", ExtractInput, Extraction, lambda i, o: [], "no limits")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        JobLimits(max_tokens=0, timeout=10)


def test_limits_grow_with_the_items_a_call_holds() -> None:
    c = LLMClient(ScriptedModel())
    spec = JOBS["extract"]
    one, five = c.limits("extract", 1), c.limits("extract", 5)
    assert five[0] - one[0] == 4 * spec.limits.max_tokens_per_item > 0
    assert five[1] - one[1] == 4 * spec.limits.timeout_per_item > 0
    assert c.limits("judge", 3) == c.limits("judge", 0)  # not sized by a list


def test_each_call_carries_its_limits_batch_chunks_sized_by_their_own_items() -> None:
    m = ScriptedModel().respond("extract", lambda inputs: {"facts": []})
    c = LLMClient(m, max_batch=3)
    c.extract(TURNS)
    sizes = [len(r.inputs["turns"]) for r in m.calls]
    assert sizes == [3, 2]
    assert [(r.max_tokens, r.timeout) for r in m.calls] == [c.limits("extract", 3), c.limits("extract", 2)]


def test_settings_override_limits_per_job_and_unknown_jobs_are_refused() -> None:
    c = make_client(
        LLMSettings(max_tokens={"extract": 999}, timeouts={"judge": 7.5}, timeout=42), model=ScriptedModel()
    )
    assert c.limits("extract", 10)[0] == 999
    assert c.limits("judge") == (JOBS["judge"].limits.max_tokens, 7.5)
    assert c.limits("encode", 2)[1] == 42  # one timeout for every job not named in timeouts
    table = c.limits_table()
    assert table["extract"]["max_tokens"] == 999 and table["extract"]["max_tokens_per_item"] == 0
    assert table["judge"]["timeout"] == 7.5 and table["encode"]["timeout"] == 42
    assert table["encode"]["max_tokens_per_item"] == JOBS["encode"].limits.max_tokens_per_item
    with pytest.raises(ConfigurationError, match="unknown LLM job"):
        LLMClient(ScriptedModel(), max_tokens={"extrakt": 10})
    with pytest.raises(ConfigurationError, match="> 0"):
        LLMClient(ScriptedModel(), timeouts={"judge": 0})


def test_limits_come_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BELIEF_GRAPH_LLM__MAX_TOKENS", '{"encode": 4096}')
    monkeypatch.setenv("BELIEF_GRAPH_LLM__TIMEOUTS", '{"propose": 600}')
    s = load_settings()
    c = make_client(s.llm, model=ScriptedModel())
    assert c.limits("encode", 8)[0] == 4096 and c.limits("propose")[1] == 600


# -- length stops --------------------------------------------------------------------------------


def test_a_length_stop_is_repaired_and_counted() -> None:
    cut = RawResponse(
        text='{"winner": "c1", "rationale": "' + "very " * 2000, finish_reason="length", tokens_in=100, tokens_out=384
    )
    m = ScriptedModel().add("judge", cut, {"winner": "claim-aaa", "rationale": "short"})
    c = LLMClient(m)
    r = c.judge(JUDGE["question"], JUDGE["contenders"])
    assert r.output.winner == "claim-aaa" and r.provenance.calls == 2
    repair = m.calls[1].messages
    assert "cut off at the length limit of 384 tokens" in repair[-1].content
    assert len(repair[-2].content) < 2100 and repair[-2].content.endswith("[cut off]")  # clipped, not 10 kB
    u = c.usage().jobs["judge"]
    assert (u.calls, u.ok, u.failed, u.tokens_out) == (2, 1, 1, 384)
    assert [rec.outcome for rec in c.meter.records] == ["length", "ok"]


def test_length_stops_until_the_budget_ends_in_encoding_error() -> None:
    cut = RawResponse(text='{"winner": "c1", "rati', finish_reason="length")
    c = LLMClient(ScriptedModel().add("judge", cut), repair_attempts=1)
    with pytest.raises(EncodingError, match="cut off") as info:
        c.judge(JUDGE["question"], JUDGE["contenders"])
    assert info.value.attempts == 2


@pytest.mark.parametrize("method", ["json_schema", "json_mode", "function_calling"])
def test_length_stop_over_http_is_repaired_not_unavailable(stub: OpenAIStub, method: str) -> None:
    stub.enqueue(
        StubReply(content='{"winner": "c1", "rationale": "aaaa', finish_reason="length", usage=(50, 384)),
        StubReply(content=GOOD, usage=(80, 12)),
    )
    c = http_client(stub, method)
    r = c.run("judge", JUDGE)
    assert r.output.winner == "claim-aaa" and r.provenance.calls == 2
    assert sent_cap(stub.requests[0]) == c.limits("judge")[0]
    assert "cut off" in stub.requests[1]["messages"][-1]["content"]
    u = c.usage().jobs["judge"]
    assert (u.tokens_in, u.tokens_out) == (130, 396)  # the cut-off answer's tokens are counted


def test_the_call_timeout_is_the_jobs(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD, delay=1.5), StubReply(content=GOOD))
    c = http_client(stub, timeouts={"judge": 0.3})
    r = c.run("judge", JUDGE)
    assert r.provenance.calls == 2 and [x.outcome for x in c.meter.records] == ["timeout", "ok"]


# -- HTTP errors and tool_choice -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "status", "hint"),
    [
        ("json_schema", 400, "STRUCTURED_OUTPUT=json_mode"),
        ("json_schema", 500, "STRUCTURED_OUTPUT=json_mode"),
        ("function_calling", 400, "STRUCTURED_OUTPUT=json_schema"),
        ("function_calling", 500, "STRUCTURED_OUTPUT=json_schema"),
    ],
)
def test_http_400_and_500_name_another_method(stub: OpenAIStub, method: str, status: int, hint: str) -> None:
    stub.enqueue(StubReply(status=status, error="response_format not supported"))
    with pytest.raises(LLMUnavailable, match=hint):
        http_client(stub, method).run("judge", JUDGE)


def test_json_mode_errors_have_no_method_hint(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(status=500, error="boom"))
    with pytest.raises(LLMUnavailable) as info:
        http_client(stub, "json_mode").run("judge", JUDGE)
    assert "STRUCTURED_OUTPUT" not in str(info.value)


def test_a_server_ignoring_tool_choice_is_detected_at_the_first_answer(stub: OpenAIStub) -> None:
    stub.enqueue(*[StubReply(content=GOOD, ignore_tools=True)] * 3)
    c = http_client(stub, "function_calling")
    with pytest.raises(LLMUnavailable, match="ignores `tool_choice`.*STRUCTURED_OUTPUT=json_schema"):
        c.run("judge", JUDGE)
    assert len(stub.requests) == 1  # no repair round-trips on an unconstrained server
    assert stub.requests[0]["tool_choice"]["function"]["name"] == "Judgement"


def test_judgement_schema_is_still_what_the_server_gets(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD))
    http_client(stub).run("judge", JUDGE)
    body = stub.requests[0]
    assert body["response_format"]["json_schema"]["name"] == Judgement.__name__
    cap = JOBS["judge"].limits.max_tokens
    # both names of the cap reach a compatible server (servers document one or the other)
    assert body["max_completion_tokens"] == cap and body["max_tokens"] == cap
