"""Lint of the query registry and the cypher/ files (tier: ``cypher``, no database).

Covers: the shipped registry loads and covers every file; each fail-fast rule of the loader
(with the file path in the message); write-clause detection that ignores strings, comments,
property keys and labels; ``bind`` param checks; the label allow-list against hostile input;
``resource_dir`` in a wheel layout and in a checkout; and no inline Cypher in ``belief_graph``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import neo4j
import pytest

from belief_graph.db.registry import (
    APP_NAME,
    Query,
    QueryRegistry,
    _resolve_resource_dir,
    get_registry,
    parse_query,
    resource_dir,
    safe_label,
    split_statements,
    write_clauses,
)
from belief_graph.errors import QueryNotFound, RegistryError, ValidationError

pytestmark = pytest.mark.cypher

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "belief_graph"
CYPHER = REPO / "cypher"
DATA = Path(__file__).resolve().parents[1] / "data"


def header(
    name: str = "claim.get_claim",
    mode: str = "read",
    params: tuple[str, ...] = ("id",),
    description: str = "a test query",
    extra: str = "",
) -> str:
    """A valid header for ``name`` with one ``:param`` line per param."""
    lines = [
        f"// name: {name}",
        f"// mode: {mode}",
        f"// params: {', '.join(params)}",
        f"// description: {description}",
        *(f"// :param {p} => 'x'" for p in params),
    ]
    return "\n".join(lines) + "\n" + extra


WriteFile = Callable[[str, str], Path]


@pytest.fixture
def write(tmp_path: Path) -> WriteFile:
    """Write ``text`` at ``tmp_path/cypher/<relative>`` and return the file's path."""

    def _write(relative: str, text: str) -> Path:
        path = tmp_path / "cypher" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write


def load_error(root: Path) -> RegistryError:
    with pytest.raises(RegistryError) as info:
        QueryRegistry.load(root)
    return info.value


# --- the shipped registry ------------------------------------------------------------------------


def test_real_registry_loads() -> None:
    get_registry.cache_clear()
    registry = get_registry()
    assert len(registry) > 0, "no queries loaded from cypher/"
    assert get_registry() is registry, "get_registry() must be cached"
    for query in registry:
        assert query.mode in ("read", "write")
        assert query.text and not query.text.startswith("//")


def test_every_cypher_file_is_a_query_named_after_its_path() -> None:
    files = sorted(p for p in CYPHER.rglob("*") if p.is_file() and not p.name.startswith("."))
    strays = [str(p.relative_to(REPO)) for p in files if p.suffix != ".cypher"]
    assert not strays, f"non-.cypher files in cypher/: {strays}"
    registry = QueryRegistry.load(CYPHER)
    assert len(files) == len(registry)
    for path in files:
        rel = path.relative_to(CYPHER)
        assert len(rel.parts) == 2, f"{rel}: expected cypher/<area>/<verb>_<noun>.cypher"
        name = ".".join(rel.with_suffix("").parts)
        assert name in registry, f"{rel} is not in the registry"
        assert Path(registry[name].path) == path


def test_every_query_has_paste_ready_params_for_the_browser() -> None:
    for query in get_registry():
        assert [p for p, _ in query.examples] == list(query.params), query.name


def test_schema_scripts_split_into_statements() -> None:
    scripts = sorted(Path(str(resource_dir("schemas"))).glob("V*.cypher"))
    for script in scripts:
        assert re.fullmatch(r"V\d{3}__[a-z0-9_]+\.cypher", script.name), script.name
        statements = split_statements(script.read_text(encoding="utf-8"))
        assert statements, f"{script.name} has no statements"


# --- fixtures in tests/data ----------------------------------------------------------------------


