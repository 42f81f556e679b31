"""``belief-graph bench tenants``: recall of one space while other spaces fill the vector index it shares.

Every space of a database shares one ``claim_embedding`` vector index (and one ``claim_text``
fulltext index); ``recall`` asks the index for the nearest claims of *all* spaces and keeps those of
its own, asking for 4x more each round until ``k`` pass (up to 262,144). This bench measures what
that costs as one space becomes a smaller share of the index: a tenant space of ``--tenant`` claims,
then other spaces loaded until the tenant holds each ``--shares`` fraction of the indexed claims
(100 %, 10 %, 1 % by default). At each share, ``--queries`` recalls (k = 5) of the text of one of the
tenant's own claims, through the ordinary hybrid recall: latency p50/p95, fetch rounds, the largest
fetch, and how often the claim itself comes first (``self@1``). The claims are loaded with
``bench.load_claims`` (the write path's shape, embeddings from the hashing embedder over texts drawn
from one vocabulary, so other tenants' claims are genuine near neighbours). docs/scaling.md uses it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from belief_graph.embeddings import HashingEmbedder
from belief_graph.facade import BeliefGraph
from belief_graph.models import new_id

from .timing import percentile
from .writes import _drop, _ms, _Store, _text, _value

__all__ = ["run_tenants"]


def run_tenants(
    bg: BeliefGraph,
    tenant: int = 1000,
    shares: Sequence[float] = (1.0, 0.1, 0.01),
    queries: int = 30,
    others: int = 10,
    keep: bool = False,
    progress: Callable[[str], None] | None = None,
    seed: int = 11,
) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    graph = bg.graph
    tag = new_id()[-8:]
    emb = HashingEmbedder(bg.settings.embedding.dimension)
    t_space = f"bench-tenant-{tag}"
    engine = BeliefGraph(graph, bg.settings, t_space, emb)
    stores = [_Store(graph, f"bench-tenant-{tag}-o{j}", emb, True, offset=10**7 * (j + 1)) for j in range(others)]
    mine = _Store(graph, t_space, emb, True)
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        mine.grow(tenant)
        for share in sorted(shares, reverse=True):
            want = int(round(tenant / share)) - tenant
            t0 = time.perf_counter()
            per = want // others if others else 0
            for j, st in enumerate(stores):
                st.grow(per + (want - per * others if j == 0 else 0))
            load_s = time.perf_counter() - t0
            total = tenant + sum(s.loaded for s in stores)
            say(f"tenant share {share:g}: {total} claims in the index (loaded in {load_s:.0f} s); measuring")
            for _ in range(3):  # warm-up
                engine.retrieval.recall(_text(rng.randrange(tenant), "x"), 5)
            lat: list[float] = []
            rounds: list[int] = []
            fetches: list[int] = []
            stopped: dict[str, int] = {}
            self_at_1 = 0
            for _ in range(queries):
                i = rng.randrange(tenant)
                text = _text(i, _value(i))
                t = time.perf_counter()
                hits = engine.retrieval.recall(text, 5)
                lat.append(time.perf_counter() - t)
                stats = engine.retrieval.last_stats
                if stats is not None:
                    rounds.append(stats.rounds)
                    fetches.append(stats.fetch)
                    stopped[stats.stopped] = stopped.get(stats.stopped, 0) + 1
                self_at_1 += bool(hits) and hits[0].claim.key == f"load.k{i}"
            rows.append(
                {
                    "share": share,
                    "claims_in_index": total,
                    "tenant_claims": tenant,
                    "load_s": round(load_s, 1),
                    "recall_ms_p50": _ms(statistics.median(lat)),
                    "recall_ms_p95": _ms(percentile(lat, 0.95)),
                    "rounds_mean": round(statistics.mean(rounds), 2) if rounds else None,
                    "fetch_max": max(fetches) if fetches else None,
                    "stopped": stopped,
                    "self_at_1": round(self_at_1 / queries, 3),
                }
            )
            say(
                f"  recall p50 {rows[-1]['recall_ms_p50']} ms, rounds {rows[-1]['rounds_mean']}, "
                f"fetch up to {rows[-1]['fetch_max']}, self@1 {rows[-1]['self_at_1']}"
            )
    finally:
        elapsed = time.perf_counter() - started
        if not keep:
            for s in [mine, *stores]:
                _drop(graph, s.space, say)
    first = rows[0]["recall_ms_p50"] if rows else None
    for r in rows:
        r["recall_p50_over_alone"] = round(r["recall_ms_p50"] / first, 2) if first else None
    return {"tenant": tenant, "others": others, "queries": queries, "rows": rows, "seconds": round(elapsed, 1)}
