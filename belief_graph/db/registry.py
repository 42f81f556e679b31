"""The typed query registry: every Cypher statement belief_graph runs, loaded from ``cypher/``.

Each query lives in its own file, ``cypher/<area>/<verb>_<noun>.cypher``, one statement per
file, under a header that this module parses and Neo4j Browser ignores::

    // name: claim.create_claim
    // mode: write
    // params: space, id, text
    // description: one line
    // :param space => 'default'
    // :param id => 'c1'
    // :param text => 'hello'
    CREATE (c:Claim {space: $space, id: $id, text: $text})

Header keys (``// key: value``; a ``//`` line without a lowercase ``key:`` prefix is a free
comment):

``name``        required; must equal ``<area>.<file stem>`` (the path is the name)
``mode``        required; ``read`` or ``write``
``params``      required (may be empty); comma-separated names, each used as ``$name``
``description`` required; one line
``autocommit``  optional, ``true``/``false``; ``true`` allows ``CALL {...} IN TRANSACTIONS``
                (which cannot run inside an explicit transaction) and requires ``mode: write``;
                the ``Graph`` wrapper runs such queries with ``session.run``
``database``    optional; ``system`` for administration commands (``ALTER CURRENT USER``)
                that Neo4j only runs against the system database; default: the configured one
``cross-space`` optional; the reason why the statement is not confined to one ``$space`` (an
                admin query over every space, the whole vector index, the system database):
                ``// cross-space: doctor samples claims of every space``. Required, with a
                non-empty reason, on every statement that the space lint
                (:func:`space_findings`) flags; see below.
``:param``      one paste-ready ``// :param name => value`` line per declared param

:meth:`QueryRegistry.load` fails fast with :class:`~belief_graph.errors.RegistryError` (the file
path is in the message) on a malformed header, a ``$param`` used but not declared or declared
but not used, a write clause in a ``read`` query, more than one statement, ``CALL {...} IN
TRANSACTIONS`` without ``autocommit: true``, APOC (not installed on our server), and duplicate
names. Keywords are found with a small tokenizer, so words inside string literals, backticked
names, comments, property keys (``n.set``), map keys (``{delete: 1}``) and labels never count.

**Space lint.** Every node carries ``space`` and every statement that matches by ``id`` or ``key``
must also filter that node by space. :func:`space_findings` reports, from the tokens: a node
pattern outside ``CREATE`` whose map has ``id`` or ``key`` but no ``space`` (and whose variable
gets no ``x.space = ...`` predicate in the same statement part); an ``x.id``/``x.key`` comparison
(``=``, ``IN``, ``STARTS WITH``) outside ``SET`` on a variable never filtered by space; a statement
with no ``$space`` at all that reads or writes nodes; an optional space (``$space IS NULL``). The
test ``tests/unit/test_cypher_space.py`` requires every such statement to carry a
``cross-space:`` header (and every ``cross-space:`` header to be needed).

In a wheel the files ship as ``belief_graph/_resources/cypher`` (hatch ``force-include``); in a
source checkout :func:`resource_dir` falls back to the top-level ``cypher/`` folder.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final, Literal, cast

import neo4j

from ..errors import QueryNotFound, RegistryError, ValidationError
from .cypher_lexer import _IN_TRANSACTIONS, _analyse, _CypherSyntaxError, split_statements, write_clauses
from .space_lint import space_findings

__all__ = [
    "APP_NAME",
    "Mode",
    "Query",
    "QueryRegistry",
    "get_registry",
    "parse_query",
    "resource_dir",
    "safe_label",
    "space_findings",
    "split_statements",
    "write_clauses",
]

APP_NAME: Final = "belief_graph"
"""Value of the ``app`` key in every query's transaction metadata."""

Mode = Literal["read", "write"]

_PACKAGE: Final = "belief_graph"
_RESOURCES: Final = "_resources"
_SUFFIX: Final = ".cypher"

