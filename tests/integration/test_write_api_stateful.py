"""A hypothesis state machine over the public write API, checked against ``db check``.

Random sequences of episodes, structured writes by three agents on three keys (some with evidence,
one key under the authority strategy so that disputes open), resolutions of disputes, derived
claims, retract and restore, policy changes. A call may be refused with a typed error when the
state makes it invalid (retracting what is retracted, a premise that no longer holds); anything
else fails the test. After every few steps and at the end, ``bg.admin.check()`` must find every
invariant intact, and every fact's belief must be an active claim.

The bounded size runs in CI; the full size is marked ``slow`` (``./scripts/test.sh -m slow``).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import NotFoundError, ValidationError

KEYS = ["user.city", "user.pet", "project.owner"]
VALUES = ["a", "b", "c"]
AGENTS = ["user:ana", "agent:bot", "agent:hr"]


@pytest.mark.parametrize(
    "examples, steps",
    [pytest.param(10, 15, id="10x15"), pytest.param(60, 40, id="60x40", marks=pytest.mark.slow)],
)
def test_public_write_api_keeps_the_invariants(base_settings, graph, examples: int, steps: int) -> None:  # type: ignore[no-untyped-def]
    seen: dict[str, int] = {"checks": 0, "refused": 0, "disputes": 0, "derived": 0, "retracts": 0}

    class WriteApi(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.space = f"stateful-{uuid.uuid4().hex[:10]}"
            self.bg = BeliefGraph.connect(space=self.space, settings=base_settings, embedder=HashingEmbedder(384))
            self.bg.conflicts.set_authority("agent:hr", "user.*", 0.9)
            self.episodes: list[str] = []
            self.claims: list[str] = []
            self.retracted: list[str] = []
            self.steps = 0

        def _try(self, call: Any) -> Any:
            try:
                return call()
            except (ValidationError, NotFoundError):
                seen["refused"] += 1
                return None

        @rule(agent=st.sampled_from(AGENTS), n=st.integers(0, 99))
        def add_episode(self, agent: str, n: int) -> None:
            self.episodes.append(self.bg.add_episode(f"episode {n} from {agent}", agent=agent).id)

        @rule(key=st.sampled_from(KEYS), value=st.sampled_from(VALUES), agent=st.sampled_from(AGENTS), data=st.data())
        def assert_claim(self, key: str, value: str, agent: str, data: st.DataObject) -> None:
            ev = [data.draw(st.sampled_from(self.episodes))] if self.episodes and data.draw(st.booleans()) else []
            r = self._try(lambda: self.bg.assert_claim(key, value, f"{key} is {value}", agent=agent, evidence=ev))
            if r is not None:
                self.claims.append(r.claim.id)
                seen["disputes"] += r.dispute is not None

        @rule(strategy=st.sampled_from(["recency", "authority", "consensus"]), key=st.sampled_from(KEYS))
        def set_policy(self, strategy: str, key: str) -> None:
            self.bg.conflicts.set_policy(key, strategy)

        @precondition(lambda self: bool(self.bg.conflicts.disputes("open")))
        @rule(winner=st.sampled_from(["incumbent", "challenger"]))
        def resolve(self, winner: str) -> None:
            d = self.bg.conflicts.disputes("open")[0]
            self._try(lambda: self.bg.conflicts.resolve_dispute(d.id, winner, by="tester", reason="decided"))

        @precondition(lambda self: bool(self.claims))
        @rule(data=st.data(), keyed=st.booleans())
        def derive(self, data: st.DataObject, keyed: bool) -> None:
            premise = data.draw(st.sampled_from(self.claims))
            c = self._try(
                lambda: self.bg.derive(
                    f"a conclusion from {premise[:8]}",
                    [premise],
                    "derived.summary" if keyed else None,
                    agent="agent:bot",
                )
            )
            seen["derived"] += c is not None

        @precondition(lambda self: bool(self.episodes or self.claims))
        @rule(data=st.data())
        def retract(self, data: st.DataObject) -> None:
            root = data.draw(st.sampled_from(self.episodes + self.claims))
            if self._try(lambda: self.bg.retract([root], "it was wrong")) is not None:
                self.retracted.append(root)
                seen["retracts"] += 1

        @precondition(lambda self: bool(self.retracted))
        @rule(data=st.data())
        def restore(self, data: st.DataObject) -> None:
            root = data.draw(st.sampled_from(self.retracted))
            if self._try(lambda: self.bg.restore([root], "it was right after all")) is not None:
                self.retracted.remove(root)

        @invariant()
        def every_belief_is_active(self) -> None:
            for k in KEYS:
                b = self.bg.belief(k)
                assert b is None or b.status.value == "active", b

        @invariant()
        def db_check_holds(self) -> None:
            self.steps += 1
            if self.steps % 4 == 0:
                report = self.bg.admin.check()
                assert report.ok, (report.summary(), [(i.name, i.offending) for i in report.failed])
                seen["checks"] += 1

        def teardown(self) -> None:
            try:
                report = self.bg.admin.check()
                assert report.ok, (report.summary(), [(i.name, i.offending) for i in report.failed])
                seen["checks"] += 1
            finally:
                graph.write("admin.delete_space", space=self.space)
                self.bg.close()

    run_state_machine_as_test(
        WriteApi,
        settings=settings(
            max_examples=examples,
            stateful_step_count=steps,
            deadline=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking a DB trace takes many minutes
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    # the runs did what the property is about: checks ran, and disputes, derivations, retractions happened
    assert seen["checks"] >= examples and seen["derived"] > 0 and seen["retracts"] > 0, seen
