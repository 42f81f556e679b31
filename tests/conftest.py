"""Shared fixtures. Integration tests run against a real Neo4j, chosen in this order:

1. ``BELIEF_GRAPH_NEO4J__URI`` given explicitly -> that server;
2. a Docker engine answers -> a ``testcontainers`` Neo4j (the image pinned in docker/docker-compose.yml);
3. otherwise the local server (``belief-graph server start``), started here if it is not running.

A missing database is a test *error*, never a skip: nothing claims database behaviour without one.
Each test gets its own memory space and it is removed afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator

import pytest

from belief_graph.db.driver import Graph, create_driver
from belief_graph.settings import Settings, load_settings

DOCKER_IMAGE = "neo4j:5.26.30-community"

# The local chat server (`belief-graph llm serve`) is used by `provider=auto` while it runs. The
# fast suite must not talk to one someone left running: every test sees an empty server home,
# except the `real_llm` tests, which are given the configured one (tests/real_llm/conftest.py).
REAL_LLM_SERVER_HOME = os.environ.get("BELIEF_GRAPH_LLM_SERVER__HOME")


@pytest.fixture(scope="session")
def real_llm_server_home() -> str | None:
    """``BELIEF_GRAPH_LLM_SERVER__HOME`` as the suite was started with (``None``: the default)."""
    return REAL_LLM_SERVER_HOME


@pytest.fixture(scope="session", autouse=True)
def _no_local_llm_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BELIEF_GRAPH_LLM_SERVER__HOME", str(tmp_path_factory.mktemp("no-llm-server")))
        yield


def _docker_engine() -> bool:
    if not shutil.which("docker"):
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def base_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """Settings pointing at a reachable real Neo4j (see module docstring)."""
    if os.environ.get("BELIEF_GRAPH_NEO4J__URI"):
        yield load_settings()
        return
    if _docker_engine():
        import secrets

        from testcontainers.neo4j import Neo4jContainer

        password = secrets.token_urlsafe(18)  # never a published password, even for a throw-away container
        with Neo4jContainer(DOCKER_IMAGE, password=password) as c:
            yield load_settings(neo4j={"uri": c.get_connection_url(), "password": password})
        return
    from belief_graph.localserver import LocalServer

    s = load_settings()
    server = LocalServer(s.server, s.neo4j)
    started_here = not server.status().running
    try:
        server.start()
    except Exception as exc:  # a failure, not a skip
        pytest.fail(f"no Neo4j for integration tests: {exc}", pytrace=False)
    s = s.model_copy(update={"neo4j": server.neo4j})  # the password start() generated on a fresh machine
    yield s
    if started_here and os.environ.get("BELIEF_GRAPH_TEST_KEEP_SERVER") != "1":
        server.stop()


@pytest.fixture(scope="session")
def graph(base_settings: Settings) -> Iterator[Graph]:
    g = Graph(create_driver(base_settings.neo4j), base_settings.neo4j)
    g.verify()
    from belief_graph.db.schema import apply_migrations

    apply_migrations(g, dimension=base_settings.embedding.dimension)
    yield g
    g.close()


@pytest.fixture(scope="session")
def embedder():  # type: ignore[no-untyped-def]
    from belief_graph.embeddings import LocalMiniLMEmbedder

    return LocalMiniLMEmbedder()


@pytest.fixture()
def space(graph: Graph) -> Iterator[str]:
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    graph.write("admin.delete_space", space=name)


@pytest.fixture()
def bg(base_settings: Settings, graph: Graph, embedder, space: str):  # type: ignore[no-untyped-def]
    from belief_graph import BeliefGraph

    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as b:
        yield b


@pytest.fixture()
def run_cli(base_settings: Settings):  # type: ignore[no-untyped-def]
    """``run_cli([...args])``: the real ``belief-graph`` entry point against the test server."""
    from cli_runner import run_cli_with

    return lambda args, **env: run_cli_with(base_settings, args, **env)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests under tests/integration are marked ``integration``; under tests/unit ``unit``; under
    tests/real_llm ``real_llm`` (and ``integration``: they write to the real Neo4j)."""
    for item in items:
        p = str(item.fspath)
        if "/real_llm/" in p:
            item.add_marker(pytest.mark.real_llm)
            item.add_marker(pytest.mark.integration)
        elif "/integration/" in p:
            item.add_marker(pytest.mark.integration)
        elif "/unit/" in p and not item.get_closest_marker("cypher"):
            item.add_marker(pytest.mark.unit)
