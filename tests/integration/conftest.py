"""Fixtures shared by the integration tests: a space's BeliefGraph on a scripted chat model
(``model`` and ``mbg``; a module overrides ``model`` to script its replies), and the world of the
exploration tests (curated queries, shell, Browser, views)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explore_world import World, build_world

from belief_graph import BeliefGraph
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings


@pytest.fixture()
def model() -> ScriptedModel:
    """The chat model of ``mbg``: scripted, replying nothing until a test says what."""
    return ScriptedModel()


@pytest.fixture()
def mbg(base_settings, graph, embedder, space, model) -> Iterator[BeliefGraph]:  # type: ignore[no-untyped-def]
    """A BeliefGraph on the test's space and the real Neo4j, with ``model`` as its chat model."""
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        yield b


@pytest.fixture(scope="session")
def explore_world(base_settings: Settings, graph, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:  # type: ignore[no-untyped-def]
    """One small memory with an instance of every curated question (see explore_world.py)."""
    yield from build_world(base_settings, tmp_path_factory.mktemp("explore-world"))
