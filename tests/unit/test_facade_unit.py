"""The facade: namespaces built once on first use, the everyday calls on the facade, and nothing else
public: every other operation has its one name in a namespace (CHANGELOG.md lists the flat names that
are gone and their namespaced names). No database: nothing here runs a query."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph, create_driver
from belief_graph.embeddings import HashingEmbedder
from belief_graph.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
NAMESPACES = [
    "beliefs",
    "conflicts",
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
    "admin",
    "llm",
]
# the everyday calls the README leads with: flat on the facade, each handing over to one namespace
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
# every public member of the facade before its flat aliases went (users, the CLI, the MCP server and the docs called them)
FORMER = """init_schema verify_schema stats check doctor add_episode assert_claim claim belief recall llm llm_usage
remember history revert as_of explain set_policy set_authority policies policy_for disputes resolve_dispute
auto_resolve add_agent agents register_key keys support derive supports retract restore audits audit
audits_for_claim context dependents stale rederive rule_service add_rule rules rule rule_instances derive_by_rule
remove_rule argumentation import_framework framework frameworks delete_framework export_framework grounded
ground_framework explain_label explain_framework_label solve_framework_file store_attacks perspective_service
deliberation_service add_perspective load_perspectives perspectives perspective encode interpretations
search_interpretations deliberate deliberation deliberations retrieval answers answer lookup recall_as_of importer
import_claims import_file imports explore ogm connect close""".split()
CONFLICT_METHODS = ["set_policy", "set_authority", "policy_for", "authority_for", "resolve_dispute", "auto_resolve"]
_ROW = re.compile(r"^\| `bg\.([\w.]+)(?:\([^)]*\))?`[^|]* \| `bg\.([\w.]+)`", re.M)


def migration() -> list[tuple[str, str]]:
    """(old, new) of CHANGELOG.md's migration table."""
    return _ROW.findall((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))


def removed_flat_names() -> set[str]:
    return {old for old, _ in migration() if "." not in old} - set(NAMESPACES)


@pytest.fixture
def bg() -> Iterator[BeliefGraph]:
    s = Settings()
    graph = Graph(create_driver(s.neo4j), s.neo4j)  # the driver connects lazily: no query is run here
    yield BeliefGraph(graph, s, "unit", HashingEmbedder(s.embedding.dimension))
    graph.close()


def test_the_facade_is_namespaces_and_the_everyday_calls() -> None:
    import belief_graph.facade as facade

    # 200 lines before bg.conflicts and bg.admin got namespaces of their own
    assert len(Path(facade.__file__).read_text().splitlines()) < 210
    public = {n for n in vars(BeliefGraph) if not n.startswith("_")}
    assert public == set(NAMESPACES) | set(EVERYDAY) | {"connect", "close"}
    assert [c.__name__ for c in BeliefGraph.__mro__] == ["BeliefGraph", "object"], "no mixin brings names back"


def test_namespaces_are_built_once_on_first_use(bg: BeliefGraph) -> None:
    for name in NAMESPACES:
        assert isinstance(vars(BeliefGraph)[name], cached_property), name
    assert "beliefs" not in vars(bg) and "llm" not in vars(bg)
    assert bg.support is bg.support and bg.beliefs is bg.beliefs
    assert bg.rules.consequences is bg.beliefs.consequences
    assert bg.deliberations.perspectives is bg.perspectives
    assert bg.conflicts is bg.beliefs.conflicts, "one conflict service: the one the write path asks"
    assert bg.conflicts.grounder is not None and bg.conflicts.prejudge is not None
    assert "llm" not in vars(bg), "wiring never builds the model"


def test_a_namespace_is_not_a_call(bg: BeliefGraph) -> None:
    for name in NAMESPACES:
        if name != "llm":  # wiring would build the model
            assert not callable(getattr(bg, name)), f"bg.{name}() would be a second name for a listing"


def test_the_conflict_operations_have_one_home(bg: BeliefGraph) -> None:
    for name in CONFLICT_METHODS:
        assert callable(getattr(bg.conflicts, name)), name
        assert not hasattr(bg.beliefs, name), f"bg.beliefs.{name} re-binds bg.conflicts.{name}"
    assert not hasattr(bg.beliefs, "disputes_list") and not hasattr(bg.beliefs, "policies")


def test_the_migration_table_names_every_removed_name_and_its_new_home(bg: BeliefGraph) -> None:
    rows = migration()
    assert removed_flat_names() == set(FORMER) - set(NAMESPACES) - set(EVERYDAY) - {"connect", "close"} | {"_beliefs"}
    for old, new in rows:
        first, *rest = new.split(".")
        assert first in NAMESPACES, (old, new)
        target: object = getattr(bg, first)
        for part in rest:
            assert hasattr(target, part), f"{old} -> {new}: no {part} on {type(target).__name__}"
            target = getattr(target, part)
    for old in removed_flat_names():
        assert not hasattr(BeliefGraph, old), f"bg.{old} is back"
    for old in (old for old, _ in rows if "." in old):
        *path, last = old.split(".")
        owner: object = bg
        for part in path:
            owner = getattr(owner, part)
        assert not hasattr(owner, last), f"bg.{old} is back"


def test_no_caller_uses_a_removed_name() -> None:
    """The docs, the package and the tests call the namespaced names (a removed name in a Markdown
    example or an untyped test would otherwise only fail when it runs)."""
    flat = re.compile(r"(?<![\w.])\w*bg\w*\.(" + "|".join(sorted(removed_flat_names())) + r")\(")
    files = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "belief_graph").rglob("*.py")]
    files += [*(ROOT / "lab" / "belief_graph_lab").rglob("*.py")]
    files += [p for p in (ROOT / "tests").rglob("*.py") if p.name != Path(__file__).name]
    hits = [
        f"{p.relative_to(ROOT)}:{i}: {m.group(0)}"
        for p in files
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        for m in flat.finditer(line)
    ]
    assert hits == []
