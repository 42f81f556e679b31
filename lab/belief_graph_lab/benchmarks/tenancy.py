"""``belief-graph bench tenancy``: recall@k of a small space beside a large one, by recall path.

The ``claim_embedding`` vector index is shared by every space. Its search is approximate (HNSW) and
global: recall asks it for the top ``fetch`` claims of the whole store, then keeps those of its
space. A small space beside a large one then competes with the large one's claims for those
places. This bench measures what that costs, in one run:

* ``--big`` claims (default 10^5) are loaded into one scratch space and ``--small`` claims
  (default 100; several sizes allowed) into others, all drawn from one synthetic clustered
  distribution (``bench_recall.clustered_vectors``: the small spaces' claims have neighbours in the
  big space, as a real tenant's would);
* each query is a small-space claim plus noise; the truth is the exact top-k **within that space**
  (numpy over the same float32 vectors);
* for each small space, ``RetrievalService.recall`` (vector half only) is measured twice: with the
  exact scan turned off (``exact_scan_max=0``: the global index top-``fetch`` filtered by space,
  the over-fetch loop growing ``fetch`` x4 until ``k`` hits of the space are found) and with the
  default (an exact cosine scan of the space when it has at most ``EXACT_SCAN_MAX`` candidates);
  recall@k, p50/p95 latency through the driver and the ``fetch`` the loop reached are printed;
* the big space's own recall through the default path (the index) is measured the same way.

All scratch spaces are removed at the end (also on failure or Ctrl-C).
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime
from typing import Any

import numpy as np

from belief_graph.models import new_id
from belief_graph.repositories.retrieval import RetrievalRepository
from belief_graph.services.retrieval import EXACT_SCAN_MAX, RetrievalService

from .recall import _BATCH, _NOISE_COS, _noise, _unit, clustered_vectors
from .timing import percentile

__all__ = ["measure_tenancy"]


def _load(repo: RetrievalRepository, x: np.ndarray, prefix: str, at: str) -> None:
    for start in range(0, len(x), _BATCH):
        rows = [
            {"id": f"{prefix}{i}", "text": f"bench claim {i}", "embedding": x[i].tolist()}
            for i in range(start, min(len(x), start + _BATCH))
        ]
        repo.bench_load(rows, at)


def _measure(svc: RetrievalService, q: np.ndarray, truth: list[set[str]], k: int) -> dict[str, Any]:
    for v in q[:3]:  # warm-up
        svc.recall("bench query", k, embedding=v.tolist(), fulltext=False)
    lat: list[float] = []
    rec: list[float] = []
    fetches: list[int] = []
    for v, t in zip(q, truth, strict=True):
        s = time.perf_counter()
        hits = svc.recall("bench query", k, embedding=v.tolist(), fulltext=False)
        lat.append(time.perf_counter() - s)
        rec.append(len(t & {h.claim.id for h in hits}) / k)
        assert svc.last_stats is not None
        fetches.append(svc.last_stats.fetch if svc.last_stats.stopped != "exact_scan" else 0)
    return {
        "recall": round(statistics.fmean(rec), 4),
        "p50_ms": round(percentile(lat, 0.5) * 1000, 1),
        "p95_ms": round(percentile(lat, 0.95) * 1000, 1),
        "max_fetch": max(fetches),
        "median_fetch": int(statistics.median(fetches)),
    }


def measure_tenancy(
    bg: Any, big: int, smalls: list[int], queries: int, k: int, seed: int, log: Any = None
) -> dict[str, Any]:
    dim = bg.settings.embedding.dimension
    rng = np.random.default_rng(seed)
    x = clustered_vectors(big + sum(smalls), dim, rng)
    order = rng.permutation(len(x))
    at = datetime.now(UTC).isoformat()
    big_space = f"__bench_tenancy__{new_id()}"
    small_spaces = [f"__bench_tenancy__{new_id()}" for _ in smalls]
    repos = [RetrievalRepository(bg.graph, s) for s in [big_space, *small_spaces]]
    try:
        t0 = time.perf_counter()
        xb = x[order[:big]]
        _load(repos[0], xb, "b", at)
        parts: list[np.ndarray] = []
        offset = big
        for repo, n in zip(repos[1:], smalls, strict=True):
            xs = x[order[offset : offset + n]]
            offset += n
            _load(repo, xs, "s", at)
            parts.append(xs)
        load_s = time.perf_counter() - t0
        if log:
            log(
                f"  loaded {big:,} + {', '.join(f'{n:,}' for n in smalls)} claims in {load_s:.0f} s; waiting for the index"
            )
        t1 = time.perf_counter()
        while True:  # the index is refreshed asynchronously: wait until sampled vectors find themselves
            found = sum(
                f"s{i}" in repo.bench_index_topk(xs[i].tolist(), 1, 4 * big)
                for repo, xs in zip(repos[1:], parts, strict=True)
                for i in range(min(3, len(xs)))
            )
            if found == sum(min(3, len(xs)) for xs in parts) or time.perf_counter() - t1 > 900:
                break
            time.sleep(1.0)
        wait_s = time.perf_counter() - t1
        rows = []
        for space, xs, n in zip(small_spaces, parts, smalls, strict=True):
            picks = rng.choice(n, size=min(queries, n), replace=False)
            q = _unit(xs[picks] + _noise(rng, (len(picks), dim), _NOISE_COS))
            exact = np.argsort(-(q @ xs.T), axis=1)[:, :k]
            truth = [{f"s{i}" for i in row} for row in exact]
            index_only = RetrievalService(bg.graph, space, bg.embedder, dim, exact_scan_max=0)
            default = RetrievalService(bg.graph, space, bg.embedder, dim)
            rows.append(
                {
                    "space_claims": n,
                    "queries": len(picks),
                    "index_only": _measure(index_only, q, truth, k),
                    "default": _measure(default, q, truth, k),
                }
            )
            if log:
                log(f"  measured the {n:,}-claim space")
        picks = rng.choice(big, size=min(queries, big), replace=False)
        q = _unit(xb[picks] + _noise(rng, (len(picks), dim), _NOISE_COS))
        exact = np.argsort(-(q @ xb.T), axis=1)[:, :k]
        truth = [{f"b{i}" for i in row} for row in exact]
        big_row = _measure(RetrievalService(bg.graph, big_space, bg.embedder, dim), q, truth, k)
        return {
            "big_claims": big,
            "k": k,
            "exact_scan_max": EXACT_SCAN_MAX,
            "load_s": round(load_s, 1),
            "index_wait_s": round(wait_s, 1),
            "small": rows,
            "big": big_row,
        }
    finally:
        for repo in repos:
            repo.delete_space_batched()
