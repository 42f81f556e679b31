"""The curated ``explore.*`` queries: run one and turn its records into rows and a graph."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

import neo4j.graph
import neo4j.time

from ..db.driver import Graph
from ..viz.graph import GraphData, QueryResult, ViewEdge, ViewNode

__all__ = ["ExploreRepository", "to_plain"]

_HIDDEN_PROPERTIES = frozenset({"embedding"})
"""Vectors are too long to show and say nothing to a reader."""


def _props(entity: neo4j.graph.Entity) -> dict[str, Any]:
    return {k: to_plain(v, None) for k, v in entity.items() if k not in _HIDDEN_PROPERTIES}


def _node(n: neo4j.graph.Node) -> ViewNode:
    return ViewNode(id=n.element_id, labels=sorted(n.labels), properties=_props(n))


def _edge(r: neo4j.graph.Relationship) -> ViewEdge:
    assert r.start_node is not None and r.end_node is not None
    return ViewEdge(
        id=r.element_id,
        type=r.type,
        source=r.start_node.element_id,
        target=r.end_node.element_id,
        properties=_props(r),
    )


def to_plain(value: Any, graph: GraphData | None) -> Any:
    """A driver value as JSON-ready data; nodes, relationships and paths are also added to
    ``graph`` (when given)."""
    if isinstance(value, neo4j.graph.Node):
        node = _node(value)
        if graph is not None:
            graph.add_node(node)
        return node.model_dump()
    if isinstance(value, neo4j.graph.Relationship):
        edge = _edge(value)
        if graph is not None:
            for end in (value.start_node, value.end_node):
                if end is not None:
                    graph.add_node(_node(end))
            graph.add_edge(edge)
        return edge.model_dump()
    if isinstance(value, neo4j.graph.Path):
        return {
            "nodes": [to_plain(n, graph) for n in value.nodes],
            "relationships": [to_plain(r, graph) for r in value.relationships],
        }
    if isinstance(value, list | tuple):
        return [to_plain(v, graph) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_plain(v, graph) for k, v in value.items()}
    if isinstance(value, neo4j.time.DateTime | neo4j.time.Date | neo4j.time.Time | neo4j.time.Duration):
        return str(value.iso_format())
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    return value


class ExploreRepository:
    """Runs curated (read-only) registry queries and keeps their graph structure."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph

    def run(self, name: str, params: Mapping[str, Any]) -> QueryResult:
        keys, records = self.graph.read_records(name, **params)
        data = GraphData()
        rows = [{k: to_plain(record[k], data) for k in keys} for record in records]
        return QueryResult(name=name, params=dict(params), keys=keys, rows=rows, graph=data)
