"""Conflict strategies decide purely on their context: one test (or more) per registered strategy."""

from __future__ import annotations

import pytest

from belief_graph.models import Claim, ClaimInput, Strategy
from belief_graph.models.argumentation import GroundedResult
from belief_graph.policies import (
    STRATEGIES,
    ConflictContext,
    ConflictStrategy,
    Decision,
    GroundedStrategy,
    Need,
    StaleVerdict,
    strategy,
)

INCUMBENT = Claim(id="c1", key="user.city", value="Paris", text="lives in Paris", agent="agent:a")
CHALLENGER = ClaimInput(key="user.city", value="Lyon", text="lives in Lyon", agent="agent:b")


def ctx(**fields: object) -> ConflictContext:
    return ConflictContext(key="user.city", incumbent=INCUMBENT, challenger=CHALLENGER, **fields)  # type: ignore[arg-type]


def test_every_strategy_is_registered_once_under_its_own_name() -> None:
    assert set(STRATEGIES) == set(Strategy)
    for name, s in STRATEGIES.items():
        assert isinstance(s, ConflictStrategy)
        assert s.name is name
        assert strategy(name.value) is s
        assert (Need.grounding in s.needs) == isinstance(s, GroundedStrategy)


def test_recency_the_newer_claim_wins() -> None:
    d = strategy(Strategy.recency).decide(ctx())
    assert d.challenger_wins is True
    assert d.reason == "the newer claim of agent:b supersedes agent:a's"


def test_authority_the_challenger_must_out_weigh() -> None:
    s = strategy(Strategy.authority)
    assert s.needs == {Need.authority}
    assert s.decide(ctx(weights={"agent:a": 0.4, "agent:b": 0.6})).challenger_wins is True
    tie = s.decide(ctx(weights={"agent:a": 0.5, "agent:b": 0.5}, warnings=["w"]))
    assert tie.challenger_wins is None and tie.warnings == ["w"]
    assert tie.reason == "agent:b (0.5) does not out-weigh agent:a (0.5)"


def test_consensus_counts_each_agent_once_by_weight() -> None:
    s = strategy(Strategy.consensus)
    positions = [("agent:a", "Paris"), ("agent:c", " lyon"), ("agent:c", "Paris"), ("agent:b", "Lyon")]
    weights = {"agent:a": 0.5, "agent:b": 0.5, "agent:c": 0.5}
    d = s.decide(ctx(positions=positions, weights=weights))
    assert d.challenger_wins is None  # agent:c's latest position is Paris: 1.0 against 0.5
    positions = [("agent:a", "Paris"), ("agent:c", "lyon"), ("agent:b", "Lyon")]
    assert s.decide(ctx(positions=positions, weights=weights)).challenger_wins is True


def _grounded(fw_ns: str, in_: list[str], out: list[str], undec: list[str]) -> GroundedResult:
    return GroundedResult.model_validate(
        {"ns": fw_ns, "in": in_, "out": out, "undec": undec, "waves": 1, "arguments": len(in_ + out + undec)}
    )


def test_argumentation_builds_the_weighted_attack_graph_and_reads_the_labelling() -> None:
    s = strategy(Strategy.argumentation)
    assert isinstance(s, GroundedStrategy)
    base = ctx(positions=[("agent:a", "Paris"), ("agent:b", "Lyon")], weights={"agent:a": 0.3, "agent:b": 0.7})
    fw = s.framework(base)
    assert fw.ns == "dispute:user.city"
    assert list(fw.arguments) == ["Lyon", "Paris"]
    assert [(a.attacker, a.target) for a in fw.attacks] == [("Lyon", "Paris")]  # the stronger value defeats
    assert (fw.challenger, fw.incumbent) == ("Lyon", "Paris")
    won = s.decide(ctx(framework=fw, grounded=_grounded(fw.ns, ["Lyon"], ["Paris"], [])))
    assert won.challenger_wins is True and won.reason == "grounded extension: 'Lyon' 0.7 IN, 'Paris' 0.3 OUT"
    lost = s.decide(ctx(framework=fw, grounded=_grounded(fw.ns, ["Paris"], ["Lyon"], [])))
    assert lost.challenger_wins is False and lost.by == "argumentation"
    undecided = s.decide(ctx(framework=fw, grounded=_grounded(fw.ns, [], [], ["Lyon", "Paris"])))
    assert undecided.challenger_wins is None


def test_llm_judge_returns_the_verdict_made_before_the_transaction() -> None:
    s = strategy(Strategy.llm_judge)
    verdict = Decision(False, "the model kept Paris", by="llm_judge (m)")
    assert s.decide(ctx(verdict=verdict)) is verdict
    with pytest.raises(StaleVerdict):
        s.decide(ctx())
