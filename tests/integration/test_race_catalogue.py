"""The race catalogue: a write that cites evidence or premises, interleaved with a change that makes
them non-current, never commits a current claim on non-current support.

Each test forces one interleaving without timing: a held transaction (a raw session that locks a
node and waits) or a pause inside a transaction (a ``runner`` that blocks after a named statement
until the test releases it). The test waits until the other party is blocked on a lock or done
(``SHOW TRANSACTIONS``), never for a fixed time. After each, ``db check`` finds nothing, in
particular no active claim whose every justification rests on something not current.

The cases: an assert whose evidence is retracted, or superseded, while it waits for its fact's lock; a derive
whose premise is superseded between its read and its write; a restore, and a derive that
reinstates a withdrawn claim, racing a supersession of another premise of what they reinstate; a
retract racing a derive that attaches below its region; a rule round racing a retract of a premise
it joined. The locking order they pin is in docs/architecture.md ("Concurrency");
test_race_stateful.py runs random pairs of these operations from two threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from belief_graph.db.driver import Graph, Tx
from belief_graph.errors import ValidationError
from belief_graph.services.beliefs import BeliefService, claim_input
from belief_graph.services.support import SupportService

_GUARD = 60.0  # seconds: only a hang ends a wait this way, and then the test fails


def _blocked(graph: Graph) -> int:
    """How many transactions of this database wait for a lock right now."""
    with graph.driver.session(database=graph.database) as s:
        rows = s.run("SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n").single()
    return int(rows["n"]) if rows else 0


def _wait(what: str, done: Callable[[], bool]) -> None:
    end = time.monotonic() + _GUARD
    while not done():
        if time.monotonic() > end:
            pytest.fail(f"gave up waiting: {what}")
        time.sleep(0.02)


class _Worker(threading.Thread):
    """Runs ``fn`` in a thread and keeps its result or exception."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.fn()
        except BaseException as exc:  # noqa: BLE001 (handed to the test)
            self.error = exc

    def finish(self) -> Any:
        self.join(_GUARD)
        assert not self.is_alive(), "the worker never finished"
        return self.result


def _blocked_or_done(graph: Graph, worker: _Worker) -> Callable[[], bool]:
    return lambda: not worker.is_alive() or _blocked(graph) > 0


@contextmanager
def _held_fact_lock(graph: Graph, space: str, key: str) -> Iterator[None]:
    """An open transaction holding the fact's write lock (its FactLock) until the block ends."""
    session = graph.driver.session(database=graph.database)
    tx = session.begin_transaction()
    try:
        got = tx.run(
            "MATCH (l:FactLock {space: $space, key: $key}) SET l.writes = l.writes + 1 RETURN count(l) AS n",
            space=space,
            key=key,
        ).single()
        assert got is not None and got["n"] == 1
        yield
    finally:
        tx.rollback()
        session.close()


