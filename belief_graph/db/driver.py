"""The injected driver and the thin :class:`Graph` wrapper every repository talks through.

* :func:`create_driver` is the one place a ``neo4j.Driver`` is built (from :class:`Neo4jSettings`).
* :class:`Graph` runs registry queries by name: ``read``/``write`` for single-statement
  auto-retried managed transactions, ``read_tx``/``write_tx`` for several statements in one
  managed transaction: they take a function of the transaction, which the driver may call again
  on a transient error, and return its result
  (``graph.write_tx(lambda tx: graph.run(tx, "claim.set_current", ...), name="...")``).
  ``run_autocommit`` runs schema commands and ``CALL {...} IN TRANSACTIONS`` outside one.
* :func:`translate` is the one place ``neo4j.exceptions.*`` become :mod:`belief_graph.errors`.
  A parameter the driver cannot encode (an integer beyond 64 bits: ``OverflowError``; a lone
  surrogate in a string: ``UnicodeEncodeError``) becomes a :class:`ValidationError` too: the
  statement never reached the server and the transaction is rolled back, so nothing is written.

The database name is passed on every call (``database_``), never taken from a global; nothing in
here assumes a single instance, so ``neo4j://`` routing URIs (Aura, clusters) work unchanged.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, TypeVar

import neo4j
from neo4j import exceptions as neo4j_exc

from ..errors import (
    AuthenticationFailed,
    AuthenticationLocked,
    BeliefGraphError,
    ConstraintViolation,
    DatabaseError,
    DatabaseUnavailable,
    TransactionMemoryExceeded,
    ValidationError,
)
from ..settings import Neo4jSettings
from .interrupts import shielded
from .logs import route_driver_logs
from .registry import QueryRegistry, get_registry

__all__ = ["Graph", "ProfilingRunner", "Tx", "create_async_driver", "create_driver", "translate"]

log = logging.getLogger(__name__)

T = TypeVar("T")
Tx = neo4j.ManagedTransaction


def create_driver(settings: Neo4jSettings) -> neo4j.Driver:
    """Build the driver. Does not connect; call :meth:`Graph.verify` for that.

    Raises:
        ConfigurationError: no password is configured (see :mod:`belief_graph.credentials`).
    """
    route_driver_logs()  # the driver's retry warnings and notifications: under belief_graph's logger
    return neo4j.GraphDatabase.driver(settings.uri, **_driver_options(settings))


def create_async_driver(settings: Neo4jSettings) -> neo4j.AsyncDriver:
    """:func:`create_driver` on the driver's async API (``neo4j.AsyncGraphDatabase``), with the same
    options; used by :class:`~belief_graph.db.bridge.BridgedGraph`. Must be used on one event loop."""
    route_driver_logs()
    return neo4j.AsyncGraphDatabase.driver(settings.uri, **_driver_options(settings))


def _driver_options(settings: Neo4jSettings) -> dict[str, Any]:
    return {
        "auth": (settings.user, settings.require_password()),
        "connection_timeout": settings.connection_timeout,
        "max_transaction_retry_time": settings.max_transaction_retry_time,
        "user_agent": "belief-graph/0.1",
        # "property key does not exist" on a fresh store is noise; deprecations and performance
        # hints stay on (the EXPLAIN test fails on any deprecation in cypher/).
        "notifications_disabled_classifications": ["UNRECOGNIZED", "GENERIC"],
    }


_AUTH_RATE_LIMIT = "Neo.ClientError.Security.AuthenticationRateLimit"


def translate(exc: Exception, settings: Neo4jSettings | None = None) -> BeliefGraphError:
    """Map a neo4j driver exception to the belief_graph error tree (caller does ``raise ... from``)."""
    uri = settings.uri if settings else "?"
    user = settings.user if settings else "?"
    if isinstance(exc, BeliefGraphError):
        return exc
    if isinstance(exc, neo4j_exc.AuthError):
        hint = None
        if settings is not None and settings.password_source == "file":
            hint = (
                f"the password comes from {settings.effective_password_file}; a local store made with the old "
                "fixed password is moved to it by `belief-graph server start`"
            )
        return AuthenticationFailed(uri, user, hint)
    if isinstance(exc, neo4j_exc.Neo4jError) and exc.code == _AUTH_RATE_LIMIT:
        return AuthenticationLocked(uri, user)
    if isinstance(exc, neo4j_exc.ServiceUnavailable | neo4j_exc.SessionExpired):
        return DatabaseUnavailable(uri, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    if isinstance(exc, neo4j_exc.ConstraintError):
        return ConstraintViolation(f"constraint violated: {getattr(exc, 'message', exc)}")
    if _is_memory_error(exc):
        return TransactionMemoryExceeded((getattr(exc, "message", None) or str(exc)).split(". ")[0])
    if isinstance(exc, neo4j_exc.CypherTypeError | neo4j_exc.CypherSyntaxError):
        return DatabaseError(_brief(f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"))
    if isinstance(exc, neo4j_exc.ClientError):
        code = getattr(exc, "code", "") or ""
        msg = getattr(exc, "message", None) or str(exc)
        if "Statement.ArgumentError" in code or "Procedure.ProcedureCallFailed" in code:
            return ValidationError(msg)
        return DatabaseError(_brief(f"{code}: {msg}"))
    if isinstance(exc, neo4j_exc.Neo4jError | neo4j_exc.DriverError):
        return DatabaseError(_brief(f"{type(exc).__name__}: {exc}"))
    if isinstance(exc, OverflowError | UnicodeEncodeError):
        return ValidationError(f"a value cannot be stored in Neo4j: {exc}")
    if isinstance(exc, OSError):
        return DatabaseUnavailable(uri, str(exc))
    return DatabaseError(_brief(f"{type(exc).__name__}: {exc}"))


MAX_SERVER_MESSAGE = 300
"""Characters of the server's (or driver's) message a translated DatabaseError repeats; the whole
text stays on the exception's ``__cause__``."""


