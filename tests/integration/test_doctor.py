"""doctor passes on a healthy store and fails loudly on a store that is not really semantic."""

from __future__ import annotations

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.db.schema import load_migrations


def _check(report, name):  # type: ignore[no-untyped-def]
    return next(c for c in report.checks if c.name == name)


def _create_statement(name: str, version: int | None = None) -> str:
    """The CREATE statement of ``name`` in migration ``version`` (default: the latest that creates it)."""
    return [
        st
        for m in load_migrations()
        for st in m.statements
        if st.startswith(f"CREATE VECTOR INDEX {name} ") and version in (None, m.version)
    ][-1]


def test_doctor_passes_on_an_initialised_store(bg: BeliefGraph) -> None:
    bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="u")
    report = bg.admin.doctor()
    assert report.ok, report.to_dict()
    probe = _check(report, "paraphrase_probe")
    assert probe.data["hits"][0][0].startswith("The user is cautious with money")
    cov = _check(report, "index_coverage")
    assert cov.data["found"] == cov.data["sampled"] >= 1
    # the probe's scratch space is gone
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim) WHERE c.space STARTS WITH '__doctor__' RETURN count(c) AS n"
    ).records
    assert rows[0]["n"] == 0


def test_doctor_fails_on_claims_that_were_never_embedded(bg: BeliefGraph) -> None:
    # The classic bug: claims written by a path that forgot the embedding.
    bg.graph.driver.execute_query(
        "UNWIND range(1, 3) AS i CREATE (:Claim {space: $s, id: 'raw-' + i, text: 'unembedded ' + i, status: 'active'})",
        s=bg.space,
    )
    report = bg.admin.doctor()
    assert not report.ok
    emb = _check(report, "embeddings")
    assert emb.ok is False and emb.data["missing"] >= 3
    assert "never embedded" in emb.detail


def test_doctor_fails_without_the_vector_index(bg: BeliefGraph, graph: Graph) -> None:
    vector_stmt = _create_statement("claim_embedding")
    graph.run_text("DROP INDEX claim_embedding IF EXISTS", name="test.drop_vector_index")
    try:
        report = bg.admin.doctor()
        assert not report.ok
        assert _check(report, "vector_index").ok is False
        assert _check(report, "schema").ok is False
        assert "claim_embedding" in _check(report, "schema").detail
        assert _check(report, "paraphrase_probe").ok is False
    finally:
        graph.run_text(vector_stmt, {"dimension": bg.settings.embedding.dimension}, name="test.restore_vector_index")
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
    assert bg.admin.doctor().ok


def test_doctor_fails_on_a_vector_index_recreated_with_neo4j_defaults(bg: BeliefGraph, graph: Graph) -> None:
    """claim_embedding re-created by hand with the V003 statement (no explicit config: int8
    quantization, m 16, ef_construction 100) still answers, but is not the index the migrations set."""
    bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="u")
    dim = bg.settings.embedding.dimension
    ok = _check(bg.admin.doctor(), "vector_index")
    assert ok.ok is True, ok.detail
    assert ok.data["config"] == {
        "vector.hnsw.ef_construction": 200,
        "vector.hnsw.m": 32,
        "vector.quantization.enabled": False,
    }
    assert ok.detail.endswith("quantization.enabled false, hnsw.m 32, hnsw.ef_construction 200")
    graph.run_text("DROP INDEX claim_embedding IF EXISTS", name="test.drop_vector_index")
    try:
        graph.run_text(_create_statement("claim_embedding", 3), {"dimension": dim}, name="test.v003_vector_index")
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
        report = bg.admin.doctor()
        vec = _check(report, "vector_index")
        assert vec.ok is False
        assert vec.detail == (
            "claim_embedding: vector.quantization.enabled true, migrations set false; "
            "claim_embedding: vector.hnsw.m 16, migrations set 32; "
            "claim_embedding: vector.hnsw.ef_construction 100, migrations set 200"
        )
        assert vec.data["config"] == {
            "vector.hnsw.ef_construction": 100,
            "vector.hnsw.m": 16,
            "vector.quantization.enabled": True,
        }
        schema = _check(report, "schema")
        assert schema.ok is False and "claim_embedding: vector.quantization.enabled true" in schema.detail
        # the index itself still works: the drift is in recall quality, not in availability
        assert _check(report, "paraphrase_probe").ok is True
    finally:
        graph.run_text("DROP INDEX claim_embedding IF EXISTS", name="test.drop_vector_index")
        graph.run_text(_create_statement("claim_embedding"), {"dimension": dim}, name="test.restore_vector_index")
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
    assert bg.admin.doctor().ok


@pytest.mark.parametrize("wrong", [1, 8])
def test_doctor_counts_claims_with_wrong_dimension(bg: BeliefGraph, wrong: int) -> None:
    bg.graph.driver.execute_query(
        "CREATE (:Claim {space: $s, id: 'wd', text: 'wrong dimension', status: 'active', embedding: $e})",
        s=bg.space,
        e=[0.1] * wrong,
    )
    report = bg.admin.doctor()
    emb = _check(report, "embeddings")
    assert emb.ok is False and emb.data["wrong_dimension"] >= 1
