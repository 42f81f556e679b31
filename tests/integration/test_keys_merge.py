"""``bg.keys.merge(source, into)`` against the real server: two drifted keys become one fact, one
current belief (a dispute when two writers disagree), one linear history, conclusions following,
one audit, and the source kept as an alias. ``db check`` is clean after every merge."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import (
    MergeDerivedKey,
    MergeRefused,
    MergeSameKey,
    MergeSourceIsAlias,
    MergeTypeMismatch,
    UnknownKey,
    ValidationError,
)
from belief_graph.models.keys import MergeResult

A, B = "user:alice", "agent:assistant"
SRC, INTO = "user.location.city", "user.city"


def _say(bg: BeliefGraph, key: str, value: Any, agent: str = A) -> str:
    return bg.assert_claim(key, value, f"{key} is {value}", agent=agent).claim.id


def _merge(bg: BeliefGraph, source: str = SRC, into: str = INTO, **kw: Any) -> MergeResult:
    r = bg.keys.merge(source, into, agent=kw.get("agent", "user:admin"), reason=kw.get("reason", "the same fact"))
    report = bg.admin.check()
    assert report.ok, report.summary()
    return r


def _counts(bg: BeliefGraph) -> list[tuple[str, str, int]]:
    rows = bg.graph.read("admin.count_by_label_status", space=bg.space)
    return sorted((str(r["label"]), str(r["status"]), int(r["count"])) for r in rows)


def _chain(bg: BeliefGraph, key: str) -> list[str]:
    """The SUPERSEDES chain of ``key``, oldest first, walked from its head."""
    versions = {v.claim.id: v for v in bg.beliefs.history(key)}
    heads = [v for v in versions.values() if v.superseded_by is None and v.supersedes is not None]
    assert len(heads) <= 1, heads
    out: list[str] = []
    cur = heads[0] if heads else None
    while cur is not None:
        out.append(cur.claim.id)
        cur = versions[cur.supersedes] if cur.supersedes else None
    return out[::-1]


def test_same_agent_update_the_newer_value_is_current_and_the_older_superseded(bg: BeliefGraph) -> None:
    old = _say(bg, INTO, "Lisbon")
    new = _say(bg, SRC, "Porto")
    r = _merge(bg)
    assert r.outcome == "update" and r.into == INTO
    assert r.current is not None and r.current.id == new and r.current.key == INTO
    assert r.moved == [new] and r.superseded == [old] and r.dispute is None
    assert [(c.id, c.before, c.after) for c in r.changes] == [(old, "active", "superseded")]
    assert bg.belief(INTO) == bg.belief(SRC) == r.current
    hist = bg.beliefs.history(INTO)
    assert [v.claim.id for v in hist] == [old, new] and [v.current for v in hist] == [False, True]
    assert {v.claim.key for v in hist} == {INTO}
    assert _chain(bg, INTO) == [old, new]
    old_claim = bg.beliefs.claim(old)
    assert old_claim.status == "superseded" and old_claim.valid_to is not None
    assert bg.beliefs.explain(old).revisions[-1].status == "superseded"


def test_the_older_one_merged_in_is_superseded_by_the_newer_target(bg: BeliefGraph) -> None:
    old = _say(bg, SRC, "Lisbon")
    new = _say(bg, INTO, "Porto")
    r = _merge(bg)
    assert r.outcome == "update" and r.current is not None and r.current.id == new and r.superseded == [old]
    assert _chain(bg, INTO) == [old, new]


@pytest.mark.parametrize("winner", ["incumbent", "challenger"])
def test_cross_agent_conflict_opens_a_dispute_that_resolves(bg: BeliefGraph, winner: str) -> None:
    older = _say(bg, INTO, "Lisbon", agent=A)
    newer = _say(bg, SRC, "Porto", agent=B)
    r = _merge(bg)
    assert r.outcome == "dispute" and r.current is not None and r.current.id == newer
    assert r.dispute is not None and r.dispute.status == "open" and r.dispute.key == INTO
    assert r.dispute.incumbent.id == newer and r.dispute.challenger.id == older
    assert r.dispute.strategy == "merge"
    assert bg.beliefs.claim(older).status == "disputed"
    assert [d.id for d in bg.conflicts.disputes(status="open", key=INTO)] == [r.dispute.id]
    assert [d.id for d in bg.conflicts.disputes(status="open")] == [r.dispute.id]
    assert _chain(bg, INTO) == []  # the challenger leaves the chain (challengers never are in it)
    d = bg.conflicts.resolve_dispute(r.dispute.id, winner, by="user:admin", reason="checked with the user")
    assert d.status == "resolved"
    report = bg.admin.check()
    assert report.ok, report.summary()
    expected = older if winner == "challenger" else newer
    belief = bg.belief(INTO)
    assert belief is not None and belief.id == expected
    loser = newer if winner == "challenger" else older
    assert bg.beliefs.claim(loser).status == "superseded"
    # the fact goes on: a new write supersedes whichever won, and the chain stays linear
    third = _say(bg, SRC, "Faro", agent=A)
    assert bg.belief(INTO) is not None and bg.belief(INTO).id == third  # type: ignore[union-attr]
    report = bg.admin.check()
    assert report.ok, report.summary()


def test_same_value_from_two_agents_the_newer_stays_and_supersedes_the_older(bg: BeliefGraph) -> None:
    older = _say(bg, INTO, "Lisbon", agent=A)
    newer = _say(bg, SRC, " lisbon ", agent=B)
    r = _merge(bg)
    assert r.outcome == "same_value" and r.dispute is None
    assert r.current is not None and r.current.id == newer and r.superseded == [older]
    assert bg.conflicts.disputes(status="open") == []
    assert _chain(bg, INTO) == [older, newer]


def test_source_only_current_becomes_the_targets_current(bg: BeliefGraph) -> None:
    bg.beliefs.register_key(INTO, "the city the user lives in")
    first = _say(bg, SRC, "Lisbon")
    second = _say(bg, SRC, "Porto")
    r = _merge(bg)
    assert r.outcome == "source_only" and r.changes == [] and r.superseded == []
    assert r.moved == [first, second] and r.current is not None and r.current.id == second
    assert _chain(bg, INTO) == [first, second]
    assert bg.beliefs.history(SRC) == bg.beliefs.history(INTO)


def test_merging_into_a_new_key_renames_the_fact(bg: BeliefGraph) -> None:
    c = _say(bg, SRC, "Lisbon")
    r = _merge(bg, SRC, "user.home.city")
    assert r.outcome == "source_only" and r.current is not None and r.current.id == c
    assert r.current.key == "user.home.city" and bg.keys.resolve(SRC) == "user.home.city"


def test_history_interleaves_both_chains_by_time(bg: BeliefGraph) -> None:
    s1 = _say(bg, SRC, "Lisbon")
    i1 = _say(bg, INTO, "Porto")
    s2 = _say(bg, SRC, "Faro")
    i2 = _say(bg, INTO, "Braga")
    r = _merge(bg)
    assert r.outcome == "update" and r.current is not None and r.current.id == i2 and r.superseded == [s2]
    assert [v.claim.id for v in bg.beliefs.history(INTO)] == [s1, i1, s2, i2]
    assert _chain(bg, INTO) == [s1, i1, s2, i2]
    assert [v.claim.value for v in bg.beliefs.history(SRC)] == ["Lisbon", "Porto", "Faro", "Braga"]


def test_a_conclusion_on_the_superseded_claim_goes_stale(bg: BeliefGraph) -> None:
    old = _say(bg, INTO, "Lisbon")
    concl = bg.derive("The user lives by the sea", [old], agent="agent:reasoner")
    _say(bg, SRC, "Madrid")
    r = _merge(bg)
    assert r.staled == [concl.id]
    assert bg.beliefs.claim(concl.id).status == "stale"
    audit = bg.support.audit(r.audit)
    assert concl.id in {e.id for e in audit.entries if e.action == "STALED"}


def test_a_rule_reading_the_target_re_derives(bg: BeliefGraph) -> None:
    bg.rules.add(
        {
            "name": "home_country",
            "premises": [{"key": INTO, "as": "city"}, {"key": "city.{city}.country", "as": "country"}],
            "conclusion": {"key": "user.home_country", "value": "{country}", "text": "The user lives in {country}."},
        }
    )
    _say(bg, "city.Lisbon.country", "Portugal")
    _say(bg, "city.Madrid.country", "Spain")
    _say(bg, INTO, "Lisbon")
    assert bg.belief("user.home_country") is not None and bg.belief("user.home_country").value == "Portugal"  # type: ignore[union-attr]
    _say(bg, SRC, "Madrid")
    r = _merge(bg)
    assert [c.value for c in r.rederived] == ["Spain"]
    assert bg.belief("user.home_country").value == "Spain"  # type: ignore[union-attr]


def test_a_key_a_rule_derives_is_refused(bg: BeliefGraph) -> None:
    bg.rules.add(
        {
            "name": "copy_city",
            "premises": [{"key": INTO, "as": "city"}],
            "conclusion": {"key": "user.city_copy", "value": "{city}", "text": "The user's city is {city}."},
        }
    )
    _say(bg, INTO, "Lisbon")
    _say(bg, SRC, "Porto")
    before = _counts(bg)
    with pytest.raises(MergeDerivedKey, match="derived by rule 'copy_city@1'"):
        bg.keys.merge(SRC, "user.city_copy", agent="user:admin", reason="x")
    with pytest.raises(MergeDerivedKey):
        bg.keys.merge("user.city_copy", SRC, agent="user:admin", reason="x")
    assert _counts(bg) == before


def test_one_audit_records_the_merge(bg: BeliefGraph) -> None:
    old = _say(bg, INTO, "Lisbon")
    _say(bg, SRC, "Porto")
    audits_before = len(bg.support.audits())
    r = _merge(bg, reason="the model named the city twice")
    assert len(bg.support.audits()) == audits_before + 1
    audit = bg.support.audit(r.audit)
    assert audit.op == "merge" and audit.agent == "user:admin"
    assert (audit.source_key, audit.into_key) == (SRC, INTO)
    assert "the model named the city twice" in audit.reason
    assert audit.roots == [old] or [e.id for e in audit.entries if e.action == "ROOT"] == [old]
    roots = [e for e in audit.entries if e.action == "ROOT"]
    assert [(e.id, e.prior) for e in roots] == [(old, "active")]
    assert bg.support.audits(1)[0].id == r.audit


def test_writes_and_reads_through_the_alias(bg: BeliefGraph) -> None:
    _say(bg, INTO, "Lisbon")
    _say(bg, SRC, "Porto")
    t_merged = datetime.now(UTC)
    _merge(bg)
    assert bg.keys.resolve(SRC) == INTO and bg.keys.resolve(INTO) == INTO and bg.keys.resolve("no.such") == "no.such"
    w = bg.assert_claim(SRC, "Faro", "the user moved to Faro", agent=A)
    assert w.claim.key == INTO and w.op.value == "UPDATE"
    assert bg.belief(SRC) == bg.belief(INTO) == w.claim
    assert bg.beliefs.history(SRC) == bg.beliefs.history(INTO) and len(bg.beliefs.history(INTO)) == 3
    then = bg.beliefs.as_of(SRC, t_merged)
    assert then is not None and then.value == "Porto"
    listed = {k.key: k for k in bg.keys.all()}
    assert listed[SRC].merged_into == INTO and listed[INTO].merged_into is None
    assert listed[INTO].value == "Faro"
    d = bg.derive("The user lives in the Algarve", [w.claim.id], key=SRC, agent="agent:reasoner")
    assert d.key == INTO
    report = bg.admin.check()
    assert report.ok, report.summary()


def test_chains_of_merges_resolve_to_the_last_target(bg: BeliefGraph) -> None:
    _say(bg, "a.city", "Lisbon")
    _say(bg, "b.city", "Lisbon")
    _say(bg, "c.city", "Lisbon")
    _merge(bg, "a.city", "b.city")
    _merge(bg, "b.city", "c.city")
    assert bg.keys.resolve("a.city") == bg.keys.resolve("b.city") == "c.city"
    w = bg.assert_claim("a.city", "Porto", "moved", agent=A)
    assert w.claim.key == "c.city"
    # merging into an alias follows it
    _say(bg, "d.city", "Porto")
    r = _merge(bg, "d.city", "a.city")
    assert r.into == "c.city"


def test_refusals_write_nothing(bg: BeliefGraph) -> None:
    _say(bg, INTO, "Lisbon")
    _say(bg, SRC, "Porto")
    _say(bg, "user.age", 42)
    _say(bg, "x.city", "Faro")
    _say(bg, "y.city", "Faro")
    _merge(bg, "x.city", "y.city")
    before = _counts(bg)
    keys_before = bg.keys.all()
    cases: list[tuple[str, str, type[Exception]]] = [
        ("no.such.key", INTO, UnknownKey),
        (INTO, INTO, MergeSameKey),
        ("x.city", INTO, MergeSourceIsAlias),
        ("y.city", "x.city", MergeSameKey),  # x.city resolves to y.city
        ("user.age", INTO, MergeTypeMismatch),
    ]
    for source, into, error in cases:
        with pytest.raises(error) as info:
            bg.keys.merge(source, into, agent="user:admin", reason="drift")
        assert "\n" not in str(info.value)
        if issubclass(error, MergeRefused):
            assert isinstance(info.value, MergeRefused)
        with pytest.raises(error):
            bg.keys.plan_merge(source, into)
    for bad in ({"agent": "", "reason": "x"}, {"agent": "user:admin", "reason": " "}):
        with pytest.raises(ValidationError):
            bg.keys.merge(SRC, INTO, **bad)
    with pytest.raises(ValidationError, match="malformed fact key"):
        bg.keys.merge("not a key", INTO, agent="user:admin", reason="x")
    assert _counts(bg) == before
    assert bg.keys.all() == keys_before


def test_plan_says_what_merge_does_without_writing(bg: BeliefGraph) -> None:
    older = _say(bg, INTO, "Lisbon", agent=A)
    newer = _say(bg, SRC, "Porto", agent=B)
    before = _counts(bg)
    plan = bg.keys.plan_merge(SRC, INTO)
    assert _counts(bg) == before
    assert plan.outcome == "dispute" and plan.current == newer and plan.versions == [newer]
    assert [(c.id, c.after) for c in plan.changes] == [(older, "disputed")]
    r = _merge(bg)
    assert r.outcome == plan.outcome and r.current is not None and r.current.id == plan.current


def test_non_active_currents(bg: BeliefGraph) -> None:
    """One key's current was withdrawn (its evidence retracted): the other's active belief becomes
    current even when it is the older one; the later versions leave the chain, keeping their status."""
    active = _say(bg, SRC, "Lisbon")
    ep = bg.add_episode("I live in Porto", agent=A)
    gone = bg.assert_claim(INTO, "Porto", "The user lives in Porto", agent=A, evidence=[ep.id]).claim.id
    bg.retract([ep.id], "that was someone else")
    assert bg.beliefs.claim(gone).status == "withdrawn"
    r = _merge(bg)
    assert r.outcome == "one_active" and r.current is not None and r.current.id == active and r.changes == []
    assert bg.beliefs.claim(gone).status == "withdrawn"
    assert [v.claim.id for v in bg.beliefs.history(INTO)] == [active, gone]
