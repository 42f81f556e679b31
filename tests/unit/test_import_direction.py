"""Import direction: the layers of docs/architecture.md, read from the code with ``ast``.

A *unit* is a sub-package of ``belief_graph`` (``belief_graph.db``, ``belief_graph.services``, ...) or
a top-level module (``belief_graph.errors``); the package's own ``__init__`` is the unit
``belief_graph``. Every import of a ``belief_graph`` name counts, also inside functions; imports under
``if TYPE_CHECKING:`` count for the layer rule but not for circles (they never run).

* no circle between modules, no loop between units;
* a unit imports only units of its own layer or of a lower one (``LAYERS`` below, the table of
  docs/architecture.md); a new unit must be given a layer here and there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

PACKAGE = Path(__file__).resolve().parents[2] / "belief_graph"

# Bottom to top; the same order and names as the table in docs/architecture.md.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("foundation", frozenset({"errors", "limits", "keypatterns", "credentials", "settings"})),
    ("data", frozenset({"models", "embeddings", "argumentation"})),
    ("views", frozenset({"viz"})),
    ("db", frozenset({"db"})),
    ("repositories", frozenset({"repositories"})),
    ("console", frozenset({"console"})),
    ("local tools", frozenset({"localserver", "llmserver"})),
    ("llm", frozenset({"llm"})),
    ("services", frozenset({"services", "policies"})),
    ("facade", frozenset({"facade", "aio", "lazy", "mcp_server", "belief_graph"})),
    ("integrations", frozenset({"integrations"})),
    ("cli", frozenset({"cli"})),
)
LAYER_OF = {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}

Edge = tuple[str, str, bool]  # (importer module, imported module, only under TYPE_CHECKING)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return inside


def import_edges() -> tuple[set[str], list[Edge]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    edges: list[Edge] = []
    for path in paths:
        me = module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = _type_checking_nodes(tree)
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = me.split(".")
                    if path.name != "__init__.py":
                        base.pop()
                    base = base[: len(base) - (node.level - 1)]
                    base_name = ".".join(base + ([node.module] if node.module else []))
                else:
                    base_name = node.module or ""
                targets = [
                    f"{base_name}.{a.name}" if f"{base_name}.{a.name}" in modules else base_name for a in node.names
                ]
            for target in targets:
                if target.split(".")[0] == "belief_graph" and target != me:
                    edges.append((me, target, id(node) in typing_only))
    return modules, edges


def cycles(nodes: Iterable[str], succ: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(succ.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_circle_between_modules() -> None:
    modules, edges = import_edges()
    succ: dict[str, set[str]] = {}
    for a, b, typing_only in edges:
        if not typing_only and b in modules:
            succ.setdefault(a, set()).add(b)
    assert cycles(sorted(modules), succ) == []


def test_no_loop_between_packages() -> None:
    modules, edges = import_edges()
    succ: dict[str, set[str]] = {}
    for a, b, typing_only in edges:
        if not typing_only and unit_of(a) != unit_of(b):
            succ.setdefault(unit_of(a), set()).add(unit_of(b))
    assert cycles(sorted({unit_of(m) for m in modules}), succ) == [list(loop) for loop in KNOWN_LOOPS]


KNOWN_LOOPS: dict[tuple[str, ...], str] = {}
"""Package loops that exist today, each with what ends it: the test fails when a new loop appears and
when a listed one is gone (so the entry is removed with it)."""


def test_every_unit_has_a_layer() -> None:
    modules, _ = import_edges()
    assert sorted({unit_of(m) for m in modules} - LAYER_OF.keys()) == []
    assert sorted(LAYER_OF.keys() - {unit_of(m) for m in modules}) == []


def upward(edges: Iterable[Edge]) -> list[str]:
    """The imports of a unit from a higher layer, as ``a -> b (layer -> layer)``."""
    return sorted(
        {
            f"{a} -> {b} ({LAYERS[LAYER_OF[unit_of(a)]][0]} -> {LAYERS[LAYER_OF[unit_of(b)]][0]})"
            for a, b, _ in edges
            if LAYER_OF[unit_of(b)] > LAYER_OF[unit_of(a)]
        }
    )


def test_imports_point_down_the_layers() -> None:
    _, edges = import_edges()
    assert upward(edges) == []


def test_a_model_that_imports_its_drawing_points_up() -> None:
    """The drawing knows the models (``viz/notebook.py``), never the reverse: a model importing ``viz``,
    even lazily inside ``_repr_html_`` or only for a type, is an upward import."""
    edges = [
        ("belief_graph.models.support", "belief_graph.viz", False),
        ("belief_graph.models.argumentation", "belief_graph.viz.graph", True),
        ("belief_graph.viz.notebook", "belief_graph.models.support", False),
    ]
    assert upward(edges) == [
        "belief_graph.models.argumentation -> belief_graph.viz.graph (data -> views)",
        "belief_graph.models.support -> belief_graph.viz (data -> views)",
    ]


def test_the_checker_sees_a_circle() -> None:
    assert cycles(["a", "b", "c"], {"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert cycles(["a", "b"], {"a": {"b"}}) == []


def test_architecture_doc_lists_the_layers() -> None:
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name, units in LAYERS:
        row = next((line for line in doc.splitlines() if line.startswith(f"| {name} |")), None)
        assert row is not None, f"docs/architecture.md has no row for layer {name!r}"
        for unit in units:
            assert f"`{unit}" in row, f"layer {name!r}: {unit} missing from its row"


REMOVED_MODULES = ("belief_graph.facade_aliases",)
"""Modules that are gone for good (CHANGELOG.md): the flat aliases of the facade lived there."""


def test_no_module_imports_a_removed_one() -> None:
    modules, edges = import_edges()
    assert sorted(set(REMOVED_MODULES) & modules) == []
    assert sorted({f"{a} -> {b}" for a, b, _ in edges if b in REMOVED_MODULES}) == []
