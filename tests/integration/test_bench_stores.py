"""Stores the benchmarks build keep the invariants of a store: `db check` (services/check.py)
finds nothing on them. The bulk loaders write what the engine's own write paths write (first
revisions, writers, justifications); before, `support.bulk_filler` wrote claims without revisions
and `db check` reported one violation per filler claim."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.repositories.retrieval import RetrievalRepository
from belief_graph.services.check import run_check
from belief_graph_lab.benchmarks import revision


def _problems(graph: Graph, space: str) -> list[str]:
    report = run_check(graph, space, limit=5)
    return [f"{i.name}: {i.violations} {i.offending}" for i in report.failed]


def test_filler_keeps_the_invariants_through_a_retract_and_a_restore(bg: BeliefGraph, graph: Graph) -> None:
    """`revision.add_filler` (`support.bulk_filler`): 120 filler claims in chains of 50 off two
    episodes; `db check` is clean after the load, after retracting one anchor (its chains are
    withdrawn by the engine's own repair) and after restoring it."""
    anchors = [bg.add_episode(f"anchor {i}", agent="a").id for i in range(2)]
    revision.add_filler(graph, bg.space, 0, 120, anchors, datetime.now(UTC).isoformat())
    assert graph.read("support.count_claims", space=bg.space)[0]["claims"] == 120
    assert _problems(graph, bg.space) == []
    audit = bg.retract([anchors[0]], "the anchor was wrong")
    assert len(audit.withdrawn_ids) == 50 + 20  # the chains whose head hangs off anchor 0: fillers 0-49, 100-119
    assert _problems(graph, bg.space) == []
    bg.restore([anchors[0]], "it was right after all")
    assert _problems(graph, bg.space) == []


@pytest.mark.slow
def test_revision_latency_store_with_filler_passes_db_check(
    bg: BeliefGraph, graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole latency study's space (workspace copies, 149 filler claims in chains, the measured
    retract/restore cycles) kept and checked (100 s on the loaded development machine: slow)."""
    monkeypatch.setattr(revision, "WARM_FIRST", 1)
    out = revision.run_revision_latency(bg, sizes=[200], repeats=1, keep=True)
    space = out["space"]
    try:
        assert out["rows"][-1]["claims"] >= 200
        fillers = graph.read("support.count_claims", space=space)[0]["claims"]
        assert fillers >= 200
        assert _problems(graph, space) == []
    finally:
        graph.write("admin.delete_space", space=space)


def test_recall_bench_vectors_pass_db_check(graph: Graph, space: str) -> None:
    """`bench.load_vectors` (bench recall, bench tenancy): active claims with their vectors."""
    repo = RetrievalRepository(graph, space)
    rows = [
        {"id": f"r{i}", "text": f"bench claim {i}", "embedding": [1.0 if j == i else 0.0 for j in range(384)]}
        for i in range(20)
    ]
    assert repo.bench_load(rows, datetime.now(UTC).isoformat()) == 20
    assert _problems(graph, space) == []


def test_claim_probes_of_a_kept_writes_bench_space_are_deleted(graph: Graph, space: str) -> None:
    """`bench writes --keep`: its claim-shaped probes (status 'probe', no revision) would fail
    `db check`; the bench deletes them (`bench.delete_claim_probes`) and keeps the rest."""
    graph.write("bench.write_claim_probe", space=space, id="probe-1", text="t", embedding=None)
    assert _problems(graph, space) != []
    graph.write("bench.delete_claim_probes", space=space)
    assert _problems(graph, space) == []
