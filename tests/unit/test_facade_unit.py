"""The facade: namespaces built once on first use, the everyday calls on the facade, and every flat
name of earlier versions still there (one-line aliases). No database: nothing here runs a query."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import pytest

import belief_graph.facade_aliases as aliases
from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph, create_driver
from belief_graph.embeddings import HashingEmbedder
from belief_graph.settings import Settings

NAMESPACES = [
    "beliefs",
    "support",
    "rules",
    "keys",
    "argumentation",
    "perspectives",
    "deliberations",
    "retrieval",
    "answers",
    "importer",
    "explore",
    "llm",
]
EVERYDAY = [
    "add_episode",
    "assert_claim",
    "remember",
    "belief",
    "recall",
    "answer",
    "derive",
    "retract",
    "restore",
    "context",
    "llm_usage",
]
# every public member of the facade before it had namespaces: users, the CLI, the MCP server and the docs call them
FLAT = """init_schema verify_schema stats check doctor add_episode assert_claim claim belief recall llm llm_usage
remember history revert as_of explain set_policy set_authority policies policy_for disputes resolve_dispute
auto_resolve add_agent agents register_key keys support derive supports retract restore audits audit
audits_for_claim context dependents stale rederive rule_service add_rule rules rule rule_instances derive_by_rule
remove_rule argumentation import_framework framework frameworks delete_framework export_framework grounded
ground_framework explain_label explain_framework_label solve_framework_file store_attacks perspective_service
deliberation_service add_perspective load_perspectives perspectives perspective encode interpretations
search_interpretations deliberate deliberation deliberations retrieval answers answer lookup recall_as_of importer
import_claims import_file imports explore ogm connect close""".split()


@pytest.fixture
def bg() -> Iterator[BeliefGraph]:
    s = Settings()
    graph = Graph(create_driver(s.neo4j), s.neo4j)  # the driver connects lazily: no query is run here
    yield BeliefGraph(graph, s, "unit", HashingEmbedder(s.embedding.dimension))
    graph.close()


def test_the_facade_stays_small() -> None:
    import belief_graph.facade as facade

    assert len(Path(facade.__file__).read_text().splitlines()) < 200
    public = {n for n in vars(BeliefGraph) if not n.startswith("_")}
    assert public == set(NAMESPACES) | set(EVERYDAY) | {"connect", "close"}


def test_namespaces_are_built_once_on_first_use(bg: BeliefGraph) -> None:
    for name in NAMESPACES:
        assert isinstance(vars(BeliefGraph)[name], cached_property), name
    assert "beliefs" not in vars(bg) and "llm" not in vars(bg)
    assert bg.support is bg.support and bg.beliefs is bg.beliefs
    assert bg.rules.consequences is bg.beliefs.consequences
    assert bg.deliberations.perspectives is bg.perspectives
    assert bg.beliefs.conflicts.grounder is not None and bg.beliefs.conflicts.prejudge is not None
    assert "llm" not in vars(bg), "wiring never builds the model"


def test_every_flat_name_is_kept(bg: BeliefGraph) -> None:
    missing = [n for n in FLAT if not hasattr(BeliefGraph, n)]
    assert not missing
    assert bg.rule_service is bg.rules and bg.perspective_service is bg.perspectives
    assert bg.deliberation_service is bg.deliberations and bg._beliefs is bg.beliefs


def test_the_aliases_module_lists_every_alias() -> None:
    doc = aliases.__doc__ or ""
    listed = set(re.findall(r"\b([a-z_]+)\b", doc))
    kept = {n for n in vars(aliases.FacadeAliases) if not n.startswith("_")}
    assert kept <= listed, kept - listed
