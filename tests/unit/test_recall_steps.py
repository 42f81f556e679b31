"""The model-free ranking steps of recall (services/recall_steps.py): query rewrite, key phrases,
the key-vector cache and the LLM re-rank's handling of the job's answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pydantic
import pytest

from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import EmbeddingDimensionError, EncodingError
from belief_graph.llm import LLMClient, ScriptedModel
from belief_graph.services.recall_steps import (
    KeyVectors,
    key_phrase,
    llm_hypothesis,
    llm_rerank,
    mean_direction,
    rewrite_query,
)
from belief_graph.settings import RetrievalSettings, load_settings


@pytest.mark.parametrize(
    ("question", "rewritten"),
    [
        ("Is the user a night owl?", "Is a night owl?"),
        ("Does he own any animals?", "Does own any animals?"),
        ("What is the user's favourite season?", "What is favourite season?"),
        ("How should I address her?", "How should address ?"),
        ("Where does Pedro live?", "Where does Pedro live?"),  # names are kept
        ("Is the username taken?", "Is the username taken?"),  # whole words only
        ("she?", "she?"),  # nothing left: unchanged
        ("Their?", "Their?"),
    ],
)
def test_rewrite_query_drops_subject_words_only(question: str, rewritten: str) -> None:
    assert rewrite_query(question) == rewritten


@pytest.mark.parametrize(
    ("key", "value", "phrase"),
    [
        ("user.sleep.bedtime", None, "sleep bedtime"),
        ("family.spouse.wake_time", None, "family spouse wake time"),
        ("project.cloud.cost-owner", None, "project cloud cost owner"),
        ("userPrefs.darkMode", None, "prefs dark mode"),
        ("user", None, "user"),  # only a subject word: kept
        ("user.sleep.bedtime", "2 am", "sleep bedtime: 2 am"),
        ("user.languages", ["Spanish", "English"], "languages: Spanish, English"),
        ("user.salary", 85000, "salary: 85000"),
    ],
)
def test_key_phrase(key: str, value: Any, phrase: str) -> None:
    assert key_phrase(key, value) == phrase


class _Counting(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(dimension=64)
        self.batches: list[list[str]] = []

    def embed_documents(self, texts: Any) -> list[list[float]]:
        self.batches.append(list(texts))
        return super().embed_documents(texts)


def test_key_vectors_embed_each_phrase_once_and_score_on_neo4js_scale() -> None:
    emb = _Counting()
    kv = KeyVectors(emb, 64, size=3)
    q = emb.embed_query("sleep bedtime")
    s = kv.scores(q, {"c1": "sleep bedtime", "c2": "home night light", "c3": "sleep bedtime"})
    assert emb.batches == [["sleep bedtime", "home night light"]]  # one batch, duplicates once
    assert s["c1"] == pytest.approx(1.0, abs=1e-6) and s["c3"] == s["c1"]
    assert 0.0 <= s["c2"] < s["c1"]
    kv.scores(q, {"c4": "sleep bedtime", "c5": "pets"})
    assert emb.batches[-1] == ["pets"] and kv.embedded == 3
    kv.scores(q, {"c6": "a", "c7": "b"})  # LRU of 3 phrases: the oldest go
    kv.scores(q, {"c8": "home night light"})
    assert emb.batches[-1] == ["home night light"]
    assert kv.scores(q, {}) == {}


def test_key_vectors_check_the_dimension() -> None:
    with pytest.raises(EmbeddingDimensionError):
        KeyVectors(HashingEmbedder(dimension=32), 64).vectors(["sleep bedtime"])


CANDS = [
    {"id": "c-1", "text": "The user keeps an owl-shaped night light", "key": "user.home.night_light", "value": "owl"},
    {"id": "c-2", "text": "She usually goes to bed around 2 am", "key": "user.sleep.bedtime", "value": "2 am"},
    {"id": "c-3", "text": "She cycles to the office", "key": None, "value": None},
]


def test_llm_rerank_orders_by_the_job_and_keeps_the_rest() -> None:
    model = ScriptedModel().add("rerank", {"ranking": ["c-2"]})
    client = LLMClient(model)
    assert llm_rerank(client.run, "Is the user a night owl?", CANDS) == ["c-2", "c-1", "c-3"]
    assert client.usage().calls_for("rerank") == 1
    prompt = model.calls[0].messages[-1].content
    assert "night owl" in prompt and "2 am" in prompt and "c-2" not in prompt  # ids go as aliases


def test_llm_rerank_cannot_bring_in_an_id_that_was_not_a_candidate() -> None:
    model = ScriptedModel().add("rerank", {"ranking": ["c-9", "c-2"]})
    client = LLMClient(model, repair_attempts=1)
    with pytest.raises(EncodingError):
        llm_rerank(client.run, "Is the user a night owl?", CANDS)
    assert client.usage().calls_for("rerank") == 2  # the answer and one repair, both counted


def test_llm_hypothesis_is_the_jobs_statement_and_an_empty_one_is_repaired() -> None:
    model = ScriptedModel().add("hypothesize", {"memory": "  "}, {"memory": "She goes to bed at 2 am "})
    client = LLMClient(model, repair_attempts=1)
    assert llm_hypothesis(client.run, "Is the user a night owl?") == "She goes to bed at 2 am"
    assert client.usage().calls_for("hypothesize") == 2  # the empty answer and its repair, both counted
    assert "night owl" in model.calls[0].messages[-1].content


def test_mean_direction_is_the_unit_vector_between_two() -> None:
    assert mean_direction([1.0, 0.0], [0.0, 1.0]) == pytest.approx([2**-0.5, 2**-0.5])
    assert mean_direction([0.6, 0.8], [0.6, 0.8]) == pytest.approx([0.6, 0.8])
    assert mean_direction([1.0, 0.0], [-1.0, 0.0]) == [1.0, 0.0]  # opposite: the question's own


def test_retrieval_settings_defaults_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    d = RetrievalSettings()
    assert (d.subject_rewrite, d.key_weight, d.key_text, d.llm_rerank) == (True, 0.5, "key", False)
    assert d.llm_hypothesis is False
    monkeypatch.setenv("BELIEF_GRAPH_RETRIEVAL__KEY_WEIGHT", "0")
    monkeypatch.setenv("BELIEF_GRAPH_RETRIEVAL__LLM_RERANK", "true")
    s = load_settings()
    assert s.retrieval.key_weight == 0.0 and s.retrieval.llm_rerank is True
    with pytest.raises(pydantic.ValidationError, match="key_weight"):
        RetrievalSettings(key_weight=1.5)


def test_unit_vectors_from_the_hashing_embedder() -> None:
    # the key score assumes unit vectors (every embedder returns them; docs/embeddings.md)
    v = np.asarray(HashingEmbedder(dimension=64).embed_documents(["sleep bedtime"])[0])
    assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-6
