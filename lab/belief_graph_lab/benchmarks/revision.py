"""Reconsolidation studies: ``bench revision-pairs``, ``bench scimap``, ``bench revision-latency``.

Every world (``belief_graph_lab.scenarios.worlds``) is built through the public API (``add_episode``,
``derive``) in its own memory space, repaired with ``retract`` in each mode, and compared with
:func:`~belief_graph_lab.scenarios.worlds.least_model`, the definition of DESIGN.md "Support"
recomputed from scratch in Python (not the engine's Cypher). Nothing in the
printed numbers is fixed in advance: they are counts of worlds whose stored labelling equals the
least model after the repair.

* ``revision-pairs``: 2 x ``--pairs`` worlds in pairs with identical texts, timestamps,
  embeddings and influence edges (premise -> conclusion); only the grouping of the premises into
  justifications differs (one AND-justification vs one OR-alternative per premise). The command
  checks that from the graph before it measures.
* ``scimap``: generated research workspaces (observation -> interpretation -> mechanism ->
  planned experiment, with shared and independent branches); a reviewer invalidates one executed
  result; we count repaired consequences, preserved branches, and withdrawn claims the compiled
  working context still cites.
* ``revision-latency``: the repair latency of one workspace alone and embedded in a space of
  10^3 .. 10^6 claims (bulk-loaded filler, same space, connected to the workspace outside the
  region), with the db hits of the whole reconsolidation (``PROFILE``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from belief_graph.db.driver import Graph
from belief_graph.embeddings import Embedder
from belief_graph.facade import BeliefGraph
from belief_graph.models import new_id
from belief_graph.models.support import MODES
from belief_graph.repositories.admin import AdminRepository
from belief_graph.repositories.support import ProfilingRunner, TimingRunner
from belief_graph.services.support import SupportService

from ..scenarios.worlds import (
    EPOCH,
    CachedEmbedder,
    World,
    build_world,
    chain_world,
    least_model,
    paired_worlds,
    scimap_workspace,
)

__all__ = [
    "add_filler",
    "run_revision_latency",
    "run_revision_pairs",
    "run_scimap",
    "run_wave_comparison",
]


def _labels(bg: BeliefGraph, ids: dict[str, str]) -> dict[str, str]:
    rows = bg.support.repo.find_nodes(list(ids.values()))
    return {name: rows[i]["status"] for name, i in ids.items()}


def _exact(world: World, statuses: dict[str, str]) -> bool:
    truth = least_model(world, set(world.roots))
    held = {n for n, s in statuses.items() if s not in ("withdrawn", "retracted")}
    return held == truth


def _engine(graph: Graph, bg: BeliefGraph, space: str, embedder: Embedder) -> BeliefGraph:
    return BeliefGraph(graph, bg.settings, space, embedder)


def _drop(graph: Graph, space: str) -> None:
    AdminRepository(graph, space).delete_space_batched(space)


# ---------------------------------------------------------------------------------------------
# Paired worlds
# ---------------------------------------------------------------------------------------------


def _fingerprint(graph: Graph, space: str) -> dict[str, Any]:
    row = graph.read("support.world_fingerprint", space=space)[0]
    return {
        "nodes": sorted([str(x) for x in row["claims"]] + [str(x) for x in row["episodes"]]),
        "influence": sorted(str(x) for x in row["influence"]),
        "grouping": sorted(str([c, sorted(ps)]) for c, ps in row["families"]),
    }


def run_revision_pairs(bg: BeliefGraph, pairs: int = 40, keep: bool = False, seed: int = 7) -> dict[str, Any]:
    """Build the paired worlds once per mode, repair, count exact repairs per mode."""
    graph = bg.graph
    embedder = CachedEmbedder(bg.embedder)
    run = new_id()[-8:]
    exact = {m: 0 for m in MODES}
    by_grouping = {m: {"and": 0, "or": 0} for m in MODES}
    verified = 0
    seconds: dict[str, list[float]] = {m: [] for m in MODES}
    spaces: list[str] = []
    for i, (w_and, w_or) in enumerate(paired_worlds(pairs, seed)):
        prints = []
        for mode in MODES:
            for w, grouping in ((w_and, "and"), (w_or, "or")):
                space = f"bench-rp-{run}-{i:02d}-{grouping}-{mode}"
                spaces.append(space)
                e = _engine(graph, bg, space, embedder)
                ids = build_world(e, w)
                if mode == "justification":
                    prints.append(_fingerprint(graph, space))
                audit = e.retract([ids[r] for r in w.roots], "assay failed review", mode)
                seconds[mode].append(audit.seconds or 0.0)
                if _exact(w, _labels(e, ids)):
                    exact[mode] += 1
                    by_grouping[mode][grouping] += 1
        a, o = prints
        if a["nodes"] == o["nodes"] and a["influence"] == o["influence"] and a["grouping"] != o["grouping"]:
            verified += 1
        if not keep:
            for s in spaces:
                _drop(graph, s)
            spaces.clear()
    return {
        "worlds": 2 * pairs,
        "pairs_verified_identical_but_grouping": verified,
        "exact": exact,
        "exact_by_grouping": by_grouping,
        "median_repair_ms": {m: round(statistics.median(v) * 1000, 2) for m, v in seconds.items() if v},
    }


# ---------------------------------------------------------------------------------------------
# Research workspaces (scimap)
# ---------------------------------------------------------------------------------------------


def _scimap_metrics(w: World, statuses: dict[str, str], cited: set[str], ids: dict[str, str]) -> dict[str, int]:
    before = least_model(w, set())
    after = least_model(w, set(w.roots))
    should_go = {c for c in w.claims if c in before and c not in after}
    should_stay = {c for c in w.claims if c in after}
    held = {n for n, s in statuses.items() if s not in ("withdrawn", "retracted")}
    invalid_ids = {ids[c] for c in should_go} | {ids[r] for r in w.roots}
    return {
        "consequences": len(should_go),
        "repaired": len({c for c in should_go if statuses[c] == "withdrawn"}),
        "preserved_expected": len(should_stay),
        "preserved": len(should_stay & held),
        "independent_in_region": len(w.downstream(w.roots) & after),
        "independent_in_region_preserved": len(w.downstream(w.roots) & after & held),
        "withdrawn_cited": len(cited & invalid_ids),
    }


def run_scimap(
    bg: BeliefGraph,
    workspaces: int = 20,
    modes: Sequence[str] = ("none", "justification"),
    keep: bool = False,
    seed: int = 11,
) -> dict[str, Any]:
    graph = bg.graph
    embedder = CachedEmbedder(bg.embedder)
    run = new_id()[-8:]
    totals: dict[str, dict[str, int]] = {}
    latencies: dict[str, list[float]] = {m: [] for m in modes}
    for i in range(workspaces):
        w = scimap_workspace(i, seed)
        for mode in modes:
            space = f"bench-sm-{run}-{i:02d}-{mode}"
            e = _engine(graph, bg, space, embedder)
            ids = build_world(e, w)
            audit = e.retract(
                [ids[r] for r in w.roots], "reviewer: the executed run is invalid (contaminated reagent)", mode
            )
            latencies[mode].append(audit.seconds or 0.0)
            ctx = e.context(budget_tokens=100_000, limit=1000)
            m = _scimap_metrics(w, _labels(e, ids), ctx.cited_ids(), ids)
            t = totals.setdefault(mode, {})
            for k, v in m.items():
                t[k] = t.get(k, 0) + v
            if not keep:
                _drop(graph, space)
    return {
        "workspaces": workspaces,
        "modes": totals,
        "median_repair_ms": {m: round(statistics.median(v) * 1000, 2) for m, v in latencies.items() if v},
    }


# ---------------------------------------------------------------------------------------------
# Latency: region-bounded cost
# ---------------------------------------------------------------------------------------------

_FILLER_BATCH = 10_000
_CHAIN = 50
WARM_FIRST = 100
"""Warm-up repairs (and floor probes) before the first size is measured; 3 before each later one."""


def add_filler(graph: Graph, space: str, start: int, count: int, anchors: list[str], at: str) -> None:
    """Add ``count`` filler claims in chains of 50: the head of each chain is derived from a
    workspace node outside the region (so the graph is connected), the others from the previous.
    Each is a derived claim as the engine writes one (first revision, writer, justification), so
    the space keeps its invariants (`db check`)."""
    rows: list[dict[str, Any]] = []
    for n in range(start, start + count):
        prem = [anchors[(n // _CHAIN) % len(anchors)]] if n % _CHAIN == 0 else [f"filler-{n - 1}"]
        rows.append({"id": f"filler-{n}", "text": f"Filler finding {n} from an unrelated study", "premises": prem})
        if len(rows) == _FILLER_BATCH:
            graph.write("support.bulk_filler", space=space, agent="bench:filler", at=at, rows=rows)
            rows = []
    if rows:
        graph.write("support.bulk_filler", space=space, agent="bench:filler", at=at, rows=rows)


def _measure(
    svc: SupportService,
    steps: SupportService,
    timed: SupportService,
    timer: TimingRunner,
    roots: list[str],
    repeats: int,
    profiler: ProfilingRunner,
    profiled: SupportService,
    floor: Any,
) -> dict[str, Any]:
    """``repeats`` rounds, each: the commit floor, retract + restore in one statement, retract +
    restore as the step statements (the same roots: each cycle leaves them as they were)."""
    fl, retract_s, restore_s, steps_retract, steps_restore = [], [], [], [], []
    region = 0
    for _ in range(repeats):
        fl.append(floor())
        a = svc.retract(roots, "bench: reviewer invalidates the run")
        b = svc.restore(roots, "bench: the run was fine after all")
        retract_s.append(a.seconds or 0.0)
        restore_s.append(b.seconds or 0.0)
        region = a.region or 0
        c = steps.retract(roots, "bench: reviewer invalidates the run (step statements)")
        d = steps.restore(roots, "bench: the run was fine after all (step statements)")
        steps_retract.append(c.seconds or 0.0)
        steps_restore.append(d.seconds or 0.0)
    server, client, statements, rec_s = [], [], [], []
    stepped = SupportService(
        timed.graph, timed.space, timed.embedder, timed.dimension, runner=timer, one_statement=False
    )
    for op in ("retract", "restore"):  # where the time goes: statements, server, the rest (begin, commit, driver)
        timer.reset()
        rec = getattr(timed, op)(roots, f"bench: timed {op}")
        server.append(sum(timer.server.values()))
        client.append(sum(timer.client.values()))
        statements.append(timer.statements)
        rec_s.append(rec.seconds)
    for op in ("retract", "restore"):
        timer.reset()
        getattr(stepped, op)(roots, f"bench: timed {op} (step statements)")
        statements.append(timer.statements)
    profiler.reset()
    profiled.retract(roots, "bench: profiled retract")
    hits_retract = profiler.total
    profiler.reset()
    profiled.restore(roots, "bench: profiled restore")
    hits_restore = profiler.total
    f50 = statistics.median(fl)
    r50, s50 = statistics.median(retract_s), statistics.median(restore_s)
    return {
        "region": region,
        "floor_ms_median": round(f50 * 1000, 2),
        "retract_ms_median": round(r50 * 1000, 2),
        "retract_ms_min": round(min(retract_s) * 1000, 2),
        "retract_ms_p90": round(sorted(retract_s)[int(0.9 * (len(retract_s) - 1))] * 1000, 2),
        "restore_ms_median": round(s50 * 1000, 2),
        "retract_over_floor": round(r50 / f50, 2),
        "restore_over_floor": round(s50 / f50, 2),
        "steps_retract_ms_median": round(statistics.median(steps_retract) * 1000, 2),
        "steps_restore_ms_median": round(statistics.median(steps_restore) * 1000, 2),
        "steps_retract_over_floor": round(statistics.median(steps_retract) / f50, 2),
        "statements": {
            "retract": statements[0],
            "restore": statements[1],
            "retract_steps": statements[2],
            "restore_steps": statements[3],
        },
        "timed_retract": {
            "total_ms": round((rec_s[0] or 0.0) * 1000, 2),
            "statement_client_ms": round(client[0] * 1000, 2),
            "statement_server_ms": round(server[0] * 1000, 2),
        },
        "timed_restore": {
            "total_ms": round((rec_s[1] or 0.0) * 1000, 2),
            "statement_client_ms": round(client[1] * 1000, 2),
            "statement_server_ms": round(server[1] * 1000, 2),
        },
        "db_hits_retract": hits_retract,
        "db_hits_restore": hits_restore,
    }


def run_revision_latency(
    bg: BeliefGraph,
    sizes: Sequence[int],
    repeats: int = 21,
    keep: bool = False,
    workspace: int = 0,
    progress: Any = None,
) -> dict[str, Any]:
    """Measure the same repair alone and inside ever larger spaces.

    One copy of the workspace per measurement (texts tagged, structure identical) is built up
    front in the same space, so every measured copy has the same revision history when it is
    measured (a node's relationship count is part of what an expansion costs). Filler claims are
    added between measurements, hanging off every copy's nodes outside the region.
    """
    graph = bg.graph
    embedder = CachedEmbedder(bg.embedder)
    space = f"bench-lat-{new_id()[-8:]}"
    e = _engine(graph, bg, space, embedder)
    w = scimap_workspace(workspace)
    steps = sorted(set(sizes))
    copies = [build_world(e, w.copy(f"[copy {k}]")) for k in range(len(steps) + 2)]
    warm, measured = copies[0], copies[1:]
    outside = [n for n in list(w.episodes) + list(w.claims) if n not in w.downstream(w.roots) and n not in w.roots]
    anchors = [ids[n] for n in outside for ids in copies]
    svc = SupportService(graph, space, embedder, bg.settings.embedding.dimension)
    stepwise = SupportService(graph, space, embedder, bg.settings.embedding.dimension, one_statement=False)
    timer = TimingRunner(graph)
    timed = SupportService(graph, space, embedder, bg.settings.embedding.dimension, runner=timer)

    def floor() -> float:
        t = time.perf_counter()
        graph.write("bench.write_probe", space=space, id=new_id())
        return time.perf_counter() - t

    profiler = ProfilingRunner(graph)
    profiled = SupportService(graph, space, embedder, bg.settings.embedding.dimension, runner=profiler)
    rows = []
    filler = 0
    built = len(copies) * len(w.claims)
    try:
        for k, size in enumerate([0, *steps]):
            need = size - built - filler
            load_s = 0.0
            if need > 0:
                t0 = time.perf_counter()
                add_filler(graph, space, filler, need, anchors, EPOCH.isoformat())
                filler += need
                load_s = time.perf_counter() - t0
            count = int(graph.read("support.count_claims", space=space)[0]["claims"])
            warm_roots = [warm[r] for r in w.roots]
            # plans cached, pages of the grown store in memory; before the first size also the JVM's
            # JIT, which on a freshly started server makes the first repairs 1.5-2x slower
            for _ in range(WARM_FIRST if k == 0 else 3):
                floor()
                for v in (svc, stepwise):
                    v.retract(warm_roots, "warm-up")
                    v.restore(warm_roots, "warm-up")
            roots = [measured[k][r] for r in w.roots]
            rows.append(
                {
                    "claims": count,
                    "load_s": round(load_s, 1),
                    **_measure(svc, stepwise, timed, timer, roots, repeats, profiler, profiled, floor),
                }
            )
            if progress:
                progress(rows[-1])
    finally:
        if not keep:
            _drop(graph, space)
    first, last = rows[0], rows[-1]
    return {
        "space": space if keep else None,
        "workspace_claims": len(w.claims),
        "region": first["region"],
        "rows": rows,
        "ratio_largest_smallest": {
            "claims": round(last["claims"] / first["claims"], 1),
            "retract_ms_median": round(last["retract_ms_median"] / first["retract_ms_median"], 2),
            "floor_ms_median": round(last["floor_ms_median"] / first["floor_ms_median"], 2),
            "retract_over_floor": round(last["retract_over_floor"] / first["retract_over_floor"], 2),
            "retract_ms_min": round(last["retract_ms_min"] / first["retract_ms_min"], 2),
            "restore_ms_median": round(last["restore_ms_median"] / first["restore_ms_median"], 2),
            "db_hits_retract": round(last["db_hits_retract"] / first["db_hits_retract"], 3),
            "db_hits_restore": round(last["db_hits_restore"] / first["db_hits_restore"], 3),
        },
    }


def run_wave_comparison(
    bg: BeliefGraph, depths: Sequence[int], repeats: int = 11, keep: bool = False
) -> list[dict[str, Any]]:
    """Restore latency of chains: all waves in one ``support.fixpoint`` statement (up to 64 per
    call, the default) vs one statement per wave (a Python loop of round trips)."""
    graph = bg.graph
    embedder = CachedEmbedder(bg.embedder)
    out = []
    for depth in depths:
        space = f"bench-waves-{new_id()[-8:]}"
        try:
            e = _engine(graph, bg, space, embedder)
            w = chain_world(depth)
            ids = build_world(e, w)
            roots = [ids["e"]]
            row: dict[str, Any] = {"depth": depth}
            for label, per_call in (("one_statement", 64), ("statement_per_wave", 1)):
                svc = SupportService(graph, space, embedder, bg.settings.embedding.dimension, waves_per_call=per_call)
                svc.retract(roots, "warm-up")
                svc.restore(roots, "warm-up")
                times = []
                for _ in range(repeats):
                    svc.retract(roots, "bench")
                    a = svc.restore(roots, "bench")
                    assert a.waves == depth - 1 and len(a.reinstated_ids) == depth
                    times.append(a.seconds or 0.0)
                row[f"{label}_ms"] = round(statistics.median(times) * 1000, 2)
            out.append(row)
        finally:
            if not keep:
                _drop(graph, space)
    return out