def _brief(text: str) -> str:
    """``text`` on one line, cut to :data:`MAX_SERVER_MESSAGE` characters: a server message can quote
    index definitions or the values of a statement (an 820-character message for one argument name)."""
    line = " ".join(text.split())
    return (
        line if len(line) <= MAX_SERVER_MESSAGE else line[:MAX_SERVER_MESSAGE] + "... (the full message is the cause)"
    )


def _is_memory_error(exc: BaseException) -> bool:
    return isinstance(exc, neo4j_exc.TransientError) and "MemoryPoolOutOfMemoryError" in (
        getattr(exc, "code", "") or ""
    )


def _memory_not_retried(work: Callable[[Tx], T]) -> Callable[[Tx], T]:
    """``work`` with the server's "out of transaction memory" raised as
    :class:`TransactionMemoryExceeded`, which the driver's retry loop does not retry (it is not a
    driver error); every other transient error is still retried."""

    @functools.wraps(work)
    def run(tx: Tx) -> T:
        try:
            return work(tx)
        except neo4j_exc.TransientError as exc:
            if _is_memory_error(exc):
                raise translate(exc) from exc
            raise

    return run


@contextlib.contextmanager
def translated(settings: Neo4jSettings | None = None) -> Iterator[None]:
    """Context manager: re-raise driver exceptions as belief_graph errors (``from`` the original)."""
    try:
        yield
    except BeliefGraphError:
        raise
    except (neo4j_exc.Neo4jError, neo4j_exc.DriverError, OSError, OverflowError, UnicodeEncodeError) as exc:
        raise translate(exc, settings) from exc