class _Pause:
    """A :data:`Runner` that, the first time statement ``after`` has run, says so and blocks until
    :meth:`release` (the transaction stays open meanwhile)."""

    def __init__(self, graph: Graph, after: str) -> None:
        self.graph, self.after = graph, after
        self.reached = threading.Event()
        self.go = threading.Event()

    def __call__(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        rows = self.graph.run(tx, name, **params)
        if name == self.after and not self.reached.is_set():
            self.reached.set()
            assert self.go.wait(_GUARD), "never released"
        return rows

    def release(self) -> None:
        self.go.set()


def _paused_support(bg: Any, after: str) -> tuple[SupportService, _Pause]:
    """A support service whose statements (its settling's too: currency, not rules) go through a pause."""
    pause = _Pause(bg.graph, after)
    svc = SupportService(bg.graph, bg.space, bg.support.embedder, bg.support.dimension, runner=pause)
    return svc, pause


def _no_unsupported_current(bg: Any) -> None:
    report = bg.admin.check()
    assert report.ok, report.summary()


def test_assert_with_evidence_waiting_for_the_fact_lock_sees_a_retract_that_commits_meanwhile(bg: Any) -> None:
    """W waits for the fact's lock with evidence e; R retracts e and commits; W must not commit a
    current claim on e (it is refused: its evidence no longer holds)."""
    e = bg.add_episode("I moved to Lyon", agent="user")
    bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user")
    with _held_fact_lock(bg.graph, bg.space, "user.city"):
        w = _Worker(
            lambda: bg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user", evidence=[e.id])
        )
        w.start()
        _wait("the writer blocks on the fact's lock", _blocked_or_done(bg.graph, w))
        bg.retract([e.id], "the episode was a test message")
    w.finish()
    assert isinstance(w.error, ValidationError), w.error or w.result
    assert e.id in str(w.error)
    assert bg.belief("user.city").value == "Paris"
    _no_unsupported_current(bg)


def test_assert_citing_a_claim_waiting_for_the_fact_lock_sees_that_claim_superseded_meanwhile(bg: Any) -> None:
    """W cites the current claim c of another fact and waits for its own fact's lock; X replaces c
    with a new version and commits. W must not commit a current claim on the superseded c."""
    c = bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user").claim
    bg.assert_claim("user.country", "it", "The user lives in Italy", agent="user")
    with _held_fact_lock(bg.graph, bg.space, "user.country"):
        w = _Worker(
            lambda: bg.assert_claim("user.country", "fr", "The user lives in France", agent="user", evidence=[c.id])
        )
        w.start()
        _wait("the writer blocks on the fact's lock", _blocked_or_done(bg.graph, w))
        bg.assert_claim("user.city", "Rome", "The user lives in Rome", agent="user")
    w.finish()
    assert isinstance(w.error, ValidationError), w.error or w.result
    assert c.id in str(w.error)
    assert bg.belief("user.country").value == "it"
    _no_unsupported_current(bg)


def test_derive_between_reading_its_premise_and_writing_sees_the_premise_superseded(bg: Any) -> None:
    """D reads its premise c (active) and pauses before it writes; X supersedes c. Whichever commits
    first, D's conclusion is not left active on the superseded c: either X waits for D and then
    makes the conclusion stale, or D sees c superseded and is refused."""
    c = bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user").claim
    svc, pause = _paused_support(bg, "support.prepare_derive")
    d = _Worker(lambda: svc.derive("The user lives in France", [c.id], "user.country", agent="planner", value="fr"))
    d.start()
    _wait("the derive reads its premises", pause.reached.is_set)
    x = _Worker(lambda: bg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user"))
    x.start()
    _wait("the writer of c is blocked or done", _blocked_or_done(bg.graph, x))
    pause.release()
    d.finish()
    x.finish()
    assert x.error is None, x.error
    if d.error is None:
        assert bg.beliefs.claim(d.result.id).status == "stale"
    else:
        assert isinstance(d.error, ValidationError), d.error
    _no_unsupported_current(bg)


def test_restore_that_reinstates_a_conclusion_orders_with_a_write_superseding_its_other_premise(bg: Any) -> None:
    """R restores e, which reinstates d (premises e and c), and pauses before commit; X supersedes c.
    X must see d as R leaves it (active), and make it stale; or R must see c superseded."""
    e = bg.add_episode("The user said they live in France", agent="user")
    c = bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user").claim
    d = bg.derive("The user lives in France", [e.id, c.id], agent="planner")
    bg.retract([e.id], "misheard")
    assert bg.beliefs.claim(d.id).status == "withdrawn"
    svc, pause = _paused_support(bg, "support.repair")
    r = _Worker(lambda: svc.restore([e.id], "heard right after all"))
    r.start()
    _wait("the restore has reinstated d", pause.reached.is_set)
    x = _Worker(lambda: bg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user"))
    x.start()
    _wait("the writer of c is blocked or done", _blocked_or_done(bg.graph, x))
    pause.release()
    r.finish()
    x.finish()
    assert r.error is None and x.error is None, (r.error, x.error)
    assert bg.beliefs.claim(d.id).status == "stale"
    _no_unsupported_current(bg)


def test_derive_that_reinstates_a_withdrawn_claim_orders_with_a_write_superseding_a_premise_downstream(
    bg: Any,
) -> None:
    """A new justification of the withdrawn w reinstates w and d (premises w and c); the derive pauses
    before commit while X supersedes c. X must see d active and make it stale, or the derive c superseded."""
    e = bg.add_episode("The user said they live in Paris", agent="user")
    w = bg.derive("The user lives in Paris", [e.id], agent="planner")
    c = bg.assert_claim("user.city", "Paris", "The user's city is Paris", agent="user").claim
    d = bg.derive("The user lives in France", [w.id, c.id], agent="planner")
    bg.retract([e.id], "misheard")
    assert bg.beliefs.claim(d.id).status == "withdrawn"
    e2 = bg.add_episode("The user confirmed Paris", agent="user")
    svc, pause = _paused_support(bg, "currency.apply_labels")  # the last write before the commit
    j = _Worker(lambda: svc.derive("The user lives in Paris", [e2.id], agent="planner"))
    j.start()
    _wait("the derive has reinstated w and d", pause.reached.is_set)
    x = _Worker(lambda: bg.assert_claim("user.city", "Lyon", "The user's city is Lyon", agent="user"))
    x.start()
    _wait("the writer of c is blocked or done", _blocked_or_done(bg.graph, x))
    pause.release()
    j.finish()
    x.finish()
    assert j.error is None and x.error is None, (j.error, x.error)
    assert bg.beliefs.claim(w.id).status == "active"
    assert bg.beliefs.claim(d.id).status == "stale"
    _no_unsupported_current(bg)


def test_retract_does_not_miss_a_conclusion_attached_downstream_while_it_marks_its_region(bg: Any) -> None:
    """D derives from d (itself derived from episode e) and pauses before commit, its premise edge
    written; R retracts e. R's region must include D's conclusion, which is withdrawn with d."""
    e = bg.add_episode("The user said they live in Paris", agent="user")
    d = bg.derive("The user lives in Paris", [e.id], agent="planner")
    svc, pause = _paused_support(bg, "support.create_derived")
    w = _Worker(lambda: svc.derive("The user lives in France", [d.id], agent="planner"))
    w.start()
    _wait("the derive has written its conclusion", pause.reached.is_set)
    r = _Worker(lambda: bg.retract([e.id], "misheard"))
    r.start()
    _wait("the retract is blocked or done", _blocked_or_done(bg.graph, r))
    pause.release()
    w.finish()
    r.finish()
    assert r.error is None, r.error
    if w.error is None:
        assert bg.beliefs.claim(w.result.id).status == "withdrawn"
    else:
        assert isinstance(w.error, ValidationError), w.error
    assert bg.beliefs.claim(d.id).status == "withdrawn"
    _no_unsupported_current(bg)


class _PausingGraph(Graph):
    """The same driver and registry; the first time statement ``after`` has run inside a
    transaction, it says so and blocks until released (the transaction stays open)."""

    def __init__(self, graph: Graph, after: str) -> None:
        super().__init__(graph.driver, graph.settings, graph.registry)
        self.pause = _Pause(graph, after)

    def run(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.pause(tx, name, **params)


NATIONALITY: dict[str, Any] = {
    "name": "performer_nationality",
    "description": "the nationality of the performer of a work",
    "premises": [
        {"key": "work.{w}.performer", "as": "performer"},
        {"key": "person.{performer}.citizenship", "as": "country"},
    ],
    "conclusion": {
        "key": "work.{w}.performer_country",
        "value": "{country}",
        "text": "The performer of {w} is a citizen of {country}.",
    },
}


def test_rule_rederivation_between_reading_its_premises_and_writing_sees_a_premise_retracted(bg: Any) -> None:
    """Y writes the first premise of a rule, so a new instance is evaluated over the current belief c
    of its second premise; Y pauses there. R retracts c's evidence, which withdraws c. Y's
    conclusion must not commit active on the withdrawn c."""
    e = bg.add_episode("ann has French citizenship", agent="user:editor")
    c = bg.assert_claim(
        "person.ann.citizenship", "fr", "ann is a citizen of fr", agent="user:editor", evidence=[e.id]
    ).claim
    bg.rules.add(NATIONALITY, agent="user:admin")
    paused = _PausingGraph(bg.graph, "rules.evaluate_instances")
    writer = BeliefService(paused, bg.space, bg.beliefs.embedder, bg.beliefs.dimension, bg.settings.policy)
    y = _Worker(
        lambda: writer.assert_claim(
            claim_input(key="work.w1.performer", value="ann", text="w1 was performed by ann", agent="user:editor")
        )
    )
    y.start()
    _wait("the rule instance has read its premises", paused.pause.reached.is_set)
    r = _Worker(lambda: bg.retract([e.id], "the citizenship was misread"))
    r.start()
    _wait("the retract is blocked or done", _blocked_or_done(bg.graph, r))
    paused.pause.release()
    y.finish()
    r.finish()
    assert y.error is None and r.error is None, (y.error, r.error)
    assert bg.beliefs.claim(c.id).status == "withdrawn"
    derived = bg.belief("work.w1.performer_country")
    assert derived is None or derived.status != "active", derived
    _no_unsupported_current(bg)


def test_a_write_chosen_as_a_deadlock_victim_is_run_again_and_commits(bg: Any) -> None:
    """Retract-like order (the cited node, then the fact) against a write's (the fact, then the
    cited node): T holds e's lock, W takes the fact's lock and waits for e, then T asks for the
    fact's lock. Neo4j aborts one of the two; whichever it is, W commits in the end (the driver
    runs an aborted managed transaction again) and the space is consistent."""
    e = bg.add_episode("I moved to Lyon", agent="user")
    bg.assert_claim("user.city", "Paris", "The user lives in Paris", agent="user")
    session = bg.graph.driver.session(database=bg.graph.database)
    tx = session.begin_transaction()
    try:
        tx.run("MATCH (e:Episode {space: $space, id: $id}) SET e._lock = true REMOVE e._lock", space=bg.space, id=e.id)
        w = _Worker(
            lambda: bg.assert_claim("user.city", "Lyon", "The user lives in Lyon", agent="user", evidence=[e.id])
        )
        w.start()
        _wait("the writer waits for the episode's lock", _blocked_or_done(bg.graph, w))
        t = _Worker(
            lambda: tx.run(
                "MATCH (l:FactLock {space: $space, key: 'user.city'}) SET l.writes = l.writes + 1", space=bg.space
            ).consume()
        )
        t.start()
        t.join(_GUARD)  # T gets the fact's lock once W is aborted, or is aborted itself
        assert not t.is_alive()
    finally:
        try:
            tx.rollback()
        finally:
            session.close()
    w.finish()
    assert w.error is None, w.error
    assert bg.belief("user.city").value == "Lyon"
    _no_unsupported_current(bg)