def test_good_fixture_loads() -> None:
    registry = QueryRegistry.load(DATA / "cypher_good")
    assert registry.names() == ["claim.create_claim", "claim.get_claim"]
    assert [q.name for q in registry] == registry.names()

    get = registry["claim.get_claim"]
    assert get.mode == "read" and get.is_read and not get.autocommit
    assert get.params == ("space", "id")
    assert get.examples == (("space", "'default'"), ("id", "'c1'"))
    assert get.text.startswith("MATCH (c:Claim")
    assert get.text.endswith("AS claim"), "the trailing ';' is dropped"
    assert "// name:" not in get.text

    create = registry["claim.create_claim"]
    assert create.mode == "write"
    assert create.params == ("space", "id", "text")
    assert create.path == str(DATA / "cypher_good" / "claim" / "create_claim.cypher")


def test_bad_fixture_fails_with_path_and_line() -> None:
    path = DATA / "cypher_bad" / "claim" / "get_claim.cypher"
    err = load_error(DATA / "cypher_bad")
    assert err.path == str(path)
    assert str(err).startswith(str(path))
    assert "DETACH DELETE" in str(err) and "line 9" in str(err)


# --- fail-fast rules -----------------------------------------------------------------------------

_HDR = header()
_BODY = "MATCH (c:Claim {id: $id}) RETURN c"

FAILURES: list[tuple[str, str, str, str]] = [
    # (id, relative path, file text, expected message fragment)
    (
        "missing-name",
        "claim/get_claim.cypher",
        "// mode: read\n// params:\n// description: d\nRETURN 1",
        "missing header key(s): name",
    ),
    ("missing-all", "claim/get_claim.cypher", "RETURN 1", "missing header key(s): name, mode, params, description"),
    (
        "missing-params",
        "claim/get_claim.cypher",
        "// name: claim.get_claim\n// mode: read\n// description: d\nRETURN 1",
        "params",
    ),
    ("unknown-key", "claim/get_claim.cypher", header(extra="// timeout: 5\n" + _BODY), "unknown header key 'timeout'"),
    (
        "duplicate-key",
        "claim/get_claim.cypher",
        header(extra="// mode: write\n" + _BODY),
        "duplicate header key 'mode'",
    ),
    ("bad-mode", "claim/get_claim.cypher", header(mode="readonly") + _BODY, "mode must be 'read' or 'write'"),
    ("empty-description", "claim/get_claim.cypher", header(description="") + _BODY, "description is empty"),
    (
        "name-mismatch",
        "claim/get_claim.cypher",
        header(name="claim.fetch_claim") + _BODY,
        "must equal 'claim.get_claim'",
    ),
    ("no-area", "get_claim.cypher", header(name="get_claim") + _BODY, "<area>"),
    ("not-snake-case", "Claim/getClaim.cypher", header(name="Claim.getClaim") + _BODY, "lower snake_case"),
    (
        "undeclared-param",
        "claim/get_claim.cypher",
        header() + "MATCH (c:Claim {id: $id, space: $space}) RETURN c",
        "used but not declared in 'params:': space",
    ),
    ("unused-param", "claim/get_claim.cypher", header(params=("id", "space")) + _BODY, "declared but not used: space"),
    (
        "param-twice",
        "claim/get_claim.cypher",
        "// name: claim.get_claim\n// mode: read\n// params: id, id\n// description: d\n// :param id => 'x'\n" + _BODY,
        "declared twice: id",
    ),
    (
        "example-twice",
        "claim/get_claim.cypher",
        header(extra="// :param id => 'y'\n" + _BODY),
        "duplicate ':param id' line",
    ),
    (
        "bad-param-name",
        "claim/get_claim.cypher",
        "// name: claim.get_claim\n// mode: read\n// params: id, x-y\n// description: d\n// :param id => 'x'\n" + _BODY,
        "invalid param name 'x-y'",
    ),
    (
        "missing-example",
        "claim/get_claim.cypher",
        "// name: claim.get_claim\n// mode: read\n// params: id\n// description: d\n" + _BODY,
        "no ':param name => value' line for: id",
    ),
    (
        "example-undeclared",
        "claim/get_claim.cypher",
        header(extra="// :param other => 1\n" + _BODY),
        "undeclared param(s): other",
    ),
    ("malformed-example", "claim/get_claim.cypher", header(extra="// :param other: 1\n" + _BODY), "malformed"),
    (
        "bad-autocommit",
        "claim/get_claim.cypher",
        header(extra="// autocommit: yes\n" + _BODY),
        "autocommit must be 'true' or 'false'",
    ),
    (
        "autocommit-read",
        "claim/get_claim.cypher",
        header(extra="// autocommit: true\n" + _BODY),
        "requires mode: write",
    ),
    (
        "bad-database",
        "claim/get_claim.cypher",
        header(extra="// database: neo4j\n" + _BODY),
        "database must be 'system'",
    ),
    (
        "two-statements",
        "claim/get_claim.cypher",
        header() + "MATCH (c:Claim {id: $id}) RETURN c;\nRETURN 2;",
        "more than one statement",
    ),
    (
        "empty-body",
        "claim/get_claim.cypher",
        header(params=()) + "// nothing but comments\n/* here */\n",
        "no statement",
    ),
    (
        "unterminated-string",
        "claim/get_claim.cypher",
        header() + "MATCH (c {id: $id}) WHERE c.t = 'oops RETURN c",
        "unterminated '...' literal",
    ),
    (
        "unterminated-comment",
        "claim/get_claim.cypher",
        header() + "MATCH (c {id: $id}) /* RETURN c",
        "unterminated block comment",
    ),
    (
        "in-transactions",
        "claim/get_claim.cypher",
        header(mode="write") + "MATCH (c {id: $id}) CALL (c) { SET c.x = 1 } IN TRANSACTIONS OF 10 ROWS",
        "cannot run in an explicit transaction",
    ),
    (
        "in-concurrent-transactions",
        "claim/get_claim.cypher",
        header(mode="write") + "MATCH (c {id: $id}) CALL (c) { SET c.x = 1 } IN 4 CONCURRENT TRANSACTIONS",
        "cannot run in an explicit transaction",
    ),
    ("apoc", "claim/get_claim.cypher", header() + "MATCH (c {id: $id}) RETURN apoc.convert.toJson(c)", "APOC"),
]

