""":class:`BridgedGraph`: the synchronous :class:`~.driver.Graph` API over the driver's async API.

The services and repositories are written once, synchronously, against :class:`~.driver.Graph`.
The async client (:mod:`belief_graph.aio`) runs each of its calls in a worker thread over a
``BridgedGraph``, whose I/O goes through ``neo4j.AsyncDriver`` on the caller's event loop:

* ``read``/``write``/``read_records`` submit ``AsyncDriver.execute_query`` to the loop
  (``asyncio.run_coroutine_threadsafe``) and wait for it in the thread;
* ``read_tx``/``write_tx`` submit ``AsyncSession.execute_read``/``execute_write``; each attempt of
  the driver's retry loop hands its ``AsyncManagedTransaction`` back to the waiting thread, which
  calls the synchronous ``work(tx)`` with a :class:`_TxProxy` whose ``run`` submits ``atx.run`` to
  the loop (so the thread that started the call runs ``work``: one thread per call, however many
  attempts); what ``work`` returns or raises settles the attempt, and the driver commits, rolls
  back or retries as it does for the sync client;
* errors are translated by the same :func:`~.driver.translated`, so the async client raises the
  same typed errors.

Cancellation: the async client gives each call a :class:`CallState` (:func:`calling`). Once it is
cancelled, the call's next statement raises :class:`CallCancelled` in the thread instead of
running: inside a managed transaction that is an exception of the transaction function, so the
driver rolls the transaction back. A statement already sent runs to its end first; a transaction
that committed before the cancellation is whole.

Calling a ``BridgedGraph`` from the event loop's own thread would wait for the loop forever; it
raises ``RuntimeError`` instead. ``BridgedGraph`` overrides only the four places where
:class:`~.driver.Graph` calls the driver (``_query``, ``_transaction``, ``_autocommit``, and
``verify``/``close``); binding, mode checks and error translation are Graph's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import Any, NoReturn, TypeVar, cast

import neo4j

from ..errors import BeliefGraphError
from ..settings import Neo4jSettings
from .driver import Graph, Tx, _memory_not_retried, translated
from .registry import QueryRegistry

__all__ = ["BridgedGraph", "CallCancelled", "CallState", "calling", "current_call"]

T = TypeVar("T")


class CallCancelled(Exception):  # noqa: N818 (not an error of the caller's input: the awaiting coroutine was cancelled)
    """Raised in a worker thread at the next statement of a call whose coroutine was cancelled.

    An ``Exception`` (not a ``BaseException``) on purpose: the driver rolls a managed transaction
    back on any ``Exception`` of its transaction function. Never seen by the caller of the async
    client, which gets ``asyncio.CancelledError``."""


class CallState:
    """One call of the async client, seen from its worker thread."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()

    def cancel(self) -> None:
        self.cancelled.set()


_local = threading.local()


def current_call() -> CallState | None:
    """The :class:`CallState` of the async-client call running in this thread (None outside one)."""
    return cast("CallState | None", getattr(_local, "call", None))


@contextlib.contextmanager
def calling(state: CallState) -> Iterator[CallState]:
    """Run the block (in a worker thread) as the call ``state``: its statements check ``state``."""
    outer = current_call()
    _local.call = state
    try:
        yield state
    finally:
        _local.call = outer


class _NoSyncDriver:
    """``BridgedGraph.driver``: there is no synchronous driver to hand out."""

    def __getattr__(self, name: str) -> NoReturn:
        raise BeliefGraphError(
            "this graph runs on the driver's async API (the async client); it has no synchronous "
            f"driver (driver.{name}): use a BeliefGraph for that"
        )


class _BufferedResult:
    """What ``tx.run`` returns inside a bridged transaction: the records, fetched in full on the loop,
    with the parts of ``neo4j.Result`` the repositories use (iteration, ``consume``, ``keys``)."""

    def __init__(self, keys: list[str], records: list[neo4j.Record], summary: neo4j.ResultSummary) -> None:
        self._keys, self._records, self._summary = keys, records, summary

    def __iter__(self) -> Iterator[neo4j.Record]:
        return iter(self._records)

    def keys(self) -> list[str]:
        return list(self._keys)

    def data(self) -> list[dict[str, Any]]:
        return [r.data() for r in self._records]

    def consume(self) -> neo4j.ResultSummary:
        return self._summary


async def _run_buffered(atx: neo4j.AsyncManagedTransaction, query: str, params: dict[str, Any]) -> _BufferedResult:
    result = await atx.run(query, params)
    records = [r async for r in result]
    summary = await result.consume()
    return _BufferedResult(list(result.keys()), records, summary)


class _TxProxy:
    """The ``tx`` a synchronous ``work(tx)`` gets inside a bridged transaction: ``run`` sends the
    statement to the async transaction on the loop and waits for all its records."""

    def __init__(self, graph: BridgedGraph, atx: neo4j.AsyncManagedTransaction) -> None:
        self._graph, self._atx = graph, atx

    def run(self, query: str, parameters: Mapping[str, Any] | None = None, **kwparameters: Any) -> _BufferedResult:
        params = {**(parameters or {}), **kwparameters}
        return self._graph._on_loop(_run_buffered, self._atx, query, params)


