"""Every job's structured-output path with the scripted model: valid answers, repair of malformed
JSON, schema violations, failed checks, refusals, empty answers and timeouts — each ends in a
valid object or a typed error, with a bounded number of calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from belief_graph.errors import EncodingError, LLMUnavailable, ValidationError
from belief_graph.llm import (
    JOBS,
    Answer,
    Classifications,
    Critique,
    Encoding,
    Extraction,
    Judgement,
    KeyChoices,
    LLMClient,
    Proposal,
    Refusal,
    ScriptedModel,
    Timeout,
    Unavailable,
)
from belief_graph.llm.jobs import Critiques, Hypothesis, Proposals, Rederived, Reranking, Revisits

ALICE = "user:alice"
PERSPECTIVE = {
    "id": "p-safety",
    "name": "safety",
    "goal": "avoid losses",
    "concepts": [{"name": "RiskAppetite", "description": "volatility accepted"}, {"name": "SafetyNet"}],
}
BELIEFS = [
    {"id": "b-1", "text": "The emergency fund covers 3 months of expenses"},
    {"id": "b-2", "text": "The user wants aggressive investments"},
]

# (job, inputs, a valid answer with real ids)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "extract": (
        {
            "turns": [
                {"id": "ep-1", "agent": ALICE, "text": "I moved to Lisbon."},
                {"id": "ep-2", "agent": ALICE, "text": "Nice weather today."},
            ],
            "known_keys": ["user.city"],
        },
        {
            "facts": [
                {
                    "source": "ep-1",
                    "key": "user.city",
                    "value": "Lisbon",
                    "text": "The user lives in Lisbon",
                    "kind": "semantic",
                    "confidence": 0.9,
                    "evidence": "I moved to Lisbon",
                }
            ]
        },
    ),
    "revisit": (
        {
            "turns": [{"id": "ep-3", "agent": ALICE, "text": "Does the amlodipine my doctor switched me to clash?"}],
            "beliefs": [
                {"key": "user.medication", "value": "lisinopril", "text": "The user takes lisinopril"},
                {"key": "user.city", "value": "Lisbon", "text": "The user lives in Lisbon"},
            ],
        },
        {
            "items": [
                {
                    "key": "user.medication",
                    "changed": True,
                    "value": "amlodipine",
                    "text": "The user takes amlodipine",
                    "evidence": "the amlodipine my doctor switched me to",
                },
                {"key": "user.city", "changed": False, "value": None, "text": "", "evidence": None},
            ]
        },
    ),
    "classify": (
        {
            "items": [
                {
                    "id": "new-1",
                    "claim": {"key": "user.city", "value": "Porto", "text": "The user lives in Porto"},
                    "candidates": [
                        {
                            "id": "old-1",
                            "key": "user.city",
                            "value": "Lisbon",
                            "text": "The user lives in Lisbon",
                            "agent": ALICE,
                        }
                    ],
                }
            ]
        },
        {
            "items": [
                {
                    "item": "new-1",
                    "action": "REPLACE",
                    "relation": "conflict",
                    "target_id": "old-1",
                    "rationale": "moved",
                }
            ]
        },
    ),
    "disambiguate": (
        {
            "items": [{"id": "s-1", "text": "The user resides in Porto", "proposed_key": "user.residence"}],
            "known_keys": ["user.city"],
        },
        {"items": [{"item": "s-1", "key": "user.city", "is_new": False, "rationale": "same attribute"}]},
    ),
    "encode": (
        {
            "perspective": PERSPECTIVE,
            "observations": [{"id": "o-1", "text": "All in on crypto"}, {"id": "o-2", "text": "Nice weather"}],
        },
        {
            "items": [
                {
                    "observation": "o-1",
                    "relevant": True,
                    "interpretation": "risky",
                    "concepts": ["RiskAppetite"],
                    "confidence": 0.8,
                },
                {"observation": "o-2", "relevant": False, "interpretation": None, "concepts": [], "confidence": 0.9},
            ]
        },
    ),
    "critique": (
        {
            "perspective": PERSPECTIVE,
            "question": "How to invest?",
            "proposals": [
                {"id": "pr-g", "perspective": "p-growth", "text": "all in"},
                {"id": "pr-s", "perspective": "p-safety", "text": "save first"},
            ],
        },
        {"attacks": [{"target": "pr-g", "reason": "too risky"}]},
    ),
    "judge": (
        {
            "question": "user.timezone",
            "contenders": [
                {"id": "cl-1", "agent": "agent:a", "text": "Lisbon"},
                {"id": "cl-2", "agent": "agent:b", "text": "New York"},
            ],
        },
        {"winner": "cl-1", "rationale": "home time zone"},
    ),
    "propose": (
        {"perspective": PERSPECTIVE, "question": "How to invest?", "beliefs": BELIEFS},
        {"text": "Grow the emergency fund first.", "citations": ["b-1"]},
    ),
    "answer": (
        {"question": "How many months does the emergency fund cover?", "beliefs": BELIEFS},
        {"text": "It covers 3 months.", "citations": ["b-1"]},
    ),
    "propose_all": (  # every perspective of a deliberation in one call
        {
            "question": "How to invest?",
            "perspectives": [
                {"perspective": PERSPECTIVE, "beliefs": BELIEFS[:1]},
                {"perspective": PERSPECTIVE | {"id": "p-growth", "name": "growth"}, "beliefs": BELIEFS[1:]},
            ],
        },
        {
            "proposals": [
                {"perspective": "p-safety", "text": "Save first.", "citations": ["b-1"]},
                {"perspective": "p-growth", "text": "All in.", "citations": ["b-2"]},
            ]
        },
    ),
    "critique_all": (
        {
            "question": "How to invest?",
            "perspectives": [
                {"perspective": PERSPECTIVE},
                {"perspective": PERSPECTIVE | {"id": "p-growth", "name": "growth"}},
            ],
            "proposals": [
                {"id": "pr-g", "perspective": "p-growth", "text": "all in"},
                {"id": "pr-s", "perspective": "p-safety", "text": "save first"},
            ],
        },
        {"attacks": [{"by": "p-safety", "target": "pr-g", "reason": "too risky"}]},
    ),
    "rederive": (
        {
            "conclusion": {"key": None, "value": None, "text": "Keep 3 months of expenses in cash"},
            "was_based_on": [{"id": "b-0", "text": "The user has a steady salary"}],
            "premises": BELIEFS,
        },
        {
            "status": "rederived",
            "text": "Keep 3 months of expenses in cash and invest the rest",
            "value": None,
            "citations": ["b-1", "b-2"],
            "rationale": "the fund is covered and the user wants growth",
        },
    ),
    "rerank": (
        {"question": "Is the fund enough?", "candidates": BELIEFS},
        {"ranking": ["b-1"]},
    ),
    "hypothesize": (
        {"question": "Is the user a night owl?"},
        {"memory": "The user usually goes to bed after 1 am"},
    ),
}
OUTPUT_TYPES = {
    "extract": Extraction,
    "classify": Classifications,
    "revisit": Revisits,
    "disambiguate": KeyChoices,
    "encode": Encoding,
    "critique": Critique,
    "judge": Judgement,
    "propose": Proposal,
    "answer": Answer,
    "propose_all": Proposals,
    "critique_all": Critiques,
    "rederive": Rederived,
    "rerank": Reranking,
    "hypothesize": Hypothesis,
}


def client_with(job: str, *replies: Any, repair_attempts: int = 2) -> tuple[LLMClient, ScriptedModel]:
    model = ScriptedModel().add(job, *replies)
    return LLMClient(model, repair_attempts=repair_attempts), model


def test_every_job_has_a_case() -> None:
    assert set(CASES) == set(JOBS) == set(OUTPUT_TYPES)


@pytest.mark.parametrize("job", sorted(CASES))
def test_valid_answer_gives_typed_output_with_real_ids_and_provenance(job: str) -> None:
    inputs, answer = CASES[job]
    client, model = client_with(job, answer)
    result = client.run(job, inputs)
    assert isinstance(result.output, OUTPUT_TYPES[job])
    assert result.output.model_dump(mode="json") == answer  # ids mapped back from the aliases
    assert result.provenance.job == job
    assert result.provenance.prompt_ref == f"{job}@{client.prompts[job].version}"
    assert result.provenance.model == "scripted"
    assert result.provenance.calls == 1 and len(result.provenance.prompt_hashes) == 1
    assert result.provenance.as_properties()["llm_prompt"] == f"{job}@{client.prompts[job].version}"
    # the model saw aliases, never the real ids
    prompt = "\n".join(m.content for m in model.calls[0].messages)
    for real in model.calls[0].aliases:
        assert f'"{real}"' not in prompt
    assert client.usage().calls_for(job) == 1


@pytest.mark.parametrize("job", sorted(CASES))
def test_malformed_json_is_repaired_with_the_error_fed_back(job: str) -> None:
    inputs, answer = CASES[job]
    client, model = client_with(job, '{"oops": [1, 2', answer)
    result = client.run(job, inputs)
    assert result.output.model_dump(mode="json") == answer
    assert result.provenance.calls == 2
    second = model.calls[1].messages
    assert second[-2].role == "assistant" and second[-2].content == '{"oops": [1, 2'
    assert second[-1].role == "user" and "malformed JSON" in second[-1].content
    usage = client.usage().jobs[job]
    assert (usage.calls, usage.ok, usage.failed) == (2, 1, 1)


@pytest.mark.parametrize("job", sorted(CASES))
def test_schema_violation_is_repaired(job: str) -> None:
    inputs, answer = CASES[job]
    bad = dict(answer)
    bad["unexpected_field"] = 1  # extra="forbid" on every output model
    client, model = client_with(job, bad, answer)
    result = client.run(job, inputs)
    assert result.output.model_dump(mode="json") == answer
    assert "schema violation" in model.calls[1].messages[-1].content
    assert "unexpected_field" in model.calls[1].messages[-1].content


@pytest.mark.parametrize("job", sorted(CASES))
@pytest.mark.parametrize("failure", ["malformed", "schema", "refusal", "empty", "timeout"])
def test_persistent_failure_ends_in_encoding_error_after_bounded_attempts(job: str, failure: str) -> None:
    inputs, answer = CASES[job]
    reply: Any = {
        "malformed": "not json at all",
        "schema": {"nonsense": True},
        "refusal": Refusal("I can't help with that."),
        "empty": "   ",
        "timeout": Timeout("provider timed out"),
    }[failure]
    client, model = client_with(job, reply, repair_attempts=2)
    with pytest.raises(EncodingError) as info:
        client.run(job, inputs)
    err = info.value
    assert err.job == job and err.attempts == 3 and len(err.errors) == 3
    assert len(model.calls) == 3
    expected_word = {
        "malformed": "malformed JSON",
        "schema": "schema violation",
        "refusal": "refused",
        "empty": "empty",
        "timeout": "timeout",
    }[failure]
    assert expected_word in err.reason
    if failure == "malformed":
        assert err.raw == "not json at all"
    if failure == "timeout":
        assert err.raw is None
        # a timeout is retried with the same prompt (no repair turn)
        assert model.calls[0].messages == model.calls[2].messages
    assert client.usage().jobs[job].failed == 3


@pytest.mark.parametrize("failure", [Refusal(), "", Timeout()])
def test_refusal_empty_and_timeout_recover_when_the_next_answer_is_valid(failure: Any) -> None:
    inputs, answer = CASES["judge"]
    client, _ = client_with("judge", failure, answer)
    result = client.run("judge", inputs)
    assert result.output.winner == "cl-1" and result.provenance.calls == 2


def test_unavailable_propagates_at_once_and_is_counted() -> None:
    inputs, answer = CASES["judge"]
    client, model = client_with("judge", Unavailable("no route"), answer)
    with pytest.raises(LLMUnavailable):
        client.run("judge", inputs)
    assert len(model.calls) == 1
    assert client.usage().jobs["judge"].failed == 1


def test_zero_repair_attempts_means_one_call() -> None:
    inputs, answer = CASES["judge"]
    client, model = client_with("judge", "{", answer, repair_attempts=0)
    with pytest.raises(EncodingError) as info:
        client.run("judge", inputs)
    assert info.value.attempts == 1 and len(model.calls) == 1


def test_fenced_json_is_accepted() -> None:
    inputs, answer = CASES["judge"]
    client, _ = client_with("judge", "```json\n" + json.dumps({"winner": "cl-2", "rationale": "r"}) + "\n```")
    # scripted text replies are passed verbatim, so the alias must be written as the model would
    client2, _ = client_with("judge", "```json\n" + json.dumps({"winner": "c2", "rationale": "r"}) + "\n```")
    assert client2.run("judge", inputs).output.winner == "cl-2"
    with pytest.raises(EncodingError):  # "cl-2" is not an id the model was shown
        client.run("judge", inputs)


# ------------------------------------------------------------------ job checks (content)

CHECK_FAILURES: list[tuple[str, dict[str, Any], str]] = [
    (
        "extract",
        {
            "facts": [
                {"source": "ep-9", "key": "user.city", "value": "x", "text": "t", "kind": "semantic", "confidence": 0.5}
            ]
        },
        "not a turn id",
    ),
    (
        "extract",
        {
            "facts": [
                {
                    "source": "ep-1",
                    "key": "Not A Key!",
                    "value": "x",
                    "text": "t",
                    "kind": "semantic",
                    "confidence": 0.5,
                }
            ]
        },
        "dotted name",
    ),
    (
        "extract",
        {"facts": [{"source": "ep-1", "key": None, "value": None, "text": "t", "kind": "semantic", "confidence": 1.5}]},
        "schema violation",
    ),
    ("classify", {"items": []}, "missing item"),
    ("revisit", {"items": [{"key": "user.medication", "changed": False, "value": None, "text": ""}]}, "missing key"),
    (
        "revisit",
        {
            "items": [
                {"key": "user.medication", "changed": True, "value": None, "text": ""},
                {"key": "user.city", "changed": False, "value": None, "text": ""},
            ]
        },
        "needs the new value",
    ),
    (
        "classify",
        {
            "items": [
                {"item": "new-1", "action": "REPLACE", "relation": "conflict", "target_id": None, "rationale": "r"}
            ]
        },
        "needs target_id",
    ),
    (
        "classify",
        {"items": [{"item": "new-1", "action": "ADD", "relation": "conflict", "target_id": None, "rationale": "r"}]},
        "ADD means relation",
    ),
    (
        "classify",
        {
            "items": [
                {"item": "new-1", "action": "NOOP", "relation": "conflict", "target_id": "old-1", "rationale": "r"}
            ]
        },
        "NOOP means relation",
    ),
    (
        "disambiguate",
        {"items": [{"item": "s-1", "key": "user.residence", "is_new": False, "rationale": "r"}]},
        "is_new must be true",
    ),
    (
        "encode",
        {"items": [{"observation": "o-1", "relevant": True, "interpretation": "x", "concepts": [], "confidence": 0.5}]},
        "missing observation",
    ),
    (
        "encode",
        {
            "items": [
                {"observation": "o-1", "relevant": True, "interpretation": None, "concepts": [], "confidence": 0.5},
                {"observation": "o-2", "relevant": False, "interpretation": None, "concepts": [], "confidence": 0.5},
            ]
        },
        "needs an interpretation",
    ),
    (
        "encode",
        {
            "items": [
                {
                    "observation": "o-1",
                    "relevant": True,
                    "interpretation": "x",
                    "concepts": ["Unknown"],
                    "confidence": 0.5,
                },
                {"observation": "o-2", "relevant": False, "interpretation": None, "concepts": [], "confidence": 0.5},
            ]
        },
        "not in the perspective's ontology",
    ),
    ("critique", {"attacks": [{"target": "pr-s", "reason": "mine"}]}, "own proposal"),
    ("critique", {"attacks": [{"target": "pr-x", "reason": "?"}]}, "not a proposal id"),
    ("judge", {"winner": "cl-9", "rationale": "r"}, "not a contender id"),
    ("propose", {"text": "x", "citations": ["b-9"]}, "not belief ids"),
    ("answer", {"text": "It covers 6 months.", "citations": ["b-1"]}, "figures ['6']"),
    ("answer", {"text": "Probably fine.", "citations": []}, "must be exactly 'unknown'"),
]


@pytest.mark.parametrize(("job", "bad", "message"), CHECK_FAILURES)
def test_content_checks_reject_and_feed_back(job: str, bad: dict[str, Any], message: str) -> None:
    inputs, answer = CASES[job]
    client, model = client_with(job, bad, answer)
    result = client.run(job, inputs)
    assert result.output.model_dump(mode="json") == answer
    assert message in model.calls[1].messages[-1].content


def test_answer_unknown_without_citations_is_valid() -> None:
    inputs, _ = CASES["answer"]
    client, _ = client_with("answer", {"text": "unknown", "citations": []})
    assert client.run("answer", inputs).output.text == "unknown"


# ------------------------------------------------------------------ inputs


def test_bad_inputs_raise_validation_error_before_any_call() -> None:
    client, model = client_with("extract", CASES["extract"][1])
    with pytest.raises(ValidationError, match="invalid inputs"):
        client.run("extract", {"turns": [{"id": "x", "agent": ALICE}]})  # no text
    with pytest.raises(ValidationError, match="duplicate ids"):
        client.run("extract", {"turns": [{"id": "x", "agent": ALICE, "text": "a"}] * 2})
    with pytest.raises(ValidationError, match="unknown LLM job"):
        client.run("summarise", {})
    assert model.calls == []


def test_typed_helpers_accept_models_and_dicts() -> None:
    model = ScriptedModel()
    for job, (_, answer) in CASES.items():
        model.add(job, answer)
    client = LLMClient(model)
    ex, cl, di, en, cr, ju, pr, an = (
        CASES[j][0] for j in ("extract", "classify", "disambiguate", "encode", "critique", "judge", "propose", "answer")
    )
    assert client.extract(ex["turns"], ex["known_keys"]).output.facts[0].source == "ep-1"
    assert client.classify(cl["items"]).output.items[0].target_id == "old-1"
    assert client.disambiguate(di["items"], di["known_keys"]).output.items[0].key == "user.city"
    assert client.encode(en["perspective"], en["observations"]).output.items[0].observation == "o-1"
    assert client.critique(cr["perspective"], cr["question"], cr["proposals"]).output.attacks[0].target == "pr-g"
    assert client.judge(ju["question"], ju["contenders"]).output.winner == "cl-1"
    assert client.propose(pr["perspective"], pr["question"], pr["beliefs"]).output.citations == ["b-1"]
    assert client.answer(an["question"], an["beliefs"]).output.citations == ["b-1"]
    assert client.usage().calls == 8


def test_run_then_writes_only_valid_output() -> None:
    inputs, answer = CASES["judge"]
    written: list[Any] = []
    good, _ = client_with("judge", answer)
    assert good.run_then("judge", inputs, lambda r: written.append(r.output) or "stored") == "stored"
    bad, _ = client_with("judge", "garbage")
    with pytest.raises(EncodingError):
        bad.run_then("judge", inputs, written.append)
    assert len(written) == 1


# ------------------------------------------------------------------ batching


def _encode_all(inputs: Any) -> dict[str, Any]:
    return {
        "items": [
            {"observation": o["id"], "relevant": True, "interpretation": o["text"], "concepts": [], "confidence": 0.5}
            for o in inputs["observations"]
        ]
    }


def test_encode_many_is_one_call_per_perspective() -> None:
    model = ScriptedModel().respond("encode", _encode_all)
    client = LLMClient(model)
    perspectives = [{"id": f"p{i}", "name": f"n{i}", "goal": "g"} for i in range(3)]
    observations = [{"id": f"o{i}", "text": f"text {i}"} for i in range(8)]
    results = client.encode_many(perspectives, observations)
    assert list(results) == ["p0", "p1", "p2"]
    assert all([i.observation for i in r.output.items] == [f"o{i}" for i in range(8)] for r in results.values())
    assert client.usage().calls_for("encode") == 3
    assert client.usage().jobs["encode"].items == 24


def test_encode_many_concurrent_gives_the_same_result() -> None:
    model = ScriptedModel().respond("encode", _encode_all)
    perspectives = [{"id": f"p{i}", "name": f"n{i}", "goal": "g"} for i in range(4)]
    observations = [{"id": f"o{i}", "text": f"text {i}"} for i in range(5)]
    seq = LLMClient(model).encode_many(perspectives, observations)
    par = LLMClient(model).encode_many(perspectives, observations, workers=4)
    assert {k: v.output for k, v in seq.items()} == {k: v.output for k, v in par.items()}
    with pytest.raises(ValidationError, match="unique"):
        LLMClient(model).encode_many([perspectives[0]] * 2, observations)


def test_large_batches_are_split_and_merged_and_empty_batches_make_no_call() -> None:
    model = ScriptedModel().respond("encode", _encode_all)
    client = LLMClient(model, max_batch=3)
    observations = [{"id": f"o{i}", "text": f"text {i}"} for i in range(8)]
    r = client.encode(PERSPECTIVE | {"concepts": []}, observations)
    assert [i.observation for i in r.output.items] == [f"o{i}" for i in range(8)]
    assert r.provenance.calls == 3 and len(r.provenance.prompt_hashes) == 3
    # each chunk is shown with its own aliases starting at o1
    assert all('"id": "o1"' in c.messages[-1].content for c in model.calls)
    empty = client.extract([])
    assert empty.output.facts == [] and empty.provenance.calls == 0
    assert client.usage().calls == 3


def test_a_failing_chunk_fails_the_whole_batch() -> None:
    calls = {"n": 0}

    def reply(inputs: Any) -> Any:
        calls["n"] += 1
        return "broken" if inputs["observations"][0]["id"] == "o3" else _encode_all(inputs)

    client = LLMClient(ScriptedModel().respond("encode", reply), max_batch=3, repair_attempts=1)
    with pytest.raises(EncodingError):
        client.encode(PERSPECTIVE | {"concepts": []}, [{"id": f"o{i}", "text": "t"} for i in range(6)])
    assert calls["n"] == 3  # chunk 1 ok, chunk 2 twice


# ------------------------------------------------------------------ property: bounded repair

BAD_REPLIES = st.sampled_from(["{", "", "[]", '{"winner": 5}', '{"winner": "zz", "rationale": "r"}', "null"])


@settings(max_examples=60, deadline=None)
@given(bad=st.lists(BAD_REPLIES, max_size=5), attempts=st.integers(min_value=0, max_value=3))
def test_valid_iff_a_valid_answer_comes_within_the_budget(bad: list[str], attempts: int) -> None:
    """Any run of invalid answers followed by a valid one: a valid result when the valid answer is
    within 1 + repair_attempts calls, else EncodingError; never more calls than the budget."""
    inputs, answer = CASES["judge"]
    client, model = client_with("judge", *bad, answer, repair_attempts=attempts)
    budget = 1 + attempts
    if len(bad) < budget:
        result = client.run("judge", inputs)
        assert result.output.winner == "cl-1"
        assert len(model.calls) == len(bad) + 1 == result.provenance.calls
    else:
        with pytest.raises(EncodingError) as info:
            client.run("judge", inputs)
        assert info.value.attempts == budget
        assert len(model.calls) == budget
    assert client.usage().calls == len(model.calls)


def test_an_irrelevant_observation_may_carry_an_explanation() -> None:
    """Nothing of an irrelevant observation is used, so its interpretation/concepts are no reason
    for a repair (a real small model explained its 'not relevant' three times in a row)."""
    m = ScriptedModel().add(
        "encode",
        {
            "items": [
                {
                    "observation": "o-1",
                    "relevant": False,
                    "interpretation": "Lunch says nothing about wealth.",
                    "concepts": ["NotAConcept"],
                    "confidence": 0.2,
                }
            ]
        },
    )
    r = LLMClient(m).encode(
        {"id": "p", "name": "growth", "goal": "g", "concepts": [{"name": "Goal"}]},
        [{"id": "o-1", "text": "I had pasta for lunch."}],
    )
    assert r.provenance.calls == 1 and r.output.items[0].relevant is False


# ------------------------------------------------------------------ keeping a reply's valid items

_GOOD_FACT = CASES["extract"][1]["facts"][0]
_BAD_KEY = {**_GOOD_FACT, "key": "user boyfriend.birthday", "value": "May 3", "text": "His birthday is May 3"}
_BAD_SOURCE = {**_GOOD_FACT, "source": "ep-9", "text": "Another turn's fact"}


def test_a_reply_invalid_only_in_some_facts_keeps_the_others_after_the_last_repair() -> None:
    reply = {"facts": [_BAD_KEY, _GOOD_FACT, _BAD_SOURCE]}
    client, model = client_with("extract", reply, repair_attempts=2)
    result = client.run("extract", CASES["extract"][0])
    assert len(model.calls) == 3  # the repairs were tried first, with the problems fed back
    assert "dotted name" in model.calls[1].messages[-1].content
    assert result.output.model_dump(mode="json") == {"facts": [_GOOD_FACT]}
    assert result.provenance.calls == 3
    aside = {a.item["text"]: a for a in result.set_aside}
    assert set(aside) == {_BAD_KEY["text"], _BAD_SOURCE["text"]}
    bad_key = aside[_BAD_KEY["text"]]
    assert bad_key.item["key"] == "user boyfriend.birthday" and bad_key.item["source"] == "ep-1"  # real id
    assert len(bad_key.problems) == 1 and bad_key.problems[0].startswith("facts[0]") and "dotted" in bad_key.problems[0]
    assert aside[_BAD_SOURCE["text"]].problems[0].startswith("facts[2]")
    assert "not a turn id" in aside[_BAD_SOURCE["text"]].problems[0]
    assert client.usage().jobs["extract"].failed == 3  # the reply was invalid: counted so


def test_a_reply_repaired_in_time_sets_nothing_aside() -> None:
    client, _ = client_with("extract", {"facts": [_BAD_KEY, _GOOD_FACT]}, CASES["extract"][1])
    result = client.run("extract", CASES["extract"][0])
    assert result.output.model_dump(mode="json") == CASES["extract"][1] and result.set_aside == ()


def test_a_reply_with_no_valid_fact_is_an_empty_extraction_with_every_fact_set_aside() -> None:
    client, _ = client_with("extract", {"facts": [_BAD_KEY]}, repair_attempts=1)
    result = client.run("extract", CASES["extract"][0])
    assert result.output.facts == [] and [a.item["key"] for a in result.set_aside] == [_BAD_KEY["key"]]


def test_a_job_that_judges_its_reply_whole_still_fails_whole() -> None:
    """classify's check holds a rule across items (one answer per item): nothing is kept."""
    inputs, answer = CASES["classify"]
    client, _ = client_with("classify", {"items": []}, repair_attempts=1)
    with pytest.raises(EncodingError) as info:
        client.run("classify", inputs)
    assert "missing item" in info.value.reason


def test_a_reply_cut_off_or_malformed_at_the_last_attempt_is_not_kept_in_part() -> None:
    client, _ = client_with("extract", {"facts": [_BAD_KEY, _GOOD_FACT]}, "not json", repair_attempts=1)
    with pytest.raises(EncodingError) as info:
        client.run("extract", CASES["extract"][0])
    assert "malformed JSON" in info.value.reason
