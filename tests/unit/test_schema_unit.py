"""The expected schema read from the migration files: later migrations replace earlier definitions,
vector index HNSW settings are parsed from the statements, drift is worded per setting."""

from __future__ import annotations

from pathlib import Path

from belief_graph.db.schema import expected_objects, expected_vector_config, load_migrations, vector_config_drift

HNSW = {"vector.quantization.enabled": False, "vector.hnsw.m": 32, "vector.hnsw.ef_construction": 200}


def test_shipped_migrations_expect_the_explicit_hnsw_config_on_every_vector_index() -> None:
    objs = expected_objects()
    vectors = sorted(n for n, o in objs.items() if o.kind == "VECTOR")
    assert vectors == ["claim_embedding", "concept_embedding", "fact_embedding"]
    for name in vectors:
        # V003/V006 created them with Neo4j's defaults; V007 re-creates them: its config wins
        assert expected_vector_config(name) == {**HNSW, "vector.similarity_function": "cosine"}, name
    # each name once, even though two migrations create it
    assert len(objs) == len({o.name for m in load_migrations() for o in m.expected})


def test_drop_removes_and_a_later_create_replaces(tmp_path: Path) -> None:
    (tmp_path / "V001__a.cypher").write_text(
        "// version: 1\n// params: dimension\n"
        "CREATE VECTOR INDEX v IF NOT EXISTS FOR (n:A) ON (n.e) OPTIONS {indexConfig: "
        "{`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};\n"
        "CREATE INDEX r IF NOT EXISTS FOR (n:A) ON (n.x);\n"
    )
    (tmp_path / "V002__b.cypher").write_text(
        "// version: 2\n// params: dimension\n"
        "DROP INDEX r IF EXISTS;\nDROP INDEX v IF EXISTS;\n"
        "CREATE VECTOR INDEX v IF NOT EXISTS FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: "
        "$dimension, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: true, "
        "`vector.hnsw.m`: 8}};\n"
    )
    migs = load_migrations(tmp_path)
    assert expected_objects(migs[:1]).keys() == {"v", "r"}
    assert expected_vector_config("v", migs[:1]) == {"vector.similarity_function": "cosine"}
    assert expected_objects(migs).keys() == {"v"}
    assert expected_vector_config("v", migs) == {
        "vector.similarity_function": "cosine",
        "vector.quantization.enabled": True,
        "vector.hnsw.m": 8,
    }
    assert expected_vector_config("r", migs) == {}


def test_vector_config_drift_is_reported_per_setting() -> None:
    shown = {
        "vector.dimensions": 384,
        "vector.similarity_function": "COSINE",
        "vector.quantization.enabled": False,
        "vector.hnsw.m": 32,
        "vector.hnsw.ef_construction": 200,
    }
    assert vector_config_drift("x", shown, {**HNSW, "vector.similarity_function": "cosine"}) == []
    defaults = {**shown, "vector.quantization.enabled": True, "vector.hnsw.m": 16, "vector.hnsw.ef_construction": 100}
    assert vector_config_drift("x", defaults, HNSW) == [
        "x: vector.quantization.enabled true, migrations set false",
        "x: vector.hnsw.m 16, migrations set 32",
        "x: vector.hnsw.ef_construction 100, migrations set 200",
    ]
    # a setting the server does not report at all, and a bool never equals an int
    assert vector_config_drift("x", {"vector.hnsw.m": 32}, {"vector.quantization.enabled": False}) == [
        "x: vector.quantization.enabled missing, migrations set false"
    ]
    assert vector_config_drift("x", {"vector.quantization.enabled": 0}, {"vector.quantization.enabled": False})
