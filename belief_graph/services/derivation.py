"""The rule engine's inner step: re-evaluate the rule instances a change of fact keys affects and
write what follows, inside the writer's transaction (DESIGN.md, "Derivation rules").

One round (:meth:`RuleEngine.reevaluate` runs rounds until no derived key changes; rules form no
cycle, so that is at most the depth of the rule graph):

1. ``rules.affected_instances``: the instances that read a changed key (READS edges), wait for it
   (``awaits``), or start with it (a new instance of a rule whose first premise matches it); they
   join a queue, and the round takes the queued instances of the lowest stratum of the rule graph
   (``rules.active_rules``, read only when the queue holds more than one rule): an instance runs
   after every rule that can change its premises, so each derived key gets at most one new
   version per change;
2. ``claim.lock_facts``: the derived keys' locks, sorted (concurrent re-derivations of one key
   serialize; the chain is read only after the lock is held);
3. ``rules.evaluate_instances``: each chain walked in Cypher over the current beliefs; then the
   premise claims it joined are locked (``claim.lock_premises``) and read again, and the walk is
   repeated if one stopped being current before its lock (a concurrent retract or new version);
4. here: the conclusion's value and text from the rule's templates, and the decision per instance:
   *keep* (same value and text, and a justification with exactly these premises already exists),
   *justify* (same value and text, the belief is active, other premises: one more justification),
   *new version* (anything else: the new conclusion supersedes the derived key's current claim,
   "re-derived by rule R", justified by the current premises), or *unresolved* (the join stops at
   a key without a current belief: nothing is written; the currency pass makes the old conclusion
   stale, and the instance waits for that key);
5. the writes: claims through the same statements as ``assert_claim`` (embeddings batched), and
   ``rules.record_instances`` (status, missing key, READS edges, audit edges).

Work is bounded by the changed keys' dependents: no statement scans the store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ..db.driver import Graph, Tx
from ..embeddings import Embedder
from ..errors import EmbeddingDimensionError
from ..models import Claim, Value, new_id, time_after
from ..models.rules import CompiledRule, RuleInstanceInfo, RuleSpec, rule_strata
from ..models.support import premise_current
from ..repositories.claims import ClaimRepository
from ..repositories.rules import RuleRepository
from ..repositories.support import SupportRepository

__all__ = [
    "MAX_ROUNDS",
    "SPEC_CACHE_SIZE",
    "STRATA_CACHE_SIZE",
    "Reevaluation",
    "RuleEngine",
    "compiled_rule",
    "rule_agent",
    "rule_tag",
    "strata_of",
]

MAX_ROUNDS = 64
"""Rounds of re-evaluation per write; rules are acyclic, so a round adds a layer of the rule graph."""

SPEC_CACHE_SIZE = 4096
"""Rule versions whose parsed and compiled form a process keeps (least recently used dropped)."""

STRATA_CACHE_SIZE = 64
"""Sets of active rules whose strata a process keeps (least recently used dropped)."""

AuditFn = Callable[[Tx], str]
"""Opens (once) and returns the audit of the change being settled."""


def rule_tag(name: str, version: int) -> str:
    """The ``rule`` of the justifications a rule version gives: ``rule:<name>@<version>``."""
    return f"rule:{name}@{version}"


@lru_cache(maxsize=SPEC_CACHE_SIZE)
def compiled_rule(raw: str) -> tuple[RuleSpec, CompiledRule]:
    """A stored rule version's spec and compiled form, from the JSON stored with the version.

    Cached by that text (a version's text never changes, and two spaces with the same rule share
    the entry) and bounded: an agent that runs for months and edits its rules keeps the last
    ``SPEC_CACHE_SIZE`` versions it used, not every version it ever saw. Both objects are frozen."""
    spec = RuleSpec.model_validate_json(raw)
    return spec, spec.compile()


@lru_cache(maxsize=STRATA_CACHE_SIZE)
def strata_of(rules: tuple[tuple[str, str], ...]) -> Mapping[str, int]:
    """The strata of a set of rules given as ``(name, stored spec)`` pairs (read-only; cached per
    set and bounded like :func:`compiled_rule`: every edit of a rule makes a new set)."""
    return MappingProxyType(rule_strata({name: compiled_rule(raw)[1] for name, raw in rules}))


def rule_agent(name: str) -> str:
    """The writer of a rule's conclusions."""
    return f"rule:{name}"


