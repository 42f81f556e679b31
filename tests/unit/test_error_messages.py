"""Errors about something missing in a space name the space when they know it, and only then."""

from __future__ import annotations

import pytest

from belief_graph.errors import AuditNotFound, ClaimNotFound, RuleNotFound, UnknownAgent, in_space

pytestmark = pytest.mark.unit


def test_in_space_names_a_space_or_nothing() -> None:
    assert in_space("alice") == " in space 'alice'"
    assert in_space(None) == in_space("") == ""


def test_not_found_messages_name_the_space_they_were_looked_in() -> None:
    assert str(ClaimNotFound("c1", "alice")) == "no claim with id 'c1' in space 'alice'"
    assert str(ClaimNotFound("c1")) == "no claim with id 'c1'"
    assert str(AuditNotFound("a1", "bob")) == "no audit with id 'a1' in space 'bob'"
    assert str(RuleNotFound("r", "s")) == "no active derivation rule named 'r' in space 's'"
    assert str(UnknownAgent("agent:x", "s")).startswith("unknown agent 'agent:x' in space 's': register it first")
