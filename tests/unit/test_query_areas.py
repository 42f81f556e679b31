"""One repository per query area: each ``cypher/<area>/`` is run from the one module named after it.

Read from the code with ``ast``: a module *names* a query when it holds the query's full name as a
string (``"claim.lock_facts"``) or builds it from the area's prefix (``f"check.{name}"``). Every
area of the registry must be in :data:`OWNER` (a new area gets its repository and a row here), and
no module but its owner may name its queries, except the few in :data:`ALSO`, each with its reason. The lab (``lab/belief_graph_lab``: the
studies, demos and scenarios) is outside the runtime and not read here: its studies run their own
``bench.*`` probes and the revision study its filler statements.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from belief_graph.db.registry import get_registry

pytestmark = pytest.mark.unit

PACKAGE = Path(__file__).resolve().parents[2] / "belief_graph"

OWNER: dict[str, str] = {
    "admin": "repositories/admin.py",
    "agent": "repositories/agents.py",
    "argumentation": "repositories/argumentation.py",
    "check": "repositories/check.py",
    "claim": "repositories/claims.py",
    "currency": "repositories/currency.py",
    "deliberation": "repositories/deliberations.py",
    "dispute": "repositories/disputes.py",
    "episode": "repositories/episodes.py",
    "explore": "console/curated.py",  # the catalogue of curated questions; ExploreRepository runs what it names
    "fact": "repositories/facts.py",
    "imports": "repositories/imports.py",
    "perspective": "repositories/perspectives.py",
    "policy": "repositories/policy.py",
    "retrieval": "repositories/retrieval.py",
    "rules": "repositories/rules.py",
    "schema": "db/schema.py",  # the versioned schema runs below the repositories (db/), before any space
    "store": "repositories/store.py",
    "support": "repositories/support.py",
    "bench": "repositories/retrieval.py",  # the vector stores of `bench recall` / `bench tenancy`
}
"""The module that names each area's queries: its repository, but for the schema (run by db/) and the
curated questions (their catalogue names them, ``repositories/explore.py`` runs any of them by name)."""

ALSO: dict[str, dict[str, str]] = {
    "admin": {
        "localserver/server.py": "binds admin.ping and admin.change_initial_password for cypher-shell, "
        "before the library can connect",
    },
    "explore": {
        "console/bloom.py": "the Bloom perspective names them as search phrases",
        "services/explore.py": "each view names the question it draws; ExploreRepository runs it",
    },
}
"""Modules besides the owner that name an area's queries, and why."""


RUNS = frozenset({"read", "write", "run", "read_records", "bind", "_read", "_write", "_in"})
"""The registry's and the repositories' run methods: an f-string query name counts when passed to one."""


def _named_areas(tree: ast.AST, names: set[str], areas: set[str]) -> set[str]:
    """The areas whose queries a module names: a full name anywhere, or a name built on an area's
    prefix (``f"check.{name}"``) and run (an f-string elsewhere is a key, a label or a log line)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            found.add(node.value.split(".", 1)[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RUNS:
            for arg in node.args[:2]:  # (name, ...) or (tx, name, ...)
                if isinstance(arg, ast.JoinedStr) and arg.values:
                    head = arg.values[0]
                    if isinstance(head, ast.Constant) and isinstance(head.value, str) and head.value.endswith("."):
                        if head.value[:-1] in areas:
                            found.add(head.value[:-1])
    return found


def _callers() -> dict[str, set[str]]:
    names = set(get_registry().names())
    areas = {n.split(".", 1)[0] for n in names}
    callers: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for area in _named_areas(ast.parse(path.read_text(encoding="utf-8")), names, areas):
            callers[area].add(module)
    return callers


def test_every_query_area_has_an_owner() -> None:
    areas = {n.split(".", 1)[0] for n in get_registry().names()}
    assert areas - OWNER.keys() == set(), "a new cypher/<area>/ needs its repository and a row in OWNER"
    assert OWNER.keys() - areas == set(), "OWNER names an area that cypher/ no longer has"


def test_each_query_area_is_named_only_by_its_owner() -> None:
    callers = _callers()
    wrong = {
        area: sorted(modules - {OWNER[area]} - ALSO.get(area, {}).keys())
        for area, modules in callers.items()
        if modules - {OWNER[area]} - ALSO.get(area, {}).keys()
    }
    assert wrong == {}, "these modules run queries of an area that has its own repository"


def test_each_owner_names_its_area_and_each_exception_is_still_needed() -> None:
    callers = _callers()
    unused = sorted(area for area, owner in OWNER.items() if owner not in callers.get(area, set()))
    assert unused == [], "an owner that runs none of its area's queries"
    stale = sorted(
        f"{area}: {module}" for area, mods in ALSO.items() for module in mods if module not in callers.get(area, set())
    )
    assert stale == [], "an exception in ALSO that the code no longer needs"


def test_a_run_of_an_f_string_on_an_area_prefix_counts_as_naming_the_area() -> None:
    run = 'g.read(f"check.{name}")\nr = "claim.get_claim"\ng.run(tx, f"rules.{x}")'
    assert _named_areas(ast.parse(run), {"claim.get_claim"}, {"check", "claim", "rules"}) == {"check", "claim", "rules"}
    not_run = 'key = f"fact.{x}"\ng.write_tx(work, name=f"support.{op}")\ng.read(f"nope.{x}")'
    assert _named_areas(ast.parse(not_run), set(), {"fact", "support"}) == set()
