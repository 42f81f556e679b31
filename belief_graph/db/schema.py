"""Schema as versioned code: ``schemas/V###__name.cypher`` applied by ``db init``, checked by ``db verify``.

Each migration file has a small header (``// version:``, ``// description:``, ``// params:``) and
one or more schema statements separated by ``;``. Every statement names what it creates, with
``IF NOT EXISTS``, so re-applying is harmless. Schema commands cannot share a transaction with
data writes, so each statement runs in its own auto-commit transaction and the migration is then
recorded as a ``(:SchemaMigration {version, name, checksum, applied_at})`` node. A recorded
migration whose file changed since (checksum differs) is reported as drift, never re-applied
silently. Several clients may apply the migrations of a fresh store at once (agents started
together): their schema statements can deadlock or find the object another just created; since
every statement is idempotent, such a client reads what is recorded again and goes on
(:func:`apply_migrations`: up to twelve attempts, a random pause of up to 8 s between them).

The *expected* schema is read from the same files (names and kinds of every constraint and
index; a later migration that drops or re-creates an object replaces the earlier definition), so
``db verify`` can never disagree with ``db init``. For vector indexes the literal entries of the
``indexConfig`` map (``vector.quantization.enabled``, ``vector.hnsw.m``,
``vector.hnsw.ef_construction``, ...) are expected too: the migration file is the one source of
truth for the HNSW configuration, and an index whose SHOW INDEXES options differ is reported.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from neo4j.exceptions import ClientError, TransientError

from ..errors import DatabaseError, SchemaError
from .cypher_lexer import split_statements
from .driver import Graph
from .registry import resource_dir

__all__ = [
    "ExpectedObject",
    "Migration",
    "SchemaReport",
    "apply_migrations",
    "expected_objects",
    "expected_vector_config",
    "index_info",
    "load_migrations",
    "pending_migrations",
    "vector_config_drift",
    "verify_schema",
]

_FILE_RE = re.compile(r"^V(\d{3})__([A-Za-z0-9_]+)\.cypher$")
_OBJ_RE = re.compile(
    r"CREATE\s+(?P<kind>CONSTRAINT|(?:(?P<itype>RANGE|FULLTEXT|VECTOR|TEXT|POINT|LOOKUP)\s+)?INDEX)\s+"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)",
    re.IGNORECASE,
)
_DROP_RE = re.compile(r"^\s*DROP\s+(?:CONSTRAINT|INDEX)\s+(?P<name>[A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)
# literal entries of a vector index's indexConfig map (`vector.dimensions`: $dimension is a parameter, skipped)
_CFG_RE = re.compile(r"`(?P<key>vector\.[A-Za-z_.]+)`\s*:\s*(?P<value>'[^']*'|true|false|-?\d+)", re.IGNORECASE)


def _literal(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if text.startswith("'"):
        return text[1:-1]
    return int(text)


@dataclass(frozen=True)
class ExpectedObject:
    name: str
    kind: str  # "CONSTRAINT" or the index type: RANGE, FULLTEXT, VECTOR, ...
    config: tuple[tuple[str, Any], ...] = ()  # VECTOR: the literal indexConfig entries of the statement


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    description: str
    params: tuple[str, ...]
    statements: tuple[str, ...]
    checksum: str
    path: str

    @property
    def expected(self) -> list[ExpectedObject]:
        """The objects this migration creates (in statement order)."""
        return [obj for st in self.statements if (obj := _created(st)) is not None]


def _created(statement: str) -> ExpectedObject | None:
    m = _OBJ_RE.search(statement)
    if not m:
        return None
    kind = "CONSTRAINT" if m["kind"].upper() == "CONSTRAINT" else (m["itype"] or "RANGE").upper()
    config = tuple((c["key"], _literal(c["value"])) for c in _CFG_RE.finditer(statement)) if kind == "VECTOR" else ()
    return ExpectedObject(m["name"], kind, config)


def expected_objects(migrations: list[Migration] | None = None) -> dict[str, ExpectedObject]:
    """The schema the migrations leave behind, by name: applied in order, a ``DROP`` removes an
    object and a later ``CREATE`` of the same name replaces the earlier definition."""
    out: dict[str, ExpectedObject] = {}
    for m in migrations if migrations is not None else load_migrations():
        for st in m.statements:
            if d := _DROP_RE.match(st):
                out.pop(d["name"], None)
            elif obj := _created(st):
                out[obj.name] = obj
    return out


def expected_vector_config(name: str, migrations: list[Migration] | None = None) -> dict[str, Any]:
    """The literal ``indexConfig`` entries the migrations set for vector index ``name`` ({} if none)."""
    obj = expected_objects(migrations).get(name)
    return dict(obj.config) if obj is not None and obj.kind == "VECTOR" else {}


def vector_config_drift(name: str, index_config: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    """One problem per expected ``indexConfig`` entry that SHOW INDEXES reports differently.

    ``vector.dimensions`` (a migration parameter) and ``vector.similarity_function`` are checked by
    their own, older messages and skipped here. Strings compare case-insensitively (Neo4j reports
    ``COSINE`` for ``'cosine'``); a key SHOW INDEXES does not report at all is a problem too.
    """
    problems = []
    for key, want in expected.items():  # in the order of the migration's statement
        if key in ("vector.dimensions", "vector.similarity_function"):
            continue
        got = index_config.get(key)
        if not _same_setting(got, want):
            problems.append(f"{name}: {key} {_show(got)}, migrations set {_show(want)}")
    return problems


def _same_setting(got: Any, want: Any) -> bool:
    if got is None:
        return False
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, str):
        return str(got).lower() == want.lower()
    return isinstance(got, int | float) and got == want


def _show(v: Any) -> str:
    return "missing" if v is None else str(v).lower() if isinstance(v, bool) else str(v)


def load_migrations(root: Path | None = None) -> list[Migration]:
    """Parse every ``V###__*.cypher`` in ``schemas/`` (shipped in the wheel), sorted by version."""
    base: Any = root if root is not None else resource_dir("schemas")
    migrations: list[Migration] = []
    seen: set[int] = set()
    for path in sorted(base.iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".cypher"):
            continue
        m = _FILE_RE.match(path.name)
        if not m:
            raise SchemaError(f"{path.name}: migration files are named V###__name.cypher")
        version = int(m[1])
        if version in seen:
            raise SchemaError(f"{path.name}: duplicate migration version {version}")
        seen.add(version)
        text = path.read_text(encoding="utf-8")
        header: dict[str, str] = {}
        body_lines = []
        for line in text.splitlines():
            s = line.strip()
            hm = re.match(r"^//\s*(version|description|params):\s*(.*)$", s)
            if hm:
                header[hm[1]] = hm[2].strip()
            elif s.startswith("//"):
                continue
            else:
                body_lines.append(line)
        if header.get("version") is None or int(header["version"]) != version:
            raise SchemaError(f"{path.name}: header '// version: {version}' missing or different")
        params = tuple(p.strip() for p in header.get("params", "").split(",") if p.strip())
        statements = tuple(split_statements("\n".join(body_lines)))
        migrations.append(
            Migration(
                version=version,
                name=path.stem,
                description=header.get("description", ""),
                params=params,
                statements=statements,
                checksum=hashlib.sha256("\n".join(statements).encode()).hexdigest(),
                path=str(path),
            )
        )
    return migrations


