"""Progress lines of ``install``/``start``: logged, and passed to the caller's callback if any."""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Progress = Callable[[str], None]
"""Receives one human-readable line per step (``install``/``start``); the module never prints."""


def _say(progress: Progress | None, line: str) -> None:
    log.info(line)
    if progress is not None:
        progress(line)
