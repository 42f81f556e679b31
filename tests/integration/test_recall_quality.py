"""Ranking steps of recall on inference-style questions (docs/retrieval.md), against a real Neo4j
with the real local MiniLM embedder: the adopted steps keep their measured quality on the
inference suite, and no step ever brings in a claim that a filter (status, space, perspective,
keys) left out."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.errors import EncodingError, ValidationError
from belief_graph.llm import ScriptedModel
from belief_graph.settings import RetrievalSettings, Settings

DATA = Path(__file__).resolve().parents[1] / "data"
SUITE = json.loads((DATA / "inference_suite.json").read_text())
OFF = RetrievalSettings(subject_rewrite=False, key_weight=0.0, fulltext_beta=0.02)  # the previous default

# Floors, from the measurements in docs/retrieval.md ("Inference-style questions"): the adopted
# steps scored recall@1 0.570 on the tune part (n=86) and 0.543 on the held-out part (n=46); the
# previous default (vector + 0.02 x Lucene, no steps) 0.140-0.163 / 0.174. A floor 4 questions
# (tune) and 3 questions (held-out) below the measured figures keeps the test far above the
# previous default without failing on a one-question change of an HNSW tie.
TUNE_FLOOR = 0.52
HELDOUT_FLOOR = 0.47
MIN_GAIN_OVER_OFF = 0.25


class _Precomputed:
    """The real MiniLM embedder with the suite's memories embedded up front in one batch (the same
    vectors: embed_query is embed_documents of one text)."""

    def __init__(self, inner: Any, texts: list[str]) -> None:
        self.inner = inner
        self.cache = dict(zip(texts, inner.embed_documents(texts), strict=True))
        self.name, self.dimension = inner.name, inner.dimension

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            self.cache.update(zip(missing, self.inner.embed_documents(missing), strict=True))
        return [self.cache[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


@pytest.fixture(scope="module")
def suite_embedder(embedder: Any) -> _Precomputed:
    texts = [c["text"] for it in SUITE["items"] for c in [it["answer"], *it["distractors"]]]
    return _Precomputed(embedder, list(dict.fromkeys(texts)))


@pytest.fixture(scope="module")
def suite_space(
    base_settings: Settings, graph: Graph, suite_embedder: Any
) -> Iterator[tuple[BeliefGraph, dict[str, str]]]:
    space = f"test-inference-{uuid.uuid4().hex[:10]}"
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=suite_embedder) as bg:
        ids = {}
        for it in SUITE["items"]:
            for c in [it["answer"], *it["distractors"]]:
                ids[c["text"]] = bg.assert_claim(c["key"], c["value"], c["text"], agent="user:suite").claim.id
        yield bg, ids
        graph.write("admin.delete_space", space=space)


def _recall1(
    bg: BeliefGraph, ids: dict[str, str], part: str, steps: RetrievalSettings | None
) -> tuple[float, list[str]]:
    items = [it for it in SUITE["items"] if it["part"] == part]
    misses = [
        it["id"]
        for it in items
        if [h.claim.id for h in bg.retrieval.recall(it["question"], 5, steps=steps)][:1] != [ids[it["answer"]["text"]]]
    ]
    return 1 - len(misses) / len(items), misses


def test_suite_shape() -> None:
    items = SUITE["items"]
    assert len(items) >= 100
    parts = {p: sum(it["part"] == p for it in items) for p in ("tune", "heldout")}
    assert parts["tune"] + parts["heldout"] == len(items) and parts["heldout"] >= 30
    texts = [c["text"] for it in items for c in [it["answer"], *it["distractors"]]]
    assert len(texts) == len(set(texts))
    keys = [c["key"] for it in items for c in [it["answer"], *it["distractors"]] if c["key"]]
    assert len(keys) == len(set(keys))  # one belief per fact: no claim supersedes another
    assert all(it["distractors"] for it in items)


def test_adopted_steps_keep_their_recall_at_1(suite_space: tuple[BeliefGraph, dict[str, str]]) -> None:
    bg, ids = suite_space
    assert bg.settings.retrieval == RetrievalSettings()  # the defaults are what is measured
    tune, tune_misses = _recall1(bg, ids, "tune", None)
    held, _ = _recall1(bg, ids, "heldout", None)
    off, _ = _recall1(bg, ids, "tune", OFF)
    print(
        f"\ninference suite recall@1: adopted tune {tune:.3f} heldout {held:.3f}; steps off tune {off:.3f} "
        f"(tune misses {tune_misses})"
    )
    assert tune >= TUNE_FLOOR, f"tune recall@1 {tune:.3f} < {TUNE_FLOOR}"
    assert held >= HELDOUT_FLOOR, f"held-out recall@1 {held:.3f} < {HELDOUT_FLOOR}"
    assert tune - off >= MIN_GAIN_OVER_OFF, f"adopted {tune:.3f} vs steps off {off:.3f}"
    bg.recall(SUITE["items"][0]["question"], k=5)
    stats = bg.retrieval.last_stats
    assert stats is not None and "key_fusion" in stats.steps and stats.llm_calls == 0


def test_hits_carry_the_key_score(suite_space: tuple[BeliefGraph, dict[str, str]]) -> None:
    bg, ids = suite_space
    hit = bg.recall("Is the user a night owl?", k=3)[0]
    assert "key" in hit.scores or hit.claim.key is None
    assert bg.retrieval.last_stats is not None and bg.retrieval.last_stats.steps == ["subject_rewrite", "key_fusion"]
    bg.retrieval.recall("Is the user a night owl?", 3, steps=OFF)
    assert bg.retrieval.last_stats.steps == []


# -- filters are never bypassed ----------------------------------------------------------------


@pytest.fixture()
def lured(bg: BeliefGraph, base_settings: Settings, embedder: Any, graph: Graph) -> Iterator[dict[str, str]]:
    """Claims that the key step would rank first (their key is the question's attribute) but that
    recall must not return: superseded, retracted, withdrawn, another space's, an interpretation."""
    out: dict[str, str] = {}
    out["superseded"] = bg.assert_claim("user.sleep.bedtime", "11 pm", "She goes to bed at 11 pm", agent="u").claim.id
    out["active"] = bg.assert_claim(
        "user.sleep.bedtime", "2 am", "She usually goes to bed around 2 am", agent="u"
    ).claim.id
    out["decoy"] = bg.assert_claim(
        "user.home.night_light", "owl lamp", "The user keeps an owl-shaped night light", agent="u"
    ).claim.id
    out["retracted"] = bg.assert_claim("user.sleep.habit", "late", "She stays up late every night", agent="b").claim.id
    bg.retract(out["retracted"], "it was her flatmate")
    ep = bg.add_episode("She said she sleeps until noon", "user:x")
    out["withdrawn"] = bg.derive("She sleeps until noon", [ep.id], "user.sleep.wake", agent="agent:a").id
    bg.retract(ep.id, "misheard")
    cid = f"interp-{uuid.uuid4().hex[:8]}"
    text = "A late bedtime suggests the user is a night owl"
    bg.graph.driver.execute_query(
        "CREATE (c:Claim:Interpretation {space: $s, id: $id, key: 'user.sleep.chronotype', kind: 'interpretation', "
        "perspective: 'health', status: 'active', text: $t, embedding: $e, agent: 'perspective:health', created_at: datetime()})",
        s=bg.space,
        id=cid,
        t=text,
        e=embedder.embed_documents([text])[0],
    )
    out["interpretation"] = cid
    other = f"test-other-{uuid.uuid4().hex[:8]}"
    with BeliefGraph.connect(space=other, settings=base_settings, embedder=embedder) as ob:
        out["other_space"] = ob.assert_claim(
            "user.sleep.bedtime", "3 am", "She goes to bed at 3 am", agent="u"
        ).claim.id
    time.sleep(0.5)
    yield out
    graph.write("admin.delete_space", space=other)


STEPS = [
    RetrievalSettings(),
    RetrievalSettings(key_weight=1.0),
    RetrievalSettings(key_weight=1.0, key_text="key_value"),
]


@pytest.mark.parametrize("steps", STEPS, ids=["adopted", "key only", "key and value only"])
def test_key_fusion_never_returns_a_filtered_claim(
    bg: BeliefGraph, lured: dict[str, str], steps: RetrievalSettings
) -> None:
    q = "Is the user a night owl?"
    got = {h.claim.id for h in bg.retrieval.recall(q, 10, steps=steps)}
    assert got == {lured["active"], lured["decoy"]}
    # the same claims are there to be found when a filter lets them in (so the test could fail)
    every = {h.claim.id: h.claim.status for h in bg.retrieval.recall(q, 10, steps=steps, include_inactive=True)}
    assert {lured[s] for s in ("superseded", "retracted", "withdrawn")} <= set(every)
    assert lured["other_space"] not in every and lured["interpretation"] not in every
    assert [h.claim.id for h in bg.retrieval.recall(q, 10, steps=steps, perspective="health")] == [
        lured["interpretation"]
    ]
    assert {h.claim.id for h in bg.retrieval.recall(q, 10, steps=steps, keys=["user.home.night_light"])} == {
        lured["decoy"]
    }
    assert {h.claim.id for h in bg.retrieval.recall(q, 10, steps=steps, key_prefix="user.sleep.")} == {lured["active"]}


def test_llm_rerank_is_off_by_default_counted_when_on_and_never_bypasses_filters(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, lured: dict[str, str]
) -> None:
    model = ScriptedModel()
    q = "Is the user a night owl?"
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        b.recall(q, k=5)
        assert model.calls == [] and b.retrieval.last_stats.llm_calls == 0
        on = b.settings.retrieval.model_copy(update={"llm_rerank": True})
        model.add("rerank", {"ranking": [lured["decoy"], lured["active"]]})
        hits = b.retrieval.recall(q, 5, steps=on)
        assert [h.claim.id for h in hits] == [lured["decoy"], lured["active"]]
        assert hits[0].scores["llm_rank"] == 1 and b.retrieval.last_stats.llm_calls == 1
        assert "llm_rerank" in b.retrieval.last_stats.steps
        assert b.llm_usage().llm.calls_for("rerank") == 1
        prompt = model.calls_for("rerank")[0].inputs
        assert {c["id"] for c in prompt["candidates"]} == {
            lured["active"],
            lured["decoy"],
        }  # only what passed the filters
        # a model that names a filtered-out claim is rejected by the job's check, never returned
        model.add("rerank", {"ranking": [lured["superseded"]]}, inputs={"question": "Is she a night owl?"})
        with pytest.raises(EncodingError):
            b.retrieval.recall("Is she a night owl?", 5, steps=on)
        # with a bigger k the re-rank covers max(k, top) candidates and still returns k
        assert len(b.retrieval.recall(q, 1, steps=on)) == 1


def test_llm_hypothesis_is_off_by_default_counted_when_on_and_never_bypasses_filters(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, lured: dict[str, str]
) -> None:
    """The hypothesis moves the query vector towards the memory it describes; what can come back
    is still decided by the filters (a hypothesis that is word for word a retracted claim's text
    does not bring that claim back)."""
    model = ScriptedModel()
    q = "Is the user a night owl?"
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        b.recall(q, k=5)
        assert model.calls == [] and b.retrieval.last_stats.llm_calls == 0
        on = b.settings.retrieval.model_copy(update={"llm_hypothesis": True})
        model.add("hypothesize", {"memory": "The user keeps a night light shaped like an owl"})
        lamp = [h.claim.id for h in b.retrieval.recall(q, 2, steps=on)]
        assert b.retrieval.last_stats.llm_calls == 1 and "llm_hypothesis" in b.retrieval.last_stats.steps
        model.add("hypothesize", {"memory": "She usually goes to bed around 2 am"})
        bed = [h.claim.id for h in b.retrieval.recall(q, 2, steps=on)]
        assert lamp[0] == lured["decoy"] and bed[0] == lured["active"]  # the hypothesis decides the top
        assert b.llm_usage().llm.calls_for("hypothesize") == 2
        assert model.calls_for("hypothesize")[0].inputs == {"question": q}
        model.add("hypothesize", {"memory": "She stays up late every night"})  # the retracted claim's text
        got = {h.claim.id for h in b.retrieval.recall(q, 10, steps=on)}
        assert got == {lured["active"], lured["decoy"]}
        # a caller's own vector is used as given: no hypothesis, no call
        b.retrieval.recall(q, 2, steps=on, embedding=embedder.embed_query(q))
        assert b.retrieval.last_stats.llm_calls == 0 and len(model.calls_for("hypothesize")) == 3


def test_cli_bench_recall_quality_tiny(graph: Graph, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from belief_graph.cli import app

    small = {"items": [it for it in SUITE["items"] if it["category"] == "finance"]}
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small))
    r = CliRunner().invoke(app, ["bench", "recall-quality", "--suite", str(path), "--no-paraphrase", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    names = [c["name"] for c in out["configs"]]
    assert names[0] == "adopted (settings.retrieval)" and "vector only" in names
    assert "previous default: vector + 0.02 x Lucene" in names and "previous + key fusion w 0.5" in names
    n_tune = sum(it["part"] == "tune" for it in small["items"])
    for c in out["configs"]:
        assert c["tune"]["n"] == n_tune and 0.0 <= c["tune"]["recall@1"] <= c["tune"]["recall@5"] <= 1.0
        assert 0.0 <= c["tune"]["mrr"] <= 1.0 and c["p50_ms"] > 0 and c["llm_calls"] == 0
    left = graph.driver.execute_query(
        "MATCH (c:Claim) WHERE c.space STARTS WITH '__bench_recall_quality__' RETURN count(c) AS n"
    ).records[0]["n"]
    assert left == 0
    path.write_text(json.dumps({"items": [{"id": "x", "part": "train"}]}))
    bad = CliRunner().invoke(app, ["bench", "recall-quality", "--suite", str(path), "--no-paraphrase"])
    assert bad.exit_code != 0 and isinstance(bad.exception, ValidationError)


def test_bench_recall_quality_calls_the_llm_once_per_question_not_in_the_warm_up(
    base_settings: Settings, graph: Graph, embedder: Any
) -> None:
    """The warm-up pass fills the key-phrase cache; a re-rank there would only spend the model's
    time (on a local model, about as long as the measured pass itself)."""
    from belief_graph_lab.benchmarks.recall_quality import measure_recall_quality

    small = {"items": [it for it in SUITE["items"] if it["category"] == "finance"]}
    n = sum(1 for _ in small["items"])
    model = ScriptedModel().respond("rerank", lambda inputs: {"ranking": [c["id"] for c in inputs["candidates"]]})
    space = f"t_rq_llm_{uuid.uuid4().hex[:8]}"
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        adopted = b.settings.retrieval
        configs = [
            ("adopted", adopted, "score"),
            ("adopted + LLM", adopted.model_copy(update={"llm_rerank": True}), "score"),
        ]
        out = measure_recall_quality(b, small, None, configs, llm=lambda: b.llm)
    by = {c["name"]: c for c in out["configs"]}
    assert by["adopted"]["llm_calls"] == 0
    assert by["adopted + LLM"]["llm_calls"] == n == len(model.calls_for("rerank"))
    # the re-rank kept the fused order, so the ranks are the adopted configuration's
    assert by["adopted + LLM"]["tune"]["recall@1"] == by["adopted"]["tune"]["recall@1"]


def test_a_terminated_bench_removes_its_scratch_spaces(base_settings: Settings, graph: Graph, tmp_path: Path) -> None:
    """SIGTERM (kill, a supervisor, a CI timeout) ends the CLI through its ``finally`` blocks: the
    bench's scratch spaces do not outlive it (they did while SIGTERM ended the process at once)."""
    import os
    import signal
    import subprocess
    import sys

    path = tmp_path / "small.json"
    path.write_text(json.dumps({"items": [it for it in SUITE["items"] if it["category"] == "finance"]}))
    env = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    env.update(
        BELIEF_GRAPH_NEO4J__URI=base_settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=base_settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=base_settings.neo4j.password.get_secret_value(),
    )
    exe = str(Path(sys.executable).with_name("belief-graph"))
    cmd = [exe, "bench", "recall-quality", "--suite", str(path), "--no-paraphrase"]
    q = "MATCH (c:Claim) WHERE c.space STARTS WITH '__bench_recall_quality__' RETURN collect(DISTINCT c.space) AS s"
    before = set(graph.driver.execute_query(q).records[0]["s"])  # another run's spaces are not ours
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:  # the scratch spaces exist once the suite is loaded
        seen.append(line)
        if line.startswith("loaded "):
            break
    mine = set(graph.driver.execute_query(q).records[0]["s"]) - before
    assert mine, seen
    proc.send_signal(signal.SIGTERM)
    rest, _ = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, "".join(seen) + rest
    assert mine.isdisjoint(graph.driver.execute_query(q).records[0]["s"])
