"""``belief-graph bench recall-quality``: ranking quality of ``recall`` with and without each step.

The inference suite (``tests/data/inference_suite.json``, see ``inference_suite.md`` beside it)
is loaded into a scratch space with the configured embedder (the local MiniLM by default): every
answer and distractor memory as a claim with its key and value. The paraphrase suite
(``paraphrase_suite.json``) goes into a second scratch space, as a check that the steps do not
hurt ordinary paraphrases. Then every question is asked through ``RetrievalService.recall`` under
each configuration of the ranking steps (``RetrievalSettings``), side by side: per question, the
configurations run one after another, in an order that rotates, so load on the machine hits them
alike. Reported per configuration and suite part (``tune``, ``heldout``, ``paraphrase``):
recall@1, recall@5, MRR (of the answer's rank in the top 10, 0 beyond) and the p50 wall-clock
latency of one ``recall`` call (query embedding, the Cypher reads and the ranking steps; after an
untimed warm-up pass of the configurations with key fusion and without the LLM steps, so key phrases are already cached as
in a long-running process). The ranks do not depend on the order or the cache. The
scratch spaces are removed at the end, also on failure.

With ``--llm`` two last configurations add the optional LLM steps, the hypothesis and the re-rank
(the configured chat model, through the job runner; their calls are counted and reported).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from belief_graph.embeddings import Embedder
from belief_graph.errors import ValidationError
from belief_graph.facade import BeliefGraph
from belief_graph.models import new_id
from belief_graph.repositories.retrieval import RetrievalRepository
from belief_graph.services.retrieval import RetrievalService
from belief_graph.settings import RetrievalSettings

from .timing import percentile

__all__ = ["CONFIGS", "Config", "default_suite_path", "measure_recall_quality"]

Config = tuple[str, RetrievalSettings, str]
"""(name, steps, fusion)."""

_ADOPTED = RetrievalSettings()
_OFF = RetrievalSettings(subject_rewrite=False, key_weight=0.0, fulltext_beta=0.02)
CONFIGS: list[Config] = [
    ("vector only", _OFF.model_copy(update={"fulltext_beta": 0.0}), "score"),
    ("previous default: vector + 0.02 x Lucene", _OFF, "score"),
    ("RRF (k 60, fulltext weight 0.5)", _OFF, "rrf"),
    ("previous + subject rewrite", _OFF.model_copy(update={"subject_rewrite": True}), "score"),
    ("previous + key fusion w 0.5", _OFF.model_copy(update={"key_weight": 0.5}), "score"),
    (
        "previous + key+value fusion w 0.5",
        _OFF.model_copy(update={"key_weight": 0.5, "key_text": "key_value"}),
        "score",
    ),
    ("rewrite + key w 0.5, beta 0.02", _ADOPTED.model_copy(update={"fulltext_beta": 0.02}), "score"),
    ("rewrite + key w 0.5, beta 0.005", _ADOPTED.model_copy(update={"fulltext_beta": 0.005}), "score"),
    ("rewrite + key w 0.5, beta 0", _ADOPTED.model_copy(update={"fulltext_beta": 0.0}), "score"),
    ("rewrite + key w 0.35, beta 0", _ADOPTED.model_copy(update={"key_weight": 0.35, "fulltext_beta": 0.0}), "score"),
    ("rewrite + key w 0.65, beta 0", _ADOPTED.model_copy(update={"key_weight": 0.65, "fulltext_beta": 0.0}), "score"),
    (
        "key w 0.5, beta 0 (no rewrite)",
        _ADOPTED.model_copy(update={"subject_rewrite": False, "fulltext_beta": 0.0}),
        "score",
    ),
    ("rewrite, beta 0 (no key fusion)", _ADOPTED.model_copy(update={"key_weight": 0.0, "fulltext_beta": 0.0}), "score"),
]


def default_suite_path(name: str = "inference_suite.json") -> Path:
    """``tests/data/<name>`` of the source checkout this package runs from."""
    return Path(__file__).resolve().parents[3] / "tests" / "data" / name


class _Preloaded:
    """The configured embedder, with the suite's memories embedded up front in batches (the same
    vectors: ``embed_query`` is ``embed_documents`` of one text). Questions and key phrases are
    embedded on demand, so their cost stays in the measured latency."""

    def __init__(self, inner: Embedder, texts: Sequence[str]) -> None:
        self.inner = inner
        self.name, self.dimension = inner.name, inner.dimension
        uniq = list(dict.fromkeys(texts))
        self.cache = dict(zip(uniq, inner.embed_documents(uniq), strict=True))

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.cache]
        fresh = dict(zip(missing, self.inner.embed_documents(missing), strict=True)) if missing else {}
        return [self.cache[t] if t in self.cache else fresh[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def _cases(
    suite: dict[str, Any], paraphrase: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(memories, questions)`` for both suites: memories ``{space, key, value, text}``, questions
    ``{space, part, id, question, answer (text)}``."""
    mem: list[dict[str, Any]] = []
    qs: list[dict[str, Any]] = []
    for it in suite["items"]:
        for c in [it["answer"], *it["distractors"]]:
            mem.append({"space": "inference", **c})
        qs.append(
            {
                "space": "inference",
                "part": it["part"],
                "id": it["id"],
                "question": it["question"],
                "answer": it["answer"]["text"],
            }
        )
    for n, p in enumerate((paraphrase or {}).get("pairs", [])):
        mem.append({"space": "paraphrase", "key": p["key"], "value": p["value"], "text": p["belief"]})
        qs.append(
            {
                "space": "paraphrase",
                "part": "paraphrase",
                "id": f"p{n + 1:03d}",
                "question": p["question"],
                "answer": p["belief"],
            }
        )
    return mem, qs


