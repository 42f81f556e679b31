"""A space's optional key schema (``bg.keys.declare_schema``) against the real server: versions in
the graph, the key registry and value types set by a declaration, and typed refusals that write nothing."""

from __future__ import annotations

from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import KeySchemaError, KeySchemaNotFound, KeyTypeConflict, ValidationError
from belief_graph.services.key_schema import MAX_SCHEMA_KEYS

CITY = {"key": "user.city", "description": "the city the user lives in", "type": "string", "examples": ["Lisbon"]}
AGE = {"key": "user.age", "description": "the user's age in years", "type": "number", "examples": [42]}
PET = {"key": "user.pet", "description": "the user's pet, if any"}


def _counts(bg: BeliefGraph) -> list[tuple[str, str, int]]:
    rows = bg.graph.read("admin.count_by_label_status", space=bg.space)
    return sorted((str(r["label"]), str(r["status"]), int(r["count"])) for r in rows)


def test_no_schema_until_one_is_declared(bg: BeliefGraph) -> None:
    assert bg.keys.schema() is None and bg.keys.schema_history() == []
    with pytest.raises(KeySchemaNotFound, match="no key schema"):
        bg.keys.drop_schema("user:admin")


def test_declaring_stores_a_version_and_registers_every_key(bg: BeliefGraph) -> None:
    s = bg.keys.declare_schema([CITY, AGE, PET], agent="user:admin")
    assert s.version == 1 and s.status == "active" and s.unknown == "other" and s.agent == "user:admin"
    assert [k.key for k in s.keys] == ["user.city", "user.age", "user.pet"]
    assert s.get("user.age") is not None and s.get("user.age").examples == [42]  # type: ignore[union-attr]
    assert bg.keys.schema() == s
    listed = {k.key: k for k in bg.keys.all()}
    assert listed["user.city"].description == "the city the user lives in"
    assert (listed["user.city"].value_type, listed["user.age"].value_type, listed["user.pet"].value_type) == (
        "string",
        "number",
        None,
    )
    # registered with an embedding: the key registry finds it by meaning
    assert bg.beliefs.similar_keys("where does the user live", k=1)[0][0] == "user.city"
    # the declared type holds for writes like a stored one
    with pytest.raises(ValidationError, match="holds number values"):
        bg.assert_claim("user.age", "forty", "The user is forty", agent="user:alice")


def test_a_new_declaration_replaces_the_active_version(bg: BeliefGraph) -> None:
    bg.keys.declare_schema([CITY], agent="user:admin")
    second = bg.keys.declare_schema([CITY, AGE], unknown="refuse", agent="user:bob")
    assert second.version == 2 and second.unknown == "refuse"
    hist = bg.keys.schema_history()
    assert [(h.version, h.status) for h in hist] == [(1, "replaced"), (2, "active")]
    assert hist[0].ended_by == "user:bob" and hist[0].ended_at is not None
    assert [k.key for k in hist[0].keys] == ["user.city"]
    dropped = bg.keys.drop_schema("user:carol")
    assert dropped.version == 2 and dropped.status == "dropped" and dropped.ended_by == "user:carol"
    assert bg.keys.schema() is None
    assert [(h.version, h.status) for h in bg.keys.schema_history()] == [(1, "replaced"), (2, "dropped")]
    third = bg.keys.declare_schema([PET], agent="user:admin")
    assert third.version == 3 and bg.keys.schema() == third


def test_a_type_that_conflicts_with_stored_values_is_refused(bg: BeliefGraph) -> None:
    bg.assert_claim("user.age", "forty", "The user is forty", agent="user:alice")
    before = _counts(bg)
    with pytest.raises(KeyTypeConflict, match="declared number but already holds string") as info:
        bg.keys.declare_schema([CITY, AGE], agent="user:admin")
    assert info.value.key == "user.age"
    assert _counts(bg) == before and bg.keys.schema() is None
    assert "user.city" not in {k.key for k in bg.keys.all()}
    ok = bg.keys.declare_schema([CITY, {**AGE, "type": "string", "examples": []}], agent="user:admin")
    assert ok.version == 1


BAD: list[tuple[Any, str, str]] = [
    ([], "other", "at least one key"),
    ("user.city", "other", "is a list"),
    ([{"key": "not a key", "description": "x"}], "other", "malformed key"),
    ([{"key": "", "description": "x"}], "other", "malformed key"),
    ([CITY, CITY], "other", "declared twice"),
    ([{**CITY, "type": "date"}], "other", "type"),
    ([{**CITY, "description": "   "}], "other", "blank description"),
    ([{"key": "user.city"}], "other", "description"),
    ([{**CITY, "colour": "red"}], "other", "colour"),
    ([{**AGE, "examples": ["forty"]}], "other", "is not a number"),
    ([CITY], "ignore", "unknown is 'other' or 'refuse'"),
    ([{"key": f"k.k{i}", "description": "d"} for i in range(MAX_SCHEMA_KEYS + 1)], "other", "at most 2000"),
]


@pytest.mark.parametrize("keys, unknown, fragment", BAD)
def test_bad_specs_are_typed_errors_and_write_nothing(bg: BeliefGraph, keys: Any, unknown: str, fragment: str) -> None:
    before = _counts(bg)
    with pytest.raises(KeySchemaError, match=fragment) as info:
        bg.keys.declare_schema(keys, unknown=unknown, agent="user:admin")
    assert "\n" not in str(info.value) and info.value.problems
    assert _counts(bg) == before


def test_an_alias_of_a_merged_key_is_not_declared(bg: BeliefGraph) -> None:
    bg.assert_claim("user.location.city", "Lisbon", "The user lives in Lisbon", agent="user:alice")
    bg.keys.merge("user.location.city", "user.city", agent="user:admin", reason="the same fact")
    before = _counts(bg)
    with pytest.raises(KeySchemaError, match="merged into user.city"):
        bg.keys.declare_schema([{**CITY, "key": "user.location.city"}], agent="user:admin")
    assert _counts(bg) == before


def test_two_thousand_keys_fit(bg: BeliefGraph) -> None:
    keys = [{"key": f"item.k{i}", "description": f"item number {i}", "type": "number"} for i in range(MAX_SCHEMA_KEYS)]
    s = bg.keys.declare_schema(keys, agent="user:admin")
    assert len(s.keys) == MAX_SCHEMA_KEYS and len(bg.keys.all("item.")) == MAX_SCHEMA_KEYS
