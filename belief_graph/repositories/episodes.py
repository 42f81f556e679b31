"""Repository of episodes (``cypher/episode/``), the only caller of those queries."""

from __future__ import annotations

from collections.abc import Sequence

from ..db.driver import Tx
from ..models import Episode
from .core import Repo

__all__ = ["EpisodeRepository"]


class EpisodeRepository(Repo):
    def create(
        self,
        *,
        id: str,
        text: str,
        agent: str,
        agent_kind: str,
        conversation: str | None,
        at: str,
        tx: Tx | None = None,
        rejections: Sequence[str] = (),
    ) -> Episode:
        rows = self._write(
            tx,
            "episode.create_episode",
            space=self.space,
            id=id,
            text=text,
            agent=agent,
            agent_kind=agent_kind,
            conversation=conversation,
            at=at,
            rejections=list(rejections),
        )
        return Episode.model_validate(rows[0])
