"""The models that hold a graph draw themselves in a notebook, though ``models/`` knows nothing of ``viz``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from belief_graph.models.argumentation import GroundedResult
from belief_graph.viz.notebook import NOTEBOOK_VIEWS, attach_notebook_views

pytestmark = pytest.mark.unit


def test_every_model_of_the_table_has_its_drawing() -> None:
    for model in NOTEBOOK_VIEWS:
        assert callable(getattr(model, "_repr_html_", None)), model.__name__


def test_a_grounded_result_draws_its_arguments() -> None:
    result = GroundedResult.model_validate(
        {"ns": "af", "in": ["a"], "out": ["b"], "undec": [], "waves": 1, "arguments": 2}
    )
    attach_notebook_views()  # a second call changes nothing
    frame = result._repr_html_()  # type: ignore[attr-defined]
    assert frame.startswith("<iframe") and "Grounded labelling of af" in frame


def test_a_fresh_interpreter_that_imports_only_a_model_module_gets_the_drawing() -> None:
    """Whatever module of the package a notebook imports first, the package's ``__init__`` runs first."""
    code = (
        "from belief_graph.models.support import ClaimSupport, AuditRecord\n"
        "print(hasattr(ClaimSupport, '_repr_html_'), hasattr(AuditRecord, '_repr_html_'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]
