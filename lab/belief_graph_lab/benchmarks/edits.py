"""``belief-graph bench edits``: what an edit of a premise costs, against a plain write, as the store grows.

An *edit* is ``assert_claim`` on the first premise of a rule instance: the write, the re-evaluation
of the instance's chain (2, 4 or 6 hops), the new version of the derived key and the currency pass,
all in one transaction. A *plain* write is ``assert_claim`` updating a fact nothing rests on. Both
are first updates of fresh keys, timed alternately in the same run on the same store, at each size
(facts 10^3 -> 10^6, rule instances one per ten facts, a third at each depth), so the ratio is
measured side by side and the size trend on keys with the same history.

The store is built with batched statements (``bench.load_facts``) and the rules' own engine
(``derive_by_rule`` over the new instances, 500 per transaction). Chains: instance ``i`` of depth
``d`` has an anchor ``e<d>.i<i>.start`` pointing at one of two complete paths of ``d - 1`` hops
(``e<d>.hop.<node>``); the edit flips it to the other path, so every edit re-derives a new value
through the whole chain. 30% of the facts are filler that no rule reads.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from belief_graph.db.driver import Graph
from belief_graph.db.schema import apply_migrations, verify_schema
from belief_graph.errors import ConfigurationError
from belief_graph.facade import BeliefGraph
from belief_graph.models import new_id, utcnow

from .revision import _drop
from .timing import percentile, under_profile

__all__ = ["run_edits"]

DEPTHS = (2, 4, 6)
_LOAD_BATCH = 10_000


def chain_rule(depth: int) -> dict[str, Any]:
    premises = [{"key": f"e{depth}.{{x}}.start", "as": "v1"}] + [
        {"key": f"e{depth}.hop.{{v{k - 1}}}", "as": f"v{k}"} for k in range(2, depth + 1)
    ]
    return {
        "name": f"chain{depth}",
        "premises": premises,
        "conclusion": {
            "key": f"r{depth}.{{x}}.out",
            "value": f"{{v{depth}}}",
            "text": f"{{x}} reaches {{v{depth}}} in {depth} hops",
        },
    }


def _chain_rows(depth: int, i: int) -> list[dict[str, str]]:
    rows = [{"key": f"e{depth}.i{i}.start", "value": f"x{i}a1"}]
    for path in ("a", "b"):
        for k in range(1, depth):
            rows.append({"key": f"e{depth}.hop.x{i}{path}{k}", "value": f"x{i}{path}{k + 1}"})
    return rows


class _Store:
    """The bench space, grown in steps; instance and filler counters per depth."""

    def __init__(self, bg: BeliefGraph, graph: Graph) -> None:
        self.bg = bg
        self.graph = graph
        self.space = bg.space
        self.instances = dict.fromkeys(DEPTHS, 0)
        self.fillers = 0
        self.facts = 0

    def _load(self, rows: list[dict[str, str]]) -> None:
        at = utcnow().isoformat()
        for start in range(0, len(rows), _LOAD_BATCH):
            batch = [{**r, "id": new_id()} for r in rows[start : start + _LOAD_BATCH]]
            self.graph.write("bench.load_facts", space=self.space, agent="bench:loader", at=at, rows=batch)
        self.facts += len(rows)

    def add_chains(self, depth: int, n: int) -> list[int]:
        first = self.instances[depth]
        ids = list(range(first, first + n))
        rows = [r for i in ids for r in _chain_rows(depth, i)]
        self._load(rows)
        self.instances[depth] += n
        self.bg.rules.run(f"chain{depth}", [f"e{depth}.i{i}.start" for i in ids])
        return ids

    def add_fillers(self, n: int) -> list[str]:
        keys = [f"filler.k{j}" for j in range(self.fillers, self.fillers + n)]
        self._load([{"key": k, "value": "v0"} for k in keys])
        self.fillers += n
        return keys


def _edit(bg: BeliefGraph, depth: int, i: int) -> float:
    t0 = time.perf_counter()
    r = bg.assert_claim(f"e{depth}.i{i}.start", f"x{i}b1", f"chain {i} now starts on path b", agent="bench:loader")
    dt = time.perf_counter() - t0
    if [c.value for c in r.rederived] != [f"x{i}b{depth}"]:
        raise RuntimeError(f"edit of chain{depth} instance {i} re-derived {[c.value for c in r.rederived]}")
    return dt


def _plain(bg: BeliefGraph, key: str) -> float:
    t0 = time.perf_counter()
    r = bg.assert_claim(key, "v1", f"{key} changed", agent="bench:loader")
    dt = time.perf_counter() - t0
    if r.op.value != "UPDATE" or r.rederived or r.staled:
        raise RuntimeError(f"plain write of {key} did {r.op.value} with consequences")
    return dt


def run_edits(
    bg: BeliefGraph,
    sizes: Sequence[int],
    repeats: int = 30,
    keep: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure edits and plain writes side by side at each store size (see the module docstring)."""
    say = progress or (lambda _m: None)
    graph = bg.graph
    # Measured without the schema's indexes an edit cost 100x the db hits: apply what is pending
    # and wait until every index is online, so the figures are those of the schema the code expects.
    applied = apply_migrations(graph, dimension=bg.settings.embedding.dimension)
    if applied:
        say(f"applied migrations {', '.join(f'V{m.version:03d}' for m in applied)} before measuring")
    report = verify_schema(graph, dimension=bg.settings.embedding.dimension, wait_seconds=300.0)
    if not report.ok:
        raise ConfigurationError(
            "bench edits needs the current schema; `belief-graph db verify` says: pending "
            f"{report.pending}, missing {report.missing}, not online {report.not_online}, {report.problems}"
        )
    space = f"bench-edits-{new_id()[-8:]}"
    engine = BeliefGraph(graph, bg.settings, space, bg.embedder)
    store = _Store(engine, graph)
    rows: list[dict[str, Any]] = []
    try:
        for depth in DEPTHS:
            engine.rules.add(chain_rule(depth), agent="bench:admin")
        # warm-up: plans compiled, caches warm (these keys are never measured)
        for depth in DEPTHS:
            for i in store.add_chains(depth, 10):
                _edit(engine, depth, i)
        for k in store.add_fillers(10):
            _plain(engine, k)
        profiled, prof = under_profile(engine)
        for size in sorted(sizes):
            # the fresh keys measured at this size, then the rest of the store up to size facts
            measured = {d: store.add_chains(d, repeats + 1) for d in DEPTHS}
            plain_keys = store.add_fillers((repeats + 1) * len(DEPTHS))
            target_instances = max(size // 10, 1)
            t0 = time.perf_counter()
            for depth in DEPTHS:
                more = target_instances // len(DEPTHS) - store.instances[depth]
                if more > 0:
                    store.add_chains(depth, more)
            filler = size - store.facts
            if filler > 0:
                store.add_fillers(filler)
            load_s = time.perf_counter() - t0
            say(f"{store.facts} facts, {sum(store.instances.values())} instances (built in {load_s:.0f} s)")
            plains = iter(plain_keys)
            for depth in DEPTHS:
                edits, plain = [], []
                for i in measured[depth][:repeats]:
                    edits.append(_edit(engine, depth, i))
                    plain.append(_plain(engine, next(plains)))
                prof.reset()
                _edit(profiled, depth, measured[depth][repeats])
                hits_edit = prof.total
                hits_by_statement = dict(sorted(prof.hits.items()))
                prof.reset()
                _plain(profiled, next(plains))
                hits_plain = prof.total
                row = {
                    "facts": store.facts,
                    "instances": sum(store.instances.values()),
                    "depth": depth,
                    "edit_ms_p50": round(statistics.median(edits) * 1000, 2),
                    "edit_ms_p95": round(percentile(edits, 0.95) * 1000, 2),
                    "plain_ms_p50": round(statistics.median(plain) * 1000, 2),
                    "plain_ms_p95": round(percentile(plain, 0.95) * 1000, 2),
                    "ratio_p50": round(statistics.median(edits) / statistics.median(plain), 2),
                    "pair_ratios": [
                        round(min(e / p for e, p in zip(edits, plain, strict=True)), 2),
                        round(max(e / p for e, p in zip(edits, plain, strict=True)), 2),
                    ],
                    "db_hits_edit": hits_edit,
                    "db_hits_edit_by_statement": hits_by_statement,
                    "db_hits_plain": hits_plain,
                    "build_s": round(load_s, 1),
                }
                rows.append(row)
                say(
                    f"  depth {depth}: edit {row['edit_ms_p50']} ms, plain {row['plain_ms_p50']} ms, "
                    f"x{row['ratio_p50']}, db hits {hits_edit} / {hits_plain}"
                )
    finally:
        if not keep:
            _drop(graph, space)
    summary: dict[str, Any] = {"max_ratio_p50": max(r["ratio_p50"] for r in rows), "by_depth": {}}
    for depth in DEPTHS:
        rs = [r for r in rows if r["depth"] == depth]
        summary["by_depth"][depth] = {
            "edit_p50_largest_over_smallest": round(rs[-1]["edit_ms_p50"] / rs[0]["edit_ms_p50"], 2),
            "db_hits_edit_max_over_min": round(
                max(r["db_hits_edit"] for r in rs) / min(r["db_hits_edit"] for r in rs), 3
            ),
            "db_hits_edit": sorted({r["db_hits_edit"] for r in rs}),
        }
    return {
        "space": space if keep else None,
        "embedder": bg.embedder.name,
        "repeats": repeats,
        "rows": rows,
        "summary": summary,
    }