@dataclass
class Reevaluation:
    """What re-evaluating the affected instances did, over all rounds."""

    evaluated: int = 0
    rederived: list[Claim] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    """The claims the new versions superseded (roots of the currency pass)."""
    justified: int = 0
    unchanged: int = 0
    unresolved: list[RuleInstanceInfo] = field(default_factory=list)


def _same_value(a: Value, b: Value) -> bool:
    return (
        type(a) is type(b)
        and a == b
        or (
            isinstance(a, int | float)
            and isinstance(b, int | float)
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and float(a) == float(b)
        )
    )


class RuleEngine:
    """Evaluates rule instances inside a transaction (the only writer of rule-derived keys)."""

    def __init__(self, graph: Graph, space: str, embedder: Embedder, dimension: int) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.repo = RuleRepository(graph, space)
        self.claims = ClaimRepository(graph, space)
        self.support = SupportRepository(graph, space)

    def reevaluate(
        self,
        tx: Tx,
        keys: Sequence[str],
        audit: AuditFn,
        at: str,
        *,
        cause: str,
        only: set[tuple[str, str]] | None = None,
    ) -> Reevaluation:
        """Re-evaluate the instances a change of ``keys`` affects, round after round, and write
        the consequences. ``cause`` is said in the new versions' revisions; ``only`` restricts the
        first round to these instances (``derive_by_rule``)."""
        out = Reevaluation()
        pending = sorted(set(keys))
        queue: set[tuple[str, str]] = set()
        seen_versions: set[str] = set()
        for _ in range(MAX_ROUNDS):
            if pending:
                affected = self.repo.affected(tx, pending, at)
                if only is not None:
                    affected = [a for a in affected if a in only]
                    only = None
                queue.update(affected)
            if not queue:
                return out
            batch = self._lowest_stratum(tx, queue)
            queue.difference_update(batch)
            self.claims.lock_facts(sorted({k for _, k in batch}), tx)
            rows = self._evaluate_locked(tx, batch)
            pending = self._apply(tx, rows, audit, at, cause, out, seen_versions)
        raise RuntimeError(f"rule re-evaluation did not settle in {MAX_ROUNDS} rounds (a cycle between rules?)")

    def _evaluate_locked(self, tx: Tx, batch: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """Evaluate ``batch`` and lock the premise claims it joined (after the derived keys' locks,
        like any write: facts, then what they cite); evaluate again while one of them stopped being
        current before its lock was taken (a retract or a newer version committed since the read).
        Once every cited premise is locked and current it stays so until this transaction ends, so
        no conclusion commits on a premise that a concurrent retract withdrew."""
        locked: set[str] = set()
        for _ in range(MAX_ROUNDS):
            rows = self.repo.evaluate(tx, batch)
            cited = {c for row in rows if row["missing"] is None for c in row["claims"]}
            if not cited:
                return rows
            fresh = sorted(cited - locked)
            if fresh:
                self.claims.lock_premises(fresh, tx)
                locked.update(fresh)
            found = self.claims.find_premises(sorted(cited), tx=tx)
            if all(p in found and premise_current(found[p]["kind"], found[p]["status"]) for p in cited):
                return rows
        raise RuntimeError(f"the premises of {batch} kept changing while they were being locked")

    def _lowest_stratum(self, tx: Tx, queue: set[tuple[str, str]]) -> list[tuple[str, str]]:
        """The queued instances of the lowest stratum of the rule graph (all of them when they are
        instances of one rule: the common case needs no look at the rules). The others wait until
        every rule that can change their premises has run, so a diamond of rules writes each derived
        key once, from its final premises."""
        names = {r for r, _ in queue}
        if len(names) > 1:
            strata = self._strata(tx)
            low = min(strata.get(r, 0) for r in names)
            names = {r for r in names if strata.get(r, 0) == low}
        return sorted(i for i in queue if i[0] in names)

    def _strata(self, tx: Tx) -> Mapping[str, int]:
        """The strata of the space's active rules, read in ``tx``."""
        return strata_of(tuple((r["name"], r["spec"]) for r in self.repo.active_rules(tx)))

    def _apply(
        self,
        tx: Tx,
        rows: list[dict[str, Any]],
        audit: AuditFn,
        at: str,
        cause: str,
        out: Reevaluation,
        seen_versions: set[str],
    ) -> list[str]:
        records: list[dict[str, Any]] = []
        new_versions: list[dict[str, Any]] = []
        for row in rows:
            out.evaluated += 1
            name, version, key = row["rule"], int(row["version"]), row["key"]
            tag = rule_tag(name, version)
            record: dict[str, Any] = {
                "rule": name,
                "key": key,
                "status": "resolved",
                "missing": row["missing"],
                "reads": row["reads"],
                "claim": None,
                "superseded": None,
                "justification": None,
                "tag": f"{name}@{version}",
            }
            records.append(record)
            if row["missing"] is not None:
                record["status"] = "unresolved"
                out.unresolved.append(
                    RuleInstanceInfo(
                        rule=name,
                        key=key,
                        status="unresolved",
                        anchor=list(row["anchor"] or []),
                        reads=row["reads"],
                        missing=row["missing"],
                    )
                )
                continue
            spec, compiled = compiled_rule(row["spec"])
            binds = dict(zip(compiled.variables, list(row["anchor"] or []) + list(row["values"]), strict=True))
            value, text = spec.conclude(binds)
            premises = list(dict.fromkeys(row["claims"]))
            cur = row["current"]
            if cur is not None and _same_value(cur["value"], value) and cur["text"] == text:
                if any(set(f) == set(premises) for f in row["families"]):
                    out.unchanged += 1
                    continue
                if cur["status"] == "active":
                    jid = new_id()
                    self.support.add_justification(
                        tx,
                        claim_id=cur["id"],
                        justification_id=jid,
                        rule=tag,
                        agent=rule_agent(name),
                        created_at=at,
                        premises=premises,
                    )
                    record.update(claim=cur["id"], justification=jid)
                    out.justified += 1
                    continue
            new_versions.append(
                {
                    "record": record,
                    "key": key,
                    "value": value,
                    "text": text,
                    "premises": premises,
                    "tag": tag,
                    "agent": rule_agent(name),
                    "current": cur,
                    "version": f"{name}@{version}",
                }
            )
        if new_versions:
            self._write_versions(tx, new_versions, self._embed([n["text"] for n in new_versions]), cause, out)
        if any(r["claim"] is not None for r in records):
            self.repo.record(tx, audit(tx), at, records)
        else:
            self.repo.record(tx, None, at, records)
        changed = [n["key"] for n in new_versions]
        for k in changed:
            if k in seen_versions:  # the strata make this unreachable; a defect if it happens
                raise RuntimeError(f"rule re-evaluation wrote {k!r} twice in one change")
            seen_versions.add(k)
        return sorted(set(changed))

    def _write_versions(
        self, tx: Tx, versions: list[dict[str, Any]], vectors: list[list[float]], cause: str, out: Reevaluation
    ) -> None:
        """The new versions of the derived keys: one statement creates them all, one makes the first
        versions current, one supersedes the previous versions."""
        rows, firsts, changes = [], [], []
        for n, vector in zip(versions, vectors, strict=True):
            cur = n["current"]
            claim_id, jid = new_id(), new_id()
            # after the derived key's lock and never before the version it follows
            when = time_after(cur["created_at"] if cur is not None else None)
            reason = f"derived by rule {n['version']}" if cur is None else f"re-derived by rule {n['version']}: {cause}"
            rows.append(
                {
                    "id": claim_id,
                    "key": n["key"],
                    "value": n["value"],
                    "text": n["text"],
                    "kind": "derived",
                    "agent": n["agent"],
                    "agent_kind": "system",
                    "confidence": None,
                    "created_at": when,
                    "valid_from": when,
                    "embedding": vector,
                    "evidence": n["premises"],
                    "justification_id": jid,
                    "rule": n["tag"],
                    "reason": reason,
                    "status": "active",
                    "props": {"rule": n["version"]},
                }
            )
            if cur is None:
                firsts.append((n["key"], claim_id))
            else:
                changes.append(
                    {
                        "key": n["key"],
                        "old_id": cur["id"],
                        "new_id": claim_id,
                        "at": when,
                        "reason": f"re-derived by rule {n['version']}",
                    }
                )
            n["record"].update(claim=claim_id, superseded=cur["id"] if cur else None, justification=jid)
        created = self.claims.create_many(tx, rows)
        self.claims.set_current_many(firsts, tx)
        for old in self.claims.supersede_many(changes, tx):
            if old.has_dependents:
                out.superseded.append(old.claim.id)
        out.rederived += created

    def _embed(self, texts: list[str]) -> list[list[float]]:
        vectors = self.embedder.embed_documents(texts)
        for v in vectors:
            if len(v) != self.dimension:
                raise EmbeddingDimensionError(self.dimension, len(v), where=f"embedding from {self.embedder.name}")
        return vectors
