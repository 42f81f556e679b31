"""Every registry query is valid Cypher for the real server, and index-backed queries use indexes."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph.db.driver import Graph
from belief_graph.db.registry import get_registry

REGISTRY = get_registry()


def _operators(plan: dict[str, Any]) -> list[str]:
    ops = [plan["operatorType"].split("@")[0]]
    for child in plan.get("children", []):
        ops += _operators(child)
    return ops


def _summary(graph: Graph, text: str, database: str | None = None) -> Any:
    with graph.driver.session(database=database or graph.database) as session:
        return session.run("EXPLAIN " + text).consume()


def _explain(graph: Graph, text: str) -> list[str]:
    summary = _summary(graph, text)
    assert summary.plan is not None
    return _operators(summary.plan)


@pytest.mark.parametrize("name", REGISTRY.names())
def test_explain_every_query(graph: Graph, name: str) -> None:
    """The server plans every query, and none uses a deprecated feature (future-proof for Cypher 25)."""
    query = REGISTRY[name]
    summary = _summary(graph, query.text, query.database)
    assert summary.plan is not None
    deprecated = [
        s.status_description
        for s in summary.gql_status_objects
        if str(getattr(s, "classification", "")).endswith("DEPRECATION")
    ]
    assert not deprecated, deprecated


# Queries that look up by (space, key/id) must seek an index, never scan a whole label.
INDEXED = [
    "claim.get_claim",
    "claim.get_belief",
    "claim.lock_facts",
    "claim.set_current",
    "claim.supersede_current",
    "claim.find_premises",
    "episode.create_episode",
]


@pytest.mark.parametrize("name", INDEXED)
def test_no_label_scan(graph: Graph, name: str) -> None:
    ops = _explain(graph, REGISTRY[name].text)
    scans = [o for o in ops if o in ("NodeByLabelScan", "AllNodesScan")]
    assert not scans, f"{name} plans {scans}: {ops}"
