"""``belief-graph bench llm``: how the number of LLM calls grows, measured with a counting
scripted model (no endpoint needed; the counts are properties of the job runner, not of a model).

* ``encode_8x3_calls``: 8 observations encoded for 3 perspectives with batching (one call per
  perspective) — at most 3.
* ``encode_8x3_calls_unbatched``: the same with ``max_batch=1`` (one call per observation x
  perspective), measured side by side for comparison.
* ``deliberate_calls``: the LLM calls of one batched deliberation among 3 perspectives (one
  ``propose_all`` + one ``critique_all``: at most 2), and ``deliberate_calls_per_perspective``
  the same deliberation in per-perspective mode (one ``propose`` and one ``critique`` per
  perspective). :data:`DELIBERATE_HOOK` runs the LLM phase of ``deliberate()``
  (:func:`belief_graph.services.deliberation.debate` — the exact code path, minus the retrieval
  before it and the write transaction after it, which make no LLM call) on 3 perspectives with 3
  interpretations each; the integration tests count the same on a full ``bg.deliberations.deliberate`` against
  Neo4j.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from belief_graph.llm import LLMClient, ScriptedModel


def _deliberation_scenario() -> list[Any]:
    from belief_graph.models import Claim
    from belief_graph.models.perspectives import InterpretationHit, Perspective
    from belief_graph.services.deliberation import Slate

    return [
        Slate(
            Perspective(id=f"p{i}", name=f"perspective-{i}", goal=f"goal {i}"),
            [
                InterpretationHit(
                    claim=Claim(
                        id=f"i{i}{j}",
                        text=f"interpretation {j} of perspective {i}",
                        kind="interpretation",
                        agent=f"perspective:perspective-{i}",
                    ),
                    perspective=f"perspective-{i}",
                    score=1.0,
                )
                for j in range(3)
            ],
        )
        for i in range(PERSPECTIVES)
    ]


def _propose_all_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "proposals": [
            {
                "perspective": e["perspective"]["id"],
                "text": f"answer of {e['perspective']['name']}",
                "citations": [e["beliefs"][0]["id"]],
            }
            for e in inputs["perspectives"]
        ]
    }


def _critique_all_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    # every perspective attacks every other proposal (the most work a critique can cause)
    return {
        "attacks": [
            {"by": c["perspective"]["id"], "target": p["id"], "reason": "disagree"}
            for c in inputs["perspectives"]
            for p in inputs["proposals"]
            if p["perspective"] != c["perspective"]["id"]
        ]
    }


def _propose_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {"text": f"answer of {inputs['perspective']['name']}", "citations": [inputs["beliefs"][0]["id"]]}


def _critique_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "attacks": [
            {"target": p["id"], "reason": "disagree"}
            for p in inputs["proposals"]
            if p["perspective"] != inputs["perspective"]["id"]
        ]
    }


def counting_model() -> ScriptedModel:
    """The counting scripted model of the deliberation measurement (valid answers for every job)."""
    m = ScriptedModel("scripted-counting")
    m.respond("propose_all", _propose_all_reply).respond("critique_all", _critique_all_reply)
    m.respond("propose", _propose_reply).respond("critique", _critique_reply)
    return m


def run_one_deliberation(client: LLMClient, batched: bool = True) -> None:
    """One deliberation's LLM phase among 3 perspectives on ``client`` (its usage counts the calls)."""
    from belief_graph.services.deliberation import debate

    result = debate(client, "What should we do?", _deliberation_scenario(), batched=batched)
    assert len(result.proposals) == PERSPECTIVES and not result.rejections, result


DELIBERATE_HOOK: Callable[[LLMClient], None] | None = run_one_deliberation
"""Runs one (batched) deliberation on the given client; the bench reports the calls it made."""

OBSERVATIONS = 8
PERSPECTIVES = 3


def _encode_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A valid encoding of every observation (relevant, one sentence each)."""
    p = inputs["perspective"]
    return {
        "items": [
            {
                "observation": o["id"],
                "relevant": True,
                "concepts": [],
                "interpretation": f"For {p['name']}: {o['text']}",
                "confidence": 0.5,
            }
            for o in inputs["observations"]
        ]
    }


def _scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    perspectives = [{"id": f"p{i}", "name": f"perspective-{i}", "goal": f"goal {i}"} for i in range(PERSPECTIVES)]
    observations = [{"id": f"o{i}", "text": f"observation number {i}"} for i in range(OBSERVATIONS)]
    return perspectives, observations


def measure() -> dict[str, Any]:
    """Run the measurements and return the numbers (what ``--json`` prints)."""
    perspectives, observations = _scenario()
    out: dict[str, Any] = {"model": "scripted (counting)"}
    for label, max_batch in (("encode_8x3_calls", 32), ("encode_8x3_calls_unbatched", 1)):
        client = LLMClient(ScriptedModel("scripted-counting").respond("encode", _encode_reply), max_batch=max_batch)
        results = client.encode_many(perspectives, observations)
        assert all(len(r.output.items) == OBSERVATIONS for r in results.values())
        out[label] = client.usage().calls_for("encode")
    if DELIBERATE_HOOK is None:
        out["deliberate_calls"] = None
    else:
        client = LLMClient(counting_model())
        DELIBERATE_HOOK(client)
        out["deliberate_calls"] = client.usage().calls
    per = LLMClient(counting_model())
    run_one_deliberation(per, batched=False)
    out["deliberate_calls_per_perspective"] = per.usage().calls
    out["notes"] = {
        "deliberate_calls": "LLM calls of one deliberation among 3 perspectives (propose + critique, "
        "every perspective attacking every other): batched mode, and "
        "per-perspective mode in deliberate_calls_per_perspective"
    }
    return out