READ_WRITES: list[tuple[str, str]] = [
    ("CREATE (x:Claim {id: $id})", "CREATE"),
    ("MERGE (x:Claim {id: $id})", "MERGE"),
    ("MATCH (x {id: $id}) SET x.seen = true", "SET"),
    ("MATCH (x {id: $id}) SET x:Seen", "SET"),
    ("MATCH (x {id: $id}) DELETE x", "DELETE"),
    ("MATCH (x {id: $id}) detach delete x", "DETACH DELETE"),
    ("MATCH (x {id: $id}) REMOVE x.seen", "REMOVE"),
    ("MATCH (x {id: $id}) FOREACH (y IN [x] | SET y.a = 1)", "FOREACH"),
    ("LOAD CSV FROM $id AS row RETURN row", "LOAD CSV"),
    ("CALL db.createLabel($id)", "procedure db.createLabel"),
    (
        "MATCH (x {id: $id}) CALL db.create.setNodeVectorProperty(x, 'e', [1.0])",
        "procedure db.create.setNodeVectorProperty",
    ),
    ("CREATE INDEX claim_id IF NOT EXISTS FOR (c:Claim) ON (c.id) OPTIONS {x: $id}", "CREATE"),
    ("CREATE CONSTRAINT c IF NOT EXISTS FOR (c:Claim) REQUIRE c.id IS UNIQUE OPTIONS {x: $id}", "CREATE"),
    ("DROP INDEX claim_id IF EXISTS OPTIONS {x: $id}", "DROP"),
    ("MATCH (x {id: $id}) CALL (x) { MATCH (x)-[r]->() DELETE r } RETURN 1", "DELETE"),
]


