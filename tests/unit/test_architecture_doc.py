"""docs/architecture.md checked against the code, where a claim can be checked mechanically:

* every path it names (``services/beliefs.py``, ``cypher/claim/``, ``tests/...``) exists;
* every module of its package table exists in that package;
* every named query it cites (``claim.lock_facts``) is in ``cypher/``;
* "``langchain_openai`` is imported only by ``embeddings/openai.py`` and ``llm/openai.py``, and each
  of those only by its factory", read from every import of the package with ``ast`` (imports
  inside functions and ``importlib.import_module("...")`` with a literal name included).

And README.md's layout names every page of docs/ and only paths that exist. The layer table is
checked by tests/unit/test_import_direction.py; the cypher/ areas of the write path by
tests/integration/test_architecture_write_path.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "belief_graph"
LAB = ROOT / "lab" / "belief_graph_lab"
"""The lab (benchmarks, demos, scenarios) beside the package: the doc names its modules the same way."""
BASES = (ROOT, PACKAGE, LAB, ROOT / "lab")
DOC = ROOT / "docs" / "architecture.md"

_TICKED = re.compile(r"`([^`\n]+)`")
_QUERY = re.compile(r"^([a-z_]+)\.([a-z_]+)$")


def _text() -> str:
    return DOC.read_text(encoding="utf-8")


def _exists(token: str) -> bool:
    """A path as the doc writes it: from the repository root or from the package (``services/x.py``);
    ``db/driver.translate`` is a name in a module; ``schemas/V*.cypher`` a pattern."""
    for base in BASES:
        if "*" in token:
            if any(base.glob(token)):
                return True
        elif (base / token).exists():
            return True
    module, _, attr = token.rpartition(".")
    if "/" in module and attr.isidentifier():
        for base in BASES:
            source = base / f"{module}.py"
            if source.exists() and re.search(rf"^(def|class) {attr}\b", source.read_text(), re.M):
                return True
    return False


def test_every_path_the_doc_names_exists() -> None:
    # "services/x.py:12-18" (a place in a file, as the repeated-code table cites it) names the file
    paths = {
        re.sub(r":\d+(-\d+)?$", "", t)
        for t in _TICKED.findall(_text())
        if "/" in t and " " not in t and not t.startswith("-") and "<" not in t
    }
    assert len(paths) > 20, "the doc names almost no path: did the parsing break?"
    subpackages = {p.name + "/" for p in PACKAGE.glob("*/*") if p.is_dir() and (p / "__init__.py").exists()}
    missing = sorted(t for t in paths if not _exists(t) and t not in subpackages)
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def _strip_parentheses(cell: str) -> str:
    out, depth = [], 0
    for ch in cell:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return "".join(out)


def test_every_module_of_the_package_table_exists() -> None:
    rows = re.findall(r"^\| `([\w/]+/)` \| (.+) \|$", _text(), re.M)
    assert len(rows) >= 10, "the package table was not found"
    missing = []
    for package, cell in rows:
        for name in _TICKED.findall(_strip_parentheses(cell)):  # names in parentheses are examples, not modules
            if not re.fullmatch(r"\w+/?", name):
                continue  # a command or an option, not a module
            if name.endswith("/") and any((base / name).is_dir() for base in BASES):
                continue  # another package named in passing (`benchmarks/` in the cli/bench row)
            targets = [base / package / name.rstrip("/") for base in BASES]  # in the package, beside it or the lab
            if not any(t.with_suffix(".py").exists() or t.is_dir() for t in targets):
                missing.append(f"{package}{name}")
    assert not missing, f"docs/architecture.md's package table names modules that do not exist: {missing}"


def test_every_query_the_doc_cites_is_in_cypher() -> None:
    areas = {p.name for p in (ROOT / "cypher").iterdir() if p.is_dir()}
    names = {
        line.split(":", 1)[1].strip()
        for f in (ROOT / "cypher").rglob("*.cypher")
        for line in f.read_text().splitlines()
        if line.startswith("// name:")
    }
    cited = {t for t in _TICKED.findall(_text()) if (m := _QUERY.match(t)) and m[1] in areas}
    assert cited, "the doc cites no named query: did the parsing break?"
    assert not cited - names, f"docs/architecture.md cites queries that are not in cypher/: {sorted(cited - names)}"


def _imports(path: Path) -> set[str]:
    """Absolute module names ``path`` imports (relative imports resolved; ``import_module`` literals)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def _importers(module: str) -> set[str]:
    return {
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if any(m == module or m.startswith(module + ".") for m in _imports(p))
    }


def test_langchain_openai_has_two_importers_each_imported_only_by_its_factory() -> None:
    text = " ".join(_text().split())
    assert "`langchain_openai` is imported only by `embeddings/openai.py` and `llm/openai.py`" in text
    assert "each of those only by its factory" in text
    assert _importers("langchain_openai") == {"embeddings/openai.py", "llm/openai.py"}
    assert _importers("belief_graph.llm.openai") == {"llm/factory.py"}
    assert _importers("belief_graph.embeddings.openai") == {"embeddings/factory.py"}


def test_the_readme_layout_names_every_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^docs/ +(.*?)\n(?=\S)", readme, re.M | re.S)
    assert m, "README.md's layout has no `docs/` entry"
    words = set(re.findall(r"[\w-]+", m[1]))
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    missing = [p for p in pages if p not in words]
    assert not missing, f"README.md's layout does not name these docs/ pages: {missing}"


def test_every_path_of_the_readme_layout_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^## Layout\n+```\w*\n(.*?)^```", readme, re.M | re.S)
    assert m, "README.md has no layout block under '## Layout'"
    folders = re.findall(r"^\s*([\w.-]+/(?:[\w-]+/?)?)\s", m[1], re.M)
    assert len(folders) > 10, "the layout names almost no folder: did the parsing break?"
    missing = [f for f in folders if not any((base / f).exists() for base in BASES)]
    assert not missing, f"README.md's layout names paths that do not exist: {missing}"
