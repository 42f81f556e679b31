"""The real client path — LLMClient -> OpenAIChatModel -> langchain_openai.ChatOpenAI -> HTTP —
against a local OpenAI-compatible stub on 127.0.0.1 (http.server in a thread). No internet.

Checks the request shape (path, model, temperature, response_format / tools, auth), structured
output parsing, token accounting, the client's retries on HTTP 429/500, timeouts, refusals,
repair turns over HTTP, HTTP errors, and record -> replay."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import langchain_openai  # noqa: E402,F401  a dev dependency: missing fails, never skips
import pytest
from pydantic import SecretStr

from belief_graph.errors import EncodingError, LLMUnavailable
from belief_graph.llm import (
    Judgement,
    LLMClient,
    RecordingModel,
    ReplayModel,
    make_chat_model,
)
from belief_graph.llm.openai import OpenAIChatModel  # noqa: E402
from belief_graph.llm.protocol import output_json_schema
from belief_graph.llm.stub import OpenAIStub, StubReply
from belief_graph.settings import LLMSettings

JUDGE = {
    "question": "user.timezone",
    "contenders": [
        {"id": "claim-aaa", "agent": "agent:scheduler", "text": "Lisbon"},
        {"id": "claim-bbb", "agent": "agent:travel", "text": "New York"},
    ],
}
# what a model answers: the prompt shows the contenders as c1, c2
GOOD = json.dumps({"winner": "c1", "rationale": "home time zone"})


@pytest.fixture()
def stub() -> Iterator[OpenAIStub]:
    with OpenAIStub() as s:
        yield s


def client(
    stub: OpenAIStub,
    *,
    method: str = "json_schema",
    max_retries: int = 0,
    timeout: float = 10.0,
    repair_attempts: int = 2,
    temperature: float = 0.0,
) -> LLMClient:
    model = OpenAIChatModel(
        model="test-model",
        api_key="sk-test",
        base_url=stub.url,
        timeout=timeout,
        temperature=temperature,
        max_retries=max_retries,
        structured_output=method,
    )  # type: ignore[arg-type]
    # the client sends each call's timeout (here one for every job, overriding the job limits)
    return LLMClient(model, repair_attempts=repair_attempts, timeout=timeout)


def test_stub_listens_on_loopback_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        OpenAIStub(host="0.0.0.0")
    with OpenAIStub() as s:
        assert s.url.startswith("http://127.0.0.1:")


def test_json_schema_request_shape_parsing_and_tokens(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD, usage=(123, 45)))
    c = client(stub, temperature=0.3)
    result = c.run("judge", JUDGE)

    assert result.output == Judgement(winner="claim-aaa", rationale="home time zone")
    assert result.provenance.model == "test-model"
    body = stub.requests[0]
    assert body["model"] == "test-model"
    assert body["temperature"] == 0.3
    assert "tools" not in body
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Judgement"
    assert fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == output_json_schema(Judgement)
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert '"id": "c1"' in body["messages"][1]["content"]
    assert "claim-aaa" not in json.dumps(body)  # real ids never leave the process
    assert stub.headers[0]["authorization"] == "Bearer sk-test"

    usage = c.usage().jobs["judge"]
    assert (usage.calls, usage.ok, usage.tokens_in, usage.tokens_out, usage.unreported) == (1, 1, 123, 45, 0)
    assert usage.seconds > 0


def test_function_calling_sends_a_forced_tool_and_reads_its_arguments(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD))
    result = client(stub, method="function_calling").run("judge", JUDGE)
    assert result.output.winner == "claim-aaa"
    body = stub.requests[0]
    assert "response_format" not in body
    assert body["tools"][0]["function"]["name"] == "Judgement"
    assert body["tool_choice"]["function"]["name"] == "Judgement"


def test_function_calling_malformed_arguments_are_repaired(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content='{"winner": "c1", '), StubReply(content=GOOD))
    result = client(stub, method="function_calling").run("judge", JUDGE)
    assert result.output.winner == "claim-aaa" and result.provenance.calls == 2
    assert "malformed JSON" in stub.requests[1]["messages"][-1]["content"]


def test_json_mode_sends_json_object(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD))
    result = client(stub, method="json_mode").run("judge", JUDGE)
    assert result.output.winner == "claim-aaa"
    assert stub.requests[0]["response_format"] == {"type": "json_object"}


def test_http_429_and_500_are_retried_by_the_client(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(status=429, error="slow down"), StubReply(status=500, error="boom"), StubReply(content=GOOD))
    c = client(stub, max_retries=2)
    result = c.run("judge", JUDGE)
    assert result.output.winner == "claim-aaa"
    assert len(stub.requests) == 3  # two HTTP retries inside one model call
    assert c.usage().calls == 1 and result.provenance.calls == 1


def test_http_errors_after_the_client_retries_are_llm_unavailable(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(status=429, error="slow down"), StubReply(status=429, error="slow down"))
    c = client(stub, max_retries=1)
    with pytest.raises(LLMUnavailable, match="HTTP 429"):
        c.run("judge", JUDGE)
    assert len(stub.requests) == 2
    assert c.usage().jobs["judge"].failed == 1
    stub.enqueue(StubReply(status=401, error="bad key"))
    with pytest.raises(LLMUnavailable, match="BELIEF_GRAPH_LLM__API_KEY"):
        client(stub).run("judge", JUDGE)


def test_unreachable_server_is_llm_unavailable() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = OpenAIChatModel(model="m", base_url=f"http://127.0.0.1:{port}/v1", max_retries=0, timeout=5)
    with pytest.raises(LLMUnavailable, match="cannot reach"):
        LLMClient(model).run("judge", JUDGE)


def test_timeouts_are_retried_then_encoding_error(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD, delay=1.5), StubReply(content=GOOD, delay=1.5))
    c = client(stub, timeout=0.3, repair_attempts=1)
    with pytest.raises(EncodingError, match="timeout") as info:
        c.run("judge", JUDGE)
    assert info.value.attempts == 2
    assert c.usage().jobs["judge"].failed == 2


def test_a_timeout_then_a_valid_answer_succeeds(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=GOOD, delay=1.5), StubReply(content=GOOD))
    result = client(stub, timeout=0.3).run("judge", JUDGE)
    assert result.output.winner == "claim-aaa" and result.provenance.calls == 2


def test_refusal_over_http_is_fed_back_then_repaired(stub: OpenAIStub) -> None:
    stub.enqueue(StubReply(content=None, refusal="I can't help with that."), StubReply(content=GOOD))
    result = client(stub).run("judge", JUDGE)
    assert result.output.winner == "claim-aaa"
    repair = stub.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "I can't help with that."}
    assert "refused" in repair[-1]["content"]


@pytest.mark.parametrize("content", ["", '{"winner": "c9", "rationale": "x"}', '{"winner": 3}', "not json"])
def test_invalid_answers_over_http_end_in_encoding_error_with_raw(stub: OpenAIStub, content: str) -> None:
    stub.enqueue(*[StubReply(content=content)] * 3)
    with pytest.raises(EncodingError) as info:
        client(stub).run("judge", JUDGE)
    assert info.value.attempts == 3
    assert info.value.raw == content
    assert len(stub.requests) == 3


def test_record_then_replay_without_the_server(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    with OpenAIStub() as stub:
        stub.enqueue(StubReply(content="{broken", usage=(10, 2)), StubReply(content=GOOD, usage=(20, 4)))
        settings = LLMSettings(
            provider="openai",
            model="test-model",
            base_url=stub.url,
            api_key=SecretStr("sk-test"),
            max_retries=0,
            record_file=path,
        )
        model = make_chat_model(settings)
        assert isinstance(model, RecordingModel)
        live = LLMClient(model).run("judge", JUDGE)
    replay = ReplayModel.load(path)
    assert replay.name == "test-model" and replay.is_replay
    assert len(replay.replay.entries) == 2  # the repair turn has its own key
    replayed_client = LLMClient(replay)
    replayed = replayed_client.run("judge", JUDGE)
    assert replayed.output == live.output
    assert replayed.provenance.prompt_hashes == live.provenance.prompt_hashes
    u = replayed_client.usage().jobs["judge"]
    assert (u.calls, u.tokens_in, u.tokens_out) == (2, 30, 6)
    # other ids, same texts: the aliases make the prompt identical
    other = {**JUDGE, "contenders": [{**c, "id": c["id"] + "-x"} for c in JUDGE["contenders"]]}
    assert replayed_client.run("judge", other).output.winner == "claim-aaa-x"
    # other texts: nothing recorded
    changed: dict[str, Any] = {**JUDGE, "question": "user.city"}
    with pytest.raises(LLMUnavailable, match="no recorded response"):
        replayed_client.run("judge", changed)
