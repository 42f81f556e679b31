"""Schema migrations applied, recorded, verified against the real server; drift and bad dimension refused."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.db.schema import apply_migrations, load_migrations, verify_schema
from belief_graph.errors import SchemaError
from belief_graph.services.check import run_check
from belief_graph.settings import Settings


def test_migrations_are_recorded_and_idempotent(graph: Graph, base_settings: Settings) -> None:
    dim = base_settings.embedding.dimension
    assert apply_migrations(graph, dimension=dim) == []  # the session fixture applied them
    recorded = graph.read("schema.list_migrations")
    assert [r["version"] for r in recorded] == [m.version for m in load_migrations()]
    assert all(r["checksum"] == m.checksum for r, m in zip(recorded, load_migrations(), strict=True))


def test_verify_finds_every_expected_object_online(graph: Graph, base_settings: Settings) -> None:
    report = verify_schema(graph, dimension=base_settings.embedding.dimension)
    assert report.ok, report.to_dict()
    names = {o["name"] for o in report.objects}
    expected = {o.name for m in load_migrations() for o in m.expected}
    assert expected <= names
    assert {"claim_embedding", "concept_embedding", "claim_text", "fact_space_key", "claim_space_id"} <= expected


def test_verify_reports_wrong_dimension(graph: Graph, base_settings: Settings) -> None:
    report = verify_schema(graph, dimension=base_settings.embedding.dimension + 1, wait_seconds=1)
    assert not report.ok
    assert any("claim_embedding: dimension" in p for p in report.problems)


HNSW = {"vector.quantization.enabled": False, "vector.hnsw.m": 32, "vector.hnsw.ef_construction": 200}
VECTOR_INDEXES = ("claim_embedding", "concept_embedding", "fact_embedding")


def _vector_config(graph: Graph, name: str) -> dict[str, Any]:
    row = next(r for r in graph.read("schema.show_indexes") if r["name"] == name)
    return {k: v for k, v in row["options"]["indexConfig"].items() if k in HNSW}


def _create_statement(name: str, version: int | None = None) -> str:
    """The CREATE statement of ``name`` in migration ``version`` (default: the latest that creates it)."""
    found = [
        st
        for m in load_migrations()
        for st in m.statements
        if st.startswith(f"CREATE VECTOR INDEX {name} ") and version in (None, m.version)
    ]
    return found[-1]


def test_vector_indexes_carry_the_migration_config(graph: Graph) -> None:
    """V007 re-created the three vector indexes: SHOW INDEXES reports its HNSW settings, not Neo4j's
    defaults (quantization on, m 16, ef_construction 100)."""
    for name in VECTOR_INDEXES:
        assert _vector_config(graph, name) == HNSW, name


def test_verify_reports_a_vector_index_recreated_with_defaults(graph: Graph, base_settings: Settings) -> None:
    dim = base_settings.embedding.dimension
    graph.run_text("DROP INDEX concept_embedding IF EXISTS", name="test.drop_concept_embedding")
    try:
        graph.run_text(
            _create_statement("concept_embedding", 3), {"dimension": dim}, name="test.v003_concept_embedding"
        )
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
        report = verify_schema(graph, dimension=dim, wait_seconds=5)
        assert not report.ok
        assert sorted(p for p in report.problems if p.startswith("concept_embedding")) == [
            "concept_embedding: vector.hnsw.ef_construction 100, migrations set 200",
            "concept_embedding: vector.hnsw.m 16, migrations set 32",
            "concept_embedding: vector.quantization.enabled true, migrations set false",
        ]
        assert not [p for p in report.problems if not p.startswith("concept_embedding")]
    finally:
        graph.run_text("DROP INDEX concept_embedding IF EXISTS", name="test.drop_concept_embedding")
        graph.run_text(
            _create_statement("concept_embedding"), {"dimension": dim}, name="test.restore_concept_embedding"
        )
        graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
    assert verify_schema(graph, dimension=dim).ok


def test_upgrade_from_v006_recreates_and_repopulates_the_vector_indexes(bg: BeliefGraph, graph: Graph) -> None:
    """A store at V006 (indexes with Neo4j's defaults, vectors already stored) gets V007 from
    ``apply_migrations``: the new config, and the stored vectors found through the new index."""
    dim = bg.settings.embedding.dimension
    ids = [
        bg.assert_claim(f"user.pet{i}", f"pet {i}", text, agent="u").claim.id
        for i, text in enumerate(
            [
                "The user has a grey cat called Miso",
                "The user walks a border collie every morning",
                "The user keeps tropical fish in a large tank",
            ]
        )
    ]
    for name in VECTOR_INDEXES:
        graph.run_text(f"DROP INDEX {name} IF EXISTS", name="test.drop_vector_index")
        graph.run_text(
            _create_statement(name, 6 if name == "fact_embedding" else 3),
            {"dimension": dim},
            name="test.v006_vector_index",
        )
    graph.run_text("MATCH (m:SchemaMigration {version: 7}) DELETE m", name="test.forget_v007")
    graph.run_text("CALL db.awaitIndexes(120)", name="test.await")
    assert _vector_config(graph, "claim_embedding")["vector.quantization.enabled"] is True  # the V006 state
    assert [m.version for m in apply_migrations(graph, dimension=dim)] == [7]
    report = verify_schema(graph, dimension=dim, wait_seconds=120)
    assert report.ok, report.to_dict()
    for name in VECTOR_INDEXES:
        assert _vector_config(graph, name) == HNSW, name
    rows = graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) WHERE c.id IN $ids "
        "CALL db.index.vector.queryNodes('claim_embedding', 10, c.embedding) YIELD node "
        "WITH c, collect(node.id) AS hits RETURN c.id AS id, c.id IN hits AS found",
        s=bg.space,
        ids=ids,
    ).records
    assert sorted((r["id"], r["found"]) for r in rows) == sorted((i, True) for i in ids)


def test_init_refuses_other_dimension_and_writes_nothing(graph: Graph, base_settings: Settings) -> None:
    before = graph.read("schema.list_migrations")
    with pytest.raises(SchemaError, match="dimension"):
        apply_migrations(graph, dimension=base_settings.embedding.dimension * 2)
    assert graph.read("schema.list_migrations") == before


def test_every_merge_key_has_a_uniqueness_constraint(graph: Graph) -> None:
    """DESIGN.md: every key we MERGE on is backed by a uniqueness constraint."""
    import re

    from belief_graph.db.registry import get_registry

    constraints = graph.read("schema.show_constraints")
    unique = {(c["labels"][0], tuple(c["properties"])) for c in constraints if "UNIQUE" in c["type"]}
    merge_re = re.compile(r"MERGE\s+\(\w+:(\w+)\s*\{([^}]*)\}\)")
    missing = []
    for q in get_registry():
        for label, body in merge_re.findall(q.text):
            props = tuple(p.split(":")[0].strip() for p in body.split(","))
            if (label, props) not in unique:
                missing.append(f"{q.name}: MERGE {label}{props}")
    assert not missing, missing


def test_upgrade_to_v008_drops_the_counters_left_by_the_old_solver(bg: BeliefGraph, graph: Graph) -> None:
    """Before V008 the grounded solver left `undefeated` counters and `link` flags on every argument.
    The solver now reads a missing counter as "one attacker", so a leftover counter would be taken
    for a live one: V008 removes them, and the next solve is right."""
    svc = bg.argumentation
    names = ["a", "b", "c", "d"]
    svc.store_attacks("study:v008", names, [("a", "b"), ("b", "c"), ("c", "d")])
    graph.run_text(
        "MATCH (x:Argument {space: $s, ns: 'study:v008'}) SET x.undefeated = 0, x.link = true",
        {"s": bg.space},
        name="test.old_solver_leftovers",
    )
    graph.run_text("MATCH (m:SchemaMigration {version: 8}) DELETE m", name="test.forget_v008")
    assert [m.version for m in apply_migrations(graph, dimension=bg.settings.embedding.dimension)] == [8]
    left = graph.driver.execute_query(
        "MATCH (x:Argument {space: $s}) WHERE x.undefeated IS NOT NULL OR x.link IS NOT NULL RETURN count(x) AS n",
        s=bg.space,
    ).records[0]["n"]
    assert left == 0
    res = svc.ground("study:v008")
    assert (res.in_, res.out, res.undec) == (["a", "c"], ["b", "d"], [])


def test_upgrade_to_v012_marks_the_grounded_labels_of_an_older_store(bg: BeliefGraph, graph: Graph) -> None:
    """Before V012 the grounded label lived in the `label` property only. V012 gives every labelled
    argument, proposal and (released) enlisted claim its mark :In / :Out / :Undec, and none to an
    argument never solved; `db check` then holds."""
    svc = bg.argumentation
    svc.store_attacks("study:v012", ["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("d", "d")])
    svc.ground("study:v012")
    svc.store_attacks("study:v012-unsolved", ["u"], [])
    claim = bg.assert_claim("user.v012", "x", "x", agent="u").claim.id
    svc.enlist("study:v012-claims", [claim])
    svc.ground("study:v012-claims")
    svc.clear_namespace("study:v012-claims")  # the claim keeps `label` (and its mark) when released
    pid = f"p-{uuid.uuid4()}"
    graph.run_text(
        "CREATE (:Proposal {id: $pid, space: $s, label: 'OUT'})-[:ANSWERS]->(:Deliberation {space: $s, id: $pid})",
        {"s": bg.space, "pid": pid},
        name="test.old_proposal",
    )
    # the store as an older version left it: labels without marks
    graph.run_text(
        "MATCH (x) WHERE x.space = $s AND (x:In OR x:Out OR x:Undec) REMOVE x:In:Out:Undec",
        {"s": bg.space},
        name="test.v011_state",
    )
    assert not run_check(graph, bg.space, only=["grounded_labels"]).ok
    graph.run_text("MATCH (m:SchemaMigration {version: 12}) DELETE m", name="test.forget_v012")
    assert [m.version for m in apply_migrations(graph, dimension=bg.settings.embedding.dimension)] == [12]
    rows = graph.driver.execute_query(
        "MATCH (x) WHERE x.space = $s AND (x:Argument OR x:Proposal OR x.id = $claim) "
        "RETURN coalesce(x.name, x.id) AS name, [m IN labels(x) WHERE m IN ['In', 'Out', 'Undec']] AS marks",
        s=bg.space,
        claim=claim,
    ).records
    assert {r["name"]: r["marks"] for r in rows} == {
        "a": ["In"],
        "b": ["Out"],
        "c": ["In"],
        "d": ["Undec"],
        "u": [],
        claim: ["In"],
        pid: ["Out"],
    }
    assert run_check(graph, bg.space, only=["grounded_labels"]).ok
