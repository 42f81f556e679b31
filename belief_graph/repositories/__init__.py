"""Repositories: the only callers of the query registry. Records become pydantic models here.

One module per area (``core`` for episodes/claims/admin; later areas add their own module);
services receive a :class:`~belief_graph.db.driver.Graph` and use these, never ``cypher/`` directly.
"""

from .core import AdminRepository, ClaimRepository, EpisodeRepository, Repo
from .keys import KeyRepository
from .policy import AgentRepository, DisputeRepository, FactRepository, PolicyRepository, VersionRepository

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
    "VersionRepository",
]
