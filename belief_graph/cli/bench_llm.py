"""``belief-graph bench llm``: how the number of LLM calls grows, measured with a counting
scripted model (no endpoint needed; the counts are properties of the job runner, not of a model).

* ``encode_8x3_calls``: 8 observations encoded for 3 perspectives with batching (one call per
  perspective) — at most 3.
* ``encode_8x3_calls_unbatched``: the same with ``max_batch=1`` (one call per observation x
  perspective), measured side by side for comparison.
* ``deliberate_calls``: ``null`` until deliberation exists. Hook: set :data:`DELIBERATE_HOOK` to
  a function that runs one deliberation on the given :class:`~belief_graph.llm.LLMClient` and
  returns nothing; the bench then reports the calls it made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import typer

from ..llm import LLMClient, ScriptedModel
from .common import console, print_json, table

DELIBERATE_HOOK: Callable[[LLMClient], None] | None = None
"""Set by the deliberation module (later issue) to run one deliberation; None = not implemented."""

OBSERVATIONS = 8
PERSPECTIVES = 3


def _encode_reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A valid encoding of every observation (relevant, one sentence each)."""
    p = inputs["perspective"]
    return {
        "items": [
            {"observation": o["id"], "relevant": True, "concepts": [],
             "interpretation": f"For {p['name']}: {o['text']}", "confidence": 0.5}
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
        out["notes"] = {"deliberate_calls": "deliberation is not implemented yet (later issue); "
                                            "belief_graph.cli.bench_llm.DELIBERATE_HOOK is the hook"}
    else:
        client = LLMClient(ScriptedModel("scripted-counting"))
        DELIBERATE_HOOK(client)
        out["deliberate_calls"] = client.usage().calls
    return out


def bench_llm(json_: bool = typer.Option(False, "--json", help="Print the numbers as one JSON object.")) -> None:
    """LLM calls per workload (counting scripted model): batching makes calls grow with
    perspectives, not with observations x perspectives."""
    data = measure()
    if json_:
        print_json(data)
        return
    rows = [
        ["encode 8 observations x 3 perspectives (batched)", data["encode_8x3_calls"]],
        ["encode 8 observations x 3 perspectives (max_batch=1)", data["encode_8x3_calls_unbatched"]],
        ["one deliberation", "n/a (not implemented yet)" if data["deliberate_calls"] is None else data["deliberate_calls"]],
    ]
    table("LLM calls (scripted counting model)", ["workload", "calls"], rows)
    if data.get("notes"):
        console.print(f"note: {data['notes']['deliberate_calls']}", highlight=False, markup=False)
