"""A statement classified as contradicting the current belief (REPLACE: the two cannot both hold and
nothing says which is right) is surfaced as an open dispute, whoever wrote the belief, against the
real Neo4j with a scripted model."""

from __future__ import annotations

from scripted_replies import classify, facts

from belief_graph import BeliefGraph, WriteOp
from belief_graph.llm import ScriptedModel


def test_a_speaker_contradicting_itself_keeps_the_new_value_and_opens_a_dispute(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    first = mbg.assert_claim(
        "user.sister.birthday", "May 3", "The user's sister's birthday is May 3.", agent="user:ana"
    )
    plan = mbg.derive("Send the sister's card by April 28.", [first.claim.id], agent="agent:planner")
    model.respond(
        "extract",
        facts({"key": "user.sister.birthday", "value": "June 3", "text": "The user's sister's birthday is June 3."}),
    )
    model.respond("classify", classify("REPLACE"))
    r = mbg.remember("My sister's birthday is June 3, what should I get her?", agent="user:ana")
    (w,) = r.results
    assert w.op == WriteOp.REPLACE and w.dispute is not None and w.dispute.status == "open"
    assert (w.dispute.strategy, w.dispute.incumbent.id, w.dispute.challenger.id) == (
        "contradiction",
        w.claim.id,
        first.claim.id,
    )
    assert mbg.belief("user.sister.birthday").value == "June 3"  # type: ignore[union-attr]
    assert mbg.beliefs.claim(first.claim.id).status.value == "disputed"
    assert mbg.beliefs.claim(plan.id).status.value == "stale"  # the conclusion no longer rests on a current belief
    assert mbg.admin.check().ok
    # asking the user settles it: the earlier statement was right
    mbg.conflicts.resolve_dispute(w.dispute.id, "challenger", by="user:ana", reason="asked her: May 3")
    assert mbg.belief("user.sister.birthday").value == "May 3"  # type: ignore[union-attr]
    assert mbg.admin.check().ok


def test_an_update_is_not_a_dispute(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon.", agent="user:ana")
    model.respond("extract", facts({"key": "user.city", "value": "Porto", "text": "The user lives in Porto."}))
    model.respond("classify", classify("UPDATE"))
    r = mbg.remember("I moved to Porto.", agent="user:ana")
    assert r.results[0].op == WriteOp.UPDATE and r.results[0].dispute is None
    assert mbg.conflicts.disputes("open") == []


def test_two_agents_contradicting_each_other_are_surfaced_whatever_the_recency_policy_says(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    crm = mbg.assert_claim(
        "user.billing_email", "dana@x.io", "The user's billing email is dana@x.io.", agent="agent:crm"
    )
    model.respond(
        "extract",
        facts({"key": "user.billing_email", "value": "dana@y.io", "text": "The user's billing email is dana@y.io."}),
    )
    model.respond("classify", classify("REPLACE"))
    r = mbg.remember("Support ticket: billing email is dana@y.io.", agent="agent:support")
    (w,) = r.results
    assert w.op == WriteOp.SUPERSEDED and w.strategy == "recency"  # the policy still decides what is current
    assert w.dispute is not None and w.dispute.challenger.id == crm.claim.id
    assert [d.key for d in mbg.conflicts.disputes("open")] == ["user.billing_email"]
    assert mbg.admin.check().ok


def test_a_new_value_for_a_fact_that_cannot_change_is_a_contradiction_whatever_the_model_says(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    first = mbg.assert_claim("user.blood_type", "O negative", "The user's blood type is O negative.", agent="user:ana")
    model.respond(
        "extract",
        facts({"key": "user.blood_type", "value": "A positive", "text": "The user's blood type is A positive."}),
    )
    model.respond("classify", classify("UPDATE"))  # a weak model calls every change an update
    r = mbg.remember("My blood type is A positive, is that the common one?", agent="user:ana")
    (w,) = r.results
    assert w.dispute is not None and w.dispute.challenger.id == first.claim.id
    assert any("cannot change" in x for x in r.warnings)


def test_an_age_that_went_back_is_a_contradiction_whatever_the_model_says(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    first = mbg.assert_claim("user.father.age", 70, "The user's father is 70.", agent="user:raj")
    model.respond("extract", facts({"key": "user.father.age", "value": 65, "text": "The user's father is 65."}))
    model.respond("classify", classify("UPDATE"))  # a weak model calls every change an update
    model.respond("revisit", lambda inputs: {"items": []})  # never asked: extraction covered the key
    r = mbg.remember("Dad's only 65 but acts like he's 90 lol. Any gentle tablet games?", agent="user:raj")
    (w,) = r.results
    assert w.dispute is not None and w.dispute.challenger.id == first.claim.id
    assert any("age that went back" in x for x in r.warnings)