def _settle(fut: asyncio.Future[Any], value: Any, exc: BaseException | None) -> None:
    if fut.done():  # the session was cancelled meanwhile
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(value)


class BridgedGraph(Graph):
    """:class:`~.driver.Graph` whose statements run on ``neo4j.AsyncDriver`` on ``loop``; call it from
    worker threads only (module docstring)."""

    def __init__(
        self,
        driver: neo4j.AsyncDriver,
        settings: Neo4jSettings,
        loop: asyncio.AbstractEventLoop,
        registry: QueryRegistry | None = None,
    ) -> None:
        super().__init__(cast(neo4j.Driver, _NoSyncDriver()), settings, registry)
        self.async_driver = driver
        self.loop = loop

    # -- the one way to the loop --------------------------------------------------------------
    def _submit(self, fn: Callable[[], Coroutine[Any, Any, T]]) -> concurrent.futures.Future[T]:
        """Start ``fn()`` on the loop; :class:`CallCancelled` instead when this thread's call was
        cancelled (the coroutine is then not even made)."""
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            raise RuntimeError("a BridgedGraph was called on its event loop's thread; await the async client instead")
        call = current_call()
        if call is not None and call.cancelled.is_set():
            raise CallCancelled("the call was cancelled")
        return asyncio.run_coroutine_threadsafe(fn(), self.loop)

    def _on_loop(self, fn: Callable[..., Coroutine[Any, Any, T]], /, *args: Any) -> T:
        """Run ``fn(*args)`` on the loop and wait for it in this thread."""
        return self._submit(lambda: fn(*args)).result()

    # -- connectivity -----------------------------------------------------------------------
    async def averify(self) -> dict[str, Any]:
        """:meth:`verify` as a coroutine, on the loop (the async client's ``connect``)."""
        with translated(self.settings):
            await self.async_driver.verify_connectivity()
            info = await self.async_driver.get_server_info()
        return {"address": str(info.address), "agent": info.agent, "protocol": info.protocol_version}

    def verify(self) -> dict[str, Any]:
        return self._on_loop(self.averify)

    async def aclose(self) -> None:
        await self.async_driver.close()

    def close(self) -> None:
        self._on_loop(self.aclose)

    # -- the driver calls of Graph, on the loop ------------------------------------------------
    def _query(
        self, query: neo4j.Query, bound: dict[str, Any], routing: neo4j.RoutingControl
    ) -> tuple[list[str], list[neo4j.Record]]:
        async def execute() -> tuple[list[str], list[neo4j.Record]]:
            eager = await self.async_driver.execute_query(query, bound, database_=self.database, routing_=routing)
            return list(eager.keys), list(eager.records)

        return self._on_loop(execute)

    def _autocommit(self, query: neo4j.Query, bound: dict[str, Any]) -> list[dict[str, Any]]:
        async def autocommit() -> list[dict[str, Any]]:
            async with self.async_driver.session(database=self.database) as session:
                result = await session.run(query, bound)
                return [r.data() async for r in result]

        return self._on_loop(autocommit)

    def _transaction(self, work: Callable[[Tx], T], name: str, *, write: bool) -> T:
        """One managed transaction on the loop whose attempts run ``work`` in this thread."""
        attempts: queue.SimpleQueue[tuple[neo4j.AsyncManagedTransaction, asyncio.Future[T]] | None]
        attempts = queue.SimpleQueue()
        loop = self.loop

        async def attempt(atx: neo4j.AsyncManagedTransaction) -> T:
            fut: asyncio.Future[T] = loop.create_future()
            attempts.put((atx, fut))
            return await fut

        tagged = neo4j.unit_of_work(metadata={"app": "belief_graph", "query": name})(attempt)

        async def managed() -> T:
            async with self.async_driver.session(
                database=self.database, bookmark_manager=self.async_driver.execute_query_bookmark_manager
            ) as session:
                if write:
                    return await session.execute_write(tagged)
                return await session.execute_read(tagged)

        checked = _memory_not_retried(work)
        done = self._submit(managed)
        done.add_done_callback(lambda _: attempts.put(None))
        fatal: BaseException | None = None
        while (item := attempts.get()) is not None:
            atx, fut = item
            try:
                value = checked(cast(Tx, _TxProxy(self, atx)))
            except Exception as exc:
                loop.call_soon_threadsafe(_settle, fut, None, exc)
            except BaseException as exc:  # SystemExit in this thread, say: roll back, then re-raise
                fatal = exc
                loop.call_soon_threadsafe(_settle, fut, None, CallCancelled(repr(exc)))
            else:
                loop.call_soon_threadsafe(_settle, fut, value, None)
        if fatal is not None:
            raise fatal
        return done.result()

    def _sibling(self) -> Graph:
        return BridgedGraph(self.async_driver, self.settings, self.loop, self.registry)