@pytest.mark.parametrize(
    ("relative", "text", "fragment"),
    [pytest.param(r, t, f, id=i) for i, r, t, f in FAILURES],
)
def test_malformed_file_fails_fast_with_its_path(write: WriteFile, relative: str, text: str, fragment: str) -> None:
    path = write(relative, text)
    err = load_error(path.parents[len(Path(relative).parts) - 1])
    assert err.path == str(path)
    assert str(err).startswith(f"{path}: ")
    assert fragment in str(err)


@pytest.mark.parametrize(("body", "clause"), READ_WRITES, ids=[c for _, c in READ_WRITES])
def test_read_query_with_a_write_clause_fails(write: WriteFile, body: str, clause: str) -> None:
    path = write("claim/get_claim.cypher", header() + body)
    err = load_error(path.parents[1])
    assert err.path == str(path)
    assert f"mode: read but the statement writes ({clause})" in str(err)
    # and the same statement is fine as a write query
    write("claim/get_claim.cypher", header(mode="write") + body)
    assert QueryRegistry.load(path.parents[1])["claim.get_claim"].mode == "write"


def test_duplicate_names_fail_with_both_paths() -> None:
    first = parse_query(header() + _BODY, "claim/get_claim.cypher", path="/a/get_claim.cypher")
    second = parse_query(header() + _BODY, "claim/get_claim.cypher", path="/b/get_claim.cypher")
    with pytest.raises(RegistryError) as info:
        QueryRegistry([first, second])
    assert info.value.path == "/b/get_claim.cypher"
    assert "duplicate query name 'claim.get_claim'" in str(info.value)
    assert "/a/get_claim.cypher" in str(info.value)


def test_missing_folder_fails(tmp_path: Path) -> None:
    err = load_error(tmp_path / "nope")
    assert err.path == str(tmp_path / "nope")


def test_autocommit_allows_in_transactions(write: WriteFile) -> None:
    body = "MATCH (c {id: $id}) CALL (c) { SET c.x = 1 } IN TRANSACTIONS OF 100 ROWS"
    text = header("admin.backfill_x", "write", extra="// autocommit: true\n") + body
    path = write("admin/backfill_x.cypher", text)
    query = QueryRegistry.load(path.parents[1])["admin.backfill_x"]
    assert query.autocommit and query.mode == "write"
    assert query.text == body


def test_database_system_is_recorded(write: WriteFile) -> None:
    body = "ALTER CURRENT USER SET PASSWORD FROM $old TO $new"
    text = (
        "// name: admin.change_x\n// mode: write\n// params: old, new\n// description: d\n"
        "// database: system\n// :param old => 'a'\n// :param new => 'b'\n" + body
    )
    path = write("admin/change_x.cypher", text)
    registry = QueryRegistry.load(path.parents[1])
    assert registry["admin.change_x"].database == "system"
    assert get_registry()["admin.ping"].database is None


# --- write detection ignores strings, comments and names -----------------------------------------

HARMLESS_READS = [
    "MATCH (c:Claim) WHERE c.text CONTAINS 'CREATE' RETURN c",
    'MATCH (c:Claim) WHERE c.text = "MERGE (x); DELETE x" RETURN c',
    "MATCH (c:Claim) WHERE c.text = 'it\\'s SET' RETURN c",
    "MATCH (c:Claim) // SET c.x = 1\nRETURN c",
    "MATCH (c:Claim) /* DETACH DELETE c; */ RETURN c",
    "MATCH (c:Claim) RETURN c.offset, c.set, c.delete, c.created_at, c.reset",
    "MATCH (c:Claim) RETURN {delete: 1, set: 2, create: 3} AS m",
    "MATCH (c:Create)-[:MERGE|DELETE]->(d:!Set&Remove) RETURN c",
    "MATCH (`create`:Claim) RETURN `create`.`set`",
    "SHOW TRANSACTIONS YIELD transactionId, metaData",
    "UNWIND $xs AS x WITH x WHERE x IN ['CREATE', 'DROP'] RETURN x",
    "CALL db.index.vector.queryNodes('claim_embedding', 5, $v) YIELD node RETURN node",
    "CALL dbms.components() YIELD name RETURN name",
    "CALL (x) { RETURN x AS y } RETURN y",
    "MATCH (c:Claim) RETURN c ORDER BY c.id SKIP 1 LIMIT 2",
    "MATCH (n) RETURN ſet",  # long s: not the ASCII keyword SET
]