def _applied(graph: Graph) -> dict[int, dict[str, Any]]:
    return {int(r["version"]): r for r in graph.read("schema.list_migrations")}


def pending_migrations(graph: Graph, migrations: list[Migration] | None = None) -> list[Migration]:
    migs = migrations if migrations is not None else load_migrations()
    applied = _applied(graph)
    return [m for m in migs if m.version not in applied]


_RACE_ATTEMPTS = 12
_RACE_PAUSE = (0.25, 8.0)
"""Seconds before the first retry, and the most between two: a pause drawn at random up to the
growing bound ("full jitter"), so the clients that lost a round do not meet again in the next."""
_ALREADY_THERE = ("EquivalentSchemaRuleAlreadyExists", "IndexAlreadyExists", "ConstraintAlreadyExists")
"""Schema errors a concurrent client's statement causes (the object was created meanwhile)."""


def _raced(exc: BaseException | None) -> bool:
    """Whether the driver error under a :class:`DatabaseError` is one a concurrent client causes."""
    if isinstance(exc, TransientError):  # DeadlockDetected, LockClient stopped, ...
        return True
    return isinstance(exc, ClientError) and any(c in (exc.code or "") for c in _ALREADY_THERE)


def apply_migrations(graph: Graph, *, dimension: int) -> list[Migration]:
    """Apply pending migrations in order; returns those this call applied. Raises SchemaError on
    drift. A statement that loses a race with another client applying the same migrations (a
    deadlock, an object created meanwhile) is retried after reading what is recorded again."""
    done: list[Migration] = []
    for attempt in range(_RACE_ATTEMPTS):
        try:
            _apply_pending(graph, dimension, done)
            return done
        except DatabaseError as exc:
            if not _raced(exc.__cause__) or attempt == _RACE_ATTEMPTS - 1:
                raise
            first, most = _RACE_PAUSE
            time.sleep(random.uniform(first, min(most, first * 2**attempt)))
    return done  # pragma: no cover - the loop returns or raises


