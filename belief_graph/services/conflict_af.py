"""Grounding for conflict strategies: stores the attack graph a strategy describes (e.g.
:class:`belief_graph.policies.argumentation.Argumentation`) in its namespace, replacing the previous
one, and computes the grounded labelling in Cypher inside the write transaction."""

from __future__ import annotations

from ..db.driver import Graph, Tx
from ..models.argumentation import GroundedResult
from ..policies import ConflictFramework
from .argumentation import ArgumentationService
from .conflicts import Grounder

__all__ = ["Grounder", "conflict_grounder"]


def conflict_grounder(graph: Graph, space: str) -> Grounder:
    """A grounder for the write path of ``space`` (the argumentation engine, stateless)."""

    def ground(tx: Tx, fw: ConflictFramework) -> GroundedResult:
        svc = ArgumentationService(graph, space)
        svc.repo.delete_arguments(fw.ns, tx)
        svc.repo.create_arguments(tx, fw.ns, list(fw.arguments))
        svc.repo.merge_attacks(tx, fw.ns, list(fw.attacks))
        return svc.ground_tx(tx, fw.ns)

    return ground
