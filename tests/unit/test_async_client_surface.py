"""The async client's surface follows the sync one: every namespace of ``BeliefGraph`` is offered,
every public method of it is a coroutine function there, and the everyday calls have the sync
signatures. No database: connecting with ``verify=False`` opens no connection."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from functools import cached_property

import pytest

from belief_graph import AsyncBeliefGraph, BeliefGraph
from belief_graph.aio.client import NAMESPACES
from belief_graph.errors import DatabaseUnavailable
from belief_graph.settings import load_settings

EVERYDAY = ("add_episode", "assert_claim", "remember", "belief", "recall", "answer", "derive", "retract", "restore",
            "context", "llm_usage")  # fmt: skip


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture()
async def abg() -> AsyncIterator[AsyncBeliefGraph]:
    settings = load_settings(neo4j={"uri": "bolt://127.0.0.1:1", "password": "unused"})
    async with AsyncBeliefGraph.connect(space="surface", settings=settings, verify=False) as client:
        yield client


def test_every_namespace_of_the_sync_client_is_offered() -> None:
    namespaces = {n for n, v in vars(BeliefGraph).items() if isinstance(v, cached_property)}
    assert set(NAMESPACES) == namespaces - {"llm"}  # bg.llm: through abg.call (docs/integrations.md)


@pytest.mark.parametrize("name", EVERYDAY)
def test_the_everyday_calls_have_the_sync_signatures(name: str) -> None:
    sync, coro = getattr(BeliefGraph, name), getattr(AsyncBeliefGraph, name)
    assert inspect.signature(coro) == inspect.signature(sync)
    assert inspect.iscoroutinefunction(coro) == (name != "llm_usage")


@pytest.mark.anyio
async def test_every_public_method_of_a_namespace_is_a_coroutine_function(abg: AsyncBeliefGraph) -> None:
    for ns in NAMESPACES:
        service = getattr(abg.sync, ns)
        methods = [m for m in dir(service) if not m.startswith("_") and callable(getattr(service, m))]
        assert methods, ns
        for m in methods:
            assert inspect.iscoroutinefunction(getattr(getattr(abg, ns), m)), f"abg.{ns}.{m}"
        assert sorted(dir(getattr(abg, ns))) == sorted(methods)


@pytest.mark.anyio
async def test_connecting_to_nothing_is_the_typed_error_of_the_sync_client() -> None:
    settings = load_settings(neo4j={"uri": "bolt://127.0.0.1:1", "password": "unused"})
    with pytest.raises(DatabaseUnavailable) as sync_error:
        BeliefGraph.connect(space="surface", settings=settings)
    with pytest.raises(DatabaseUnavailable) as async_error:
        await AsyncBeliefGraph.connect(space="surface", settings=settings)
    assert async_error.value.uri == sync_error.value.uri == "bolt://127.0.0.1:1"
