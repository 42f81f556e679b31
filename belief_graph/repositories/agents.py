"""The agent area (``cypher/agent/``): the registered writers of a space."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db.driver import Tx
from ..models import AgentInfo
from .core import Repo

__all__ = ["AgentRepository"]


class AgentRepository(Repo):
    def register(self, tx: Tx | None = None, **fields: Any) -> AgentInfo:
        rows = self._write(tx, "agent.register_agent", space=self.space, **fields)
        return AgentInfo.model_validate(rows[0]["agent"])

    def registered(self, ids: Sequence[str], tx: Tx | None = None) -> set[str]:
        return {r["id"] for r in self._read(tx, "agent.find_agents", space=self.space, ids=list(ids))}

    def all(self, tx: Tx | None = None) -> list[AgentInfo]:
        return [AgentInfo.model_validate(r["agent"]) for r in self._read(tx, "agent.list_agents", space=self.space)]
