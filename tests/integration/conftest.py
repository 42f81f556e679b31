"""Fixtures shared by the integration tests of exploration (curated queries, shell, Browser, views)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explore_world import World, build_world

from belief_graph.settings import Settings


@pytest.fixture(scope="session")
def explore_world(base_settings: Settings, graph, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:  # type: ignore[no-untyped-def]
    """One small memory with an instance of every curated question (see explore_world.py)."""
    yield from build_world(base_settings, tmp_path_factory.mktemp("explore-world"))
