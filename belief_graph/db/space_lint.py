"""The space lint: statements that match by ``id`` or ``key`` without filtering by ``space``.

See the module docstring of :mod:`belief_graph.db.registry` for the rules; every statement it
flags must carry a ``cross-space:`` header.
"""

from __future__ import annotations

from typing import Final

from ..errors import RegistryError
from .cypher_lexer import _NAME_PREFIXES, _CypherSyntaxError, _param_name, _tokenize, _word

_IDENTITY_KEYS: Final = frozenset({"id", "key"})
_CLAUSE_WORDS: Final = frozenset(
    {
        "MATCH",
        "MERGE",
        "CREATE",
        "WITH",
        "RETURN",
        "UNWIND",
        "WHERE",
        "SET",
        "REMOVE",
        "DELETE",
        "CALL",
        "FOREACH",
        "ORDER",
        "LIMIT",
        "SKIP",
        "UNION",
        "YIELD",
    }
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
        if (
            toks[i].kind == "param"
            and _param_name(toks[i].value) == "space"
            and upper(i + 1) == "IS"
            and upper(i + 2) == "NULL"
        ):
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
                        depth == 1
                        and toks[k].kind in ("word", "ident")
                        and k + 1 < n
                        and toks[k + 1].value == ":"
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
