"""The :class:`AsyncBeliefGraph` client: the sync client's services, run in worker threads over the
driver's async API (docs/architecture.md, "How the async client shares the services").

    async with AsyncBeliefGraph.connect(space="default") as abg:
        await abg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user:alice")
        current = await abg.belief("user.city")
        versions = await abg.beliefs.history("user.city")   # every namespace method is a coroutine

Each call runs the sync :class:`~belief_graph.facade.BeliefGraph` method in a worker thread of the
client (so embedding and LLM calls never block the event loop), over a
:class:`~belief_graph.db.bridge.BridgedGraph` whose statements run on ``neo4j.AsyncDriver`` on the
caller's loop. Same services, same transactions, same typed errors. Cancelling the awaiting
coroutine stops the call at its next statement (an open transaction rolls back), waits for its
thread to end, and re-raises ``asyncio.CancelledError``. asyncio only (the driver's async API is).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

from ..db.bridge import BridgedGraph, CallCancelled, CallState, calling
from ..db.driver import create_async_driver
from ..embeddings import Embedder
from ..facade import BeliefGraph, resolve_settings
from ..lazy import LazyEmbedder
from ..llm import ChatModel, UsageReport
from ..models import Claim, Episode, Value, WriteResult
from ..models.retrieval import AnswerResult, RetrievalHit
from ..models.support import AuditRecord, WorkingContext
from ..services.admin import AdminService
from ..services.answers import AnswerService
from ..services.argumentation import ArgumentationService
from ..services.beliefs import BeliefService
from ..services.conflicts import ConflictService
from ..services.deliberation import DeliberationService
from ..services.explore import ExploreService
from ..services.importer import ImportService
from ..services.keys import KeyService
from ..services.perspectives import PerspectiveService
from ..services.remember import RememberResult
from ..services.retrieval import RetrievalService
from ..services.rules import RuleService
from ..services.support import SupportService
from ..settings import Settings

__all__ = ["AsyncBeliefGraph", "AsyncNamespace"]

P = ParamSpec("P")
T = TypeVar("T")
S = TypeVar("S")

NAMESPACES = (
    "beliefs", "conflicts", "keys", "support", "rules", "argumentation", "perspectives", "deliberations",
    "retrieval", "answers", "importer", "explore", "admin",
)  # fmt: skip
"""The namespaces of :class:`BeliefGraph` that the async client offers (all of them)."""

DEFAULT_THREADS = 8
"""Worker threads of one client: calls beyond this many wait for a thread (on the loop, not blocking it)."""


class AsyncNamespace(Generic[S]):
    """``abg.<namespace>``: each public method of the sync namespace ``S``, as a coroutine function.

    ``await abg.beliefs.history("user.city")`` runs ``bg.beliefs.history("user.city")`` in a worker
    thread (:meth:`AsyncBeliefGraph.call`). Attributes that are not methods are not offered: reach
    them through ``abg.call(lambda bg: ...)``.
    """

    def __init__(self, client: AsyncBeliefGraph, name: str, service: S) -> None:
        self._client, self._name, self._service = client, name, service

    def __getattr__(self, method: str) -> Callable[..., Awaitable[Any]]:
        if method.startswith("_"):
            raise AttributeError(method)
        bound = getattr(self._service, method)  # AttributeError for a name the service lacks
        if not callable(bound):
            raise AttributeError(
                f"{self._name}.{method} is not a method; read it with abg.call(lambda bg: bg.{self._name}.{method})"
            )

        async def coroutine(*args: Any, **kwargs: Any) -> Any:
            return await self._client.call(lambda _bg: bound(*args, **kwargs))

        coroutine.__name__ = method
        coroutine.__qualname__ = f"{type(self._service).__name__}.{method}"
        coroutine.__doc__ = bound.__doc__
        return coroutine

    def __dir__(self) -> list[str]:
        return [m for m in dir(self._service) if not m.startswith("_") and callable(getattr(self._service, m))]

    def __repr__(self) -> str:
        return f"<async {self._name}: {type(self._service).__name__}>"


class _Connecting:
    """What :meth:`AsyncBeliefGraph.connect` returns: ``await`` it, or ``async with`` it (closed on exit)."""

    def __init__(self, opening: Awaitable[AsyncBeliefGraph]) -> None:
        self._opening = opening
        self._client: AsyncBeliefGraph | None = None

    def __await__(self) -> Generator[Any, None, AsyncBeliefGraph]:
        return self._opening.__await__()

    async def __aenter__(self) -> AsyncBeliefGraph:
        self._client = await self._opening
        return self._client

    async def __aexit__(self, *exc: object) -> None:
        if self._client is not None:
            await self._client.aclose()


class AsyncBeliefGraph:
    """One memory space on one Neo4j database, as coroutines (:meth:`connect`; module docstring)."""

    def __init__(self, sync: BeliefGraph, graph: BridgedGraph, *, threads: int = DEFAULT_THREADS) -> None:
        self.sync = sync
        """The bridged sync client the calls run on: use it only inside :meth:`call` (in a worker thread)."""
        self.graph = graph
        self.space, self.settings = sync.space, sync.settings
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="belief-graph-async")
        # The namespaces are built here, once, on the loop (they do no I/O): cached_property has no lock,
        # and two worker threads must not each build a BeliefService of their own.
        for name in NAMESPACES:
            setattr(self, name, AsyncNamespace(self, name, getattr(sync, name)))

    beliefs: AsyncNamespace[BeliefService]
    conflicts: AsyncNamespace[ConflictService]
    keys: AsyncNamespace[KeyService]
    support: AsyncNamespace[SupportService]
    rules: AsyncNamespace[RuleService]
    argumentation: AsyncNamespace[ArgumentationService]
    perspectives: AsyncNamespace[PerspectiveService]
    deliberations: AsyncNamespace[DeliberationService]
    retrieval: AsyncNamespace[RetrievalService]
    answers: AsyncNamespace[AnswerService]
    importer: AsyncNamespace[ImportService]
    explore: AsyncNamespace[ExploreService]
    admin: AsyncNamespace[AdminService]

    @classmethod
    def connect(cls, space: str | None = None, *, settings: Settings | None = None, embedder: Embedder | None = None,
                verify: bool = True, chat_model: ChatModel | None = None,
                threads: int = DEFAULT_THREADS) -> _Connecting:  # fmt: skip
        """``await AsyncBeliefGraph.connect(...)`` or ``async with AsyncBeliefGraph.connect(...) as abg``:
        the arguments of :meth:`BeliefGraph.connect`, and ``threads`` (worker threads of this client)."""
        return _Connecting(cls._open(space, settings, embedder, verify, chat_model, threads))

    @classmethod
    async def _open(cls, space: str | None, settings: Settings | None, embedder: Embedder | None, verify: bool,
                    chat_model: ChatModel | None, threads: int) -> AsyncBeliefGraph:  # fmt: skip
        s = resolve_settings(space, settings)
        graph = BridgedGraph(create_async_driver(s.neo4j), s.neo4j, asyncio.get_running_loop())
        try:
            if verify:
                await graph.averify()
        except BaseException:
            await graph.aclose()
            raise
        sync = BeliefGraph(
            graph, s, s.space, embedder if embedder is not None else LazyEmbedder(s), chat_model=chat_model
        )
        return cls(sync, graph, threads=threads)

    async def aclose(self) -> None:
        """Close the worker threads, then the driver: calls still waiting for a thread are cancelled,
        the running ones end first (await the calls you started before closing)."""
        await asyncio.to_thread(self._executor.shutdown, wait=True, cancel_futures=True)
        await self.graph.aclose()

    async def __aenter__(self) -> AsyncBeliefGraph:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:  # fmt: skip
        await self.aclose()

    # -- the one primitive every call goes through ------------------------------------------
    async def call(self, fn: Callable[Concatenate[BeliefGraph, P], T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(bg, *args, **kwargs)`` in a worker thread, ``bg`` the bridged sync :class:`BeliefGraph`.

        Integrations build on this (``await abg.call(lambda bg: bg.beliefs.history(key))``). When the
        awaiting coroutine is cancelled, the call's next statement raises inside the thread (an open
        transaction rolls back), the thread is waited for, and ``CancelledError`` is re-raised; a
        transaction that committed before is whole.
        """
        state = CallState()

        def in_thread() -> T:
            if state.cancelled.is_set():  # cancelled while it waited for a thread
                raise CallCancelled("the call was cancelled before it started")
            with calling(state):
                return fn(self.sync, *args, **kwargs)

        running = asyncio.get_running_loop().run_in_executor(self._executor, in_thread)
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            state.cancel()
            await _wait_out(running)
            raise

    # -- the everyday calls (the rest: abg.<namespace>.<method>) -----------------------------
    async def add_episode(
        self, text: str, agent: str, conversation: str | None = None, at: datetime | None = None
    ) -> Episode:
        return await self.call(BeliefGraph.add_episode, text, agent, conversation, at)

    async def assert_claim(self, key: str | None, value: Value, text: str, agent: str, evidence: list[str] | None = None,
                           confidence: float | None = None, valid_from: datetime | None = None,
                           kind: str = "semantic") -> WriteResult:  # fmt: skip
        """:meth:`BeliefGraph.assert_claim`: one transaction, through the conflict policy of the key."""
        return await self.call(
            BeliefGraph.assert_claim, key, value, text, agent, evidence, confidence, valid_from, kind
        )

    async def remember(self, messages_or_text: str | Sequence[str | dict[str, Any]], agent: str,
                       conversation: str | None = None, at: datetime | None = None) -> RememberResult:  # fmt: skip
        """:meth:`BeliefGraph.remember` (the LLM call runs in the worker thread)."""
        return await self.call(BeliefGraph.remember, messages_or_text, agent, conversation, at)

    async def belief(self, key: str) -> Claim | None:
        return await self.call(BeliefGraph.belief, key)

    async def recall(self, query: str, k: int = 5, perspective: str | None = None, keys: Sequence[str] | None = None,
                     as_of: datetime | None = None, include_inactive: bool = False, *, key_prefix: str | None = None,
                     include_interpretations: bool = False) -> list[RetrievalHit]:  # fmt: skip
        return await self.call(BeliefGraph.recall, query, k, perspective, keys, as_of, include_inactive,
                               key_prefix=key_prefix, include_interpretations=include_interpretations)  # fmt: skip

    async def answer(
        self, query: str, *, k: int = 8, budget_tokens: int = 1000, threshold: float | None = None
    ) -> AnswerResult:
        return await self.call(BeliefGraph.answer, query, k=k, budget_tokens=budget_tokens, threshold=threshold)

    async def derive(self, text: str, premises: Sequence[str], key: str | None = None, *, agent: str,
                     rule: str | None = None, kind: str = "derived", confidence: float | None = None,
                     at: datetime | None = None) -> Claim:  # fmt: skip
        return await self.call(BeliefGraph.derive, text, premises, key, agent=agent, rule=rule, kind=kind,
                               confidence=confidence, at=at)  # fmt: skip

    async def retract(self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *,
                      agent: str | None = None) -> AuditRecord:  # fmt: skip
        return await self.call(BeliefGraph.retract, root_ids, reason, mode, agent=agent)

    async def restore(self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *,
                      agent: str | None = None) -> AuditRecord:  # fmt: skip
        return await self.call(BeliefGraph.restore, root_ids, reason, mode, agent=agent)

    async def context(self, query: str | None = None, keys: Sequence[str] | None = None, budget_tokens: int = 1000,
                      limit: int = 50) -> WorkingContext:  # fmt: skip
        return await self.call(BeliefGraph.context, query, keys, budget_tokens, limit)

    def llm_usage(self) -> UsageReport:
        """Chat-model and embedding calls of this client (no I/O: a plain method)."""
        return self.sync.llm_usage()


async def _wait_out(running: asyncio.Future[Any]) -> None:
    """Wait until the worker thread of a cancelled call has ended (further cancellations included),
    and drop its outcome: the caller gets ``CancelledError``."""
    while not running.done():
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait({running})
    if not running.cancelled():
        running.exception()  # retrieved, so asyncio does not log it as never retrieved