@pytest.mark.parametrize("text", HARMLESS_READS)
def test_write_detection_ignores_strings_comments_and_names(text: str) -> None:
    assert write_clauses(text) == ()


def test_write_clauses_reports_in_order() -> None:
    text = "MERGE (a {id: 1}) ON CREATE SET a.x = 1 WITH a MATCH (b) DETACH DELETE b"
    assert write_clauses(text) == ("MERGE", "CREATE", "SET", "DETACH DELETE")


def test_params_in_strings_and_comments_are_not_params(write: WriteFile) -> None:
    body = "MATCH (c {id: $id}) // $ghost\nWHERE c.t <> '$ghost' RETURN c, $`id` AS again;"
    path = write("claim/get_claim.cypher", header() + body)
    query = QueryRegistry.load(path.parents[1])["claim.get_claim"]
    assert query.params == ("id",)
    assert query.text.endswith("AS again")


def test_semicolons_inside_strings_are_one_statement(write: WriteFile) -> None:
    body = "MATCH (c {id: $id}) WHERE c.t <> 'a;b' /* ; */ RETURN c ;  // trailing\n"
    path = write("claim/get_claim.cypher", header() + body)
    assert QueryRegistry.load(path.parents[1])["claim.get_claim"].text.endswith("RETURN c")


def test_free_comments_in_header_are_allowed(write: WriteFile) -> None:
    text = header(extra="// Uses the claim_id constraint. See DESIGN.md\n//\n" + _BODY)
    path = write("claim/get_claim.cypher", text)
    assert QueryRegistry.load(path.parents[1])["claim.get_claim"].text == _BODY


def test_byte_order_mark_and_crlf_are_tolerated(write: WriteFile) -> None:
    text = "\ufeff" + (header() + _BODY).replace("\n", "\r\n")
    path = write("claim/get_claim.cypher", text)
    assert QueryRegistry.load(path.parents[1])["claim.get_claim"].text == _BODY


def test_split_statements_respects_strings_and_comments() -> None:
    script = "// header\nCREATE INDEX a FOR (n:A) ON (n.x);\n/* ; */\nRETURN 'x;y' // ;\n;\n"
    assert split_statements(script) == ["CREATE INDEX a FOR (n:A) ON (n.x)", "RETURN 'x;y' // ;"]


# --- Query / bind --------------------------------------------------------------------------------


@pytest.fixture
def registry() -> QueryRegistry:
    return QueryRegistry.load(DATA / "cypher_good")


def test_to_neo4j_tags_the_transaction(registry: QueryRegistry) -> None:
    query = registry["claim.get_claim"]
    tagged = query.to_neo4j(timeout=2.5, request="r-1")
    assert isinstance(tagged, neo4j.Query)
    assert tagged.text == query.text
    assert tagged.metadata == {"app": APP_NAME, "query": "claim.get_claim", "request": "r-1"}
    assert tagged.timeout == 2.5
    assert query.to_neo4j().timeout is None
    with pytest.raises(ValidationError, match="reserved"):
        query.to_neo4j(query="other")


