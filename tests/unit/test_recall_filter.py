"""The recall filter is one text in every ``retrieval.*`` statement that applies it.

Cypher has no macro or user-defined predicate to write it once (a custom function would need a
plugin), and the registry keeps each file one paste-ready statement, so the filter is repeated: the
perspective / keys / prefix filter in the five candidate statements, and the status at ``as_of``
(from the immutable revisions) in the four that return ``status_then``. This test holds the copies
equal, so a change to one that misses another fails here rather than as a recall that differs
between the exact scan, the index paths and the counts.
"""

from __future__ import annotations

import re

import pytest

from belief_graph.db.registry import get_registry

pytestmark = pytest.mark.unit

FILTER = """
CASE WHEN $perspective IS NULL THEN ($interpretations OR NOT c:Interpretation)
     ELSE (c:Interpretation AND c.perspective = $perspective) END
AND ($keys IS NULL OR c.key IN $keys)
AND ($prefix IS NULL OR c.key STARTS WITH $prefix)
"""
FILTERED = (
    "retrieval.count_candidates",
    "retrieval.count_candidates_capped",
    "retrieval.exact_candidates",
    "retrieval.vector_candidates",
    "retrieval.fulltext_candidates",
)

STATUS_THEN = """
CALL (c) {
  OPTIONAL MATCH (c)-[:HAS_REVISION]->(rev:Revision)
  WHERE $at IS NOT NULL AND rev.at <= datetime($at)
  WITH rev ORDER BY rev.at DESC, coalesce(rev.seq, 0) DESC, rev.id DESC
  RETURN head(collect(rev.status)) AS revised
}
"""
STATUS_CASE = """
CASE WHEN $at IS NULL THEN c.status
     WHEN revised IS NOT NULL THEN revised
     WHEN NOT EXISTS { (c)-[:HAS_REVISION]->(:Revision) } AND c.created_at <= datetime($at) THEN c.status
END AS status_then
WHERE status_then IS NOT NULL AND ($include_inactive OR status_then = 'active')
"""
AS_OF = (
    "retrieval.exact_candidates",
    "retrieval.vector_candidates",
    "retrieval.fulltext_candidates",
    "retrieval.lookup_keys",
)


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("name", FILTERED)
def test_each_candidate_statement_holds_the_one_filter(name: str) -> None:
    assert _flat(FILTER) in _flat(get_registry()[name].text)


@pytest.mark.parametrize("name", AS_OF)
def test_each_status_then_statement_holds_the_one_status_at_as_of(name: str) -> None:
    text = _flat(get_registry()[name].text)
    assert _flat(STATUS_THEN) in text and _flat(STATUS_CASE) in text


def test_no_other_retrieval_statement_filters_by_perspective() -> None:
    """A new statement with the filter belongs in FILTERED (and so is held to the same text)."""
    registry = get_registry()
    others = [
        n
        for n in registry.names()
        if n.startswith("retrieval.") and n not in FILTERED and "$perspective" in registry[n].text
    ]
    assert others == []
