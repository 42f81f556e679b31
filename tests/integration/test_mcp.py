"""`belief-graph mcp` driven by the official MCP SDK's own client over stdio, against a real Neo4j:
the tools of one space, typed results, library errors as tool errors, no reach into another space."""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import belief_graph
from belief_graph.mcp_server import TOOLS
from belief_graph.settings import Settings

BIN = str(Path(sys.executable).with_name("belief-graph"))


@pytest.fixture()
def mcp_space(graph) -> Iterator[str]:  # type: ignore[no-untyped-def]
    name = f"test-mcp-{uuid.uuid4().hex[:10]}"
    yield name
    graph.write("admin.delete_space", space=name)


def _responder(body: dict[str, Any]) -> Any:
    """The chat model behind `remember` and `answer`: a loopback OpenAI-compatible stub that
    answers by the requested schema (it is not a model; it serves these two fixed answers)."""
    import re

    from belief_graph.llm.stub import StubReply

    wire = json.dumps(body)
    user = body["messages"][-1]["content"]
    user = user if isinstance(user, str) else json.dumps(user)
    if "Extraction" in wire:
        turn = re.findall(r'"id": ?"([^"]+)"', user)[-1]
        return StubReply(
            json.dumps(
                {
                    "facts": [
                        {
                            "source": turn,
                            "key": "user.risk_tolerance",
                            "value": "cautious",
                            "text": "Alice is cautious with money",
                            "kind": "semantic",
                            "confidence": 0.9,
                        }
                    ]
                }
            )
        )
    if "Answer" in wire:
        cited = re.findall(r'"id": ?"([^"]+)"', user)[:1]
        return StubReply(json.dumps({"text": "Alice lives in Lyon.", "citations": cited}))
    return StubReply(error="unexpected job", status=500)


@pytest.fixture(scope="module")
def llm() -> Iterator[str]:
    from belief_graph.llm.stub import OpenAIStub

    stub = OpenAIStub(_responder).start()
    try:
        yield stub.url
    finally:
        stub.stop()


def _session_run(settings: Settings, space: str, steps: Any, llm_url: str = "") -> Any:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_EMBEDDING__PROVIDER="local",
    )
    if llm_url:
        env.update(
            BELIEF_GRAPH_LLM__BASE_URL=llm_url, BELIEF_GRAPH_LLM__API_KEY="stub-key", BELIEF_GRAPH_LLM__MAX_RETRIES="0"
        )
    params = StdioServerParameters(command=BIN, args=["--space", space, "mcp"], env=env)

    async def main() -> Any:
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await steps(session)

    return anyio.run(main)


def _data(result: Any) -> Any:
    assert not result.is_error, [c.text for c in result.content]
    return json.loads(result.content[0].text)


