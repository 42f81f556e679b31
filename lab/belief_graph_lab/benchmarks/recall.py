"""``belief-graph bench recall``: the Neo4j vector index against an exact cosine scan, side by side.

For each size N (default 10^4 and 10^5), in one run:

* N unit vectors (dimension = the settings' embedding dimension) are loaded as active claims into
  a scratch space (batched ``UNWIND`` writes, stored as float32 vector properties); the space is
  removed at the end (also on failure or Ctrl-C).
* The vectors are **synthetic**, not real sentence embeddings: the local MiniLM embedder runs at
  about 30 sentences/s on this machine's CPU (measured), so 10^5 real embeddings would take about
  an hour. ``--vectors clustered`` (the default): ``N / 100`` cluster centres are drawn uniformly
  on the sphere; each vector is its centre plus Gaussian noise (cosine to its centre about 0.7,
  like paraphrases of one topic), normalised. ``--vectors nested``: topics, sub-topics and points
  (``nested_vectors``). Queries are stored vectors plus the same noise, normalised.
* ``recall@k`` of the index = ``|index top-k ∩ exact top-k| / k``, measured twice: asking the
  index for exactly ``k`` neighbours (the raw index: Lucene's HNSW search keeps a beam of ``k``
  candidates) and asking it for ``--fetch`` (default 50, what ``recall`` asks for first) and
  keeping the best ``k``. The exact top-k is computed
  by numpy over the same float32 vectors; the Cypher brute-force scan
  (``vector.similarity.cosine`` over every claim of the space) is checked the same way.
* Latency: wall-clock per query through the driver (Bolt round trip included, the same for both),
  after warm-up; p50 and p95 over ``--queries`` queries; ``speedup = exact p50 / index p50``.
* The index measured is the store's own ``claim_embedding``: its HNSW configuration as SHOW
  INDEXES reports it (``vector.quantization.enabled``, ``vector.hnsw.m``,
  ``vector.hnsw.ef_construction``; set by ``schemas/V007__vector_index_config.cypher``) is printed
  in the table title and returned as ``index`` in ``--json``.
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime
from typing import Any

import numpy as np

from belief_graph.repositories.retrieval import RetrievalRepository

from .timing import percentile

__all__ = ["GENERATORS", "clustered_vectors", "index_config", "measure_recall", "nested_vectors"]

_BATCH = 2000
_NOISE_COS = 0.7


def clustered_vectors(n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` unit vectors around ``max(1, n // 100)`` random centres (cosine to the centre ~0.7)."""
    centres = _unit(rng.standard_normal((max(1, n // 100), dim)).astype(np.float32))
    return _unit(centres[rng.integers(0, len(centres), n)] + _noise(rng, (n, dim), _NOISE_COS))


def nested_vectors(n: int, dim: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` unit vectors in two levels: ``max(1, n // 100)`` topics; 10 sub-topics per topic
    (cosine ~0.8 to the topic); points around their sub-topic (cosine ~0.9): each point has ~9
    close siblings (like paraphrases of one fact) inside a looser topic."""
    topics = _unit(rng.standard_normal((max(1, n // 100), dim)).astype(np.float32))
    subs = _unit(np.repeat(topics, 10, axis=0) + _noise(rng, (len(topics) * 10, dim), 0.8))
    return _unit(subs[rng.integers(0, len(subs), n)] + _noise(rng, (n, dim), 0.9))


GENERATORS = {"clustered": clustered_vectors, "nested": nested_vectors}
_QUERY_COS = {"clustered": _NOISE_COS, "nested": 0.9}


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)
    return out


def _noise(rng: np.random.Generator, shape: tuple[int, int], cos: float) -> np.ndarray:
    """Gaussian noise that leaves a unit vector at about cosine ``cos`` to where it was."""
    sigma = float(np.sqrt((1 / cos**2 - 1) / shape[1]))
    return (rng.standard_normal(shape) * sigma).astype(np.float32)


def index_config(repo: RetrievalRepository) -> dict[str, Any]:
    """``claim_embedding``'s state and ``vector.*`` indexConfig entries as SHOW INDEXES reports them."""
    info = repo.index_info("claim_embedding") or {}
    cfg = (info.get("options") or {}).get("indexConfig") or {}
    return {
        "name": "claim_embedding",
        "state": info.get("state"),
        **{k: cfg[k] for k in sorted(cfg) if k.startswith("vector.")},
    }


def _describe(cfg: dict[str, Any]) -> str:
    if cfg.get("state") is None:
        return "claim_embedding missing"
    q = cfg.get("vector.quantization.enabled")
    return (
        f"claim_embedding: quantization {'on' if q else 'off' if q is not None else '?'}, "
        f"m {cfg.get('vector.hnsw.m', '?')}, ef_construction {cfg.get('vector.hnsw.ef_construction', '?')}"
    )


def measure_recall(
    repo: RetrievalRepository,
    n: int,
    dim: int,
    queries: int,
    k: int,
    seed: int,
    log: Any = None,
    fetches: tuple[int, ...] = (50,),
    vectors: str = "clustered",
) -> dict[str, Any]:
    """Load, wait for the index, measure every path, remove the space. One column of the table."""
    rng = np.random.default_rng(seed)
    x = GENERATORS[vectors](n, dim, rng)
    at = datetime.now(UTC).isoformat()
    t0 = time.perf_counter()
    try:
        for start in range(0, n, _BATCH):
            rows = [
                {"id": f"r{i}", "text": f"bench claim {i}", "embedding": x[i].tolist()}
                for i in range(start, min(n, start + _BATCH))
            ]
            repo.bench_load(rows, at)
            if log is not None and (start // _BATCH) % 10 == 9:
                log(f"  loaded {start + len(rows)}/{n}")
        load_s = time.perf_counter() - t0
        # the index is refreshed asynchronously: wait until sampled vectors find themselves
        t1 = time.perf_counter()
        probe = rng.choice(n, size=min(20, n), replace=False)
        while True:
            found = sum(f"r{i}" in repo.bench_index_topk(x[i].tolist(), k, 50) for i in probe)
            if found == len(probe) or time.perf_counter() - t1 > 600:
                break
            time.sleep(0.5)
        wait_s = time.perf_counter() - t1
        picks = rng.choice(n, size=queries, replace=False)
        q = _unit(x[picks] + _noise(rng, (queries, dim), _QUERY_COS[vectors]))
        exact = np.argsort(-(q @ x.T), axis=1)[:, :k]
        paths = [("index", k)] + [(f"index_fetch{f}", f) for f in fetches if f != k]
        for v in q[:3]:  # warm-up (page cache, query plans)
            for _, f in paths:
                repo.bench_index_topk(v.tolist(), k, f)
            repo.bench_exact_topk(v.tolist(), k)
        lat: dict[str, list[float]] = {name: [] for name, _ in [*paths, ("exact", k)]}
        rec: dict[str, list[float]] = {name: [] for name in lat}
        for j, v in enumerate(q):
            truth = {f"r{i}" for i in exact[j]}
            vec = v.tolist()
            for name, f in paths:
                s = time.perf_counter()
                got = repo.bench_index_topk(vec, k, f)
                lat[name].append(time.perf_counter() - s)
                rec[name].append(len(truth & set(got)) / k)
            s = time.perf_counter()
            got = repo.bench_exact_topk(vec, k)
            lat["exact"].append(time.perf_counter() - s)
            rec["exact"].append(len(truth & set(got)) / k)
        out: dict[str, Any] = {
            "claims": n,
            "dimension": dim,
            "queries": queries,
            "k": k,
            "vectors": vectors,
            "load_s": round(load_s, 2),
            "index_wait_s": round(wait_s, 2),
            "paths": {},
        }
        p50e = percentile(lat["exact"], 0.5)
        for name in lat:
            p50 = percentile(lat[name], 0.5)
            out["paths"][name] = {
                "fetch": dict(paths).get(name),
                "recall": round(statistics.fmean(rec[name]), 4),
                "p50_ms": round(p50 * 1000, 2),
                "p95_ms": round(percentile(lat[name], 0.95) * 1000, 2),
                "exact_p50_over_p50": round(p50e / p50, 1) if p50 > 0 else None,
            }
        return out
    finally:
        repo.delete_space_batched()
