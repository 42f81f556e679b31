"""A small Cypher lexer: tokens, the write/parameter/statement analysis the registry checks, and
statement splitting.

Not a parser: it knows enough Cypher to tell keywords from words inside string literals,
backticked names, comments, property keys (``n.set``), map keys (``{delete: 1}``) and labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, cast

from ..errors import RegistryError

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
_WRITE_PROCEDURE = re.compile(r"(create|set|drop|delete|remove|merge|clear|kill|terminate)(?:[A-Z0-9_]|$)")
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
        tokens[j].kind in ("number", "param") or tokens[j].value in ("(", ")") or _word(tokens[j]) == "CONCURRENT"
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