def test_the_sdk_client_uses_every_tool(base_settings: Settings, mcp_space: str, llm: str) -> None:
    async def steps(s: Any) -> dict[str, Any]:
        listed = (await s.list_tools()).tools
        out: dict[str, Any] = {"tools": sorted(t.name for t in listed), "server": s.server_info}
        out["hints"] = {
            t.name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.open_world_hint)
            for t in listed
            if t.annotations is not None
        }
        a = _data(
            await s.call_tool(
                "assert", {"key": "user.city", "value": "Paris", "text": "Alice lives in Paris", "agent": "user:alice"}
            )
        )
        b = _data(
            await s.call_tool(
                "assert", {"key": "user.city", "value": "Lyon", "text": "Alice moved to Lyon", "agent": "user:alice"}
            )
        )
        out["ops"] = (a["op"], b["op"])
        out["belief"] = _data(await s.call_tool("belief", {"key": "user.city"}))["belief"]["value"]
        out["history"] = [
            v["claim"]["value"] for v in _data(await s.call_tool("history", {"key": "user.city"}))["versions"]
        ]
        out["recall"] = [
            h["claim"]["value"] for h in _data(await s.call_tool("recall", {"query": "Where does Alice live?"}))["hits"]
        ]
        out["answer"] = _data(await s.call_tool("answer", {"query": "Where does Alice live?"}))
        out["explain"] = _data(await s.call_tool("explain", {"claim_id": b["claim"]["id"]}))["text"]
        remembered = _data(await s.call_tool("remember", {"text": "I'm cautious with money", "agent": "user:alice"}))
        out["remembered"] = remembered
        ep = remembered["episode"]["id"]
        out["retract"] = _data(await s.call_tool("retract", {"ids": [ep], "reason": "said in jest"}))
        out["restore"] = _data(await s.call_tool("restore", {"ids": [ep], "reason": "meant it after all"}))
        c = _data(
            await s.call_tool(
                "assert",
                {
                    "key": "user.tz",
                    "value": "Europe/Paris",
                    "text": "Alice is on Paris time",
                    "agent": "agent:cal",
                    "evidence": [b["claim"]["id"]],
                },
            )
        )
        out["dependents"] = [
            d["claim"]["id"] for d in _data(await s.call_tool("dependents", {"target": "user.city"}))["dependents"]
        ]
        await s.call_tool(
            "assert", {"key": "user.city", "value": "Nice", "text": "Alice moved to Nice", "agent": "user:alice"}
        )
        out["stale"] = [(x["claim"]["id"], x["cause"]) for x in _data(await s.call_tool("stale", {}))["stale"]]
        out["tz_claim"] = c["claim"]["id"]
        out["disputes"] = _data(await s.call_tool("disputes", {}))["disputes"]
        out["deliberate"] = await s.call_tool("deliberate", {"query": "Should she buy bonds?"})
        out["missing"] = await s.call_tool("explain", {"claim_id": "no-such-claim"})
        out["bad"] = await s.call_tool("disputes", {"status": "sideways"})
        return out

    out = _session_run(base_settings, mcp_space, steps, llm)
    assert out["tools"] == sorted(TOOLS)
    assert out["server"].name == "belief-graph" and out["server"].version == belief_graph.__version__
    reads = {"belief", "history", "recall", "answer", "explain", "dependents", "stale", "disputes"}
    assert out["hints"] == {
        name: (name in reads, name == "retract", False) for name in TOOLS
    }  # every tool annotated; only retract destroys; none reaches past this memory
    assert out["ops"] == ("ADD", "UPDATE")
    assert out["belief"] == "Lyon" and out["history"] == ["Paris", "Lyon"]
    assert out["recall"] and out["recall"][0] == "Lyon"  # only the active belief is recalled
    assert out["answer"]["text"] == "Alice lives in Lyon." and out["answer"]["citations"], out["answer"]
    assert "Alice moved to Lyon" in out["explain"]
    assert out["dependents"] == [out["tz_claim"]]
    assert [x[0] for x in out["stale"]] == [out["tz_claim"]] and "user.city" in out["stale"][0][1]
    assert out["remembered"]["results"], out["remembered"]  # the replayed extraction wrote a fact
    assert out["retract"]["op"] == "retract" and out["retract"]["roots"] and out["restore"]["op"] == "restore"
    assert out["disputes"] == []
    # no perspective in this space: a typed library error, not a crash
    assert out["deliberate"].is_error and "Error" in out["deliberate"].content[0].text
    assert out["missing"].is_error and "ClaimNotFound" in out["missing"].content[0].text
    assert out["bad"].is_error and "ValidationError" in out["bad"].content[0].text


def test_one_space_per_server(base_settings: Settings, mcp_space: str, graph) -> None:  # type: ignore[no-untyped-def]
    other = f"{mcp_space}-other"
    try:

        async def write(s: Any) -> Any:
            return _data(
                await s.call_tool(
                    "assert", {"key": "user.pet", "value": "cat", "text": "Bob has a cat", "agent": "user:bob"}
                )
            )

        _session_run(base_settings, other, write)

        async def read(s: Any) -> Any:
            tools = (await s.list_tools()).tools
            assert all("space" not in json.dumps(t.input_schema) for t in tools)
            return _data(await s.call_tool("belief", {"key": "user.pet"}))

        assert _session_run(base_settings, mcp_space, read)["belief"] is None
    finally:
        graph.write("admin.delete_space", space=other)
