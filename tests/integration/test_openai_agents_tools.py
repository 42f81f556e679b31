"""The OpenAI Agents SDK memory tools (belief_graph/integrations/openai_agents.py): an ``Agent`` run by
``Runner.run`` on the SDK's own scripted ``Model`` (agents.testing.ScriptedModel: no network, tracing
off), its tool calls executed against the real Neo4j. The memory's model (what ``remember``
extracts) is belief_graph's ScriptedModel."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from agents.items import ToolCallOutputItem
from agents.testing import ScriptedModel as ScriptedAgentModel, assistant_message, function_call
from scripted_replies import classify, facts

from belief_graph import BeliefGraph
from belief_graph.integrations.openai_agents import memory_function_tools
from belief_graph.llm import ScriptedModel

AGENT = "user:ana"


@pytest.fixture()
def memory_model(model: ScriptedModel) -> ScriptedModel:
    """The scripted chat model of ``mbg`` (tests/integration/conftest.py), named apart from the agent's."""
    return model


def run(bg: BeliefGraph, text: str, *steps: list[Any]) -> dict[str, str]:
    """Run an agent whose model makes the given steps; the tools' outputs by call id."""
    model = ScriptedAgentModel(steps)
    agent = Agent(
        name="concierge",
        instructions="Keep the user's facts.",
        model=model,
        tools=memory_function_tools(bg, agent=AGENT),
    )
    result = asyncio.run(Runner.run(agent, text, run_config=RunConfig(tracing_disabled=True)))
    model.assert_complete()
    outputs = {}
    for item in result.new_items:
        if isinstance(item, ToolCallOutputItem):
            raw = item.raw_item
            call_id = raw["call_id"] if isinstance(raw, dict) else raw.call_id
            outputs[str(call_id)] = str(item.output)
    return outputs


def _count(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query("MATCH (n {space: $s}) RETURN count(n) AS n", s=bg.space).records
    return int(rows[0]["n"])


def test_an_agent_run_remembers_updates_and_reads_through_the_function_tools(
    mbg: BeliefGraph, memory_model: ScriptedModel
) -> None:
    memory_model.respond("extract", facts({"key": "user.city", "value": "Lisbon", "text": "The user lives in Lisbon."}))
    out = run(
        mbg,
        "I live in Lisbon.",
        [function_call("remember", {"text": "I live in Lisbon."}, call_id="r1")],
        [
            function_call("belief", {"key": "user.city"}, call_id="b1"),
            function_call("recall", {"query": "where does she live", "k": 3, "key_prefix": None}, call_id="q1"),
        ],
        [assistant_message("You live in Lisbon.")],
    )
    current = mbg.belief("user.city")
    assert current is not None and (current.value, current.agent) == ("Lisbon", AGENT)
    assert [s["id"] for s in json.loads(out["r1"])["stored"]] == [current.id]
    assert json.loads(out["b1"])["belief"]["value"] == "Lisbon"
    assert json.loads(out["q1"])["hits"][0]["id"] == current.id

    memory_model.respond("extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto."}))
    memory_model.respond("classify", classify("REPLACE"))
    out = run(
        mbg,
        "I live in Porto.",
        [function_call("remember", {"text": "I live in Porto."}, call_id="r2")],
        [
            function_call("history", {"key": "user.city"}, call_id="h1"),
            function_call("disputes", {"status": "open", "key": None}, call_id="d1"),
            function_call("explain", {"key": "user.city", "claim_id": None}, call_id="e1"),
        ],
        [assistant_message("Noted, and I will check with you.")],
    )
    assert [v.claim.value for v in mbg.beliefs.history("user.city")] == ["Lisbon", "Porto"]
    assert [(v["value"], v["current"]) for v in json.loads(out["h1"])["versions"]] == [
        ("Lisbon", False),
        ("Porto", True),
    ]
    (dispute,) = mbg.conflicts.disputes("open")
    assert [d["id"] for d in json.loads(out["d1"])["disputes"]] == [dispute.id]
    assert json.loads(out["e1"])["disputes"] == [dispute.id]


def test_errors_reach_the_model_as_the_tool_output_and_write_nothing(
    mbg: BeliefGraph, memory_model: ScriptedModel
) -> None:
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon.", agent=AGENT)
    before = _count(mbg)
    memory_model.respond("extract", lambda inputs: "not json")  # an extraction the model never gets right
    out = run(
        mbg,
        "I live in Porto.",
        [
            function_call("belief", {"key": "User City!!"}, call_id="b1"),
            function_call("remember", {"text": "I live in Porto."}, call_id="r1"),
            function_call("explain", {"key": None, "claim_id": None}, call_id="e1"),
            function_call("recall", "not json", call_id="q1"),
        ],
        [assistant_message("Sorry.")],
    )
    assert out["b1"].startswith("ValidationError: malformed fact key 'User City!!'")
    assert out["r1"].startswith("EncodingError: ")
    assert (
        out["e1"] == "ValidationError: invalid arguments: arguments: Value error, give exactly one of key and claim_id"
    )
    assert out["q1"].startswith("ValidationError: the arguments are not JSON")
    assert _count(mbg) == before
    assert mbg.belief("user.city").value == "Lisbon"  # type: ignore[union-attr]


def test_the_parameters_are_the_argument_models_in_the_sdks_strict_form(mbg: BeliefGraph) -> None:
    tools = {t.name: t for t in memory_function_tools(mbg, agent=AGENT)}
    assert list(tools) == ["remember", "recall", "belief", "history", "explain", "disputes"]
    recall = tools["recall"].params_json_schema
    assert recall["additionalProperties"] is False and recall["required"] == ["query", "k", "key_prefix"]
    assert tools["disputes"].params_json_schema["properties"]["status"]["enum"] == ["open", "resolved", "all"]
    assert all(t.strict_json_schema for t in tools.values())
