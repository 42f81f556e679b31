"""Schema migrations applied, recorded, verified against the real server; drift and bad dimension refused."""

from __future__ import annotations

import pytest

from belief_graph.driver import Graph
from belief_graph.errors import SchemaError
from belief_graph.schema import apply_migrations, load_migrations, verify_schema
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


def test_init_refuses_other_dimension_and_writes_nothing(graph: Graph, base_settings: Settings) -> None:
    before = graph.read("schema.list_migrations")
    with pytest.raises(SchemaError, match="dimension"):
        apply_migrations(graph, dimension=base_settings.embedding.dimension * 2)
    assert graph.read("schema.list_migrations") == before


def test_every_merge_key_has_a_uniqueness_constraint(graph: Graph) -> None:
    """DESIGN.md: every key we MERGE on is backed by a uniqueness constraint."""
    import re

    from belief_graph.registry import get_registry

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
