"""Pydantic models of drawn graphs: what the curated queries return and what the HTML views draw.

A :class:`GraphData` is plain data (no driver objects): nodes with their labels and properties,
edges with their type and ends. The repository builds it from query results; the view builders of
:mod:`belief_graph.viz` build it from the models of support, audits and deliberations.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = ["GraphData", "QueryResult", "ViewEdge", "ViewNode"]


class ViewNode(BaseModel):
    id: str
    labels: list[str] = Field(default_factory=list)
    properties: dict[str, Any] = Field(default_factory=dict)


class ViewEdge(BaseModel):
    id: str
    type: str
    source: str
    target: str
    properties: dict[str, Any] = Field(default_factory=dict)


class GraphData(BaseModel):
    """Nodes and edges, each once, in the order first seen."""

    nodes: list[ViewNode] = Field(default_factory=list)
    edges: list[ViewEdge] = Field(default_factory=list)

    def add_node(self, node: ViewNode) -> None:
        if all(n.id != node.id for n in self.nodes):
            self.nodes.append(node)

    def add_edge(self, edge: ViewEdge) -> None:
        if all(e.id != edge.id for e in self.edges):
            self.edges.append(edge)

    def labels_count(self) -> dict[str, int]:
        """How many nodes carry each label."""
        out: dict[str, int] = {}
        for n in self.nodes:
            for label in n.labels:
                out[label] = out.get(label, 0) + 1
        return out


class QueryResult(BaseModel):
    """One curated query's answer: rows as JSON-ready values, and the graph they contain."""

    name: str
    params: dict[str, Any]
    keys: list[str]
    rows: list[dict[str, Any]]
    graph: GraphData