def _apply_pending(graph: Graph, dimension: int, done: list[Migration]) -> None:
    migs = load_migrations()
    applied = _applied(graph)
    drift = [
        f"{m.name}: applied with checksum {applied[m.version]['checksum'][:12]}, file now {m.checksum[:12]}"
        for m in migs
        if m.version in applied and applied[m.version]["checksum"] != m.checksum
    ]
    if drift:
        raise SchemaError("schema drift: applied migrations changed since: " + "; ".join(drift), drift)
    _check_vector_dimension(graph, dimension)
    values: dict[str, Any] = {"dimension": dimension}
    for m in migs:
        if m.version in applied:
            continue
        params = {p: values[p] for p in m.params}
        for i, st in enumerate(m.statements):
            graph.run_text(st, params, name=f"schema.{m.name}.{i}")
        graph.write(
            "schema.record_migration",
            version=m.version,
            name=m.name,
            checksum=m.checksum,
            statements=len(m.statements),
        )
        done.append(m)


def index_info(graph: Graph, name: str) -> dict[str, Any] | None:
    """The SHOW INDEXES row of one index (``name, type, state, population, options``) or None."""
    return next((r for r in graph.read("schema.show_indexes") if r["name"] == name), None)


def _check_vector_dimension(graph: Graph, dimension: int) -> None:
    """Refuse to run against vector indexes built for another dimension (nothing is written)."""
    for idx in graph.read("schema.show_indexes"):
        if idx["type"] == "VECTOR":
            cfg = (idx.get("options") or {}).get("indexConfig") or {}
            dim = cfg.get("vector.dimensions")
            if dim is not None and int(dim) != dimension:
                raise SchemaError(
                    f"vector index {idx['name']} has dimension {dim}, settings say {dimension}: "
                    "set BELIEF_GRAPH_EMBEDDING__DIMENSION to match, or drop the index and re-embed",
                    [f"{idx['name']}: dimension {dim} != {dimension}"],
                )


@dataclass
class SchemaReport:
    ok: bool
    applied: list[int] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    not_online: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    objects: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "applied": self.applied,
            "pending": self.pending,
            "missing": self.missing,
            "not_online": self.not_online,
            "problems": self.problems,
            "objects": self.objects,
        }


def verify_schema(graph: Graph, *, dimension: int, wait_seconds: float = 60.0) -> SchemaReport:
    """Compare SHOW CONSTRAINTS / SHOW INDEXES with the migration files; wait for ONLINE."""
    migs = load_migrations()
    applied = _applied(graph)
    report = SchemaReport(ok=True)
    report.applied = sorted(applied)
    report.pending = [m.version for m in migs if m.version not in applied]
    for m in migs:
        if m.version in applied and applied[m.version]["checksum"] != m.checksum:
            report.problems.append(f"{m.name} changed since it was applied (checksum differs)")

    constraints = {r["name"]: r for r in graph.read("schema.show_constraints")}
    expected = expected_objects(migs)
    deadline = time.monotonic() + wait_seconds
    while True:
        indexes = {r["name"]: r for r in graph.read("schema.show_indexes")}
        waiting = [n for n, r in indexes.items() if r["state"] not in ("ONLINE", "FAILED") and n in expected]
        if not waiting or time.monotonic() >= deadline:
            break
        time.sleep(0.5)

    for obj in expected.values():
        if obj.kind == "CONSTRAINT":
            if obj.name not in constraints:
                report.missing.append(f"constraint {obj.name}")
            continue
        idx = indexes.get(obj.name)
        if idx is None:
            report.missing.append(f"{obj.kind.lower()} index {obj.name}")
            continue
        if idx["type"] != obj.kind:
            report.problems.append(f"index {obj.name} is {idx['type']}, expected {obj.kind}")
        if idx["state"] != "ONLINE":
            report.not_online.append(f"{obj.name} ({idx['state']})")
        if obj.kind == "VECTOR":
            cfg = (idx.get("options") or {}).get("indexConfig") or {}
            dim = cfg.get("vector.dimensions")
            sim = str(cfg.get("vector.similarity_function", "")).lower()
            if dim is not None and int(dim) != dimension:
                report.problems.append(f"{obj.name}: dimension {dim}, settings say {dimension}")
            if sim != "cosine":
                report.problems.append(f"{obj.name}: similarity {sim or '?'}, expected cosine")
            report.problems.extend(vector_config_drift(obj.name, cfg, dict(obj.config)))
    for name, r in sorted(indexes.items()):
        report.objects.append({"name": name, "type": r["type"], "state": r["state"], "population": r.get("population")})
    for name, r in sorted(constraints.items()):
        report.objects.append({"name": name, "type": r["type"], "state": "ONLINE", "population": None})
    report.ok = not (report.pending or report.missing or report.not_online or report.problems)
    return report
