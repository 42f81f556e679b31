"""A memory space's optional key schema (``bg.keys.declare_schema``): the facts it expects.

Each declared key has a description, an optional value type (``string``, ``number``, ``boolean``)
and examples; ``unknown`` says what becomes of a fact outside the schema (``other``: kept under a
reviewed ``other.`` key; ``refuse``: refused). The schema is versioned in the graph like a
derivation rule: every declaration stores a new ``KeySchema`` version (the previous active one is
``replaced``), ``drop`` marks the active one ``dropped``; every version stays readable
(``schema_history``).

Declaring registers every key in the key registry (description and embedding, as
``register_key`` does) and sets each declared type as the fact's ``value_type``, in the same
transaction as the new version. A declared type that differs from the type of values already
stored is refused (:class:`~belief_graph.errors.KeyTypeConflict`), like a malformed spec
(:class:`~belief_graph.errors.KeySchemaError`): nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Tx
from ..errors import MAX_PROBLEM, KeySchemaError, KeySchemaNotFound, KeyTypeConflict, ValidationError, listed, shown
from ..limits import MAX_KEY_DESCRIPTION
from ..models import KEY_RE, utcnow
from ..models.keys import KeySchema, KeySpec
from ..repositories.facts import KeyRepository
from .beliefs import BeliefService

__all__ = ["MAX_SCHEMA_KEYS", "KeySchemas", "parse_schema"]

MAX_SCHEMA_KEYS = 2_000
"""The most keys one schema declares (each is embedded and registered in one transaction)."""

MAX_EXAMPLES = 20
_TYPES = {"string": (str,), "number": (int, float), "boolean": (bool,)}


def _type_ok(value: Any, type_: str) -> bool:
    if isinstance(value, bool):
        return type_ == "boolean"
    return isinstance(value, _TYPES[type_])


def parse_schema(keys: Sequence[KeySpec | Mapping[str, Any]], unknown: str = "other") -> list[KeySpec]:
    """The declared keys, validated; every problem found is listed in one :class:`KeySchemaError`."""
    if unknown not in ("other", "refuse"):
        raise KeySchemaError([f"unknown is 'other' or 'refuse', got {shown(unknown)}"])
    if isinstance(keys, str | bytes | Mapping) or not isinstance(keys, Sequence):
        raise KeySchemaError([f"keys is a list of {{key, description, type, examples}}, got {type(keys).__name__}"])
    if not keys:
        raise KeySchemaError(["a schema declares at least one key (drop_schema removes the schema)"])
    if len(keys) > MAX_SCHEMA_KEYS:
        raise KeySchemaError([f"{len(keys)} keys: a schema declares at most {MAX_SCHEMA_KEYS}"])
    problems: list[str] = []
    out: list[KeySpec] = []
    seen: set[str] = set()
    for i, raw in enumerate(keys):
        try:
            spec = raw if isinstance(raw, KeySpec) else KeySpec.model_validate(raw)
        except PydanticValidationError as exc:
            what = raw.get("key", f"#{i + 1}") if isinstance(raw, Mapping) else f"#{i + 1}"
            msg = listed(
                [f"{'.'.join(str(p) for p in e['loc']) or 'key'}: {e['msg']}" for e in exc.errors()], width=MAX_PROBLEM
            )
            problems.append(f"key {shown(what)}: {msg}")
            continue
        if len(spec.key) > 256 or not KEY_RE.match(spec.key):
            problems.append(
                f"malformed key {shown(spec.key)} (dotted names like 'user.city': letters, digits, _ and -)"
            )
        if spec.key in seen:
            problems.append(f"key {shown(spec.key)} is declared twice")
        seen.add(spec.key)
        if not spec.description.strip():
            problems.append(f"key {shown(spec.key)} has a blank description")
        elif len(spec.description) > MAX_KEY_DESCRIPTION:
            problems.append(f"key {shown(spec.key)}: a description has at most {MAX_KEY_DESCRIPTION} characters")
        if len(spec.examples) > MAX_EXAMPLES:
            problems.append(f"key {shown(spec.key)}: at most {MAX_EXAMPLES} examples")
        for ex in spec.examples:
            if ex is None or (spec.type is not None and not _type_ok(ex, spec.type)):
                problems.append(f"key {shown(spec.key)}: example {shown(ex)} is not a {spec.type or 'value'}")
        out.append(spec)
    if problems:
        raise KeySchemaError(problems)
    return out


class KeySchemas:
    """The versioned key schema of one memory space (see the module docstring)."""

    def __init__(self, beliefs: BeliefService, repo: KeyRepository) -> None:
        self.beliefs = beliefs
        self.repo = repo

    def declare(self, keys: Sequence[KeySpec | Mapping[str, Any]], *, unknown: str = "other", agent: str) -> KeySchema:
        specs = parse_schema(keys, unknown)
        if not isinstance(agent, str) or not agent.strip() or len(agent) > 256:
            raise ValidationError("declaring a key schema needs the agent who declares it (1-256 characters)")
        vectors = self.beliefs.embed_many([f"{s.key}: {s.description}" for s in specs])  # outside the transaction
        dim = self.beliefs.dimension
        if any(len(v) != dim for v in vectors):
            raise ValidationError(f"the embedder returned vectors of another length than {dim}")
        at = utcnow().isoformat()

        def work(tx: Tx) -> KeySchema:
            states = self.repo.states([s.key for s in specs], tx)
            aliases = [f"{k} (merged into {st.alias})" for k, st in states.items() if st.alias is not None]
            if aliases:
                raise KeySchemaError([f"declares an alias of a merged key: {a}; declare its target" for a in aliases])
            for s in specs:
                stored = states[s.key].value_type
                if s.type is not None and stored is not None and stored != s.type:
                    raise KeyTypeConflict(s.key, s.type, stored)
            rows = [
                {"key": s.key, "description": s.description, "embedding": v, "value_type": s.type}
                for s, v in zip(specs, vectors, strict=True)
            ]
            self.repo.declare(tx, rows, at)
            return self.repo.create_schema(tx, keys=specs, unknown=unknown, agent=agent, at=at)

        return self.beliefs.graph.write_tx(work, name="keys.declare_schema")

    def current(self) -> KeySchema | None:
        return self.repo.schema()

    def history(self) -> list[KeySchema]:
        return self.repo.schema_history()

    def drop(self, agent: str) -> KeySchema:
        """Drop the active schema (it stays in the history, ``dropped``); returns that version as it is now."""
        if not isinstance(agent, str) or not agent.strip() or len(agent) > 256:
            raise ValidationError("dropping a key schema needs the agent who drops it (1-256 characters)")
        at = utcnow().isoformat()

        def work(tx: Tx) -> int:
            version = self.repo.drop_schema(tx, agent=agent, at=at)
            if version is None:
                raise KeySchemaNotFound(self.beliefs.space)
            return version

        version = self.beliefs.graph.write_tx(work, name="keys.drop_schema")
        return next(s for s in self.repo.schema_history() if s.version == version)
