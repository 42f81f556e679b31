"""doctor passes on a healthy store and fails loudly on a store that is not really semantic."""

from __future__ import annotations

import pytest

from belief_graph import BeliefGraph
from belief_graph.driver import Graph
from belief_graph.schema import load_migrations


def _check(report, name):  # type: ignore[no-untyped-def]
    return next(c for c in report.checks if c.name == name)


def test_doctor_passes_on_an_initialised_store(bg: BeliefGraph) -> None:
    bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="u")
    report = bg.doctor()
    assert report.ok, report.to_dict()
    probe = _check(report, "paraphrase_probe")
    assert probe.data["hits"][0][0].startswith("The user is cautious with money")
    cov = _check(report, "index_coverage")
    assert cov.data["found"] == cov.data["sampled"] >= 1
    # the probe's scratch space is gone
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim) WHERE c.space STARTS WITH '__doctor__' RETURN count(c) AS n").records
    assert rows[0]["n"] == 0


def test_doctor_fails_on_claims_that_were_never_embedded(bg: BeliefGraph) -> None:
    # The classic bug: claims written by a path that forgot the embedding.
    bg.graph.driver.execute_query(
        "UNWIND range(1, 3) AS i CREATE (:Claim {space: $s, id: 'raw-' + i, text: 'unembedded ' + i, status: 'active'})",
        s=bg.space,
    )
    report = bg.doctor()
    assert not report.ok
    emb = _check(report, "embeddings")
    assert emb.ok is False and emb.data["missing"] >= 3
    assert "never embedded" in emb.detail


def test_doctor_fails_without_the_vector_index(bg: BeliefGraph, graph: Graph) -> None:
    vector_stmt = next(
        st for m in load_migrations() for st in m.statements if "INDEX claim_embedding" in st
    )
    graph.run_text("DROP INDEX claim_embedding IF EXISTS", name="test.drop_vector_index")
    try:
        report = bg.doctor()
        assert not report.ok
        assert _check(report, "vector_index").ok is False
        assert _check(report, "schema").ok is False
        assert "claim_embedding" in _check(report, "schema").detail
        assert _check(report, "paraphrase_probe").ok is False
    finally:
        graph.run_text(vector_stmt, {"dimension": bg.settings.embedding.dimension}, name="test.restore_vector_index")
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
    assert bg.doctor().ok


@pytest.mark.parametrize("wrong", [1, 8])
def test_doctor_counts_claims_with_wrong_dimension(bg: BeliefGraph, wrong: int) -> None:
    bg.graph.driver.execute_query(
        "CREATE (:Claim {space: $s, id: 'wd', text: 'wrong dimension', status: 'active', embedding: $e})",
        s=bg.space, e=[0.1] * wrong,
    )
    report = bg.doctor()
    emb = _check(report, "embeddings")
    assert emb.ok is False and emb.data["wrong_dimension"] >= 1
