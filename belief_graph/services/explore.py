"""The curated questions as a service: run one by name for this space, or draw it as a view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..console.curated import Question, question, questions
from ..db.driver import Graph
from ..errors import NothingToShow, ValidationError
from ..repositories.explore import ExploreRepository
from ..viz import GraphView
from ..viz.graph import QueryResult

__all__ = ["ExploreService"]


class ExploreService:
    """``run`` answers a curated question (``explore.*``) in this space; the view methods draw
    the ones the HTML views need."""

    def __init__(self, graph: Graph, space: str) -> None:
        self.graph = graph
        self.space = space
        self.repo = ExploreRepository(graph)

    def questions(self) -> list[Question]:
        return questions(self.graph.registry)

    def question(self, name: str) -> Question:
        return question(self.graph.registry, name)

    def run(self, name: str, params: Mapping[str, Any] | None = None) -> QueryResult:
        """Run a curated question with ``params`` (``space`` is this service's space).

        Raises :class:`ValidationError` for an unknown question, a ``space`` param or a missing one.
        """
        q = self.question(name).query
        given = dict(params or {})
        if "space" in given:
            raise ValidationError("the space is chosen with --space / BELIEF_GRAPH_SPACE, not as a parameter")
        values = {"space": self.space, **given}
        missing = [p for p in q.params if p not in values]
        if missing:
            hints = ", ".join(f"-p {p}={dict(q.examples)[p]}" for p in missing)
            raise ValidationError(f"{q.name} needs {hints}")
        return self.repo.run(q.name, values)

    # -- views ---------------------------------------------------------------------------------
    def _view(self, name: str, params: Mapping[str, Any], title: str, kind: str, rank_dir: str) -> GraphView:
        result = self.run(name, params)
        if not result.graph.nodes:
            raise NothingToShow(kind, dict(params), self.space)
        return GraphView(title, result.graph, kind, rank_dir)

    def support(self, key: str) -> GraphView:
        """Why ``key`` is believed: its current claim and the justifications back to the evidence."""
        return self._view("explore.why_believed", {"key": key}, f"Why is {key} believed?", "support", "LR")

    def history(self, key: str) -> GraphView:
        """Every version of ``key`` with the SUPERSEDES chain and the revisions."""
        return self._view("explore.show_history", {"key": key}, f"History of {key}", "history", "LR")

    def audit(self, audit_id: str) -> GraphView:
        """What one audit changed (its region)."""
        return self._view("explore.show_audit", {"id": audit_id}, f"Audit {audit_id}", "audit", "TB")

    def deliberation(self, deliberation_id: str) -> GraphView:
        """A deliberation's attack graph, proposals coloured by grounded label."""
        return self._view(
            "explore.show_attack_graph",
            {"id": deliberation_id},
            f"Deliberation {deliberation_id}",
            "deliberation",
            "TB",
        )

    def framework(self, name: str, limit: int = 300) -> GraphView:
        """An imported framework's first ``limit`` arguments (by name) and the attacks among them."""
        if limit < 1:
            raise ValidationError("limit must be at least 1")
        view = self._view(
            "explore.show_framework", {"name": name, "limit": limit}, f"Framework {name}", "framework", "TB"
        )
        drawn = sum(1 for n in view.graph.nodes if "Argument" in n.labels)
        total = next((n.properties.get("arguments") for n in view.graph.nodes if "Framework" in n.labels), None)
        if isinstance(total, int) and total > drawn:
            view.note = (
                f"{drawn} of {total} arguments drawn (the first by name) and the attacks among them; "
                f"--limit {total} draws all"
            )
        return view
