"""``policy``, ``disputes``, ``agents`` and the history/explain commands, in-process with CliRunner."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.settings import Settings


@pytest.fixture()
def cli(base_settings: Settings, graph) -> Iterator:  # type: ignore[no-untyped-def,type-arg]
    space = f"cli-{uuid.uuid4().hex[:10]}"
    env = {
        "BELIEF_GRAPH_NEO4J__URI": base_settings.neo4j.uri,
        "BELIEF_GRAPH_NEO4J__PASSWORD": base_settings.neo4j.password.get_secret_value(),
        "BELIEF_GRAPH_SPACE": space,
        "BELIEF_GRAPH_EMBEDDING__PROVIDER": "local",
    }
    runner = CliRunner()

    def invoke(*args: str, code: int = 0) -> str:
        r = runner.invoke(app, list(args), env=env)
        assert r.exit_code == code, (args, r.output, r.exception)
        return r.output

    yield invoke
    graph.write("admin.delete_space", space=space)


def test_policy_dispute_flow(cli) -> None:  # type: ignore[no-untyped-def]
    cli("policy", "set", "user.timezone", "authority")
    cli("policy", "authority", "agent-a", "user.timezone", "0.9")
    cli("policy", "authority", "agent-b", "user.*", "0.2")
    rules = json.loads(cli("policy", "list", "--json"))
    assert rules["policies"][0]["strategy"] == "authority" and len(rules["authority"]) == 2
    assert json.loads(cli("policy", "show", "user.timezone", "--json"))["strategy"] == "authority"
    a = json.loads(cli("memory", "assert", "user.timezone", "PST", "Pacific time", "--agent", "agent-a", "--json"))
    b = json.loads(cli("memory", "assert", "user.timezone", "EST", "Eastern time", "--agent", "agent-b", "--json"))
    assert (a["op"], b["op"]) == ("ADD", "DISPUTED")
    open_ = json.loads(cli("disputes", "list", "--json"))
    assert len(open_) == 1 and open_[0]["challenger"]["id"] == b["claim"]["id"]
    cli("disputes", "resolve", open_[0]["id"], "--winner", "challenger", "--by", "user:admin", "--reason", "confirmed")
    assert json.loads(cli("disputes", "list", "--json")) == []
    assert json.loads(cli("memory", "belief", "user.timezone", "--json"))["value"] == "EST"
    hist = json.loads(cli("memory", "history", "user.timezone", "--json"))
    assert [v["claim"]["status"] for v in hist] == ["superseded", "active"]
    text = cli("memory", "explain", b["claim"]["id"])
    assert "confirmed" in text and "dispute" in text
    assert "agent-a" in cli("agents", "list")
    # bad input: one typed error, non-zero exit
    cli("policy", "authority", "agent-a", "user.timezone", "7", code=1)
    cli("disputes", "resolve", "nope", "--winner", "incumbent", "--by", "x", "--reason", "y", code=1)


def test_memory_remember_replays_without_api_key(cli) -> None:  # type: ignore[no-untyped-def]
    """No API key: the shipped replay answers the demo's first turn; the claim is written."""
    out = json.loads(
        cli(
            "memory",
            "remember",
            "I'm pretty cautious with money, I hate picking individual stocks.",
            "--agent",
            "user:alice",
            "--json",
        )
    )
    assert [r["op"] for r in out["results"]] == ["ADD"]
    assert out["results"][0]["claim"]["key"] == "user.risk_tolerance"
    assert json.loads(cli("memory", "belief", "user.risk_tolerance", "--json"))["value"] == "cautious"