_REQUIRED_KEYS: Final = ("name", "mode", "params", "description")
_KNOWN_KEYS: Final = frozenset({*_REQUIRED_KEYS, "autocommit", "database", "cross-space"})
_RESERVED_METADATA: Final = frozenset({"app", "query"})

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PART = re.compile(r"[a-z][a-z0-9_]*")
_HEADER_KEY = re.compile(r"([a-z][a-z_-]*)\s*:(.*)")
_PARAM_LINE = re.compile(r":param\s+([A-Za-z_][A-Za-z0-9_]*)\s*=>\s*(\S.*)")

# ---------------------------------------------------------------------------------------------
# Resource folders
# ---------------------------------------------------------------------------------------------


def resource_dir(name: str) -> Traversable:
    """Return the shipped resource folder ``name`` (``"cypher"`` or ``"schemas"``).

    Looks in ``belief_graph/_resources/<name>`` (where the wheel puts it) and falls back to the
    ``<name>/`` folder next to the package (a source checkout or an editable install).

    Raises:
        RegistryError: neither folder exists.
    """
    return _resolve_resource_dir(name, files(_PACKAGE), Path(__file__).resolve().parents[2])


def _resolve_resource_dir(name: str, package: Traversable, checkout_root: Path) -> Traversable:
    """Resolve ``name`` inside ``package/_resources`` first, then ``checkout_root``."""
    if not _PATH_PART.fullmatch(name):
        raise RegistryError(f"invalid resource folder name {name!r}")
    packaged = package / _RESOURCES / name
    if packaged.is_dir():
        return packaged
    checkout = checkout_root / name
    if checkout.is_dir():
        return checkout
    raise RegistryError(
        f"resource folder {name!r} not found: looked in {packaged} (wheel) and {checkout} "
        "(source checkout); reinstall belief-graph"
    )


