"""Derivation rules against the real server (DESIGN.md, "Derivation rules"): stored in the graph,
joined on values, re-evaluated in the writer's transaction when a premise changes."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import DerivedKeyConflict, RuleNotFound, ValidationError

HEAD_OF_STATE: dict[str, Any] = {
    "name": "performer_head_of_state",
    "description": "the head of state of the country of citizenship of the performer of a work",
    "premises": [
        {"key": "work.{w}.performer", "as": "performer"},
        {"key": "person.{performer}.citizenship", "as": "country"},
        {"key": "country.{country}.head_of_state", "as": "head"},
    ],
    "conclusion": {
        "key": "work.{w}.performer_head_of_state",
        "value": "{head}",
        "text": "The head of state of the country of citizenship of the performer of {w} is {head}.",
    },
}
KEY = "work.w1.performer_head_of_state"


def _world(bg: BeliefGraph) -> dict[str, str]:
    a = "user:editor"
    return {
        "performer": bg.assert_claim("work.w1.performer", "ann", "w1 was performed by ann", agent=a).claim.id,
        "ann": bg.assert_claim("person.ann.citizenship", "fr", "ann is a citizen of fr", agent=a).claim.id,
        "bob": bg.assert_claim("person.bob.citizenship", "it", "bob is a citizen of it", agent=a).claim.id,
        "fr": bg.assert_claim(
            "country.fr.head_of_state", "macron", "the head of state of fr is macron", agent=a
        ).claim.id,
        "it": bg.assert_claim(
            "country.it.head_of_state", "mattarella", "the head of state of it is mattarella", agent=a
        ).claim.id,
    }


def _value(bg: BeliefGraph, key: str = KEY) -> object:
    b = bg.belief(key)
    return None if b is None else b.value


def test_a_multi_hop_question_is_one_rule_instance_that_follows_every_hop(bg: BeliefGraph) -> None:
    ids = _world(bg)
    run = bg.rules.add(HEAD_OF_STATE, agent="user:admin")
    assert [c.value for c in run.rederived] == ["macron"] and run.rule == "performer_head_of_state@1"
    first = bg.belief(KEY)
    assert first is not None and first.agent == "rule:performer_head_of_state" and first.kind == "derived"
    fam = bg.support.supports(first.id).families
    assert len(fam) == 1 and fam[0].rule == "rule:performer_head_of_state@1"
    assert {p.id for p in fam[0].premises} == {ids["performer"], ids["ann"], ids["fr"]}
    # each hop updated in turn: the engine re-derives in the same transaction as the update
    r = bg.assert_claim("country.fr.head_of_state", "lecornu", "fr's head of state is lecornu", agent="user:editor")
    assert [c.value for c in r.rederived] == ["lecornu"] and _value(bg) == "lecornu"
    r = bg.assert_claim("person.ann.citizenship", "it", "ann is now a citizen of it", agent="user:editor")
    assert [c.value for c in r.rederived] == ["mattarella"] and _value(bg) == "mattarella"
    history = bg.beliefs.history(KEY)
    assert [v.claim.value for v in history] == ["macron", "lecornu", "mattarella"]
    assert [v.claim.status.value for v in history] == ["superseded", "superseded", "active"]
    assert all("re-derived by rule performer_head_of_state@1" in v.revisions[-1].reason for v in history[:-1])
    entry = next(e for e in bg.support.audit(r.audit).entries if e.action == "REDERIVED")  # type: ignore[arg-type]
    assert entry.rule == "performer_head_of_state@1" and entry.superseded == history[-2].claim.id
    # the same value and text through other premises: one more justification, no new version
    r = bg.assert_claim("work.w1.performer", "bob", "w1 was performed by bob", agent="user:editor")
    assert r.rederived == [] and r.staled == [] and _value(bg) == "mattarella"
    assert len(bg.beliefs.history(KEY)) == 3
    audit = bg.support.audit(r.audit)  # type: ignore[arg-type]
    assert audit.op == "update" and audit.rederived_ids == [history[-1].claim.id]
    assert next(e for e in audit.entries if e.action == "REDERIVED").superseded is None
    # the certificate cites the current chain only
    ctx = bg.context(keys=[KEY], budget_tokens=10_000)
    cited = {p.id for p in ctx.items[0].certificate.premises}  # type: ignore[union-attr]
    assert ids["performer"] not in cited and r.claim.id in cited and ids["bob"] in cited
    assert len(bg.support.supports(history[-1].claim.id).current) == 1


def test_a_join_that_no_longer_resolves_leaves_the_conclusion_stale_naming_the_missing_key(bg: BeliefGraph) -> None:
    _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    r = bg.assert_claim("person.ann.citizenship", "de", "ann is now a citizen of de", agent="user:editor")
    assert r.rederived == [] and len(r.staled) == 1 and _value(bg) is None
    stale = bg.support.stale()
    assert [(s.claim.key, s.rule, s.missing) for s in stale] == [
        (KEY, "performer_head_of_state", "country.de.head_of_state")
    ]
    (inst,) = bg.rules.instances("performer_head_of_state")
    assert inst.status == "unresolved" and inst.missing == "country.de.head_of_state"
    assert inst.belief is not None and inst.belief.status.value == "stale"
    # the missing premise arrives: the instance waited for it
    r = bg.assert_claim("country.de.head_of_state", "steinmeier", "de's head of state is steinmeier", agent="user:x")
    assert [c.value for c in r.rederived] == ["steinmeier"] and _value(bg) == "steinmeier"
    assert bg.beliefs.history(KEY)[-2].claim.status.value == "superseded"


def test_reverting_an_edit_brings_the_earlier_answer_back_as_a_new_version(bg: BeliefGraph) -> None:
    _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    bg.assert_claim("work.w1.performer", "bob", "w1 was performed by bob", agent="user:editor")
    assert _value(bg) == "mattarella"
    r = bg.beliefs.revert("work.w1.performer", agent="user:editor")
    assert r.op == WriteOp.UPDATE and r.claim.value == "ann"
    assert _value(bg) == "macron"
    values = [v.claim.value for v in bg.beliefs.history(KEY)]
    assert values == ["macron", "mattarella", "macron"]  # a new version, not the old one reinstated
    assert len({v.claim.id for v in bg.beliefs.history(KEY)}) == 3


def test_retract_and_restore_of_a_premise(bg: BeliefGraph) -> None:
    ids = _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    derived = bg.belief(KEY)
    assert derived is not None
    audit = bg.retract([ids["fr"]], "the source was wrong")
    assert audit.withdrawn_ids == [derived.id] and _value(bg) is None
    (inst,) = bg.rules.instances("performer_head_of_state")
    assert inst.status == "unresolved" and inst.missing == "country.fr.head_of_state"
    audit = bg.restore([ids["fr"]], "the source was right")
    assert derived.id in audit.reinstated_ids and _value(bg) == "macron"
    assert bg.belief(KEY).id == derived.id  # type: ignore[union-attr]  # reinstated, not re-derived
    (inst,) = bg.rules.instances("performer_head_of_state")
    assert inst.status == "resolved"


def test_conclusions_of_conclusions_across_rules(bg: BeliefGraph) -> None:
    _world(bg)
    bg.assert_claim("person.macron.party", "renaissance", "macron's party is renaissance", agent="user:x")
    bg.assert_claim("person.mattarella.party", "none", "mattarella has no party", agent="user:x")
    bg.rules.add(HEAD_OF_STATE)
    bg.rules.add(
        {
            "name": "heads_party",
            "premises": [
                {"key": "work.{w}.performer_head_of_state", "as": "head"},
                {"key": "person.{head}.party", "as": "party"},
            ],
            "conclusion": {
                "key": "work.{w}.heads_party",
                "value": "{party}",
                "text": "{w}: the head's party is {party}",
            },
        }
    )
    assert _value(bg, "work.w1.heads_party") == "renaissance"
    free = bg.derive(
        "Pitch w1 to renaissance voters",
        [bg.belief("work.w1.heads_party").id],  # type: ignore[union-attr]
        agent="agent:marketing",
    )
    r = bg.assert_claim("work.w1.performer", "bob", "w1 was performed by bob", agent="user:editor")
    assert sorted(str(c.value) for c in r.rederived) == ["mattarella", "none"]
    assert _value(bg, "work.w1.heads_party") == "none"
    assert r.staled == [free.id]  # the free-text conclusion has no rule: it goes stale
    # a direct write on a rule's premise that is itself derived is refused
    with pytest.raises(DerivedKeyConflict, match="performer_head_of_state"):
        bg.assert_claim(KEY, "someone", "direct", agent="user:x")


def test_direct_writes_to_a_derived_key_are_refused_or_disputed(bg: BeliefGraph) -> None:
    _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    before = bg.admin.stats()
    with pytest.raises(DerivedKeyConflict) as err:
        bg.assert_claim(KEY, "someone", "The head is someone", agent="user:x")
    assert err.value.rule == "performer_head_of_state@1" and err.value.key == KEY
    with pytest.raises(DerivedKeyConflict):
        bg.derive("The head is someone", [bg.belief(KEY).id], key=KEY, agent="agent:x")  # type: ignore[union-attr]
    # also for keys of instances that do not exist yet
    with pytest.raises(DerivedKeyConflict):
        bg.assert_claim("work.w9.performer_head_of_state", "x", "x", agent="user:x")
    assert bg.admin.stats() == before
    bg.rules.add({**HEAD_OF_STATE, "direct_writes": "dispute"})
    r = bg.assert_claim(KEY, "someone", "The head is someone", agent="user:x")
    assert r.op == WriteOp.DISPUTED and r.strategy == "rule" and r.dispute is not None
    assert _value(bg) == "macron"
    same = bg.assert_claim(KEY, "macron", "The head is macron", agent="user:x")
    assert same.op == WriteOp.NOOP


def test_rule_versions_and_removal(bg: BeliefGraph) -> None:
    _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    derived = bg.belief(KEY)
    assert derived is not None
    v2 = {**HEAD_OF_STATE, "conclusion": {**HEAD_OF_STATE["conclusion"], "text": "{w}: head of state {head}."}}
    run = bg.rules.add(v2)
    assert run.rule == "performer_head_of_state@2"
    assert [(r.name, r.version, r.status) for r in bg.rules.all(all_versions=True)] == [
        ("performer_head_of_state", 1, "replaced"),
        ("performer_head_of_state", 2, "active"),
    ]
    now = bg.belief(KEY)
    assert now is not None and now.text == "w1: head of state macron." and now.id != derived.id
    # a version whose chain does not resolve: the conclusion of v2 goes stale (v1's reason is retired)
    v3 = {
        **HEAD_OF_STATE,
        "premises": HEAD_OF_STATE["premises"][:2] + [{"key": "country.{country}.monarch", "as": "head"}],
    }
    bg.rules.add(v3)
    assert _value(bg) is None and bg.beliefs.claim(now.id).status.value == "stale"
    assert bg.rules.get("performer_head_of_state")[0].unresolved == 1
    run = bg.rules.remove("performer_head_of_state", "no longer needed", agent="user:admin")
    assert run.rule == "performer_head_of_state@3"
    with pytest.raises(RuleNotFound):
        bg.rules.get("performer_head_of_state")
    assert bg.rules.all() == []
    # the key is writable again
    assert bg.assert_claim(KEY, "someone", "The head is someone", agent="user:x").op in (WriteOp.ADD, WriteOp.UPDATE)


def test_removing_a_rule_makes_its_conclusions_stale(bg: BeliefGraph) -> None:
    _world(bg)
    bg.rules.add(HEAD_OF_STATE)
    derived = bg.belief(KEY)
    run = bg.rules.remove("performer_head_of_state", "wrong rule")
    assert bg.beliefs.claim(derived.id).status.value == "stale"  # type: ignore[union-attr]
    assert run.audit is not None and derived.id in bg.support.audit(run.audit).staled_ids  # type: ignore[union-attr]


def test_rule_conflicts_and_bad_input_write_nothing(bg: BeliefGraph) -> None:
    bg.rules.add(HEAD_OF_STATE)
    before = bg.admin.stats()
    other = {**HEAD_OF_STATE, "name": "other"}
    with pytest.raises(ValidationError, match="derive keys that rule"):
        bg.rules.add(other)
    loop = {
        "name": "loop",
        "premises": [{"key": "work.{w}.performer_head_of_state", "as": "h"}],
        "conclusion": {"key": "work.{w}.performer", "value": "{h}", "text": "t"},
    }
    with pytest.raises(ValidationError, match="cycle"):
        bg.rules.add(loop)
    with pytest.raises(ValidationError, match="invalid rule"):
        bg.rules.add({"name": "x"})
    with pytest.raises(RuleNotFound):
        bg.rules.remove("nope", "reason")
    with pytest.raises(ValidationError, match="reason"):
        bg.rules.remove("performer_head_of_state", " ")
    with pytest.raises(ValidationError, match="first premise"):
        bg.rules.run("performer_head_of_state", "person.ann.citizenship")
    assert bg.admin.stats() == before


def test_derive_by_rule_and_add_without_apply(bg: BeliefGraph) -> None:
    _world(bg)
    run = bg.rules.add(HEAD_OF_STATE, apply=False)
    assert run.rederived == [] and _value(bg) is None
    run = bg.rules.run("performer_head_of_state", "work.w1.performer")
    assert [c.value for c in run.rederived] == ["macron"]
    run = bg.rules.run("performer_head_of_state")
    assert run.rederived == [] and run.evaluated == 1  # nothing changed


def test_concurrent_edits_of_two_premises_of_one_instance(bg: BeliefGraph, base_settings, embedder) -> None:  # type: ignore[no-untyped-def]
    _world(bg)
    bg.assert_claim("country.de.head_of_state", "steinmeier", "de's head is steinmeier", agent="user:editor")
    bg.rules.add(HEAD_OF_STATE)
    errors: list[Exception] = []

    def edit(key: str, value: str) -> None:
        try:
            with BeliefGraph.connect(space=bg.space, settings=base_settings, embedder=embedder) as other:
                for i in range(6):
                    other.assert_claim(
                        key, value if i % 2 == 0 else f"{value}-x", f"{key} = {value} ({i})", agent="user:editor"
                    )
                other.assert_claim(key, value, f"{key} = {value} (final)", agent="user:editor")
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=edit, args=("person.ann.citizenship", "de")),
        threading.Thread(target=edit, args=("country.fr.head_of_state", "lecornu")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # whatever the interleaving, the derived belief is the rule applied to the final premises
    assert _value(bg) == "steinmeier"
    active = [v for v in bg.beliefs.history(KEY) if v.claim.status.value == "active"]
    assert len(active) == 1


def test_edit_work_is_bounded_by_dependents_not_the_store(bg: BeliefGraph) -> None:
    """PROFILE: the db hits of one edit (assert + re-derivation + currency: every statement of the
    transaction) are the same for two identical chains, one edited before and one after 300 other
    instances of the same rule (with their facts) were added to the space."""

    def chain(tag: str) -> None:
        a = "user:editor"
        bg.assert_claim(f"work.w{tag}.performer", f"p{tag}", "performer", agent=a)
        bg.assert_claim(f"person.p{tag}.citizenship", f"c{tag}", "citizenship", agent=a)
        bg.assert_claim(f"country.c{tag}.head_of_state", f"h{tag}", "head", agent=a)

    def profiled_edit(tag: str) -> int:
        g, prof = bg.graph.profile()
        other = BeliefGraph(g, bg.settings, bg.space, bg.embedder)  # shares bg's driver: not closed here
        r = other.assert_claim(f"country.c{tag}.head_of_state", f"new{tag}", "head changed", agent="user:editor")
        assert [c.value for c in r.rederived] == [f"new{tag}"]
        assert prof.hits["rules.evaluate_instances"] > 0 and prof.hits["currency.mark_region"] > 0
        return prof.total

    chain("a")
    chain("b")
    bg.rules.add(HEAD_OF_STATE)
    before = profiled_edit("a")
    for i in range(300):
        bg.assert_claim(f"person.fp{i}.citizenship", f"fc{i % 10}", "filler", agent="user:filler")
        bg.assert_claim(f"work.f{i}.performer", f"fp{i}", "filler", agent="user:filler")
    for c in range(10):
        bg.assert_claim(f"country.fc{c}.head_of_state", f"fh{c}", "filler", agent="user:filler")
    assert bg.rules.get("performer_head_of_state")[0].instances == 302
    after = profiled_edit("b")
    # identical in every run so far but one (415 vs 419: the planner chose another plan once the
    # statistics changed); a scan of the 300 instances or their 600 facts would add hundreds
    assert abs(after - before) <= 20, (before, after)


def test_cli_rules(bg: BeliefGraph, run_cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _world(bg)
    f = tmp_path / "rules.yaml"
    import yaml

    f.write_text(yaml.safe_dump({"rules": [HEAD_OF_STATE]}))
    out = run_cli(["--space", bg.space, "rules", "add", str(f), "--json"])
    assert out.returncode == 0, out.stderr
    assert [c["value"] for c in json.loads(out.stdout)[0]["rederived"]] == ["macron"]
    out = run_cli(["--space", bg.space, "rules", "list", "--json"])
    assert json.loads(out.stdout)[0]["instances"] == 1
    out = run_cli(["--space", bg.space, "rules", "instances", "performer_head_of_state", "--json"])
    assert json.loads(out.stdout)[0]["belief"]["value"] == "macron"
    out = run_cli(["--space", bg.space, "rules", "show", "performer_head_of_state"])
    assert out.returncode == 0 and "country.{country}.head_of_state" in out.stdout
    out = run_cli(["--space", bg.space, "memory", "assert", KEY, "x", "direct", "--agent", "user:x"])
    assert out.returncode == 2 and "derived by rule" in out.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed")
    out = run_cli(["--space", bg.space, "rules", "add", str(bad)])
    assert out.returncode == 2 and out.stderr.startswith("error:")
    out = run_cli(["--space", bg.space, "rules", "remove", "performer_head_of_state", "--reason", "done"])
    assert out.returncode == 0, out.stderr
    out = run_cli(["--space", bg.space, "rules", "run", "performer_head_of_state"])
    assert out.returncode == 1 and "no active derivation rule" in out.stderr


DOUBLE = {
    "name": "double",
    "premises": [{"key": "a.{x}.v", "as": "a"}],
    "conclusion": {"key": "b.{x}.v", "value": "{a}-b", "text": "b of {x} is {a}-b"},
}
PAIR = {
    "name": "pair",
    "premises": [{"key": "a.{x}.v", "as": "a"}, {"key": "b.{x}.v", "as": "b"}],
    "conclusion": {"key": "c.{x}.v", "value": "{a}+{b}", "text": "c of {x} is {a}+{b}"},
}
LAST = {
    "name": "last",
    "premises": [{"key": "c.{x}.v", "as": "c"}],
    "conclusion": {"key": "d.{x}.v", "value": "{c}!", "text": "d of {x} is {c}!"},
}


@pytest.mark.parametrize("order", [("double", "pair", "last"), ("last", "pair", "double")])
def test_a_diamond_of_rules_derives_each_key_once_from_the_final_premises(
    bg: BeliefGraph, order: tuple[str, ...]
) -> None:
    """``pair`` reads ``a`` and ``double``'s conclusion ``b``, and ``last`` reads ``pair``'s: a
    diamond, not a cycle. An update of ``a`` re-derives ``b``, then ``c`` from the new ``a`` and
    the new ``b``, then ``d``: one new version of each key, never a version of ``c`` that mixes the
    new ``a`` with the old ``b``, whatever order the rules were added in."""
    rules = {"double": DOUBLE, "pair": PAIR, "last": LAST}
    bg.assert_claim("a.t0.v", "1", "a of t0 is 1", agent="user:editor")
    for name in order:
        bg.rules.add(rules[name])
    assert [_value(bg, k) for k in ("b.t0.v", "c.t0.v", "d.t0.v")] == ["1-b", "1+1-b", "1+1-b!"]
    before = {k: len(bg.beliefs.history(k)) for k in ("b.t0.v", "c.t0.v", "d.t0.v")}
    for v in ("2", "3"):
        bg.assert_claim("a.t0.v", v, f"a of t0 is {v}", agent="user:editor")
        assert [_value(bg, k) for k in ("b.t0.v", "c.t0.v", "d.t0.v")] == [f"{v}-b", f"{v}+{v}-b", f"{v}+{v}-b!"]
    after = {k: len(bg.beliefs.history(k)) for k in before}
    assert after == {k: n + 2 for k, n in before.items()}
    assert [v.claim.value for v in bg.beliefs.history("c.t0.v")][-3:] == ["1+1-b", "2+2-b", "3+3-b"]
