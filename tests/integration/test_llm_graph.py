"""The LLM layer against the real Neo4j: an invalid model output never reaches the graph.

A write path = the job runner + a write callback that stores the validated output
(``LLMClient.run_then``). For every failure kind the number of nodes is the same before and
after; with a valid output the callback writes. Also: ``BeliefGraph.connect(chat_model=...)``,
``bg.llm`` built from settings (replay without an API key) and ``bg.llm_usage()`` counting both
chat-model and embedding calls.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.errors import EncodingError, LLMError, LLMUnavailable
from belief_graph.llm import JobResult, Refusal, ScriptedModel, Timeout, Unavailable
from belief_graph.settings import LLMSettings, Settings

ALICE = "user:alice"
COUNT = "MATCH (n) WHERE n.space = $space RETURN count(n) AS n"
TOTAL = "MATCH (n) RETURN count(n) AS n"
VALID = {
    "facts": [
        {
            "source": "turn-1",
            "key": "user.city",
            "value": "Lisbon",
            "text": "The user lives in Lisbon",
            "kind": "semantic",
            "confidence": 0.9,
        },
        {
            "source": "turn-2",
            "key": "user.timezone",
            "value": "Europe/Lisbon",
            "text": "The user's time zone is Europe/Lisbon",
            "kind": "semantic",
            "confidence": 0.8,
        },
    ]
}


def counts(graph: Graph, space: str) -> tuple[int, int]:
    with graph.driver.session(database=graph.database) as s:
        in_space = s.run(COUNT, space=space).single()["n"]  # type: ignore[index]
        total = s.run(TOTAL).single()["n"]  # type: ignore[index]
    return in_space, total


@pytest.fixture()
def model() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture()
def engine(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, model: ScriptedModel
) -> Iterator[BeliefGraph]:
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        yield b


def remember(bg: BeliefGraph, texts: list[str], max_batch: int | None = None) -> list[Any]:
    """A minimal write path: episodes first (inside the callback too), then one claim per fact."""
    turns = [{"id": f"turn-{i + 1}", "agent": ALICE, "text": t} for i, t in enumerate(texts)]
    if max_batch is not None:
        bg.llm.max_batch = max_batch

    def write(result: JobResult[Any]) -> list[Any]:
        ep_ids = {t["id"]: bg.add_episode(t["text"], ALICE).id for t in turns}
        return [
            bg.assert_claim(f.key, f.value, f.text, agent=ALICE, evidence=[ep_ids[f.source]], confidence=f.confidence)
            for f in result.output.facts
        ]

    return bg.llm.run_then("extract", {"turns": turns, "known_keys": []}, write)


FAILURES: dict[str, tuple[Any, ...]] = {
    "malformed": ('{"facts": [{"source": "turn-1", ',),
    "schema": ({"facts": [{"source": "turn-1", "key": "user.city"}]},),
    "refusal": (Refusal(),),
    "empty": ("",),
    "timeout": (Timeout(),),
    "unavailable": (Unavailable(),),
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_failing_job_leaves_the_graph_unchanged(
    engine: BeliefGraph, model: ScriptedModel, graph: Graph, space: str, failure: str
) -> None:
    engine.add_episode("something already in memory", ALICE)
    before = counts(graph, space)
    model.add("extract", *FAILURES[failure])
    with pytest.raises(LLMError) as info:
        remember(engine, ["I moved to Lisbon.", "So my time zone is Lisbon's."])
    assert isinstance(info.value, LLMUnavailable if failure == "unavailable" else EncodingError)
    assert counts(graph, space) == before
    assert engine.belief("user.city") is None
    usage = engine.llm_usage().llm.jobs["extract"]
    assert usage.ok == 0 and usage.failed == (1 if failure == "unavailable" else 3)


def test_a_fact_its_check_refuses_alone_is_set_aside_after_the_repairs_and_never_written(
    engine: BeliefGraph, model: ScriptedModel, graph: Graph, space: str
) -> None:
    """extract judges its facts one by one: the fact of no turn is left out, the valid one written."""
    model.add("extract", {"facts": [{**VALID["facts"][0], "source": "turn-99"}, VALID["facts"][1]]})
    results = remember(engine, ["I moved to Lisbon.", "So my time zone is Lisbon's."])
    assert [r.claim.key for r in results] == ["user.timezone"]
    assert engine.belief("user.city") is None
    assert engine.llm_usage().llm.jobs["extract"].failed == 3  # every reply was invalid, and repaired in vain


def test_valid_output_is_written_after_repair(
    engine: BeliefGraph, model: ScriptedModel, graph: Graph, space: str
) -> None:
    before = counts(graph, space)
    model.add("extract", "not json", VALID)
    results = remember(engine, ["I moved to Lisbon.", "So my time zone is Lisbon's."])
    assert [r.claim.key for r in results] == ["user.city", "user.timezone"]
    belief = engine.belief("user.city")
    assert belief is not None and belief.value == "Lisbon"
    assert counts(graph, space)[0] > before[0]
    report = engine.llm_usage()
    assert report.llm.jobs["extract"].calls == 2 and report.model == "scripted"
    assert report.embedding is not None and report.embedding.calls >= 2 and report.embedding.items >= 2
    assert report.to_dict()["embedding"]["model"] == "all-MiniLM-L6-v2"


def test_a_failing_second_chunk_writes_nothing(
    engine: BeliefGraph, model: ScriptedModel, graph: Graph, space: str
) -> None:
    def reply(inputs: Any) -> Any:
        turn = inputs["turns"][0]
        if turn["id"] == "turn-2":
            return "broken"
        return {
            "facts": [
                {
                    "source": turn["id"],
                    "key": "user.city",
                    "value": "Lisbon",
                    "text": "The user lives in Lisbon",
                    "kind": "semantic",
                    "confidence": 0.9,
                }
            ]
        }

    model.respond("extract", reply)
    before = counts(graph, space)
    with pytest.raises(EncodingError):
        remember(engine, ["I moved to Lisbon.", "gibberish"], max_batch=1)
    assert counts(graph, space) == before
    assert engine.llm_usage().llm.jobs["extract"].ok == 1  # chunk 1 was valid, and still not written


def test_llm_built_from_settings_replays_without_an_api_key(
    base_settings: Settings, graph: Graph, embedder: Any, space: str
) -> None:
    settings = base_settings.model_copy(update={"llm": LLMSettings()})
    with BeliefGraph.connect(space=space, settings=settings, embedder=embedder) as bg:
        assert bg.llm_usage().model is None  # nothing built yet
        assert bg.llm.is_replay and "NOT a real model" in bg.llm.describe()
        from belief_graph_lab.llm_demo import DEMO_SCRIPT

        step = next(s for s in DEMO_SCRIPT if s.job == "extract")
        ep = bg.add_episode(step.inputs["turns"][0]["text"], ALICE)
        turns = [{**step.inputs["turns"][0], "id": ep.id}]  # a generated id: the replay still answers
        result = bg.llm.extract(turns, known_keys=step.inputs["known_keys"])
        assert result.output.facts[0].source == ep.id
        assert bg.llm_usage().llm.calls_for("extract") == 1
