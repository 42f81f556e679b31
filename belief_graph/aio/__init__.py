"""The async client: :class:`AsyncBeliefGraph` (client.py); the bridge it runs on: belief_graph/db/bridge.py."""

from .client import AsyncBeliefGraph, AsyncNamespace

__all__ = ["AsyncBeliefGraph", "AsyncNamespace"]
