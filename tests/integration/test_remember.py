"""``remember`` (LLM extraction through the structured write path) and the ``llm_judge`` strategy,
with a scripted chat model against the real Neo4j."""

from __future__ import annotations

import pytest
from scripted_replies import facts

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import EncodingError
from belief_graph.llm import ScriptedModel


def _count(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query("MATCH (n {space: $s}) RETURN count(n) AS n", s=bg.space).records
    return int(rows[0]["n"])


def test_remember_priya_changes_her_mind(mbg: BeliefGraph, model: ScriptedModel) -> None:
    model.respond(
        "extract",
        facts(
            {
                "key": "user.risk_appetite",
                "value": "cautious",
                "text": "Priya is cautious with money and dislikes individual stocks",
            }
        ),
    )
    r1 = mbg.remember("I'm pretty cautious with money, I don't like individual stocks.", agent="user:priya")
    assert [x.op for x in r1.results] == [WriteOp.ADD] and r1.keys[0].how == "new"
    assert r1.episode.text.startswith("I'm pretty cautious")
    model.respond(
        "extract",
        facts(
            {
                "key": "user.risk_appetite",
                "value": "aggressive",
                "text": "Priya wants an aggressive strategy with individual tech stocks",
            }
        ),
    )
    model.respond(
        "classify",
        lambda inp: {
            "items": [
                {
                    "item": it["id"],
                    "action": "REPLACE",
                    "relation": "conflict",
                    "target_id": it["candidates"][0]["id"],
                    "rationale": "she reversed her stance",
                }
                for it in inp["items"]
            ]
        },
    )
    r2 = mbg.remember(
        [
            {"role": "assistant", "content": "How do you feel about risk now?"},
            {"role": "user", "content": "Honestly I want to be aggressive: individual tech stocks."},
        ],
        agent="user:priya",
        conversation="s2",
    )
    assert [x.op for x in r2.results] == [WriteOp.REPLACE] and r2.keys[0].how == "known"
    assert r2.results[0].superseded is not None and r2.results[0].superseded.value == "cautious"
    assert mbg.belief("user.risk_appetite").value == "aggressive"  # type: ignore[union-attr]
    # provenance: which prompt and model produced the claim; evidence: the episode
    rows = mbg.graph.driver.execute_query(
        "MATCH (e:Episode)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c:Claim {space: $s, id: $id}) "
        "RETURN c.llm_prompt AS p, c.llm_model AS m, c.llm_classify_prompt AS cp, e.id AS e",
        s=mbg.space,
        id=r2.results[0].claim.id,
    ).records
    assert rows[0]["p"].startswith("extract@") and rows[0]["m"] == "scripted"
    assert rows[0]["cp"].startswith("classify@") and rows[0]["e"] == r2.episode.id
    usage = mbg.llm_usage().llm.jobs
    assert usage["extract"].calls == 2 and usage["classify"].calls == 1
    # the model says it is the same belief in other words: NOOP, nothing but the episode is written
    model.respond(
        "extract",
        facts({"key": "user.risk_appetite", "value": "aggressively", "text": "Priya invests aggressively"}),
    )
    model.respond(
        "classify",
        lambda inp: {
            "items": [
                {
                    "item": it["id"],
                    "action": "NOOP",
                    "relation": "same",
                    "target_id": it["candidates"][0]["id"],
                    "rationale": "same stance",
                }
                for it in inp["items"]
            ]
        },
    )
    r3 = mbg.remember("I invest aggressively.", agent="user:priya")
    assert r3.results == [] and r3.skipped and r3.skipped[0]["rationale"] == "same stance"
    assert len(mbg.beliefs.history("user.risk_appetite")) == 2
    # a NOOP for values that share no word is not trusted: a model calling a change "the same"
    # would lose an update, so the write path decides (the same agent changed the value)
    model.respond(
        "extract", facts({"key": "user.risk_appetite", "value": "high", "text": "Priya has a high appetite for risk"})
    )
    r4 = mbg.remember("I like high risk.", agent="user:priya")
    assert [x.op for x in r4.results] == [WriteOp.UPDATE] and not r4.skipped
    assert "written as a change" in r4.warnings[0]
    assert mbg.belief("user.risk_appetite").value == "high"  # type: ignore[union-attr]
    # values that share words but not their figures are not the same either: a corrected date
    model.respond("extract", facts({"key": "user.talk_date", "value": "2026-06-04", "text": "talk on June 4"}))
    mbg.remember("My talk is on Thursday June 4.", agent="user:priya")
    model.respond("extract", facts({"key": "user.talk_date", "value": "2026-06-05", "text": "talk on June 5"}))
    r6 = mbg.remember("Correction: my slot is Friday June 5, not Thursday.", agent="user:priya")
    assert [x.op for x in r6.results] == [WriteOp.UPDATE] and not r6.skipped
    assert mbg.belief("user.talk_date").value == "2026-06-05"  # type: ignore[union-attr]


def test_key_resolution_align_ask_keep(base_settings, graph, embedder, space, model) -> None:  # type: ignore[no-untyped-def]
    def connect(align: float, ask: float) -> BeliefGraph:
        pol = base_settings.policy.model_copy(update={"key_align_threshold": align, "key_ask_threshold": ask})
        s = base_settings.model_copy(update={"policy": pol})
        return BeliefGraph.connect(space=space, settings=s, embedder=embedder, chat_model=model)

    model.respond(
        "classify",
        lambda inp: {
            "items": [
                {
                    "item": it["id"],
                    "action": "UPDATE",
                    "relation": "conflict",
                    "target_id": it["candidates"][0]["id"],
                    "rationale": "moved",
                }
                for it in inp["items"]
            ]
        },
    )
    with connect(0.8, 0.5) as bg:
        bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:a")
        model.respond("extract", facts({"key": "user.location", "value": "Lisbon", "text": "The user lives in Lisbon"}))
        r = bg.remember("I live in Lisbon now.", agent="user:a")
        assert r.keys[0].how == "aligned" and r.keys[0].key == "user.city" and r.keys[0].score >= 0.8  # type: ignore[operator]
        assert r.results[0].op == WriteOp.UPDATE and bg.belief("user.city").value == "Lisbon"  # type: ignore[union-attr]
        assert bg.keys.all(prefix="user.location") == []
    with connect(0.999, 0.3) as bg:  # related, not sure: the model chooses among capped candidates
        model.respond(
            "extract", facts({"key": "user.home_town", "value": "Braga", "text": "The user's home town is Braga"})
        )
        model.respond(
            "disambiguate",
            lambda inp: {
                "items": [
                    {"item": it["id"], "key": "user.city", "is_new": False, "rationale": "same fact"}
                    for it in inp["items"]
                ]
            },
        )
        r = bg.remember("I moved to Braga.", agent="user:a")
        assert r.keys[0].how == "asked" and r.keys[0].key == "user.city"
        req = model.calls_for("disambiguate")[-1]
        assert len(req.inputs["known_keys"]) <= base_settings.policy.key_candidates
        assert bg.belief("user.city").value == "Braga"  # type: ignore[union-attr]
    with connect(0.999, 0.998) as bg:  # below the band: the new key is kept
        model.respond("extract", facts({"key": "user.pet", "value": "cat", "text": "The user has a cat"}))
        r = bg.remember("I have a cat.", agent="user:a")
        assert r.keys[0].how in ("kept", "new") and bg.belief("user.pet").value == "cat"  # type: ignore[union-attr]
        assert len(model.calls_for("disambiguate")) == 1


def test_invalid_output_writes_nothing(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.assert_claim("user.seed", "x", "seed", agent="user:a")
    n = _count(mbg)
    model.add("extract", '{"facts": [', "not json", {"facts": [{"source": "turn-0"}]})
    with pytest.raises(EncodingError):
        mbg.remember("I live in Porto.", agent="user:a")
    assert _count(mbg) == n


def test_a_fact_still_invalid_after_the_repairs_is_refused_and_the_turns_other_facts_kept(
    mbg: BeliefGraph, model: ScriptedModel
) -> None:
    bad = {"key": "user boyfriend.birthday", "value": "May 3", "text": "The user's boyfriend's birthday is May 3"}
    model.respond("extract", facts(bad, {"key": "user.city", "value": "Porto", "text": "The user lives in Porto"}))
    r = mbg.remember("I live in Porto, and my boyfriend's birthday is May 3.", agent="user:a")
    assert len(model.calls_for("extract")) == 3  # the repairs were tried first
    assert mbg.belief("user.city").value == "Porto"  # type: ignore[union-attr]
    [refused] = [x for x in r.rejected if x["key"] == bad["key"]]
    assert refused["value"] == "May 3" and "invalid after its repairs" in refused["reason"]
    assert "dotted" in refused["reason"]
    assert any(bad["key"] in str(x) for x in r.episode.rejections)  # kept on the episode
    assert [x.key for x in r.keys] == ["user.city"]


def test_llm_judge_strategy(mbg: BeliefGraph, model: ScriptedModel) -> None:
    mbg.conflicts.set_policy("user.diet", "llm_judge")
    a = mbg.assert_claim("user.diet", "vegetarian", "The user is vegetarian", agent="agent-a")
    model.add("judge", {"winner": "challenger", "rationale": "the newer statement is more specific"})
    b = mbg.assert_claim("user.diet", "vegan", "The user is vegan since May", agent="agent-b")
    assert b.op == WriteOp.SUPERSEDED and "more specific" in b.reason and b.strategy == "llm_judge"
    assert mbg.beliefs.claim(a.claim.id).status.value == "superseded"
    revs = mbg.beliefs.explain(a.claim.id).revisions
    assert "llm_judge" in (revs[-1].reason or "") and "more specific" in (revs[-1].reason or "")
    # the model keeps the incumbent: a settled dispute records who decided and why
    model.add("judge", {"winner": b.claim.id, "rationale": "agent-c is guessing"})
    c = mbg.assert_claim("user.diet", "pescatarian", "The user eats fish", agent="agent-c")
    assert c.op == WriteOp.DISPUTED and c.dispute is not None and c.dispute.status == "resolved"
    assert c.dispute.rule == "llm_judge" and "guessing" in (c.dispute.resolution or "")
    assert mbg.belief("user.diet").value == "vegan"  # type: ignore[union-attr]
    # undecidable: an open dispute with the rationale
    model.add("judge", {"winner": None, "rationale": "both plausible"})
    d = mbg.assert_claim("user.diet", "omnivore", "The user eats everything", agent="agent-d")
    assert d.op == WriteOp.DISPUTED and d.dispute is not None and d.dispute.status == "open"
    assert "both plausible" in d.reason
    assert mbg.llm_usage().llm.jobs["judge"].calls == 3


def test_another_source_giving_another_value_without_news_disagrees(mbg: BeliefGraph, model: ScriptedModel) -> None:
    """Billing's invoice says Pro, support's console says Team, and nothing says the plan changed:
    the two sources disagree, so a dispute records it even though the model calls it an update; a
    source that says it changed updates by the key's strategy, without a dispute."""
    from scripted_replies import classify

    plan = "user.subscription.plan"
    model.respond("extract", facts({"key": plan, "value": "Pro", "text": "Lena's workspace is on the Pro plan."}))
    mbg.remember("Invoice INV-2291 issued to Lena Fischer for the Pro plan, 12 seats.", agent="agent:billing")
    model.respond("extract", facts({"key": plan, "value": "Team", "text": "Lena's workspace is on the Team plan."}))
    model.respond("classify", classify("UPDATE"))
    r = mbg.remember("Lena Fischer's workspace shows the Team plan in the admin console.", agent="agent:support")
    (w,) = r.results
    assert w.dispute is not None and w.dispute.status == "open", w
    assert mbg.belief(plan).value == "Team"  # type: ignore[union-attr]  # the newer stays current, surfaced
    assert any("without saying it changed" in x for x in r.warnings)

    model.respond("extract", facts({"key": plan, "value": "Enterprise", "text": "Lena is on the Enterprise plan."}))
    r = mbg.remember("Lena Fischer upgraded to the Enterprise plan today.", agent="agent:billing")
    (w,) = r.results
    assert w.dispute is None and w.op == WriteOp.SUPERSEDED, w
    assert mbg.belief(plan).value == "Enterprise"  # type: ignore[union-attr]


def test_an_edit_of_what_memory_holds_is_grounded_by_what_changed(mbg: BeliefGraph, model: ScriptedModel) -> None:
    """ "Lessons are at 11 now, not 10" states a new "Saturdays 11:00" because memory holds
    "Saturdays 10:00"; "Jess moved out" states no flatmate because memory holds Jess. Without the
    held belief the same facts are refused and nothing is written."""
    from scripted_replies import classify

    model.respond("classify", classify("UPDATE"))
    lesson, mate = "user.piano_lesson_time", "user.flatmate"
    turn = "Can you keep Saturday late morning free? Lessons are at 11 now, not 10."
    model.respond("extract", facts({"key": lesson, "value": "Saturdays 11:00", "text": "Lessons are Saturdays 11:00."}))
    refused = mbg.remember(turn, agent="user:yuki")
    assert refused.results == [] and "saturdays" in refused.rejected[0]["reason"]
    assert mbg.belief(lesson) is None

    mbg.assert_claim(lesson, "Saturdays 10:00", "The user's piano lesson is on Saturdays at 10:00.", agent="user:yuki")
    mbg.assert_claim(mate, "Jess", "The user shares her flat with Jess.", agent="user:yuki")
    r = mbg.remember(turn, agent="user:yuki")
    assert [x.op for x in r.results] == [WriteOp.UPDATE] and not r.rejected
    assert mbg.belief(lesson).value == "Saturdays 11:00"  # type: ignore[union-attr]

    model.respond("extract", facts({"key": mate, "value": "none", "text": "The user no longer has a flatmate."}))
    r = mbg.remember("Jess moved out on Sunday so it's just me now. Should I take over the lease?", agent="user:yuki")
    assert [x.op for x in r.results] == [WriteOp.UPDATE] and not r.rejected
    assert mbg.belief(mate).value == "none"  # type: ignore[union-attr]
    assert sorted(v.claim.value for v in mbg.beliefs.history(mate)) == ["Jess", "none"]


def test_none_for_a_number_fact_leaves_it_without_a_value(mbg: BeliefGraph, model: ScriptedModel) -> None:
    """ "No more 20-hour cap" ends a number fact: the new belief holds no value (its statement says
    so), not the string "none" under a key of numbers, which the write path would refuse."""
    from scripted_replies import classify

    model.respond("classify", classify("UPDATE"))
    cap = "user.work_hours_limit"
    mbg.assert_claim(cap, 20, "The user can work at most 20 hours a week.", agent="user:arjun")
    text = "The user no longer has a cap on working hours."
    model.respond("extract", facts({"key": cap, "value": "none", "text": text}))
    r = mbg.remember("Graduated! My new visa came through, so no more 20-hour cap.", agent="user:arjun")
    assert [x.op for x in r.results] == [WriteOp.UPDATE] and not r.rejected, r
    now = mbg.belief(cap)
    assert now is not None and now.value is None and now.text == text
    assert sorted(str(v.claim.value) for v in mbg.beliefs.history(cap)) == ["20", "None"]