# ---------------------------------------------------------------------------------------------
# Query
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Query:
    """One named, validated Cypher statement from ``cypher/``.

    Attributes:
        name: ``<area>.<verb>_<noun>``, equal to the file's path under ``cypher/``.
        mode: ``"read"`` or ``"write"`` (route and transaction type).
        params: the declared ``$params``, in header order; exactly these must be bound.
        description: one line from the header.
        text: the statement without the header and without a trailing ``;``.
        path: where the file was loaded from (for messages).
        autocommit: run with ``session.run`` (``CALL {...} IN TRANSACTIONS``), never in an
            explicit transaction.
        examples: the header's ``:param`` lines as ``(name, value expression)`` pairs.
        database: ``"system"`` for administration commands, ``None`` for the configured database.
        cross_space: the header's reason why the statement is not confined to one ``$space``.
    """

    name: str
    mode: Mode
    params: tuple[str, ...]
    description: str
    text: str
    path: str
    autocommit: bool = False
    examples: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    database: Literal["system"] | None = None
    cross_space: str | None = None

    @property
    def is_read(self) -> bool:
        """True for ``mode: read``."""
        return self.mode == "read"

    def metadata(self, **extra: Any) -> dict[str, Any]:
        """Transaction metadata tagging this query (shown by ``SHOW TRANSACTIONS YIELD *``).

        Use it with ``session.begin_transaction(metadata=...)`` or ``neo4j.unit_of_work``:
        the driver refuses ``neo4j.Query`` objects in ``tx.run``.

        Raises:
            ValidationError: ``extra`` tries to override ``app`` or ``query``.
        """
        clash = sorted(_RESERVED_METADATA & extra.keys())
        if clash:
            raise ValidationError(f"metadata keys {', '.join(clash)} are reserved")
        return {"app": APP_NAME, "query": self.name, **extra}

    def to_neo4j(self, *, timeout: float | None = None, **extra_metadata: Any) -> neo4j.Query:
        """This query as a ``neo4j.Query`` tagged with :meth:`metadata`.

        Accepted by ``session.run`` and ``driver.execute_query`` (not by ``tx.run``).
        """
        # The text comes from a vetted file shipped with the package, never from user input
        # (neo4j types it LiteralString; mypy treats that as str).
        return neo4j.Query(self.text, metadata=self.metadata(**extra_metadata), timeout=timeout)

    def check_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Return ``params`` as a dict if its keys are exactly the declared params.

        Raises:
            ValidationError: a declared param is missing or an undeclared one is given.
        """
        missing = [p for p in self.params if p not in params]
        extra = sorted(set(params) - set(self.params))
        if missing or extra:
            problems = []
            if missing:
                problems.append(f"missing parameter(s): {', '.join(missing)}")
            if extra:
                problems.append(f"unexpected parameter(s): {', '.join(extra)}")
            raise ValidationError(f"query {self.name!r}: {'; '.join(problems)}")
        return dict(params)


def _line_of(text: str, offset: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, offset)


def _split_header(source: str) -> tuple[list[tuple[int, str]], str, int]:
    """Split a file into header comment lines ``(line number, content)``, body, body's 1st line.

    The header is the leading block of blank and ``//`` lines.
    """
    lines = source.splitlines(keepends=True)
    header: list[tuple[int, str]] = []
    k = 0
    while k < len(lines):
        stripped = lines[k].strip()
        if stripped and not stripped.startswith("//"):
            break
        if stripped:
            header.append((k + 1, stripped[2:].strip()))
        k += 1
    return header, "".join(lines[k:]), k + 1


def _name_from_path(relative_path: str, where: str) -> str:
    parts = relative_path.replace("\\", "/").split("/")
    if len(parts) < 2 or not parts[-1].endswith(_SUFFIX):
        raise RegistryError(
            f"query files must be cypher/<area>/<verb>_<noun>{_SUFFIX}, got {relative_path!r}",
            where,
        )
    parts[-1] = parts[-1][: -len(_SUFFIX)]
    for part in parts:
        if not _PATH_PART.fullmatch(part):
            raise RegistryError(f"path part {part!r} must be lower snake_case ([a-z][a-z0-9_]*)", where)
    return ".".join(parts)


def parse_query(source: str, relative_path: str, *, path: str | None = None) -> Query:
    """Parse and validate one query file.

    Args:
        source: the file's text (header and statement).
        relative_path: path under ``cypher/`` with ``/`` separators, e.g.
            ``"claim/create_claim.cypher"``; it determines the name (``claim.create_claim``).
        path: where the file lives, for messages (defaults to ``relative_path``).

    Raises:
        RegistryError: anything wrong with the file; the message starts with the path.
    """
    where = path or relative_path
    expected_name = _name_from_path(relative_path, where)
    header_lines, body, body_line = _split_header(source.removeprefix("\ufeff"))

    def fail(message: str, line: int | None = None) -> RegistryError:
        return RegistryError(f"line {line}: {message}" if line else message, where)

    # -- header ---------------------------------------------------------------------------
    values: dict[str, tuple[int, str]] = {}
    examples: dict[str, tuple[int, str]] = {}
    for line, content in header_lines:
        if content.startswith(":param"):
            m = _PARAM_LINE.fullmatch(content)
            if m is None:
                raise fail(f"malformed {content!r}, expected ':param name => value'", line)
            if m.group(1) in examples:
                raise fail(f"duplicate ':param {m.group(1)}' line", line)
            examples[m.group(1)] = (line, m.group(2).strip())
            continue
        m = _HEADER_KEY.fullmatch(content)
        if m is None:
            continue  # a free comment
        key, value = m.group(1), m.group(2).strip()
        if key not in _KNOWN_KEYS:
            raise fail(
                f"unknown header key {key!r} (known: {', '.join(sorted(_KNOWN_KEYS))}; "
                "free comments must not start with 'word:')",
                line,
            )
        if key in values:
            raise fail(f"duplicate header key {key!r}", line)
        values[key] = (line, value)
    missing_keys = [k for k in _REQUIRED_KEYS if k not in values]
    if missing_keys:
        raise fail(f"missing header key(s): {', '.join(missing_keys)}")

    name_line, name = values["name"]
    if name != expected_name:
        raise fail(f"header name {name!r} must equal {expected_name!r} (from the path)", name_line)

    mode_line, mode = values["mode"]
    if mode not in ("read", "write"):
        raise fail(f"mode must be 'read' or 'write', got {mode!r}", mode_line)

    desc_line, description = values["description"]
    if not description:
        raise fail("description is empty", desc_line)

    autocommit = False
    if "autocommit" in values:
        ac_line, ac = values["autocommit"]
        if ac.lower() not in ("true", "false"):
            raise fail(f"autocommit must be 'true' or 'false', got {ac!r}", ac_line)
        autocommit = ac.lower() == "true"
        if autocommit and mode != "write":
            raise fail("autocommit: true requires mode: write", ac_line)

    database: Literal["system"] | None = None
    if "database" in values:
        db_line, db = values["database"]
        if db != "system":
            raise fail(f"database must be 'system' (or absent), got {db!r}", db_line)
        database = "system"

    cross_space: str | None = None
    if "cross-space" in values:
        cs_line, cs = values["cross-space"]
        if not cs:
            raise fail("cross-space needs a reason (why the statement is not confined to one $space)", cs_line)
        cross_space = cs

    params_line, params_value = values["params"]
    params = tuple(p.strip() for p in params_value.split(",")) if params_value else ()
    for p in params:
        if not _IDENTIFIER.fullmatch(p):
            raise fail(f"invalid param name {p!r} in params", params_line)
    dupes = sorted({p for p in params if params.count(p) > 1})
    if dupes:
        raise fail(f"param(s) declared twice: {', '.join(dupes)}", params_line)
    unknown_examples = [p for p in examples if p not in params]
    if unknown_examples:
        raise fail(
            f":param line(s) for undeclared param(s): {', '.join(unknown_examples)}",
            examples[unknown_examples[0]][0],
        )
    no_example = [p for p in params if p not in examples]
    if no_example:
        raise fail(f"no ':param name => value' line for: {', '.join(no_example)}", params_line)

    # -- body -----------------------------------------------------------------------------
    try:
        analysis = _analyse(body)
    except _CypherSyntaxError as exc:
        raise fail(str(exc), _line_of(body, exc.offset, body_line)) from None
    if analysis.empty:
        raise fail("no statement after the header")

    separators = list(analysis.separators)
    end = len(body)
    if separators and separators[-1] + 1 == analysis.last_token_end:
        end = separators.pop()  # one trailing `;` is fine; drop it
    if separators:
        raise fail(
            "more than one statement (';' before the end); put each statement in its own file",
            _line_of(body, separators[0], body_line),
        )
    text = body[:end].strip()

    used = analysis.params
    undeclared = sorted(used - set(params))
    if undeclared:
        raise fail(f"$param(s) used but not declared in 'params:': {', '.join(undeclared)}", params_line)
    unused = [p for p in params if p not in used]
    if unused:
        raise fail(f"param(s) declared but not used: {', '.join(unused)}", params_line)

    if analysis.apoc:
        raise fail(
            "APOC is not installed on the belief_graph server; use plain Cypher",
            _line_of(body, analysis.apoc[0].offset, body_line),
        )
    if analysis.in_transactions and not autocommit:
        raise fail(
            f"a {_IN_TRANSACTIONS} cannot run in an explicit transaction; "
            "add '// autocommit: true' (and mode: write) if this is intended",
            _line_of(body, analysis.in_transactions[0].offset, body_line),
        )
    if mode == "read" and analysis.writes:
        first = analysis.writes[0]
        raise fail(
            f"mode: read but the statement writes ({first.what}); use mode: write",
            _line_of(body, first.offset, body_line),
        )

    return Query(
        name=name,
        mode=cast(Mode, mode),
        params=params,
        description=description,
        text=text,
        path=where,
        autocommit=autocommit,
        examples=tuple((p, examples[p][1]) for p in params),
        database=database,
        cross_space=cross_space,
    )


# ---------------------------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------------------------


def _walk(node: Traversable, parts: tuple[str, ...]) -> Iterator[tuple[str, Traversable]]:
    """Yield ``(relative path, file)`` for every ``*.cypher`` file below ``node``, sorted."""
    for child in sorted(node.iterdir(), key=lambda t: t.name):
        if child.name.startswith(".") or child.name == "__pycache__":
            continue
        if child.is_dir():
            yield from _walk(child, (*parts, child.name))
        elif child.name.endswith(_SUFFIX):
            yield "/".join((*parts, child.name)), child


class QueryRegistry:
    """All queries by name. Immutable once built; use :func:`get_registry` for the shipped one.

    ``registry[name]`` raises :class:`~belief_graph.errors.QueryNotFound`; iterating yields
    :class:`Query` objects sorted by name.
    """

    __slots__ = ("_queries",)

    def __init__(self, queries: Iterable[Query]) -> None:
        """Build from already-parsed queries.

        Raises:
            RegistryError: two queries share a name.
        """
        by_name: dict[str, Query] = {}
        for query in queries:
            if query.name in by_name:
                raise RegistryError(
                    f"duplicate query name {query.name!r} (also in {by_name[query.name].path})",
                    query.path,
                )
            by_name[query.name] = query
        self._queries: dict[str, Query] = dict(sorted(by_name.items()))

    @classmethod
    def load(cls, root: Traversable | str | os.PathLike[str] | None = None) -> QueryRegistry:
        """Parse every ``*.cypher`` file below ``root`` (default: the shipped ``cypher/``).

        Raises:
            RegistryError: ``root`` is not a folder, or any file is malformed.
        """
        folder: Traversable
        if root is None:
            folder = resource_dir("cypher")
        elif isinstance(root, (str, os.PathLike)):
            folder = Path(root)
        else:
            folder = root
        if not folder.is_dir():
            raise RegistryError("query folder does not exist", str(folder))
        queries = []
        for relative, file in _walk(folder, ()):
            try:
                source = file.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise RegistryError(f"not UTF-8: {exc}", str(file)) from None
            queries.append(parse_query(source, relative, path=str(file)))
        return cls(queries)

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise QueryNotFound(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._queries

    def __iter__(self) -> Iterator[Query]:
        return iter(self._queries.values())

    def __len__(self) -> int:
        return len(self._queries)

    def __repr__(self) -> str:
        return f"QueryRegistry({len(self)} queries)"

    def get(self, name: str) -> Query | None:
        """The query called ``name``, or None."""
        return self._queries.get(name)

    def names(self) -> list[str]:
        """All query names, sorted."""
        return list(self._queries)

    def bind(self, query_name: str, /, **params: Any) -> tuple[neo4j.Query, dict[str, Any]]:
        """Look up ``query_name`` and check that ``params`` are exactly its declared params.

        ``query_name`` is positional-only so a query may declare a param called ``name``.

        Returns:
            ``(neo4j.Query tagged with metadata, parameters dict)``.

        Raises:
            QueryNotFound: no such query.
            ValidationError: missing or unexpected params (all of them are named).
        """
        query = self[query_name]
        return query.to_neo4j(), query.check_params(params)


@functools.cache
def get_registry() -> QueryRegistry:
    """The registry of the shipped ``cypher/`` folder, loaded once per process."""
    return QueryRegistry.load()


# ---------------------------------------------------------------------------------------------
# Label safety (convention 3)
# ---------------------------------------------------------------------------------------------


def safe_label(value: str, allowed: Collection[str]) -> str:
    """Return ``value`` if it may be used as a label or relationship type, else raise.

    It must be one of ``allowed`` *and* a plain ASCII identifier (``[A-Za-z_][A-Za-z0-9_]*``),
    so backticks, colons, whitespace, comments and Unicode look-alikes are all refused. Pass
    the result as a parameter to a dynamic label (``SET n:$($label)``); never format it into
    Cypher.

    Raises:
        ValidationError: ``value`` is not allowed.
    """
    if isinstance(allowed, str):
        raise TypeError("allowed must be a collection of labels, not a single string")
    if not isinstance(value, str) or not _IDENTIFIER.fullmatch(value) or value not in allowed:
        shown = ", ".join(sorted(allowed)) if allowed else "(none)"
        raise ValidationError(f"label {value!r} is not allowed (allowed: {shown})")
    return value
