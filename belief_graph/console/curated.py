"""The curated questions: the ``explore.*`` queries of the registry, and their parameters.

One catalogue serves Neo4j Browser's guide (:mod:`belief_graph.console.browser`), ``belief-graph query``,
``belief-graph shell``, the HTML views and the Bloom perspective. Every question is a plain file in
``cypher/explore/`` whose header carries paste-ready ``:param`` lines.

Parameters given on the command line (``-p name=value``) take the type of the header's example:
a quoted example makes a string, a number a number, ``true``/``false`` a boolean; anything else
(lists, maps) must be given as JSON (``-p ids='["a","b"]'``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..db.registry import Query, QueryRegistry
from ..errors import ValidationError

__all__ = [
    "AREA",
    "Question",
    "cypher_literal",
    "param_lines",
    "parse_param_pairs",
    "question",
    "questions",
    "script",
]

AREA = "explore"


@dataclass(frozen=True)
class Question:
    """One curated question: its query and how the tour presents it."""

    query: Query
    title: str
    note: str

    @property
    def short_name(self) -> str:
        """The name without the area (``why_believed``)."""
        return self.query.name.split(".", 1)[1]


# Tour order: (query name, title, what to look at).
_QUESTIONS: tuple[tuple[str, str, str], ...] = (
    (
        "explore.why_believed",
        "Why is X believed?",
        "The fact, its current claim and every chain of justifications back to the evidence. "
        "Small grey nodes are justifications (AND-groups): a claim holds while one of them has every premise.",
    ),
    (
        "explore.find_dependents",
        "What depends on evidence E?",
        "Everything downstream of an episode or a claim: what a retraction of E would re-examine.",
    ),
    (
        "explore.show_audit",
        "What changed in audit A?",
        "The roots of one reconsolidation and what it withdrew, retained, reinstated, made stale or re-derived.",
    ),
    (
        "explore.show_history",
        "A fact's history",
        "Every version of a fact, the SUPERSEDES chain, the CURRENT edge and each version's revisions.",
    ),
    (
        "explore.list_open_disputes",
        "Open disputes",
        "Challengers that policy could not settle, parked next to the incumbent they could not displace.",
    ),
    (
        "explore.show_attack_graph",
        "A deliberation's attack graph",
        "Each perspective's proposal (captioned with its grounded label IN/OUT/UNDEC), the attacks between "
        "them and the claims they cite.",
    ),
    (
        "explore.show_perspective",
        "A perspective's knowledge graph",
        "A perspective's concepts, the interpretations that instantiate them and the episodes they interpret.",
    ),
    (
        "explore.find_stale",
        "Stale conclusions",
        "Claims whose premises are no longer current (status 'stale'), the audit that made each stale and "
        "the premises it rests on.",
    ),
    (
        "explore.show_framework",
        "An argumentation framework",
        "An imported Dung framework: arguments captioned with their grounded label, and the attacks.",
    ),
)


def questions(registry: QueryRegistry) -> list[Question]:
    """Every curated question, in tour order (each ``explore.*`` query exactly once)."""
    return [Question(registry[name], title, note) for name, title, note in _QUESTIONS]


def question(registry: QueryRegistry, name: str) -> Question:
    """A question by ``explore.<name>`` or ``<name>``; :class:`ValidationError` otherwise."""
    full = name if "." in name else f"{AREA}.{name}"
    for q in questions(registry):
        if q.query.name == full:
            return q
    known = ", ".join(q.short_name for q in questions(registry))
    raise ValidationError(f"no curated query {name!r} (known: {known})")


_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


def _typed(example: str, raw: str, name: str) -> Any:
    ex = example.strip()
    if ex[:1] in ("'", '"'):
        return raw
    if ex in ("true", "false"):
        if raw.lower() not in ("true", "false"):
            raise ValidationError(f"parameter {name!r} is a boolean: true or false, got {raw!r}")
        return raw.lower() == "true"
    if _INT.fullmatch(ex):
        if not _INT.fullmatch(raw.strip()):
            raise ValidationError(f"parameter {name!r} is an integer, got {raw!r}")
        return int(raw)
    if _FLOAT.fullmatch(ex):
        try:
            value = float(raw)
        except ValueError:
            raise ValidationError(f"parameter {name!r} is a number, got {raw!r}") from None
        if not math.isfinite(value):
            raise ValidationError(f"parameter {name!r} must be finite, got {raw!r}")
        return value
    try:
        return json.loads(raw)
    except ValueError:
        raise ValidationError(f"parameter {name!r} (example {example}) takes a JSON value, got {raw!r}") from None


def parse_param_pairs(query: Query, pairs: Iterable[str]) -> dict[str, Any]:
    """``["key=user.timezone", "limit=5"]`` -> typed values (see the module docstring).

    Raises :class:`ValidationError` for a malformed pair, an undeclared or repeated name, or a
    value of the wrong type. Missing names are not an error here.
    """
    examples = dict(query.examples)
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValidationError(f"expected -p name=value, got {pair!r}")
        if name not in examples:
            raise ValidationError(
                f"{query.name} has no parameter {name!r} (it takes: {', '.join(query.params) or 'none'})"
            )
        if name in out:
            raise ValidationError(f"parameter {name!r} given twice")
        out[name] = _typed(examples[name], raw, name)
    return out


def cypher_literal(value: Any) -> str:
    """A Python value as a Cypher literal for a ``:param`` line (strings quoted and escaped)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(f"{value!r} has no Cypher literal")
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(cypher_literal(v) for v in value) + "]"
    if isinstance(value, Mapping):
        items = []
        for k, v in value.items():
            key = str(k)
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                key = "`" + key.replace("`", "``") + "`"
            items.append(f"{key}: {cypher_literal(v)}")
        return "{" + ", ".join(items) + "}"
    raise ValidationError(f"{type(value).__name__} has no Cypher literal")


def param_lines(query: Query, values: Mapping[str, Any] | None = None) -> list[str]:
    """The header's ``:param`` lines, uncommented, with ``values`` (Python values) put in."""
    vals = dict(values or {})
    return [
        f":param {name} => {cypher_literal(vals[name]) if name in vals else example}"
        for name, example in query.examples
    ]


def script(query: Query, values: Mapping[str, Any] | None = None, *, separator: str = "") -> str:
    """The query as one runnable script: its ``:param`` lines, then the statement and ``;``.

    ``separator`` ends each ``:param`` line (``";"`` for Browser's multi-statement editor;
    cypher-shell reads one command per line).
    """
    lines = [line + separator for line in param_lines(query, values)]
    return "\n".join([*lines, query.text + ";"]) + "\n"