def test_bind_checks_exact_params(registry: QueryRegistry) -> None:
    tagged, params = registry.bind("claim.get_claim", space="s", id="c1")
    assert params == {"space": "s", "id": "c1"}
    assert tagged.metadata == {"app": APP_NAME, "query": "claim.get_claim"}

    with pytest.raises(ValidationError) as info:
        registry.bind("claim.get_claim", space="s")
    assert "missing parameter(s): id" in str(info.value)

    with pytest.raises(ValidationError) as info:
        registry.bind("claim.get_claim", space="s", id="c1", ids=["x"], limit=1)
    assert "unexpected parameter(s): ids, limit" in str(info.value)
    assert "claim.get_claim" in str(info.value)

    with pytest.raises(ValidationError) as info:
        registry.bind("claim.create_claim", space="s", txt="oops")
    assert "missing parameter(s): id, text" in str(info.value)
    assert "unexpected parameter(s): txt" in str(info.value)


def test_bind_accepts_a_param_called_name(write: WriteFile) -> None:
    body = "MATCH (p:Perspective {name: $name}) RETURN p"
    path = write("perspective/get_perspective.cypher", header("perspective.get_perspective", params=("name",)) + body)
    registry = QueryRegistry.load(path.parents[1])
    _, params = registry.bind("perspective.get_perspective", name="ops")
    assert params == {"name": "ops"}


def test_lookup(registry: QueryRegistry) -> None:
    with pytest.raises(QueryNotFound) as info:
        registry["claim.nope"]
    assert info.value.name == "claim.nope"
    with pytest.raises(QueryNotFound):
        registry.bind("claim.nope")
    assert "claim.get_claim" in registry and "claim.nope" not in registry
    assert registry.get("claim.nope") is None
    assert isinstance(registry.get("claim.get_claim"), Query)
    assert len(registry) == 2


def test_query_is_immutable(registry: QueryRegistry) -> None:
    query = registry["claim.get_claim"]
    with pytest.raises(AttributeError):
        query.text = "MATCH (n) DETACH DELETE n"  # type: ignore[misc]


# --- label safety (convention 3) -----------------------------------------------------------------

LABELS = frozenset({"Claim", "Episode", "Belief_2"})

HOSTILE_LABELS = [
    "Claim`) DETACH DELETE n //",
    "Claim:Admin",
    "Claim`",
    "`Claim`",
    "Claim ",
    " Claim",
    "Claim\n",
    "Claim\x00",
    "Claim)-[:X]->(m",
    "Claim|Admin",
    "Claim&Admin",
    "Сlaim",  # Cyrillic capital Es
    "Claіm",  # Ukrainian i
    "Ｃlaim",  # fullwidth C
    "Claim\u200b",  # zero-width space
    "claim",  # case matters
    "",
    "$label",
    "Admin",  # a valid identifier, but not allowed
]


@pytest.mark.parametrize("value", HOSTILE_LABELS)
def test_safe_label_refuses_hostile_input(value: str) -> None:
    with pytest.raises(ValidationError, match="is not allowed"):
        safe_label(value, LABELS)


def test_safe_label_allows_listed_identifiers() -> None:
    assert safe_label("Claim", LABELS) == "Claim"
    assert safe_label("Belief_2", LABELS) == "Belief_2"


def test_safe_label_refuses_a_hostile_allow_list_entry() -> None:
    bad = "Claim`) DETACH DELETE n //"
    with pytest.raises(ValidationError):
        safe_label(bad, {bad})
    with pytest.raises(ValidationError):
        safe_label("Сlaim", {"Сlaim"})  # listed, but not ASCII


def test_safe_label_refuses_a_string_as_allow_list() -> None:
    with pytest.raises(TypeError):
        safe_label("C", "Claim")


# --- resource_dir --------------------------------------------------------------------------------


def test_resource_dir_in_a_checkout_is_the_top_level_folder() -> None:
    # This test suite runs from the source tree: there is no belief_graph/_resources.
    assert not (PACKAGE / "_resources").exists()
    assert Path(str(resource_dir("cypher"))) == CYPHER
    assert Path(str(resource_dir("schemas"))) == REPO / "schemas"


