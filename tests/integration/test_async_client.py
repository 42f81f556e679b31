"""AsyncBeliefGraph against the real Neo4j: the sync client's answers, one current belief under 20
concurrent coroutines, cancellation inside an open transaction, a loop that keeps running while an
embedding or LLM call does, and the same typed errors (docs/architecture.md, "How the async client
shares the services")."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Any

import neo4j
import pytest
from scripted_replies import facts

from belief_graph import AsyncBeliefGraph, BeliefGraph, WriteOp
from belief_graph.db.bridge import current_call
from belief_graph.db.driver import Graph, Tx
from belief_graph.embeddings import Embedder
from belief_graph.errors import ClaimNotFound, DatabaseError, ValidationError
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings

pytestmark = pytest.mark.anyio

WAIT_S = 60.0
"""How long a paused thread waits for the test's signal before giving up (a failure, never a pass)."""


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"  # the neo4j driver's async API is asyncio's


def _count(graph: Graph, space: str) -> int:
    rows = graph.driver.execute_query("MATCH (n {space: $s}) RETURN count(n) AS n", s=space).records
    return int(rows[0]["n"])


def _pause_after_first_write(abg: AsyncBeliefGraph, reached: threading.Event) -> Callable[[], None]:
    """Make the next write statement inside a transaction of ``abg`` run, then signal ``reached`` and wait
    (in its worker thread) until the call is marked cancelled: the transaction is open and holds a
    write. Returns the function that puts ``run`` back."""
    graph = abg.graph
    original = graph.run
    paused = threading.Event()

    def run(tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        rows = original(tx, name, **params)
        if graph.registry[name].mode == "write" and not paused.is_set():
            paused.set()
            reached.set()
            call = current_call()
            assert call is not None and call.cancelled.wait(WAIT_S), "the call was never cancelled"
        return rows

    graph.run = run  # type: ignore[method-assign]
    return lambda: setattr(graph, "run", original)


async def _cancel_when(reached: threading.Event, task: asyncio.Task[Any]) -> None:
    assert await asyncio.to_thread(reached.wait, WAIT_S), "the call never reached its write"
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_everyday_calls_return_what_the_sync_client_returns(
    bg: BeliefGraph, base_settings: Settings, embedder: Embedder
) -> None:
    async with AsyncBeliefGraph.connect(space=bg.space, settings=base_settings, embedder=embedder) as abg:
        ep = await abg.add_episode("I moved from Paris to Lyon", agent="user:ana")
        first = await abg.assert_claim("user.city", "Paris", "Ana lives in Paris", agent="user:ana", evidence=[ep.id])
        second = await abg.assert_claim("user.city", "Lyon", "Ana lives in Lyon", agent="user:ana", evidence=[ep.id])
        assert (first.op, second.op) == (WriteOp.ADD, WriteOp.UPDATE)
        assert await abg.belief("user.city") == bg.belief("user.city")
        assert (await abg.belief("user.city")).value == "Lyon"  # type: ignore[union-attr]
        assert await abg.belief("user.nothing") is None
        assert await abg.beliefs.history("user.city") == bg.beliefs.history("user.city")
        assert [h.claim.id for h in await abg.recall("where does Ana live?", k=3)] == [
            h.claim.id for h in bg.recall("where does Ana live?", k=3)
        ]
        assert await abg.context(keys=["user.city"]) == bg.context(keys=["user.city"])
        view = await abg.explore.history("user.city")  # raw records (Graph.read_records) through the bridge
        assert view.graph == bg.explore.history("user.city").graph and view.node_count > 0

        pet = await abg.assert_claim("user.pet", "cat", "Ana has a cat", agent="user:ana")
        home = await abg.derive("Ana's cat lives in Lyon", [pet.claim.id, second.claim.id], agent="agent:planner")
        gone = await abg.retract(pet.claim.id, "Ana gave the cat away", agent="user:ana")
        assert home.id in gone.withdrawn_ids
        assert (await abg.beliefs.claim(home.id)).status == bg.beliefs.claim(home.id).status
        back = await abg.restore(pet.claim.id, "it was a misunderstanding", agent="user:ana")
        assert home.id in back.reinstated_ids
        assert await abg.call(lambda b, k: b.beliefs.history(k), "user.pet") == bg.beliefs.history("user.pet")


async def test_twenty_coroutines_writing_one_key_leave_one_current_belief_and_every_version(
    space: str, graph: Graph, base_settings: Settings, embedder: Embedder
) -> None:
    n = 20
    async with AsyncBeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as abg:
        results = await asyncio.gather(
            *(abg.assert_claim("user.mood", f"v{i}", f"The user's mood is v{i}", agent=f"agent:{i}") for i in range(n))
        )
        history = await abg.beliefs.history("user.mood")
        current = await abg.belief("user.mood")
    assert sorted(r.claim.value for r in results) == sorted(f"v{i}" for i in range(n))
    assert sorted(v.claim.id for v in history) == sorted(r.claim.id for r in results), "a version was lost"
    rec = graph.driver.execute_query(
        """MATCH (f:Fact {space: $s, key: 'user.mood'})
           CALL { WITH f MATCH (f)-[:CURRENT]->(cur) RETURN count(cur) AS currents }
           CALL { WITH f MATCH (v:Claim)-[:VERSION_OF]->(f)
                  RETURN count(v) AS versions, sum(CASE WHEN v.status = 'active' THEN 1 ELSE 0 END) AS active }
           CALL { WITH f MATCH (:Claim)-[s:SUPERSEDES]->(:Claim)-[:VERSION_OF]->(f) RETURN count(s) AS edges }
           RETURN currents, versions, active, edges""",
        s=space,
    ).records[0]
    assert (rec["currents"], rec["versions"], rec["active"], rec["edges"]) == (1, n, 1, n - 1)
    assert current is not None and current.id == history[-1].claim.id


async def test_a_cancelled_assert_claim_leaves_nothing_and_the_client_goes_on(
    space: str, graph: Graph, base_settings: Settings, embedder: Embedder
) -> None:
    async with AsyncBeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as abg:
        reached = threading.Event()
        put_back = _pause_after_first_write(abg, reached)
        task = asyncio.create_task(abg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user:ana"))
        await _cancel_when(reached, task)
        put_back()
        assert _count(graph, space) == 0, "the cancelled transaction left nodes behind"
        assert await abg.belief("user.city") is None
        r = await abg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:ana")
        assert r.op == WriteOp.ADD and (await abg.belief("user.city")).value == "Porto"  # type: ignore[union-attr]


async def test_a_cancelled_remember_leaves_nothing(
    space: str, graph: Graph, base_settings: Settings, embedder: Embedder
) -> None:
    model = ScriptedModel()
    model.respond("extract", facts({"key": "user.city", "value": "Lyon", "text": "The user lives in Lyon"}))
    async with AsyncBeliefGraph.connect(
        space=space, settings=base_settings, embedder=embedder, chat_model=model
    ) as abg:
        reached = threading.Event()
        put_back = _pause_after_first_write(abg, reached)
        task = asyncio.create_task(abg.remember("I live in Lyon now.", agent="user:ana"))
        await _cancel_when(reached, task)
        put_back()
        assert _count(graph, space) == 0, "the cancelled remember left nodes behind"
        done = await abg.remember("I live in Lyon now.", agent="user:ana")
        assert [r.op for r in done.results] == [WriteOp.ADD]


class _HeldEmbedder:
    """Delegates to ``inner``; each call waits until ``release`` is set (by a coroutine on the loop)."""

    def __init__(self, inner: Embedder, release: threading.Event) -> None:
        self.inner, self.release = inner, release
        self.released: list[bool] = []
        self.name, self.dimension = inner.name, inner.dimension

    def _hold(self) -> None:
        self.released.append(self.release.wait(WAIT_S))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        self._hold()
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self._hold()
        return self.inner.embed_query(text)


async def _ticker(ticks: list[int], release: threading.Event, stop: asyncio.Event) -> None:
    """Ticks on the loop; after three ticks it releases the held call (which could not happen if the
    call blocked the loop)."""
    while not stop.is_set():
        ticks.append(len(ticks))
        if len(ticks) >= 3:
            release.set()
        await asyncio.sleep(0.01)


async def test_the_loop_keeps_running_while_an_embedding_runs(
    space: str, base_settings: Settings, embedder: Embedder
) -> None:
    release, stop, ticks = threading.Event(), asyncio.Event(), []  # type: ignore[var-annotated]
    held = _HeldEmbedder(embedder, release)
    async with AsyncBeliefGraph.connect(space=space, settings=base_settings, embedder=held) as abg:
        ticking = asyncio.create_task(_ticker(ticks, release, stop))
        r = await abg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user:ana")
        stop.set()
        await ticking
    assert r.op == WriteOp.ADD
    assert held.released and all(held.released), "an embedding call was not released by the ticking loop"


async def test_the_loop_keeps_running_while_the_llm_runs(
    space: str, base_settings: Settings, embedder: Embedder
) -> None:
    release, stop, ticks = threading.Event(), asyncio.Event(), []  # type: ignore[var-annotated]
    waited: list[bool] = []
    extract = facts({"key": "user.city", "value": "Lyon", "text": "The user lives in Lyon"})

    def slow_extract(inputs: Any) -> dict[str, Any]:
        waited.append(release.wait(WAIT_S))
        return extract(inputs)

    model = ScriptedModel().respond("extract", slow_extract)
    async with AsyncBeliefGraph.connect(
        space=space, settings=base_settings, embedder=embedder, chat_model=model
    ) as abg:
        ticking = asyncio.create_task(_ticker(ticks, release, stop))
        done = await abg.remember("I live in Lyon now.", agent="user:ana")
        stop.set()
        await ticking
    assert waited == [True], "the LLM call was not released by the ticking loop"
    assert [r.op for r in done.results] == [WriteOp.ADD]


async def test_typed_errors_and_nothing_written(
    space: str, graph: Graph, base_settings: Settings, embedder: Embedder
) -> None:
    async with AsyncBeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as abg:
        with pytest.raises(ValidationError):
            await abg.assert_claim("bad key!", 1, "x", agent="a")
        assert _count(graph, space) == 0
        with pytest.raises(ValidationError, match="unknown evidence"):  # raised inside the bridged transaction
            await abg.assert_claim("user.city", "Braga", "The user lives in Braga", agent="user:a", evidence=["nope"])
        assert _count(graph, space) == 0
        with pytest.raises(ClaimNotFound):
            await abg.beliefs.claim("missing")
        with pytest.raises(DatabaseError, match="CypherSyntaxError"):  # a driver error, translated as for bg
            await abg.call(lambda bg: bg.graph.run_text("RETURN 1 +", name="test.syntax_error"))
        with pytest.raises(RuntimeError, match="event loop's thread"):
            abg.sync.belief("user.city")  # the bridged client, called on the loop instead of in a thread
        with pytest.raises(AttributeError):
            await abg.beliefs.no_such_method()


async def test_a_transient_error_runs_the_transaction_again_and_the_first_attempt_leaves_nothing(
    space: str, graph: Graph, base_settings: Settings, embedder: Embedder
) -> None:
    attempts: list[int] = []

    def work(tx: Tx) -> int:
        attempts.append(len(attempts) + 1)
        bridged.run(tx, "agent.register_agent", space=space, id=f"agent:{len(attempts)}", kind="agent",
                    description=None, at="2026-01-01T00:00:00Z")  # fmt: skip
        if len(attempts) == 1:
            raise neo4j.exceptions.TransientError("a deadlock, say")  # the driver retries these
        return len(attempts)

    async with AsyncBeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as abg:
        bridged = abg.graph
        assert await abg.call(lambda bg: bg.graph.write_tx(work, name="test.retry")) == 2
    ids = graph.driver.execute_query("MATCH (a:Agent {space: $s}) RETURN a.id AS id", s=space).records
    assert [r["id"] for r in ids] == ["agent:2"]
