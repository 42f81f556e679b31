"""The claim area (``cypher/claim/``): one repository for every claim query — the write path's
locks, creation, supersession and status changes, and the reads of a fact's versions (current
belief, history, as of a time, explanation)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..db.driver import Tx
from ..errors import ValidationError
from ..models import Claim, Explanation, Revision, Version
from .core import Repo

__all__ = ["ClaimRepository", "LockedFact", "Superseded"]


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

    # -- versions and status -------------------------------------------------------------------
    def change_status(self, tx: Tx, **fields: Any) -> Claim:
        rows = self.graph.run(tx, "claim.change_status", space=self.space, **fields)
        return Claim.from_record(rows[0]["claim"])

    def corroborate(self, tx: Tx, **fields: Any) -> None:
        self.graph.run(tx, "claim.corroborate_claim", space=self.space, **fields)

    def positions(self, key: str, tx: Tx | None = None) -> list[dict[str, Any]]:
        return self._read(tx, "claim.key_positions", space=self.space, key=key)

    def history(self, key: str, tx: Tx | None = None) -> list[Version]:
        rows = self._read(tx, "claim.key_history", space=self.space, key=key)
        return [
            Version(
                claim=Claim.from_record(r["claim"]),
                revisions=[Revision.model_validate(x) for x in r["revisions"]],
                current=bool(r["current"]),
                superseded_by=r["superseded_by"],
                supersedes=r["supersedes"],
            )
            for r in rows
        ]

    def as_of(self, key: str, at: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.belief_as_of", space=self.space, key=key, at=at)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def valid_at(self, key: str, at: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.belief_valid_at", space=self.space, key=key, at=at)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def explain(self, claim_id: str, tx: Tx | None = None) -> Explanation | None:
        rows = self._read(tx, "claim.explain_claim", space=self.space, id=claim_id)
        if not rows:
            return None
        r = rows[0]
        return Explanation(
            claim=Claim.from_record(r["claim"]),
            current=bool(r["current"]),
            justifications=r["justifications"],
            revisions=[Revision.model_validate(x) for x in r["revisions"]],
            disputes=r["disputes"],
            superseded_by=r["superseded_by"],
            supersedes=r["supersedes"],
        )
