"""The LangChain memory tools (belief_graph/integrations/langchain.py), bound to a scripted chat model
whose tool calls a minimal agent loop executes against the real Neo4j: what each call did is read
back from the graph. Two models are scripted: the agent's (which tools to call, langchain_core's
fake chat model) and the memory's (what ``remember`` extracts, belief_graph's ScriptedModel)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.messages.tool import tool_call
from langchain_core.tools import BaseTool, StructuredTool
from scripted_replies import classify, facts

from belief_graph import BeliefGraph
from belief_graph.integrations.langchain import memory_tools
from belief_graph.llm import ScriptedModel

AGENT = "user:ana"


class ToolCallingFakeModel(GenericFakeChatModel):
    """langchain_core's scripted chat model, with ``bind_tools`` recording the tools it was given."""

    bound: list[str] = []

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ToolCallingFakeModel:  # type: ignore[override]
        self.bound = [t.name for t in tools]
        return self


def calls(*steps: tuple[str, dict[str, Any]]) -> AIMessage:
    return AIMessage(
        content="", tool_calls=[tool_call(name=n, args=a, id=f"call-{i}-{n}") for i, (n, a) in enumerate(steps)]
    )


def run_agent(model: ToolCallingFakeModel, tools: list[StructuredTool], text: str) -> list[ToolMessage]:
    """A minimal agent loop: the model speaks, each tool call it makes runs, until it answers in text."""
    by_name: dict[str, BaseTool] = {t.name: t for t in tools}
    llm = model.bind_tools(tools)
    messages: list[BaseMessage] = [HumanMessage(text)]
    results: list[ToolMessage] = []
    while True:
        ai = llm.invoke(messages)
        messages.append(ai)
        if not isinstance(ai, AIMessage) or not ai.tool_calls:
            return results
        for call in ai.tool_calls:
            out = by_name[call["name"]].invoke(call)
            assert isinstance(out, ToolMessage)
            messages.append(out)
            results.append(out)


def content(m: ToolMessage) -> Any:
    assert m.status == "success", m.content
    return json.loads(str(m.content))


