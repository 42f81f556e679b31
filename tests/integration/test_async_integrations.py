"""The integrations over the real async client (not a stand-in): a LangGraph graph whose store is
``BeliefGraphStore(AsyncBeliefGraph)`` run with ``ainvoke``, and the LangChain tools over it,
against the real Neo4j. What they write is read back through the sync client."""

from __future__ import annotations

from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from scripted_replies import facts

from belief_graph import AsyncBeliefGraph, BeliefGraph
from belief_graph.integrations.langchain import memory_tools
from belief_graph.integrations.langgraph import BeliefGraphStore
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings

pytestmark = pytest.mark.anyio


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"  # the neo4j driver's async API is asyncio's


class State(TypedDict):
    user: str
    city: str
    reply: str


async def remember(state: State, runtime: Runtime[None]) -> dict[str, str]:
    assert runtime.store is not None
    await runtime.store.aput(
        ("users", state["user"]), "city", {"city": state["city"], "text": f"The user lives in {state['city']}"}
    )
    return {}


async def reply(state: State, runtime: Runtime[None]) -> dict[str, str]:
    assert runtime.store is not None
    item = await runtime.store.aget(("users", state["user"]), "city")
    hits = await runtime.store.asearch(("users",), query="where does the user live?", limit=1)
    return {"reply": f"{item.value['city'] if item else None}/{hits[0].value['city'] if hits else None}"}


async def test_a_langgraph_graph_over_the_async_client(base_settings: Settings, bg: BeliefGraph, embedder: Any) -> None:
    async with AsyncBeliefGraph.connect(space=bg.space, settings=base_settings, embedder=embedder) as abg:
        store = BeliefGraphStore(abg, agent="agent:planner")
        builder = StateGraph(State)
        builder.add_node("remember", remember)
        builder.add_node("reply", reply)
        builder.add_edge(START, "remember")
        builder.add_edge("remember", "reply")
        builder.add_edge("reply", END)
        graph = builder.compile(store=store)
        assert (await graph.ainvoke({"user": "alice", "city": "Lyon", "reply": ""}))["reply"] == "Lyon/Lyon"
        assert (await graph.ainvoke({"user": "alice", "city": "Porto", "reply": ""}))["reply"] == "Porto/Porto"
    versions = bg.beliefs.history("lg.users.alice.city")
    assert [v.claim.status.value for v in versions] == ["superseded", "active"]
    assert bg.belief("lg.users.alice.city").agent == "agent:planner"  # type: ignore[union-attr]


async def test_the_langchain_tools_over_the_async_client(
    base_settings: Settings, bg: BeliefGraph, embedder: Any
) -> None:
    model = ScriptedModel().respond(
        "extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto"})
    )
    async with AsyncBeliefGraph.connect(
        space=bg.space, settings=base_settings, embedder=embedder, chat_model=model
    ) as abg:
        tools = {t.name: t for t in memory_tools(abg, agent="user:ana")}
        await tools["remember"].ainvoke({"text": "I moved to Porto last week."})
        belief = await tools["belief"].ainvoke({"key": "user.city"})
        bad = await tools["belief"].ainvoke({"key": "User City"})
    assert belief["belief"]["value"] == "Porto" and belief["belief"]["agent"] == "user:ana"
    assert str(bad).startswith("ValidationError")  # the typed error, as the tool's message
    assert bg.belief("user.city").value == "Porto"  # type: ignore[union-attr]
