"""docs/architecture.md names the ``cypher/`` areas whose statements a write runs ("**A write**",
under "How a request flows"); this test runs writes that reach every part of the path (evidence,
a strict agent check, a conflict under the authority strategy, a rule re-derived, a derived
conclusion made stale) against the real Neo4j, records the name of every statement they run, and
fails when one comes from an area the paragraph does not name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.settings import Settings

DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"

RULE = {
    "name": "nationality",
    "premises": [
        {"key": "work.{w}.performer", "as": "performer"},
        {"key": "person.{performer}.citizenship", "as": "country"},
    ],
    "conclusion": {"key": "work.{w}.nationality", "value": "{country}", "text": "{w} is from {country}"},
}


def _areas_named_by_the_write_paragraph() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"^\*\*A write\*\*.*?(?=\n\n)", text, re.M | re.S)
    assert m, "docs/architecture.md has no paragraph starting '**A write**' (this test reads the areas it names)"
    return set(re.findall(r"`cypher/(\w+)/", m[0]))


def test_the_write_path_runs_statements_of_the_areas_the_doc_names(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = base_settings.model_copy(
        update={"policy": base_settings.policy.model_copy(update={"strict_agents": True})}
    )
    names: list[str] = []
    run, execute = Graph.run, Graph._execute

    def recording_run(self: Graph, tx: Any, name: str, /, **params: Any) -> Any:
        names.append(name)
        return run(self, tx, name, **params)

    def recording_execute(self: Graph, name: str, params: Any, **kw: Any) -> Any:
        names.append(name)
        return execute(self, name, params, **kw)

    # patched before the services exist: repositories keep the bound `run` they were built with
    monkeypatch.setattr(Graph, "run", recording_run)
    monkeypatch.setattr(Graph, "_execute", recording_execute)
    with BeliefGraph.connect(space=space, settings=settings, embedder=embedder) as bg:
        for agent in ("user:alice", "agent:crm", "agent:chat"):
            bg.beliefs.add_agent(agent)
        bg.conflicts.set_policy("user.city", "authority")
        bg.rules.add(RULE)
        ep = bg.add_episode("Ann performed w1; she is French.", agent="user:alice")
        x = bg.assert_claim("user.x", "1", "x is 1", agent="user:alice")
        bg.derive("x is small", [x.claim.id], agent="user:alice")

        names.clear()  # only the writes below
        bg.assert_claim("work.w1.performer", "ann", "w1 was performed by ann", agent="user:alice", evidence=[ep.id])
        bg.assert_claim("person.ann.citizenship", "fr", "ann is French", agent="user:alice")
        bg.assert_claim("person.ann.citizenship", "it", "ann is Italian", agent="user:alice")  # re-derives
        bg.assert_claim("user.x", "2", "x is 2", agent="user:alice")  # the conclusion goes stale
        bg.assert_claim("user.city", "Paris", "lives in Paris", agent="agent:crm")
        r = bg.assert_claim("user.city", "Lyon", "lives in Lyon", agent="agent:chat")  # authority: a dispute
        monkeypatch.undo()

    assert r.dispute is not None, "the authority conflict opened no dispute"
    used = {n.split(".", 1)[0] for n in names}
    assert {"claim", "dispute", "rules", "currency"} <= used, f"the writes did not reach every part: {sorted(used)}"
    named = _areas_named_by_the_write_paragraph()
    assert used <= named, (
        f"the write path runs statements of cypher/ areas docs/architecture.md's '**A write**' paragraph "
        f"does not name: {sorted(used - named)} (it names {sorted(named)})"
    )