def _count(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query("MATCH (n {space: $s}) RETURN count(n) AS n", s=bg.space).records
    return int(rows[0]["n"])


@pytest.fixture()
def memory_model(model: ScriptedModel) -> ScriptedModel:
    """The scripted chat model of ``mbg`` (tests/integration/conftest.py), named apart from the agent's."""
    return model


def extracts(memory_model: ScriptedModel, key: str, value: str, text: str) -> None:
    memory_model.respond("extract", facts({"key": key, "value": value, "text": text}))


def test_the_tools_a_scripted_agent_calls_change_and_read_the_graph(
    mbg: BeliefGraph, memory_model: ScriptedModel
) -> None:
    tools = memory_tools(mbg, agent=AGENT, conversation="chat-1")
    assert [t.name for t in tools] == ["remember", "recall", "belief", "history", "explain", "disputes"]
    model = ToolCallingFakeModel(
        messages=iter(
            [
                calls(("remember", {"text": "I live in Lisbon."})),
                calls(("belief", {"key": "user.city"}), ("recall", {"query": "where does she live?", "k": 3})),
                "Noted: Lisbon.",
            ]
        )
    )
    extracts(memory_model, "user.city", "Lisbon", "The user lives in Lisbon.")
    remembered, belief, recall = run_agent(model, tools, "I live in Lisbon.")
    assert model.bound == [t.name for t in tools]
    stored = content(remembered)["stored"]
    assert [(s["op"], s["key"], s["value"]) for s in stored] == [("ADD", "user.city", "Lisbon")]
    current = mbg.belief("user.city")  # the graph, read directly
    assert current is not None and (current.value, current.agent) == ("Lisbon", AGENT)
    assert current.id == stored[0]["id"]
    b = content(belief)["belief"]
    assert (b["id"], b["value"], b["agent"]) == (current.id, "Lisbon", AGENT) and b["since"]
    assert [h["id"] for h in content(recall)["hits"]][:1] == [current.id]

    # an update: two versions, the new one current, the old one superseded
    extracts(memory_model, "user.city", "Porto", "The user lives in Porto.")
    memory_model.respond("classify", classify("UPDATE"))
    model = ToolCallingFakeModel(
        messages=iter(
            [calls(("remember", {"text": "I moved to Porto."})), calls(("history", {"key": "user.city"})), "ok"]
        )
    )
    updated, history = run_agent(model, tools, "I moved to Porto.")
    (w,) = content(updated)["stored"]
    assert (w["op"], w["replaced"]) == ("UPDATE", current.id)
    versions = content(history)["versions"]
    assert [(v["value"], v["current"]) for v in versions] == [("Lisbon", False), ("Porto", True)]
    assert [v.claim.value for v in mbg.beliefs.history("user.city")] == ["Lisbon", "Porto"]
    assert mbg.belief("user.city").value == "Porto"  # type: ignore[union-attr]

    # a contradiction: an open dispute, which the disputes tool shows; explain says why Braga is held
    extracts(memory_model, "user.city", "Braga", "The user lives in Braga.")
    memory_model.respond("classify", classify("REPLACE"))
    model = ToolCallingFakeModel(
        messages=iter(
            [
                calls(("remember", {"text": "I live in Braga."})),
                calls(("disputes", {}), ("explain", {"key": "user.city"})),
                "ok",
            ]
        )
    )
    replaced, disputes, explain = run_agent(model, tools, "I live in Braga.")
    (w,) = content(replaced)["stored"]
    assert w["dispute"] is not None
    (open_,) = mbg.conflicts.disputes("open")
    shown = content(disputes)["disputes"]
    assert [(d["id"], d["key"], d["status"]) for d in shown] == [(open_.id, "user.city", "open")]
    assert {shown[0]["incumbent"]["value"], shown[0]["challenger"]["value"]} == {"Porto", "Braga"}
    why = content(explain)
    assert why["belief"]["value"] == "Braga" and why["current"] is True
    assert open_.id in why["disputes"] and why["versions"] == 3
    episode = content(replaced)["episode"]
    assert episode in why["evidence"]  # the turn the belief rests on


def test_a_bad_key_is_the_tools_error_message_and_writes_nothing(mbg: BeliefGraph, memory_model: ScriptedModel) -> None:
    tools = memory_tools(mbg, agent=AGENT)
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon.", agent=AGENT)
    before = _count(mbg)
    memory_model.respond("extract", lambda inputs: "not json")  # an extraction the model never gets right
    model = ToolCallingFakeModel(
        messages=iter(
            [
                calls(
                    ("belief", {"key": "User City!!"}),
                    ("history", {"key": "user city"}),
                    ("remember", {"text": "I live in Porto."}),
                    ("explain", {"key": "user.country"}),
                    ("recall", {"query": "city", "k": 99}),
                ),
                "sorry",
            ]
        )
    )
    belief, history, remember, explain, recall = run_agent(model, tools, "Where do I live?")
    for m in (belief, history, remember, explain, recall):
        assert m.status == "error"
        assert "Traceback" not in str(m.content)
    assert str(belief.content).startswith("ValidationError: malformed fact key 'User City!!'")
    assert str(history.content).startswith("ValidationError: malformed fact key 'user city'")
    assert str(remember.content).startswith("EncodingError: ")
    assert str(explain.content).startswith("NotFoundError: no current belief for key 'user.country'")
    assert str(recall.content).startswith("ValidationError: invalid arguments: k: ")
    assert _count(mbg) == before  # nothing written, not even the turn's episode
    assert mbg.belief("user.city").value == "Lisbon"  # type: ignore[union-attr]


class CallingClient:
    """A client with ``await call(fn, *args)`` (``fn`` gets the sync client it bridges), as AsyncBeliefGraph has."""

    def __init__(self, bg: BeliefGraph) -> None:
        self.bg = bg
        self.calls: list[str] = []

    async def call(self, fn: Callable[..., Any], /, *args: Any) -> Any:
        self.calls.append(type(args[0]).__name__)
        return await asyncio.to_thread(fn, self.bg, *args)


def test_the_tools_run_asynchronously_and_through_a_clients_call(mbg: BeliefGraph) -> None:
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon.", agent=AGENT)
    (belief,) = memory_tools(mbg, agent=AGENT, include=["belief"])
    got = asyncio.run(belief.ainvoke({"key": "user.city"}))
    assert got["belief"]["value"] == "Lisbon"

    client = CallingClient(mbg)
    belief, history = memory_tools(client, agent=AGENT, include=["belief", "history"])
    assert asyncio.run(belief.ainvoke({"key": "user.city"}))["belief"]["value"] == "Lisbon"
    bad = asyncio.run(history.ainvoke(tool_call(name="history", args={"key": "no such key!"}, id="c1")))
    assert bad.status == "error" and str(bad.content).startswith("ValidationError: malformed fact key")
    assert client.calls == ["BeliefArgs", "HistoryArgs"]
    # its calls need its event loop: the sync tool says so instead of blocking it
    assert belief.invoke({"key": "user.city"}).startswith("ValidationError: CallingClient is an async client")


def test_a_cancelled_async_call_finishes_whole_in_its_thread(mbg: BeliefGraph, memory_model: ScriptedModel) -> None:
    """The caller's task is cancelled while ``remember`` waits on its model: the caller sees the
    cancellation, the call finishes in its worker thread, and the turn and its fact are there whole."""
    entered, release = threading.Event(), threading.Event()

    def slow_extract(inputs: Any) -> dict[str, Any]:
        entered.set()
        assert release.wait(120), "the test never released the model"
        return facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto."})(inputs)

    memory_model.respond("extract", slow_extract)
    (remember,) = memory_tools(mbg, agent=AGENT, include=["remember"])

    async def cancel_midway() -> None:
        task = asyncio.create_task(remember.ainvoke({"text": "I live in Porto."}))
        assert await asyncio.to_thread(entered.wait, 120), "remember never reached its model"
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()  # asyncio.run waits for the worker thread before it returns

    asyncio.run(cancel_midway())
    current = mbg.belief("user.city")
    assert current is not None and current.value == "Porto"
    ex = mbg.beliefs.explain(current.id)
    assert [p["kind"] for j in ex.justifications for p in j["premises"]] == ["episode"]
