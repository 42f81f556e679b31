"""belief_graph: a Neo4j-native belief engine for the memory of AI agents.

Public API::

    from belief_graph import BeliefGraph, Settings, load_settings
    with BeliefGraph.connect(space="default") as bg:
        ...
    async with AsyncBeliefGraph.connect(space="default") as abg:   # the same calls, as coroutines
        ...

Importing this package reads no environment and opens no connection; it gives the models that hold
a graph their notebook drawing (``viz/notebook.py``: the drawing knows the models, not the reverse).
"""

from .aio import AsyncBeliefGraph
from .errors import BeliefGraphError
from .facade import BeliefGraph
from .models import Claim, ClaimStatus, Episode, RecallHit, WriteOp, WriteResult
from .settings import Settings, load_settings
from .viz.notebook import attach_notebook_views

attach_notebook_views()

__all__ = [
    "AsyncBeliefGraph",
    "BeliefGraph",
    "BeliefGraphError",
    "Claim",
    "ClaimStatus",
    "Episode",
    "RecallHit",
    "Settings",
    "WriteOp",
    "WriteResult",
    "load_settings",
]
__version__ = "0.1.0"