def _check_suite(suite: Any) -> None:
    if not isinstance(suite, dict) or not isinstance(suite.get("items"), list) or not suite["items"]:
        raise ValidationError("the suite needs a non-empty 'items' list (see tests/data/inference_suite.json)")
    for it in suite["items"]:
        if not {"id", "part", "question", "answer", "distractors"} <= set(it) or it["part"] not in ("tune", "heldout"):
            raise ValidationError(
                f"suite item {it.get('id')!r} needs id, part (tune|heldout), question, answer, distractors"
            )


def measure_recall_quality(
    bg: BeliefGraph,
    suite: dict[str, Any],
    paraphrase: dict[str, Any] | None = None,
    configs: Sequence[Config] = tuple(CONFIGS),
    llm: Callable[[], Any] | None = None,
    log: Callable[[str], Any] | None = None,
) -> dict[str, Any]:
    """Load the suites into scratch spaces, ask every question under every configuration, remove
    the spaces. ``llm`` (a job-runner getter) is needed by configurations with ``llm_rerank`` or ``llm_hypothesis``."""
    _check_suite(suite)
    mem, qs = _cases(suite, paraphrase)
    spaces = {s: f"__bench_recall_quality__{new_id()}" for s in ("inference", "paraphrase")}
    emb = _Preloaded(bg.embedder, [m["text"] for m in mem])
    try:
        ids: dict[tuple[str, str], str] = {}
        t0 = time.perf_counter()
        for s, space in spaces.items():
            rows = [m for m in mem if m["space"] == s]
            if not rows:
                continue
            with BeliefGraph.connect(space=space, settings=bg.settings, embedder=emb, verify=False) as sbg:
                for m in rows:
                    ids[(s, m["text"])] = sbg.assert_claim(m["key"], m["value"], m["text"], agent="user:bench").claim.id
        load_s = time.perf_counter() - t0
        if log:
            log(f"loaded {len(mem)} memories in {load_s:.1f} s")
        services = {
            s: RetrievalService(bg.graph, space, emb, bg.settings.embedding.dimension, llm=llm)
            for s, space in spaces.items()
        }
        ranks: dict[int, dict[str, int | None]] = {c: {} for c in range(len(configs))}
        lat: dict[int, list[float]] = {c: [] for c in range(len(configs))}
        llm_calls = {c: 0 for c in range(len(configs))}
        for timed in (False, True):
            for n, q in enumerate(qs):
                svc = services[q["space"]]
                want = ids[(q["space"], q["answer"])]
                for j in range(len(configs)):
                    c = (n + j) % len(configs)
                    _, st, fusion = configs[c]
                    # The warm-up fills the key-phrase cache; a re-rank call would only cost the
                    # model's time (minutes per pass on a local model) and warm nothing.
                    if not timed and not (
                        st.key_weight > 0 and fusion == "score" and not st.llm_rerank and not st.llm_hypothesis
                    ):
                        continue
                    t = time.perf_counter()
                    got = [h.claim.id for h in svc.recall(q["question"], 10, steps=st, fusion=fusion)]
                    dt = time.perf_counter() - t
                    if timed:
                        lat[c].append(dt)
                        llm_calls[c] += svc.last_stats.llm_calls if svc.last_stats else 0
                        ranks[c][f"{q['space']}:{q['id']}"] = got.index(want) + 1 if want in got else None
            if log:
                log("measured" if timed else "warm-up pass done")
        out_configs = []
        parts = [p for p in ("tune", "heldout", "paraphrase") if any(q["part"] == p for q in qs)]
        for c, (name, st, fusion) in enumerate(configs):
            row: dict[str, Any] = {
                "name": name,
                "fusion": fusion,
                "steps": st.model_dump(),
                "p50_ms": round(percentile(lat[c], 0.5) * 1000, 1),
                "p95_ms": round(percentile(lat[c], 0.95) * 1000, 1),
                "llm_calls": llm_calls[c],
            }
            for p in parts:
                rs = [ranks[c][f"{q['space']}:{q['id']}"] for q in qs if q["part"] == p]
                row[p] = {
                    "n": len(rs),
                    "recall@1": round(sum(r == 1 for r in rs) / len(rs), 3),
                    "recall@5": round(sum(r is not None and r <= 5 for r in rs) / len(rs), 3),
                    "mrr": round(statistics.fmean(1 / r if r else 0.0 for r in rs), 3),
                }
            row["misses_tune"] = [
                q["id"] for q in qs if q["part"] == "tune" and ranks[c][f"{q['space']}:{q['id']}"] != 1
            ]
            out_configs.append(row)
        return {
            "load_s": round(load_s, 1),
            "memories": len(mem),
            "questions": {p: sum(q["part"] == p for q in qs) for p in parts},
            "k": 10,
            "configs": out_configs,
        }
    finally:
        for space in spaces.values():
            RetrievalRepository(bg.graph, space).delete_space_batched()
