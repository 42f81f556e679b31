"""The curated questions (cypher/explore/) against a real Neo4j: each finds what the world holds,
through the service and through `belief-graph query`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from explore_world import World

from belief_graph import BeliefGraph
from belief_graph.console.curated import question, questions
from belief_graph.db.registry import get_registry
from belief_graph.errors import NothingToShow, ValidationError

BIN = str(Path(sys.executable).with_name("belief-graph"))


def _bg(world: World) -> BeliefGraph:
    from belief_graph.embeddings import HashingEmbedder

    return BeliefGraph.connect(space=world.space, settings=world.settings, embedder=HashingEmbedder())


def _cli(world: World, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    s = world.settings
    env.update(
        BELIEF_GRAPH_NEO4J__URI=s.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=s.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=s.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_SERVER__HOME=str(s.server.home),
    )
    return subprocess.run([BIN, "--space", world.space, *args], capture_output=True, text=True, env=env, timeout=300)


def test_every_curated_question_finds_what_the_world_holds(explore_world: World) -> None:
    with _bg(explore_world) as bg:
        got = {
            q.query.name: bg.explore.run(q.query.name, explore_world.params()[q.query.name])
            for q in questions(get_registry())
        }
    labels = {name: r.graph.labels_count() for name, r in got.items()}
    # claims carry their status label too (docs/explore.md, "Status in Browser")
    assert labels["explore.why_believed"] == {"Fact": 1, "Claim": 2, "Active": 2, "Justification": 2, "Episode": 1}
    assert {n.properties.get("text") for n in got["explore.find_dependents"].graph.nodes} >= {
        "Alice lives in Paris",
        "Alice's timezone is Europe/Paris",
    }
    audit = got["explore.show_audit"].graph
    assert {e.type for e in audit.edges} >= {"ROOT", "WITHDREW", "PREMISE_OF", "JUSTIFIES"}
    assert [n.properties["status"] for n in audit.nodes if "Claim" in n.labels] == ["withdrawn"]
    hist = got["explore.show_history"].graph
    assert sorted(n.properties["status"] for n in hist.nodes if "Claim" in n.labels) == ["active", "superseded"]
    assert {e.type for e in hist.edges} >= {"CURRENT", "SUPERSEDES", "VERSION_OF", "HAS_REVISION"}
    disputes = got["explore.list_open_disputes"].graph
    assert labels["explore.list_open_disputes"] == {"Dispute": 1, "Claim": 2, "Active": 1, "Disputed": 1}
    assert sorted(e.type for e in disputes.edges) == ["CHALLENGER", "INCUMBENT"]
    attack = got["explore.show_attack_graph"].graph
    props = {n.properties["perspective"]: n.properties["label"] for n in attack.nodes if "Proposal" in n.labels}
    assert props == explore_world.expected["labels"] == {"finance": "IN", "relationship": "OUT", "risk": "OUT"}
    assert sum(e.type == "ATTACKS" for e in attack.edges) == 2
    assert labels["explore.show_perspective"]["Concept"] == 1
    assert labels["explore.show_perspective"]["Interpretation"] == 3  # every episode not retracted
    assert got["explore.find_stale"].rows == []  # no stale conclusion in this world (yet)
    fw = {
        n.properties["name"]: n.properties["label"]
        for n in got["explore.show_framework"].graph.nodes
        if "Argument" in n.labels
    }
    assert fw == {"a": "IN", "b": "OUT", "c": "IN"}


def test_views_count_the_expected_nodes(explore_world: World) -> None:
    with _bg(explore_world) as bg:
        ex = bg.explore
        assert ex.support("user.timezone").node_count == explore_world.expected["support"]
        assert ex.history("user.risk_tolerance").node_count == explore_world.expected["history"]
        assert ex.audit(explore_world.ids["audit"]).node_count == explore_world.expected["audit"]
        assert ex.deliberation(explore_world.ids["deliberation"]).node_count == explore_world.expected["deliberation"]
        assert ex.framework("af1").node_count == explore_world.expected["framework"]
        assert ex.framework("af1", limit=2).node_count == 3
        with pytest.raises(NothingToShow):
            ex.support("no.such.key")
        with pytest.raises(ValidationError):
            ex.run("why_believed", {})
        with pytest.raises(ValidationError):
            ex.run("why_believed", {"key": "x", "space": "other"})
        with pytest.raises(ValidationError):
            ex.run("claim.create_claim", {})  # not a curated (read-only) question


def test_query_cli_lists_shows_and_runs(explore_world: World) -> None:
    listed = json.loads(_cli(explore_world, "query", "list", "--json").stdout)
    assert [q["name"] for q in listed] == [q.short_name for q in questions(get_registry())]
    shown = _cli(explore_world, "query", "show", "why_believed")
    assert shown.returncode == 0 and ":param key => 'user.risk_tolerance'" in shown.stdout
    why = question(get_registry(), "why_believed")
    assert (
        shown.stdout.splitlines()[0] == f"// {why.title} - {why.note}"
    )  # one line however long (a pipe is no terminal)
    assert get_registry()["explore.why_believed"].text in shown.stdout
    run = _cli(explore_world, "query", "run", "why_believed", "-p", "key=user.timezone", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["nodes"] == 6 and out["params"] == {"space": explore_world.space, "key": "user.timezone"}
    table = _cli(explore_world, "query", "run", "show_framework", "-p", "name=af1", "-p", "limit=2")
    assert table.returncode == 0 and "3 nodes" in table.stdout, table.stdout
    for bad, why in (
        (["run", "why_believed"], "needs -p key="),
        (["run", "nope"], "no curated query"),
        (["run", "show_framework", "-p", "name=af1", "-p", "limit=many"], "is an integer"),
        (["run", "why_believed", "-p", "keyx=1"], "has no parameter"),
    ):
        r = _cli(explore_world, "query", *bad)
        assert r.returncode == 2 and why in r.stderr and r.stderr.count("\n") == 1, (bad, r.stderr)
