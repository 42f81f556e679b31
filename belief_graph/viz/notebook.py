"""The models that hold a graph, drawn in a notebook.

The drawing knows the models, not the other way round: ``models/`` hold data and import nothing of
how they are shown. :func:`attach_notebook_views` gives each model of :data:`NOTEBOOK_VIEWS` a
``_repr_html_`` (the method Jupyter and other notebook front-ends call for rich output) that draws it
through its view of :mod:`belief_graph.viz` (an offline cytoscape.js page in an ``iframe``).
``belief_graph/__init__.py`` calls it, so a model reached through any ``belief_graph`` import draws
itself; calling it again changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..models.argumentation import GroundedResult
from ..models.perspectives import DeliberationRecord
from ..models.support import AuditRecord, ClaimSupport
from . import GraphView, from_audit, from_deliberation, from_grounded, from_support

__all__ = ["NOTEBOOK_VIEWS", "attach_notebook_views"]

NOTEBOOK_VIEWS: dict[type, Callable[[Any], GraphView]] = {
    ClaimSupport: from_support,
    AuditRecord: from_audit,
    DeliberationRecord: from_deliberation,
    GroundedResult: from_grounded,
}
"""Each model that holds a graph, and the view that draws it."""


def _repr_html_of(view: Callable[[Any], GraphView]) -> Callable[[Any], str]:
    def _repr_html_(self: Any) -> str:
        """Drawn in a notebook (an offline cytoscape.js view; see belief_graph.viz)."""
        return view(self)._repr_html_()

    return _repr_html_


def attach_notebook_views() -> None:
    """Give every model of :data:`NOTEBOOK_VIEWS` its ``_repr_html_``."""
    for model, view in NOTEBOOK_VIEWS.items():
        model._repr_html_ = _repr_html_of(view)  # type: ignore[attr-defined]
