"""Repositories: the only callers of the query registry. Records become models here.

Every method takes an optional transaction ``tx``; without one it runs in its own managed
transaction. Services compose several calls into one transaction with ``graph.write_tx``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.driver import Graph, Tx
from ..errors import TransactionMemoryExceeded, ValidationError
from ..models import Claim, Episode

__all__ = [
    "DELETE_BATCH",
    "MIN_DELETE_BATCH",
    "AdminRepository",
    "ClaimRepository",
    "EpisodeRepository",
    "LockedFact",
    "Repo",
    "Superseded",
]

log = logging.getLogger(__name__)

DELETE_BATCH = 5_000
"""Nodes a space delete removes per transaction (about 100 MB of transaction memory with their
revisions and edges: a third of what a 512 MB heap allows a transaction)."""

MIN_DELETE_BATCH = 100
"""The smallest batch a space delete halves down to before it gives up."""


@dataclass(frozen=True)
class LockedFact:
    """A fact whose write lock this transaction holds, as read after the lock."""

    key: str
    current: Claim | None
    value_type: str | None
    rule: dict[str, Any] | None
    """``{name, version, direct_writes}`` of the active rule that derives this key, if any."""
    rules: int = 0
    """How many active derivation rules the space has."""
    alias: str | None = None
    """The key this fact was merged into (``bg.keys.merge``): writes to it land there."""


@dataclass(frozen=True)
class Superseded:
    """A claim a newer version replaced, as it is now, and whether any conclusion rests on it."""

    claim: Claim
    has_dependents: bool


class Repo:
    """Base: a graph and a space; ``_read``/``_write`` run in ``tx`` when given, else in their own."""

    def __init__(self, graph: Graph, space: str) -> None:
        self.graph = graph
        self.space = space

    def _read(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.read(query, **params)

    def _write(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.write(query, **params)


class EpisodeRepository(Repo):
    def create(
        self,
        *,
        id: str,
        text: str,
        agent: str,
        agent_kind: str,
        conversation: str | None,
        at: str,
        tx: Tx | None = None,
        rejections: Sequence[str] = (),
    ) -> Episode:
        rows = self._write(
            tx,
            "episode.create_episode",
            space=self.space,
            id=id,
            text=text,
            agent=agent,
            agent_kind=agent_kind,
            conversation=conversation,
            at=at,
            rejections=list(rejections),
        )
        return Episode.model_validate(rows[0])


class ClaimRepository(Repo):
    def lock_facts(self, keys: Sequence[str], tx: Tx) -> dict[str, LockedFact]:
        """Take the facts' write locks in the order given (inside ``tx``) and read each one's
        current belief, value type and the active rule that derives it."""
        rows = self.graph.run(tx, "claim.lock_facts", space=self.space, keys=list(keys))
        return {
            r["key"]: LockedFact(
                key=r["key"],
                current=Claim.from_record(r["current"]) if r["current"] else None,
                value_type=r["value_type"],
                rule=r["rule"],
                rules=int(r["rules"] or 0),
                alias=r["alias"],
            )
            for r in rows
        }

    def lock_fact(self, key: str, tx: Tx) -> LockedFact:
        """Take one fact's write lock (inside ``tx``); see :meth:`lock_facts`."""
        return self.lock_facts([key], tx)[key]

    def follow_alias(self, locked: LockedFact, tx: Tx) -> LockedFact:
        """The lock of the fact an alias was merged into (``bg.keys.merge``), taken in ``tx`` after
        the alias's own: a normal write costs no statement for this (``claim.lock_facts`` returns
        the alias with the lock)."""
        seen = {locked.key}
        while locked.alias is not None:
            if locked.alias in seen or len(seen) > 32:
                raise ValidationError(f"fact key {locked.key!r} is an alias in a loop of merged keys: {sorted(seen)}")
            seen.add(locked.alias)
            locked = self.lock_fact(locked.alias, tx)
        return locked

    def lock_premises(self, ids: Sequence[str], tx: Tx) -> None:
        """Take the write lock on the episodes and claims ``ids`` (sorted here), inside ``tx``: what a
        write cites is read only after this, so a retract or supersession of it is ordered with the
        write (``claim.lock_premises``). Call it after the fact locks."""
        self.graph.run(tx, "claim.lock_premises", space=self.space, ids=sorted(set(ids)))

    def find_premises(self, ids: Sequence[str], tx: Tx | None = None) -> dict[str, dict[str, Any]]:
        """``{id: {"kind": "episode"|"claim", "status": ...}}`` for the ids found in this space."""
        rows = self._read(tx, "claim.find_premises", space=self.space, ids=list(ids))
        return {r["id"]: {"kind": r["kind"], "status": r["status"]} for r in rows}

    def create(self, tx: Tx, **fields: Any) -> Claim:
        """Create one claim (see :meth:`create_many`)."""
        return self.create_many(tx, [fields])[0]

    def create_many(self, tx: Tx, rows: Sequence[dict[str, Any]]) -> list[Claim]:
        """Create claims (one row of ``claim.create_claims`` each) in one statement; returns them."""
        if not rows:
            return []
        got = self.graph.run(tx, "claim.create_claims", space=self.space, claims=list(rows))
        return [Claim.from_record(r["claim"]) for r in got]

    def set_current(self, key: str, claim_id: str, tx: Tx) -> bool:
        return bool(self.set_current_many([(key, claim_id)], tx))

    def set_current_many(self, changes: Sequence[tuple[str, str]], tx: Tx) -> list[str]:
        """First versions: each ``(key, claim id)`` becomes the fact's CURRENT; returns the ids set."""
        if not changes:
            return []
        rows = self.graph.run(
            tx, "claim.set_current", space=self.space, changes=[{"key": k, "id": i} for k, i in changes]
        )
        return [r["current"] for r in rows]

    def supersede(self, key: str, old_id: str, new_id: str, at: str, reason: str, tx: Tx) -> Superseded:
        """The new claim becomes the fact's current belief; returns the old one as it is now."""
        got = self.supersede_many([{"key": key, "old_id": old_id, "new_id": new_id, "at": at, "reason": reason}], tx)
        if not got:
            raise ValidationError(f"claim {old_id!r} is not the current belief of {key!r}")
        return got[0]

    def supersede_many(self, changes: Sequence[dict[str, str]], tx: Tx) -> list[Superseded]:
        """Each ``{key, old_id, new_id, at, reason}``: the new claim becomes current, the old superseded."""
        if not changes:
            return []
        rows = self.graph.run(tx, "claim.supersede_current", space=self.space, changes=list(changes))
        return [Superseded(Claim.from_record(r["superseded"]), bool(r["dependents"])) for r in rows]

    def unlink_version(self, new_id: str, old_id: str, tx: Tx) -> None:
        """Remove the SUPERSEDES edge ``new_id -> old_id`` (a contradicted version leaving the chain)."""
        self.graph.run(tx, "claim.unlink_version", space=self.space, new_id=new_id, old_id=old_id)

    def supersede_keyless(self, old_id: str, new_id: str, at: str, reason: str, tx: Tx) -> None:
        """A claim without a fact key replaced by a newer one (SUPERSEDES, the old one superseded)."""
        rows = self.graph.run(
            tx, "claim.supersede_claim", space=self.space, old_id=old_id, new_id=new_id, at=at, reason=reason
        )
        if not rows:
            raise ValidationError(f"claim {old_id!r} is not a claim without a key in space {self.space!r}")

    def get(self, claim_id: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.get_claim", space=self.space, id=claim_id)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def current(self, key: str, tx: Tx | None = None) -> Claim | None:
        """The fact's CURRENT claim, whatever its status (``belief`` returns it only while active)."""
        rows = self._read(tx, "claim.get_current", space=self.space, key=key)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def belief(self, key: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.get_belief", space=self.space, key=key)
        return Claim.from_record(rows[0]["claim"]) if rows else None


class AdminRepository(Repo):
    def delete_space(self, space: str) -> int:
        """Delete every node of ``space`` (:meth:`delete_space_batched` with its default batch)."""
        return self.delete_space_batched(space)

    def count_space(self, space: str) -> list[dict[str, Any]]:
        """Node counts of ``space`` by label and status."""
        return self.graph.read("admin.count_by_label_status", space=space)

    def delete_space_batched(self, space: str, batch: int = DELETE_BATCH) -> int:
        """Delete every node of ``space``, ``batch`` nodes per transaction, until none is left;
        returns how many. Three phases, each repeated until it deletes nothing: the indexed labels
        through their space indexes (``admin.delete_space_batch``: a batch costs the same whatever
        the store's size), the writers (``admin.delete_space_agents``: last, since an agent holds an
        edge to every claim it wrote), then one sweep for nodes no space index reaches
        (``admin.delete_space_rest``: it reads the whole store, once per call when nothing is left
        for it). Each batch commits on its own: a run that stops half way leaves part of the space,
        and running it again deletes the rest.

        A batch that needs more transaction memory than the server allows is rolled back by the
        server and tried again at half the size (down to ``MIN_DELETE_BATCH``; the smaller size is
        kept for the rest of the run): a claim with its embedding, revisions and edges costs about
        20 KB of transaction memory, so 20,000 of them (400 MB) do not fit the 358 MB a 512 MB heap
        allows a transaction."""
        total = 0
        for statement in ("admin.delete_space_batch", "admin.delete_space_agents", "admin.delete_space_rest"):
            while True:
                try:
                    rows = self._delete_batch(statement, space, batch)
                except TransactionMemoryExceeded:
                    if batch <= MIN_DELETE_BATCH:
                        raise
                    batch = max(MIN_DELETE_BATCH, batch // 2)
                    log.info("deleting space %r: a batch ran out of transaction memory; %d per batch now", space, batch)
                    continue
                n = int(rows[0]["deleted"]) if rows else 0
                if n == 0:
                    break
                total += n
        return total

    def _delete_batch(self, statement: str, space: str, batch: int) -> list[dict[str, Any]]:
        """One batch in one transaction function: deadlocks are retried, a memory refusal is not."""

        def work(tx: Tx) -> list[dict[str, Any]]:
            return self.graph.run(tx, statement, space=space, limit=batch)

        return self.graph.write_tx(work, name=statement)

    def components(self) -> list[dict[str, Any]]:
        return self.graph.read("admin.server_components")

    def embedding_coverage(self, space: str | None, dimension: int) -> dict[str, int]:
        rows = self.graph.read("admin.embedding_coverage", space=space, dimension=dimension)
        return {k: int(v or 0) for k, v in rows[0].items()}

    def sample_embedded(self, space: str | None, limit: int, dimension: int) -> list[dict[str, Any]]:
        return self.graph.read("admin.sample_embedded_claims", space=space, limit=limit, dimension=dimension)

    def index_self_probe(self, probes: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
        return self.graph.read("retrieval.index_self_probe", probes=probes, k=k)
