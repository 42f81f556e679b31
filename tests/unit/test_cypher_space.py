"""Space lint over every file in cypher/: a statement that matches by id or key also filters by
space, or says in its ``cross-space:`` header why it does not (no database)."""

from __future__ import annotations

import pytest

from belief_graph.db.registry import get_registry, parse_query, space_findings
from belief_graph.errors import RegistryError

pytestmark = pytest.mark.cypher


@pytest.mark.parametrize("name", get_registry().names())
def test_every_statement_is_confined_to_its_space_or_says_why(name: str) -> None:
    q = get_registry()[name]
    findings = space_findings(q.text)
    if q.cross_space is None:
        assert not findings, f"{q.path}: {findings}; filter by $space or add '// cross-space: <reason>'"
    else:
        assert findings, f"{q.path}: declares cross-space but the lint finds nothing to declare"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("MATCH (c:Claim {space: $space, id: $id}) RETURN c", []),
        ("MATCH (c:Claim {id: $id}) WHERE c.space = $space RETURN c", []),
        ("MATCH (c:Claim) WHERE c.space = $space AND c.id IN $ids RETURN c", []),
        ("MATCH (c:Claim {space: $space}) WHERE c.key STARTS WITH $p RETURN c", []),
        ("CREATE (x:Proposal {id: $id}) SET x.space = $space", []),
        ("MATCH (c:Claim {space: $space}) SET c.id = $id", []),
        ("MERGE (f:Fact {space: $space, key: $key}) RETURN f", []),
        (
            "UNWIND $ids AS id CALL (id) { MATCH (n:Claim {space: $space, id: id}) RETURN n UNION "
            "MATCH (n:Proposal {id: id}) RETURN n } SET n.space = $space RETURN n",
            ["(n:Proposal {id}) without space"],
        ),
        (
            "MATCH (d:Deliberation {space: $space}) MATCH (c:Claim) WHERE c.id IN $ids RETURN c",
            ["c.id compared on a node not filtered by space"],
        ),
        ("MERGE (f:Fact {key: $key}) SET f.space = $space RETURN f", ["(f:Fact {key}) without space"]),
        ("MATCH (a:Claim {space: $space, id: $a})-[:X]->(b:Claim {id: $b}) RETURN b", ["(b:Claim {id}) without space"]),
        (
            "MATCH (c:Claim {space: $space}) WHERE EXISTS { (c)-[:X]->(:Episode {id: $e}) } RETURN c",
            ["(:Episode {id}) without space"],
        ),
        ("MATCH (c:Claim) RETURN count(c)", ["reads or writes nodes without $space"]),
        (
            "MATCH (c:Claim) WHERE $space IS NULL OR c.space = $space RETURN count(c)",
            ["$space is optional ($space IS NULL)"],
        ),
        ("RETURN 1", []),
    ],
)
def test_space_findings(text: str, expected: list[str]) -> None:
    assert space_findings(text) == expected


_HEADER = "// name: claim.get_claim\n// mode: read\n// params: space\n// description: d\n// :param space => 'x'\n"


def test_cross_space_header_is_parsed_and_needs_a_reason() -> None:
    q = parse_query(
        _HEADER + "// cross-space: every space, on purpose\nMATCH (c) RETURN c, $space", "claim/get_claim.cypher"
    )
    assert q.cross_space == "every space, on purpose"
    assert parse_query(_HEADER + "RETURN $space", "claim/get_claim.cypher").cross_space is None
    with pytest.raises(RegistryError, match="cross-space needs a reason"):
        parse_query(_HEADER + "// cross-space:\nRETURN $space", "claim/get_claim.cypher")
