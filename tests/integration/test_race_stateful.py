"""Randomized races: a hypothesis state machine whose steps run two operations at once, from two
threads started together, over one memory space: writes that cite evidence, derivations from
premises, retracts, restores and new versions of a cited claim's fact. Which one takes a lock first
is up to the scheduler; whatever it is, ``db check`` after every step finds no broken invariant (in
particular no active claim resting only on what is not current). A call may be refused with a typed
error (its evidence no longer holds, the root is already retracted); anything else fails the test.

4x10 runs with the fast suite (about 35 s on the 2-core development machine): run against the
code without the premise and region locks, it found an active claim on non-current support (a
smaller 3x8 did not). 20x20 is marked ``slow``. The deterministic interleavings are in test_race_catalogue.py; this looks for others.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import DerivedKeyConflict, NotFoundError, ValidationError

KEYS = ["user.city", "user.country", "user.pet"]
VALUES = ["a", "b", "c"]
OPS = ["assert", "derive", "retract", "restore", "supersede"]
_REFUSED = (ValidationError, NotFoundError, DerivedKeyConflict)


def _together(*calls: Callable[[], Any]) -> list[BaseException]:
    """Run the calls in threads released at once; return the errors that are not refusals."""
    start = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call: Callable[[], Any]) -> None:
        start.wait()
        try:
            call()
        except _REFUSED:
            pass
        except BaseException as exc:  # noqa: BLE001 (reported by the step)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(c,)) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "an operation never finished"
    return errors


@pytest.mark.parametrize(
    "examples, steps",
    [pytest.param(4, 10, id="4x10"), pytest.param(20, 20, id="20x20", marks=pytest.mark.slow)],
)
def test_two_threads_of_writes_retracts_and_restores_keep_the_invariants(
    base_settings, graph, examples: int, steps: int
) -> None:  # type: ignore[no-untyped-def]
    seen = {"steps": 0, "checks": 0}

    class Races(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.space = f"races-{uuid.uuid4().hex[:10]}"
            self.bg = BeliefGraph.connect(space=self.space, settings=base_settings, embedder=HashingEmbedder(384))
            self.nodes: list[str] = []  # episodes and claims: evidence, premises, roots
            self.n = 0

        def _record(self, result: Any) -> None:
            claim = getattr(result, "claim", result)
            if claim is not None and getattr(claim, "id", None):
                self.nodes.append(claim.id)

        def _op(self, op: str, target: str, key: str, value: str) -> Callable[[], Any]:
            self.n += 1
            n, bg = self.n, self.bg
            if op == "assert":
                return lambda: self._record(
                    bg.assert_claim(key, value, f"{key} is {value} ({n})", "user:ana", [target])
                )
            if op == "derive":
                return lambda: self._record(bg.derive(f"conclusion {n} from {target}", [target], agent="agent:bot"))
            if op == "retract":
                return lambda: bg.retract([target], f"retracted in step {n}")
            if op == "restore":
                return lambda: bg.restore([target], f"restored in step {n}")
            return lambda: self._record(bg.assert_claim(key, f"{value}{n}", f"{key} is now {value}{n}", "user:ana"))

        @rule(n=st.integers(0, 9))
        def add_episode(self, n: int) -> None:
            self.nodes.append(self.bg.add_episode(f"episode {n}", agent="user:ana").id)

        @precondition(lambda self: bool(self.nodes))
        @rule(key=st.sampled_from(KEYS), value=st.sampled_from(VALUES), data=st.data())
        def write_with_evidence(self, key: str, value: str, data: st.DataObject) -> None:
            target = data.draw(st.sampled_from(self.nodes))
            try:
                self._record(self.bg.assert_claim(key, value, f"{key} is {value}", "user:ana", [target]))
            except _REFUSED:
                pass

        @precondition(lambda self: bool(self.nodes))
        @rule(
            first=st.sampled_from(OPS),
            second=st.sampled_from(OPS),
            key=st.sampled_from(KEYS),
            value=st.sampled_from(VALUES),
            data=st.data(),
        )
        def two_at_once(self, first: str, second: str, key: str, value: str, data: st.DataObject) -> None:
            target = data.draw(st.sampled_from(self.nodes))
            claim = self.bg.support.claims.get(target)
            fact = claim.key if claim is not None and claim.key is not None else key
            errors = _together(self._op(first, target, fact, value), self._op(second, target, fact, value))
            assert not errors, errors
            seen["steps"] += 1

        @invariant()
        def checked(self) -> None:
            report = self.bg.admin.check()
            assert report.ok, (report.summary(), [(i.name, i.offending) for i in report.failed])
            seen["checks"] += 1

        def teardown(self) -> None:
            try:
                graph.write("admin.delete_space", space=self.space)
            finally:
                self.bg.close()

    run_state_machine_as_test(
        Races,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking a DB trace takes many minutes
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    assert seen["steps"] > 0 and seen["checks"] > 0, seen
