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

from belief_graph.errors import QueryNotFound, RegistryError, ValidationError

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
    return _resolve_resource_dir(name, files(_PACKAGE), Path(__file__).resolve().parent.parent)


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
# Tokenizer
# ---------------------------------------------------------------------------------------------

TokenKind = Literal["word", "param", "string", "ident", "number", "punct"]

_TOKEN = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<comment>//[^\n]*|/\*.*?\*/)
    | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<ident>`(?:[^`]|``)*`)
    | (?P<param>\$(?:`(?:[^`]|``)*`|\w+))
    | (?P<number>\d\w*)
    | (?P<word>[^\W\d]\w*)
    | (?P<unterminated>['"`]|/\*)
    | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: TokenKind
    value: str
    start: int


class _CypherSyntaxError(Exception):
    """Raised by :func:`_tokenize`; converted to RegistryError with a path by the caller."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def _tokenize(text: str) -> list[_Token]:
    """Split Cypher into tokens, dropping whitespace and comments.

    String literals (``'...'``, ``"..."``), backticked names and ``$params`` are single tokens,
    so nothing inside them is ever mistaken for a keyword or a statement separator.
    """
    tokens: list[_Token] = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        value = match.group()
        if kind in ("ws", "comment"):
            continue
        if kind == "unterminated":
            what = "block comment" if value == "/*" else f"{value}...{value} literal"
            raise _CypherSyntaxError(f"unterminated {what}", match.start())
        tokens.append(_Token(cast(TokenKind, kind), value, match.start()))
    # `$any(` / `$all(` are dynamic-label expressions (Cypher 5.26+), not parameters.
    for i, tok in enumerate(tokens):
        if (
            tok.kind == "param"
            and tok.value.lower() in ("$any", "$all")
            and i + 1 < len(tokens)
            and tokens[i + 1].value == "("
        ):
            tokens[i] = _Token("punct", tok.value, tok.start)
    return tokens


def _word(tok: _Token | None) -> str | None:
    """Upper-cased ASCII keyword of a word token, else None (``ſet`` is not ``SET``)."""
    if tok is None or tok.kind != "word" or not tok.value.isascii():
        return None
    return tok.value.upper()


# Clauses that write to the graph or the schema. DETACH DELETE is reported via DELETE,
# LOAD only together with CSV. CALL is checked by procedure name.
_WRITE_WORDS: Final = frozenset(
    {
        "CREATE",
        "MERGE",
        "SET",
        "DELETE",
        "REMOVE",
        "FOREACH",
        "INSERT",
        "DROP",
        "ALTER",
        "RENAME",
        "GRANT",
        "DENY",
        "REVOKE",
    }
)
# A word right after one of these is a property key or a label/type name, not a clause.
_NAME_PREFIXES: Final = frozenset({".", ":", "|", "&", "!"})
# Procedure name segments that mark a writing procedure (db.createLabel,
# db.create.setNodeVectorProperty, db.index.vector.createNodeIndex, dbms.setConfigValue, ...).
# Matched per segment in its original case: `createLabel` and `create` match, `settings` not.
_WRITE_PROCEDURE = re.compile(
    r"(create|set|drop|delete|remove|merge|clear|kill|terminate)(?:[A-Z0-9_]|$)"
)
_HARMLESS_PROCEDURES: Final = frozenset({"tx.setmetadata"})
_IN_TRANSACTIONS: Final = "subquery IN TRANSACTIONS"


@dataclass(frozen=True, slots=True)
class _Finding:
    what: str
    offset: int


@dataclass(frozen=True, slots=True)
class _Analysis:
    """What the tokenizer found in a statement body."""

    params: frozenset[str]
    writes: tuple[_Finding, ...]
    in_transactions: tuple[_Finding, ...]
    apoc: tuple[_Finding, ...]
    separators: tuple[int, ...]  # offsets of `;` tokens
    last_token_end: int
    empty: bool


def _param_name(value: str) -> str:
    name = value[1:]
    if name.startswith("`"):
        name = name[1:-1].replace("``", "`")
    return name


def _analyse(text: str) -> _Analysis:
    """Tokenize ``text`` and collect params, write clauses, IN TRANSACTIONS, APOC and ``;``."""
    tokens = _tokenize(text)
    params: set[str] = set()
    writes: list[_Finding] = []
    in_tx: list[_Finding] = []
    apoc: list[_Finding] = []
    separators: list[int] = []

    def at(i: int) -> _Token | None:
        return tokens[i] if 0 <= i < len(tokens) else None

    for i, tok in enumerate(tokens):
        if tok.kind == "param":
            params.add(_param_name(tok.value))
            continue
        if tok.kind == "punct" and tok.value == ";":
            separators.append(tok.start)
            continue
        word = _word(tok)
        if word is None:
            continue
        prev, nxt = at(i - 1), at(i + 1)
        if prev is not None and prev.kind == "punct" and prev.value in _NAME_PREFIXES:
            continue  # n.set, :Create, :A|Delete
        if nxt is not None and nxt.kind == "punct" and nxt.value == ":":
            continue  # {delete: true}
        if word == "APOC" and nxt is not None and nxt.value == ".":
            apoc.append(_Finding("apoc", tok.start))
        elif word in _WRITE_WORDS:
            what = "DETACH DELETE" if word == "DELETE" and _word(prev) == "DETACH" else word
            writes.append(_Finding(what, tok.start))
        elif word == "LOAD" and _word(nxt) == "CSV":
            writes.append(_Finding("LOAD CSV", tok.start))
        elif word == "CALL":
            procedure = _procedure_name(tokens, i + 1)
            if procedure is not None and _is_write_procedure(procedure):
                writes.append(_Finding(f"procedure {procedure}", tok.start))
        elif word == "TRANSACTIONS" and _follows_in(tokens, i):
            in_tx.append(_Finding(_IN_TRANSACTIONS, tok.start))
            writes.append(_Finding(_IN_TRANSACTIONS, tok.start))

    last = tokens[-1] if tokens else None
    return _Analysis(
        params=frozenset(params),
        writes=tuple(writes),
        in_transactions=tuple(in_tx),
        apoc=tuple(apoc),
        separators=tuple(separators),
        last_token_end=(last.start + len(last.value)) if last else 0,
        empty=not tokens,
    )


def _procedure_name(tokens: list[_Token], i: int) -> str | None:
    """The dotted name after CALL at ``tokens[i]``, or None for ``CALL {`` / ``CALL (x) {``."""
    parts: list[str] = []
    while i < len(tokens) and tokens[i].kind in ("word", "ident"):
        parts.append(tokens[i].value.strip("`"))
        if i + 1 < len(tokens) and tokens[i + 1].value == ".":
            i += 2
        else:
            break
    return ".".join(parts) if parts else None


def _is_write_procedure(name: str) -> bool:
    if name.lower() in _HARMLESS_PROCEDURES:
        return False
    return any(_WRITE_PROCEDURE.match(segment) for segment in name.split("."))


def _follows_in(tokens: list[_Token], i: int) -> bool:
    """True if ``tokens[i]`` (TRANSACTIONS) ends ``IN [n] [CONCURRENT] TRANSACTIONS``."""
    j = i - 1
    while j >= 0 and (
        tokens[j].kind in ("number", "param")
        or tokens[j].value in ("(", ")")
        or _word(tokens[j]) == "CONCURRENT"
    ):
        j -= 1
    return j >= 0 and _word(tokens[j]) == "IN"


def write_clauses(text: str) -> tuple[str, ...]:
    """Write clauses found in a Cypher statement, outside strings and comments, in order.

    >>> write_clauses("MATCH (c:Claim) WHERE c.text CONTAINS 'CREATE' RETURN c.offset")
    ()
    >>> write_clauses("MATCH (c) DETACH DELETE c")
    ('DETACH DELETE',)

    Raises:
        RegistryError: the text has an unterminated string literal or comment.
    """
    try:
        return tuple(f.what for f in _analyse(text).writes)
    except _CypherSyntaxError as exc:
        raise RegistryError(str(exc)) from None


def split_statements(text: str) -> list[str]:
    """Split a multi-statement script (a ``schemas/V*.cypher`` migration) at ``;``.

    Semicolons inside strings, backticked names and comments do not split. Comments before a
    statement are dropped (so are pieces holding only comments); comments inside one are kept.

    Raises:
        RegistryError: the text has an unterminated string literal or comment.
    """
    try:
        tokens = _tokenize(text)
    except _CypherSyntaxError as exc:
        raise RegistryError(str(exc)) from None
    statements: list[str] = []
    first: int | None = None  # offset of the current statement's first token
    for tok in tokens:
        if tok.kind == "punct" and tok.value == ";":
            if first is not None:
                statements.append(text[first : tok.start].strip())
            first = None
        elif first is None:
            first = tok.start
    if first is not None:
        statements.append(text[first:].strip())
    return statements


# ---------------------------------------------------------------------------------------------
# Space lint
# ---------------------------------------------------------------------------------------------

_IDENTITY_KEYS: Final = frozenset({"id", "key"})
_CLAUSE_WORDS: Final = frozenset(
    {"MATCH", "MERGE", "CREATE", "WITH", "RETURN", "UNWIND", "WHERE", "SET", "REMOVE", "DELETE", "CALL",
     "FOREACH", "ORDER", "LIMIT", "SKIP", "UNION", "YIELD"}
)
_NODE_WORDS: Final = frozenset({"MATCH", "MERGE", "CREATE"})


def space_findings(text: str) -> list[str]:
    """What the space lint finds in one statement (see the module docstring); ``[]`` when clean.

    A token-level heuristic, not a Cypher parser: it errs towards reporting, and a statement that
    is cross-space on purpose says so in its ``cross-space:`` header.

    >>> space_findings("MATCH (c:Claim {space: $space, id: $id}) RETURN c")
    []
    >>> space_findings("MATCH (d:Deliberation {space: $space}) MATCH (p:Proposal {id: $id}) RETURN p")
    ['(p:Proposal {id}) without space']
    """
    try:
        toks = _tokenize(text)
    except _CypherSyntaxError as exc:
        raise RegistryError(str(exc)) from None
    findings: list[str] = []
    n = len(toks)

    def upper(i: int) -> str | None:
        return _word(toks[i]) if 0 <= i < n else None

    uses_space = any(t.kind == "param" and _param_name(t.value) == "space" for t in toks)
    touches_nodes = any(
        upper(i) in _NODE_WORDS and not (i > 0 and toks[i - 1].value in _NAME_PREFIXES) for i in range(n)
    ) or any(t.value.lower() == "queryNodes".lower() for t in toks)
    if touches_nodes and not uses_space:
        findings.append("reads or writes nodes without $space")
    for i in range(n - 3):
        if toks[i].kind == "param" and _param_name(toks[i].value) == "space" and upper(i + 1) == "IS" and upper(
            i + 2
        ) == "NULL":
            findings.append("$space is optional ($space IS NULL)")
            break

    clause: str | None = None
    filtered: set[str] = set()
    pending: list[tuple[str | None, str]] = []

    def settle() -> None:
        for var, what in pending:
            if var is None or var not in filtered:
                findings.append(what)
        pending.clear()
        filtered.clear()

    i = 0
    while i < n:
        tok = toks[i]
        word = upper(i)
        if (
            word in _CLAUSE_WORDS
            and not (i > 0 and toks[i - 1].value in _NAME_PREFIXES)
            and not (i + 1 < n and toks[i + 1].value == ":")
        ):
            clause = word
            if word == "UNION":
                settle()
        if tok.value == "(":
            j = i + 1
            var = None
            if j + 1 < n and toks[j].kind in ("word", "ident") and toks[j + 1].value in (":", "{", ")"):
                var = toks[j].value
                j += 1
            labels: list[str] = []
            while j + 1 < n and toks[j].value in (":", "|", "&"):
                labels.append(toks[j + 1].value)
                j += 2
            if j < n and toks[j].value == "{" and (labels or var):
                keys: list[str] = []
                depth = 0
                k = j
                while k < n:
                    v = toks[k].value
                    if v in ("{", "[", "("):
                        depth += 1
                    elif v in ("}", "]", ")"):
                        depth -= 1
                        if depth == 0:
                            break
                    elif (
                        depth == 1 and toks[k].kind in ("word", "ident") and k + 1 < n and toks[k + 1].value == ":"
                        and toks[k - 1].value in ("{", ",")
                    ):
                        keys.append(toks[k].value.strip("`"))
                    k += 1
                if "space" in keys and var is not None:
                    filtered.add(var)
                if _IDENTITY_KEYS & set(keys) and "space" not in keys and clause != "CREATE":
                    shown = f"({var or ''}:{':'.join(labels)} {{{', '.join(keys)}}}) without space"
                    pending.append((var, shown))
        if (
            tok.kind in ("word", "ident")
            and i + 3 < n
            and toks[i + 1].value == "."
            and toks[i + 2].kind == "word"
            and not (i > 0 and toks[i - 1].value in _NAME_PREFIXES)
        ):
            prop, nxt = toks[i + 2].value, toks[i + 3]
            if clause != "SET" and prop == "space" and nxt.value == "=":
                filtered.add(tok.value)
            if clause != "SET" and prop in _IDENTITY_KEYS and (nxt.value == "=" or upper(i + 3) in ("IN", "STARTS")):
                pending.append((tok.value, f"{tok.value}.{prop} compared on a node not filtered by space"))
        i += 1
    settle()
    return findings


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
            raise RegistryError(
                f"path part {part!r} must be lower snake_case ([a-z][a-z0-9_]*)", where
            )
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
        raise fail(
            f"$param(s) used but not declared in 'params:': {', '.join(undeclared)}", params_line
        )
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
