"""Nothing outside the reactivation region is read or written: PROFILE db hits prove it.

A research workspace is repaired (retract, then restore) under ``PROFILE``; then thousands of
filler claims are bulk-loaded into the SAME space, connected to the workspace through nodes
outside the region (so a label scan, a space-wide filter or an unbounded expansion would be
punished), and the same repair is profiled again. The db hits of every statement must be equal.
Also: the reconsolidation statements plan no label/all-nodes scan (except the scratch frontier
label, which only ever holds region nodes of the running transaction).
"""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.db.registry import get_registry
from belief_graph.repositories.support import ProfilingRunner
from belief_graph.services.support import SupportService
from belief_graph_lab.benchmarks.revision import add_filler
from belief_graph_lab.scenarios import build_world, scimap_workspace

REPAIR_QUERIES = [
    "support.repair",
    "support.find_nodes",
    "support.open_audit",
    "support.mark_region",
    "support.fixpoint",
    "support.apply_labels",
    "support.close_audit",
    "support.get_audit",
    "support.prepare_derive",
    "support.create_derived",
    "support.add_justification",
    "support.claim_supports",
    "support.certificates",
    "support.beliefs_by_keys",
    "support.audits_for_claim",
    "support.count_claims",
]


def _operators(plan: dict[str, Any]) -> list[tuple[str, str]]:
    ops = [(plan["operatorType"].split("@")[0], str(plan.get("args", {}).get("Details", "")))]
    for child in plan.get("children", []):
        ops += _operators(child)
    return ops


@pytest.mark.parametrize("name", REPAIR_QUERIES)
def test_no_scan_outside_the_region(graph: Graph, name: str) -> None:
    q = get_registry()[name]
    with graph.driver.session(database=graph.database) as session:
        plan = session.run("EXPLAIN " + q.text).consume().plan
    assert plan is not None
    scans = [(op, d) for op, d in _operators(plan) if op in ("NodeByLabelScan", "AllNodesScan")]
    allowed = [(op, d) for op, d in scans if op == "NodeByLabelScan" and "RcFrontier" in d]
    assert scans == allowed, f"{name} scans: {scans}"


def _profile(svc: SupportService, runner: ProfilingRunner, roots: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    runner.reset()
    svc.retract(roots, "profiled retract")
    retract = dict(runner.hits)
    runner.reset()
    svc.restore(roots, "profiled restore")
    restore = dict(runner.hits)
    return retract, restore


def test_db_hits_do_not_depend_on_the_graph_size(bg: BeliefGraph, graph: Graph) -> None:
    """Two identical copies of a workspace in one space: copy A is repaired in a small graph,
    then 3000 filler claims are loaded (connected to both copies outside their regions) and copy
    B is repaired: same statements, same db hits. (Identical copies, so both have the same
    revision history: a node's relationship count changes what an expansion costs.)"""
    w = scimap_workspace(3)
    copies = [build_world(bg, w.copy("[copy A]")), build_world(bg, w.copy("[copy B]"))]
    runner = ProfilingRunner(graph)
    svc = SupportService(graph, bg.space, bg.embedder, bg.settings.embedding.dimension, runner=runner)
    roots = [[ids[r] for r in w.roots] for ids in copies]
    small = _profile(svc, runner, roots[0])

    outside = [n for n in list(w.episodes) + list(w.claims) if n not in w.downstream(w.roots) and n not in w.roots]
    assert outside, "the workspace has nodes outside the region to hang the filler on"
    anchors = [ids[n] for n in outside for ids in copies]
    add_filler(graph, bg.space, 0, 3000, anchors, "2026-12-02T09:00:00+00:00")
    count = graph.read("support.count_claims", space=bg.space)[0]["claims"]
    assert count == 2 * len(w.claims) + 3000
    big = _profile(svc, runner, roots[1])

    # Same statements; db hits equal up to the store's own noise (index tree depth, relationship
    # chains of shared nodes on a store with other spaces): at most 5% per statement, never the
    # thousands a scan of the filler would cost.
    for before, after in zip(small, big, strict=True):
        assert before.keys() == after.keys()
        for name in before:
            assert abs(after[name] - before[name]) <= 0.05 * before[name] + 2, (
                f"{name}: db hits changed with 3000 more claims: {before} vs {after}"
            )
    assert sum(small[0].values()) < 3000  # a region of ~10 claims, not a scan of thousands
    # both repairs were exact round trips: everything holds again
    statuses = bg.support.repo.find_nodes([i for ids in copies for i in ids.values()])
    assert all(statuses[ids[c]]["status"] == "active" for ids in copies for c in w.claims)
