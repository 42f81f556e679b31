"""The base of every repository: a graph and a space, a statement run in the caller's transaction
or in its own.

Every method takes an optional transaction ``tx``; without one it runs in its own managed
transaction. Services compose several calls into one transaction with ``graph.write_tx``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..db.driver import Graph, Tx

__all__ = ["Repo", "Runner", "RunnerRepo"]

log = logging.getLogger(__name__)


class Repo:
    """Base: a graph and a space; ``_read``/``_write`` run in ``tx`` when given, else in their own."""

    def __init__(self, graph: Graph, space: str) -> None:
        self.graph = graph
        self.space = space

    def _read(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.read(query, **params)

    def _write(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.write(query, **params)


Runner = Callable[..., list[dict[str, Any]]]
"""``runner(tx, name, **params) -> rows``; the default is :meth:`Graph.run`."""


class RunnerRepo(Repo):
    """Base of the repositories whose in-transaction statements go through a ``runner`` (support and
    currency): tests replace it to profile or pause every statement, without any Cypher of their own."""

    def __init__(self, graph: Graph, space: str, runner: Runner | None = None) -> None:
        super().__init__(graph, space)
        self.runner: Runner = runner if runner is not None else graph.run

    def _in(self, tx: Tx, name: str, **params: Any) -> list[dict[str, Any]]:
        return self.runner(tx, name, **params)