class Graph:
    """Runs registry queries against one database. Thin on purpose: no domain logic here."""

    def __init__(
        self,
        driver: neo4j.Driver,
        settings: Neo4jSettings,
        registry: QueryRegistry | None = None,
    ) -> None:
        self.driver = driver
        self.settings = settings
        self.database = settings.database
        self.registry = registry if registry is not None else get_registry()

    # -- connectivity ---------------------------------------------------------------------
    def verify(self) -> dict[str, Any]:
        """Connect and authenticate; return server info. Raises a typed error when it can't."""
        with shielded(), translated(self.settings):
            self.driver.verify_connectivity()
            info = self.driver.get_server_info()
            return {"address": str(info.address), "agent": info.agent, "protocol": info.protocol_version}

    def close(self) -> None:
        with shielded():
            self.driver.close()

    # -- single statements (each its own auto-retried transaction) ------------------------
    def read(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run a ``read`` registry query in a managed read transaction; rows as dicts."""
        return self._execute(name, params, routing=neo4j.RoutingControl.READ, expect="read")

    def write(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run a ``write`` registry query in its own managed write transaction."""
        return self._execute(name, params, routing=neo4j.RoutingControl.WRITE, expect="write")

    def read_records(self, name: str, /, **params: Any) -> tuple[list[str], list[neo4j.Record]]:
        """Run a ``read`` registry query and return its keys and raw records (nodes, relationships
        and paths kept as graph objects, for views that draw them)."""
        query, bound = self.registry.bind(name, **params)
        if self.registry[name].mode != "read":
            raise ValidationError(f"query {name!r} is a {self.registry[name].mode} query; use Graph.write")
        with shielded(), translated(self.settings):
            return self._query(query, bound, neo4j.RoutingControl.READ)

    def _execute(
        self, name: str, params: Mapping[str, Any], *, routing: neo4j.RoutingControl, expect: str
    ) -> list[dict[str, Any]]:
        query, bound = self.registry.bind(name, **params)
        q = self.registry[name]
        if expect == "read" and q.mode != "read":
            raise ValidationError(f"query {name!r} is a {q.mode} query; use Graph.write")
        with shielded(), translated(self.settings):
            _, records = self._query(query, bound, routing)
        return [r.data() for r in records]

    def _query(
        self, query: neo4j.Query, bound: dict[str, Any], routing: neo4j.RoutingControl
    ) -> tuple[list[str], list[neo4j.Record]]:
        """The one single-statement call of the driver (``execute_query``): keys and records."""
        records, _, keys = self.driver.execute_query(query, bound, database_=self.database, routing_=routing)
        return list(keys), list(records)

    # -- several statements in one transaction ----------------------------------------------
    def read_tx(self, work: Callable[[Tx], T], *, name: str = "read_tx") -> T:
        """Run ``work(tx)`` in one managed read transaction (retried on transient errors).

        ``name`` tags the transaction (visible in ``SHOW TRANSACTIONS`` as ``metadata.query``).
        """
        with shielded(), translated(self.settings):
            return self._transaction(work, name, write=False)

    def write_tx(self, work: Callable[[Tx], T], *, name: str = "write_tx") -> T:
        """Run ``work(tx)`` in one managed write transaction: all or nothing, retried on transient errors.

        ``work`` must be safe to retry (it may be called again after a deadlock/leader switch). A
        transaction that runs out of the server's transaction memory is not retried: it would fail
        the same way for ``max_transaction_retry_time`` (:class:`TransactionMemoryExceeded` at once).
        """
        with shielded(), translated(self.settings):
            return self._transaction(work, name, write=True)

    def _transaction(self, work: Callable[[Tx], T], name: str, *, write: bool) -> T:
        """The one managed-transaction call of the driver (``execute_read``/``execute_write``)."""
        tagged = neo4j.unit_of_work(metadata={"app": "belief_graph", "query": name})(_memory_not_retried(work))
        with self._session() as session:
            return session.execute_write(tagged) if write else session.execute_read(tagged)

    def _session(self) -> neo4j.Session:
        """A session that shares the driver's bookmarks with ``execute_query`` (``read``/``write``), so
        every call of this process reads what its earlier calls wrote, also when a cluster routes the
        read to a secondary that has not caught up yet (causal consistency)."""
        return self.driver.session(database=self.database, bookmark_manager=self.driver.execute_query_bookmark_manager)

    def run(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Run one registry query inside ``tx`` (from :meth:`read_tx`/:meth:`write_tx`)."""
        q = self.registry[name]
        bound = q.check_params(params)
        result = tx.run(q.text, bound)
        return [r.data() for r in result]

    def profile(self) -> tuple[Graph, ProfilingRunner]:
        """A graph on the same driver whose registry statements (:meth:`run`, inside transactions)
        run under ``PROFILE``, and the :class:`ProfilingRunner` adding up their db hits per name."""
        prof = ProfilingRunner(self)
        g = self._sibling()
        g.run = prof  # type: ignore[method-assign]
        return g, prof

    def _sibling(self) -> Graph:
        """A graph on the same driver and registry (:meth:`profile` replaces its ``run``)."""
        return Graph(self.driver, self.settings, self.registry)

    def run_autocommit(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        """Schema commands and ``CALL {} IN TRANSACTIONS`` need an auto-commit transaction."""
        query, bound = self.registry.bind(name, **params)
        with shielded(), translated(self.settings):
            return self._autocommit(query, bound)

    def run_text(self, text: str, params: Mapping[str, Any] | None = None, *, name: str) -> list[dict[str, Any]]:
        """Auto-commit one statement that is not in the registry (schema migration files only)."""
        q = neo4j.Query(text, metadata={"app": "belief_graph", "query": name})
        with shielded(), translated(self.settings):
            return self._autocommit(q, dict(params or {}))

    def _autocommit(self, query: neo4j.Query, bound: dict[str, Any]) -> list[dict[str, Any]]:
        """The one auto-commit call of the driver (``session.run``)."""
        with self.driver.session(database=self.database) as session:
            return [r.data() for r in session.run(query, bound)]


# The PROFILE keyword is prepended to a vetted registry statement to count its db hits (the
# region-boundedness and flat-cost checks); the statement itself still lives in cypher/.
_PROFILE_KEYWORD: Final = "PROFILE"


def _db_hits(plan: Any) -> int:
    if not plan:
        return 0
    return int(plan.get("dbHits") or 0) + sum(_db_hits(c) for c in plan.get("children", []))


class ProfilingRunner:
    """A :data:`Runner` that executes each registry statement under ``PROFILE`` and adds up its
    db hits per statement name (``hits``). Used by tests and benchmarks; :meth:`Graph.profile` builds one with a
    :class:`Graph` that runs every statement through it."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.hits: dict[str, int] = defaultdict(int)

    @property
    def total(self) -> int:
        return sum(self.hits.values())

    def reset(self) -> None:
        self.hits.clear()

    def __call__(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        q = self.graph.registry[name]
        bound = q.check_params(params)
        result = tx.run(f"{_PROFILE_KEYWORD} {q.text}", bound)
        rows = [r.data() for r in result]
        self.hits[name] += _db_hits(result.consume().profile)
        return rows