def test_resource_dir_prefers_the_packaged_folder(tmp_path: Path) -> None:
    package = tmp_path / "site" / "belief_graph"
    (package / "_resources" / "cypher").mkdir(parents=True)
    (tmp_path / "repo" / "cypher").mkdir(parents=True)
    found = _resolve_resource_dir("cypher", package, tmp_path / "repo")
    assert Path(str(found)) == package / "_resources" / "cypher"


def test_resource_dir_falls_back_to_the_checkout(tmp_path: Path) -> None:
    package = tmp_path / "repo" / "belief_graph"
    package.mkdir(parents=True)
    (tmp_path / "repo" / "schemas").mkdir()
    found = _resolve_resource_dir("schemas", package, tmp_path / "repo")
    assert Path(str(found)) == tmp_path / "repo" / "schemas"


def test_resource_dir_missing_everywhere_fails(tmp_path: Path) -> None:
    with pytest.raises(RegistryError, match="not found"):
        _resolve_resource_dir("cypher", tmp_path / "pkg", tmp_path)
    with pytest.raises(RegistryError, match="invalid"):
        _resolve_resource_dir("../etc", tmp_path / "pkg", tmp_path)


# --- no inline Cypher in belief_graph ------------------------------------------------------------

# A string that starts like a statement (case-sensitive: prose "Create a claim" is fine) ...
_STARTS_LIKE_CYPHER = re.compile(
    r"\s*(?:OPTIONAL\s+MATCH|MATCH|MERGE|CREATE|UNWIND|CALL|RETURN|WITH|SHOW|DROP|"
    r"DETACH\s+DELETE|DELETE|LOAD\s+CSV|FOREACH|EXPLAIN|PROFILE|CYPHER|USE|ALTER|TERMINATE)"
    r"[\s(]"
)
# ... or holds a pattern clause anywhere: MATCH (n:Label ..., CREATE (c {...
_PATTERN_CLAUSE = re.compile(r"\b(?:MATCH|MERGE|CREATE)\s*\(\s*\w*\s*(?::\s*`?\w+`?)?\s*[{)]")


def _docstring_nodes(tree: ast.Module) -> set[int]:
    """ids of the Constant nodes that are module/class/function docstrings (documentation)."""
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _inline_cypher(source: str, where: str) -> Iterator[str]:
    """``where:line: snippet`` for each non-docstring string constant that looks like Cypher."""
    tree = ast.parse(source, filename=where)
    docstrings = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in docstrings:
            continue
        if _STARTS_LIKE_CYPHER.match(node.value) or _PATTERN_CLAUSE.search(node.value):
            snippet = node.value.strip().splitlines()[0][:60]
            yield f"{where}:{node.lineno}: {snippet!r}"


def test_no_inline_cypher_in_python() -> None:
    offenders = [
        hit
        for path in sorted([*PACKAGE.rglob("*.py"), *(REPO / "lab" / "belief_graph_lab").rglob("*.py")])
        for hit in _inline_cypher(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    ]
    assert not offenders, "Cypher text in Python; move it to cypher/<area>/<verb>_<noun>.cypher:\n  " + "\n  ".join(
        offenders
    )


@pytest.mark.parametrize(
    ("source", "flagged"),
    [
        ('q = "MATCH (c:Claim {id: $id}) RETURN c"', True),
        ('q = """\n    MERGE (a:Agent {id: $id})\n"""', True),
        ("q = f'MATCH (n:{label}) RETURN n'", True),
        ('q = "SHOW INDEXES YIELD name"', True),
        ('q = "CALL db.labels()"', True),
        ('msg = "run it first: MATCH (n) RETURN n"', True),
        ('msg = "Create a claim and return it"', False),
        ('msg = "MATCH"', False),
        ('KEYWORDS = {"CREATE", "MERGE"}', False),
        ('def f():\n    """MATCH (n) RETURN n is documented here."""', False),
    ],
)
def test_inline_cypher_rule(source: str, flagged: bool) -> None:
    hits = list(_inline_cypher(source, "probe.py"))
    assert bool(hits) is flagged, hits
