"""Fact keys as a namespace of their own (``bg.keys``): identity that can be repaired and declared.

A model names each fact's key from free text, and models drift. Two tools make a fact's identity
repairable and declarable:

* :meth:`KeyService.merge` repairs drift after the fact: two keys become one fact, one current
  belief (a dispute when two writers disagree), one audit (:mod:`.key_merge`);
  :meth:`KeyService.resolve` names the key a fact is stored under (an alias follows its merge);
* :meth:`KeyService.declare_schema` declares the facts a space expects, versioned in the graph
  (:mod:`.key_schema`).

Registering a key stays ``bg.beliefs.register_key``; ``bg.keys.all()`` lists the registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..models import KeyInfo
from ..models.keys import DuplicateKeys, KeySchema, KeySpec, MergePlan, MergeResult
from ..repositories.facts import KeyRepository
from .beliefs import BeliefService
from .conflicts import checked_key
from .identity import CANDIDATE_LIMIT, ROOTS, duplicate_pairs, identify_key, shape
from .key_merge import KeyMerge
from .key_schema import KeySchemas

__all__ = ["KeyService"]


class KeyService:
    """Fact keys of one memory space: merge, resolve, and the optional key schema."""

    def __init__(self, beliefs: BeliefService) -> None:
        self.beliefs = beliefs
        self.space = beliefs.space
        self.repo = KeyRepository(beliefs.graph, beliefs.space)
        self.merger = KeyMerge(beliefs, self.repo)
        self.schemas = KeySchemas(beliefs, self.repo)

    def all(self, prefix: str | None = None) -> list[KeyInfo]:
        """The key registry (known keys with description and current value; an alias
        of a merged key carries ``merged_into``)."""
        return self.beliefs.facts.find(prefix)

    # -- identity ---------------------------------------------------------------------------------
    def resolve(self, key: str) -> str:
        """The key the fact ``key`` is stored under: ``key`` itself, or the key it was merged into
        (following chains of merges). A key no fact has resolves to itself."""
        return self.repo.resolve(checked_key(key)) or key

    def identify(self, key: str) -> str | None:
        """The key of the space's fact that ``key`` names, for a caller that names facts its own way:
        ``key`` itself when the space holds it (or the key it was merged into), else the one fact of
        the same subject whose key says the same attribute (``user.pets`` for ``user.pet``,
        ``project.atlas.about.deadline`` for ``project.atlas.deadline``: fact identity's rules on
        the key's words alone, services/identity.py); None when no fact, or more than one, fits."""
        stored = self.resolve(key)
        roots = sorted({stored.split(".", 1)[0] + "."} | {f"{r}." for r, t in ROOTS.items() if t == shape(stored).root})
        rows = [r for r in self.beliefs.facts.identity_candidates(roots, CANDIDATE_LIMIT) if r.get("current")]
        return identify_key(stored, rows)

    def merge(self, source: str, into: str, *, agent: str, reason: str) -> MergeResult:
        """Make ``source`` and ``into`` one fact (one write transaction): every version of ``source``
        becomes a version of ``into``, one current belief remains (an open dispute when two agents'
        current values differ), conclusions follow, one audit records it, and ``source`` stays as an
        alias of ``into``. Refusals (:class:`~belief_graph.errors.MergeRefused`,
        :class:`~belief_graph.errors.UnknownKey`) write nothing."""
        return self.merger.merge(source, into, agent=agent, reason=reason)

    def plan_merge(self, source: str, into: str) -> MergePlan:
        """What :meth:`merge` would do now, without writing (the same refusals)."""
        return self.merger.plan(source, into)

    # -- the key schema -----------------------------------------------------------------------------
    def declare_schema(
        self, keys: Sequence[KeySpec | Mapping[str, Any]], *, unknown: str = "other", agent: str
    ) -> KeySchema:
        """Store a new version of the space's key schema: each key ``{key, description, type,
        examples}`` (type ``string``, ``number``, ``boolean`` or None); ``unknown``: ``other`` or
        ``refuse``. Registers every key and sets each declared type as its fact's value type."""
        return self.schemas.declare(keys, unknown=unknown, agent=agent)

    def schema(self) -> KeySchema | None:
        """The space's key schema (its active version), or None."""
        return self.schemas.current()

    def schema_history(self) -> list[KeySchema]:
        """Every version of the space's key schema, oldest first."""
        return self.schemas.history()

    def drop_schema(self, agent: str) -> KeySchema:
        """Drop the space's key schema (the version stays in the history as ``dropped``)."""
        return self.schemas.drop(agent)

    # -- drift ----------------------------------------------------------------------------------------
    def duplicates(self, limit: int = CANDIDATE_LIMIT) -> list[DuplicateKeys]:
        """Likely duplicate keys: pairs of current beliefs whose keys or statements say the same
        attribute of the same subject (the rules of fact identity, services/identity.py). At most
        ``limit`` facts are read (in key order)."""
        b = self.beliefs
        rows = [
            r
            for r in b.facts.identity_candidates([""], limit)
            if r.get("current") and r["current"].get("status") == "active"
        ]
        current = {r["key"]: r["current"] for r in rows}
        pairs = duplicate_pairs(rows, b.embed_many, b.policy)
        return [
            DuplicateKeys(
                keys=(ka, kb),
                values=(current[ka].get("value"), current[kb].get("value")),
                relation=rel,  # type: ignore[arg-type]
                similarity=sim,
            )
            for ka, kb, rel, sim in pairs
        ]
