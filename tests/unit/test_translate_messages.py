"""A Neo4j or driver error becomes a DatabaseError whose message is one short line (no database:
the driver's exceptions are built as the driver builds them from a server failure)."""

from __future__ import annotations

import neo4j.exceptions as neo4j_exc

from belief_graph.db.driver import MAX_SERVER_MESSAGE, translate
from belief_graph.errors import DatabaseError


def test_a_long_server_message_is_cut_to_one_line() -> None:
    """The 820-character message of an over-long indexed value (the hostile probe's argument name)
    and longer: cut; the whole text stays on the cause."""
    exc = neo4j_exc.Neo4jError._hydrate_neo4j(
        code="Neo.DatabaseError.Statement.ExecutionFailed",
        message="Property value is too large to index,\nplease see index documentation " + "y" * 100_000,
    )
    err = translate(exc)
    assert isinstance(err, DatabaseError)
    text = str(err)
    assert "\n" not in text and len(text) <= MAX_SERVER_MESSAGE + 50
    assert "Property value is too large to index, please see" in text


def test_a_short_message_is_kept_whole() -> None:
    assert str(translate(neo4j_exc.DriverError("the pool is closed"))) == "DriverError: the pool is closed"


def test_any_other_exception_is_cut_too() -> None:
    text = str(translate(RuntimeError("z" * 1_000_000)))
    assert text.startswith("RuntimeError: zzz") and len(text) <= MAX_SERVER_MESSAGE + 50
