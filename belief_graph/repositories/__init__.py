"""Repositories: the only callers of the query registry. Records become pydantic models here.

One module per query area, named after it (``claims`` runs ``cypher/claim/``, ``disputes``
``cypher/dispute/``, ...; ``core`` holds the base class, episodes and admin);
services receive a :class:`~belief_graph.db.driver.Graph` and use these, never ``cypher/`` directly.
"""

from .agents import AgentRepository
from .claims import ClaimRepository
from .core import AdminRepository, EpisodeRepository, Repo
from .disputes import DisputeRepository
from .facts import FactRepository
from .keys import KeyRepository
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
