"""Every LLM job once on a real language model (the local llama-server, through
``langchain-openai``), and ``remember`` through the real Neo4j.

Structure only — a small model is often wrong, and what it says is not asserted: each answer
parses into the job's output model within the bounded repair budget, provenance and usage name
the real model with real token counts, writes carry that provenance, and what grounding refuses
is recorded. Quality is measured, not asserted: ``belief-graph bench llm-quality``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.llm import JOBS, LLMClient
from belief_graph.llmserver import LLMServerStatus
from belief_graph.services.turns.extraction_grounding import check_fact
from belief_graph.settings import Settings
from belief_graph_lab.llm_demo import DEMO_SCRIPT

pytestmark = [pytest.mark.real_llm, pytest.mark.timeout(1800)]

_FIRST = {step.job: step.inputs for step in reversed(DEMO_SCRIPT)}
_GROWTH = _FIRST["propose"]["perspective"]
_SAFETY = {**_GROWTH, "id": "p-safety", "name": "safety", "goal": "Protect the user from losses they cannot afford"}
_BELIEFS = _FIRST["propose"]["beliefs"]
_PROPOSALS = _FIRST["critique"]["proposals"]
INPUTS: dict[str, dict[str, Any]] = {
    **{
        job: _FIRST[job]
        for job in ("extract", "classify", "disambiguate", "encode", "critique", "judge", "propose", "answer")
    },
    "propose_all": {
        "question": _FIRST["propose"]["question"],
        "perspectives": [
            {"perspective": _GROWTH, "beliefs": _BELIEFS[:1]},
            {"perspective": _SAFETY, "beliefs": _BELIEFS[1:]},
        ],
    },
    "critique_all": {
        "question": _FIRST["propose"]["question"],
        "perspectives": [{"perspective": _GROWTH}, {"perspective": _SAFETY}],
        "proposals": _PROPOSALS,
    },
    "rederive": {
        "conclusion": {"key": "user.commute", "value": "train", "text": "The user commutes to work by train"},
        "was_based_on": [
            {
                "id": "b-old",
                "key": "user.city",
                "value": "Lisbon",
                "text": "The user lives in Lisbon, next to the station of the line to the office",
            }
        ],
        "premises": [
            {
                "id": "b-new",
                "key": "user.city",
                "value": "Porto",
                "text": "The user lives in Porto, a ten-minute walk from the office",
            },
            {
                "id": "b-work",
                "key": "user.workplace",
                "value": "city hospital",
                "text": "The user works at the city hospital in Porto",
            },
        ],
    },
    "rerank": {
        "question": "Is the user a night owl?",
        "candidates": [
            {"id": "m-1", "key": "user.pet", "value": "Miso", "text": "The user has a cat named Miso"},
            {"id": "m-2", "key": "user.bedtime", "value": "2 am", "text": "The user usually goes to bed around 2 am"},
            {"id": "m-3", "key": "user.city", "value": "Porto", "text": "The user lives in Porto"},
        ],
    },
    "hypothesize": {"question": "Does the user own any animals?"},
    "revisit": {
        "turns": [
            {
                "id": "t-1",
                "agent": "user:omar",
                "text": "Does the amlodipine 5 mg my doctor switched me to from lisinopril clash with grapefruit?",
            }
        ],
        "beliefs": [
            {
                "key": "user.medication",
                "value": "lisinopril 10 mg",
                "text": "The user takes lisinopril 10 mg",
            },
            {
                "key": "user.breakfast",
                "value": "grapefruit",
                "text": "The user eats grapefruit for breakfast",
            },
        ],
    },
}


def test_every_job_has_an_input_here() -> None:
    assert set(INPUTS) == set(JOBS)


@pytest.mark.parametrize("job", sorted(JOBS))
def test_each_job_parses_within_the_repair_budget(job: str, real_client: LLMClient, local_llm: LLMServerStatus) -> None:
    result = real_client.run(job, INPUTS[job])
    spec = JOBS[job]
    assert isinstance(result.output, spec.output_model)
    assert 1 <= result.provenance.calls <= 1 + real_client.repair_attempts
    assert result.provenance.model == local_llm.alias  # the real model's name, not a stub's
    usage = real_client.usage().jobs[job]
    assert usage.calls == result.provenance.calls and usage.ok == 1
    assert usage.unreported == 0 and usage.tokens_in > 50 and usage.tokens_out > 0  # counted by the server
    tokens, _ = real_client.limits(job, spec.size(spec.input_model.model_validate(INPUTS[job])))
    assert usage.tokens_out <= tokens * usage.calls  # max_tokens reached the server


def _stored(bg: BeliefGraph) -> list[dict[str, Any]]:
    rows = bg.graph.driver.execute_query(
        "MATCH (e:Episode)-[:PREMISE_OF]->(:Justification)-[:JUSTIFIES]->(c:Claim {space: $s}) "
        "RETURN c.key AS key, c.value AS value, c.text AS text, c.llm_model AS model, c.llm_prompt AS prompt, "
        "e.text AS source",
        s=bg.space,
    ).records
    return [dict(r) for r in rows]


def test_remember_writes_with_the_real_models_provenance(
    real_settings: Settings,
    graph,
    embedder,  # type: ignore[no-untyped-def]
    space: str,
    local_llm: LLMServerStatus,
) -> None:
    with BeliefGraph.connect(space=space, settings=real_settings, embedder=embedder) as bg:
        assert bg.llm.model_name == local_llm.alias and not bg.llm.is_replay
        r1 = bg.remember(
            "I moved to Lisbon last month, and I work as a nurse at the city hospital.", agent="user:alice"
        )
        r2 = bg.remember("Actually I moved to Porto, not Lisbon.", agent="user:alice")
        q = bg.remember("What's the weather like today?", agent="user:alice")
        stored = _stored(bg)
        for row in stored:  # whatever the model extracted, only what the turn states was written
            assert row["model"] == local_llm.alias and row["prompt"].startswith("extract@")
            assert check_fact(row["key"], row["value"], row["text"], row["source"]).grounded, row
        written = [w for r in (r1, r2) for w in r.results]
        assert len(stored) == len({w.claim.id for w in written})
        for r in (r1, r2, q):  # refusals are recorded with a reason, on the episode too
            assert all(x["reason"] for x in r.rejected)
            assert sorted(json.loads(x)["reason"] for x in r.episode.rejections) == sorted(
                x["reason"] for x in r.rejected
            )
        # a question reaches extraction (it could state a fact); nothing it only asks is stored
        assert q.extracted and q.results == []
        assert all("question" in x["reason"] or "not stated" in x["reason"] for x in q.rejected), q.rejected
        usage = bg.llm_usage().llm.jobs
        assert usage["extract"].calls >= 2 and usage["extract"].tokens_in > 0 and usage["extract"].unreported == 0
