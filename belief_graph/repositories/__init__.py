"""Repositories: the only callers of the query registry. Records become pydantic models here.

One module per query area, named after it (``claims`` runs ``cypher/claim/``, ``disputes``
``cypher/dispute/``, ...; ``core`` holds the base classes);
services receive a :class:`~belief_graph.db.driver.Graph` and use these, never ``cypher/`` directly.
"""

from .admin import AdminRepository
from .agents import AgentRepository
from .claims import ClaimRepository
from .core import Repo
from .disputes import DisputeRepository
from .episodes import EpisodeRepository
from .facts import FactRepository, KeyRepository
from .policy import PolicyRepository

__all__ = [
    "AdminRepository",
    "AgentRepository",
    "ClaimRepository",
    "DisputeRepository",
    "EpisodeRepository",
    "FactRepository",
    "KeyRepository",
    "PolicyRepository",
    "Repo",
]
