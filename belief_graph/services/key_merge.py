"""Merging two fact keys into one (``bg.keys.merge``): repairing key drift after the fact.

A model names each fact's key; when it names one fact twice (``user.city``, later
``user.location.city``), ``merge(source, into)`` makes them one fact, in one write transaction
under both facts' locks (taken sorted, as every multi-key writer does):

1. every version of ``source`` becomes a version of ``into`` (``VERSION_OF``, ``key``); claims keep
   their ids, so justifications, conclusions and disputes follow them;
2. one current belief (:func:`decide`): with both keys active, the same value or one writer means
   the newer stays current and the older is superseded; two writers with different values are a
   conflict: the newer stays current (the dispute's incumbent) and the older is parked as the
   challenger of an open ``Dispute`` (``disputed``), as the write path parks a challenger;
3. the ``SUPERSEDES`` chain becomes the versions of both chains interleaved by creation time
   (``fact.relink_versions``). The current belief must be the newest version in the chain, so a
   disputed claim is taken out of the chain (challengers never are in it) and, when the one active
   current claim is older than the other key's non-active versions, those later versions leave the
   chain too (they keep their statuses and revisions: ``history`` still lists them by time);
4. every claim whose status changes gets a ``Revision``; the merge is one ``Audit`` (op ``merge``,
   ``source_key``/``into_key``, a ``ROOT`` edge with the prior status to each changed claim), and
   :meth:`Consequences.settle` makes conclusions resting on a superseded claim stale and re-derives
   the rule instances that read either key, recorded on the same audit;
5. ``source`` stays as an alias (``merged_into``, ``MERGED_INTO``): writes to it land on ``into``
   (``claim.lock_facts`` returns the alias), reads of it answer for ``into``.

Refusals raise a typed :class:`~belief_graph.errors.MergeRefused` (or :class:`UnknownKey`) before
anything is written. Merging into an alias follows it: the versions land on the key the alias
resolves to (the result says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..db.driver import Tx
from ..errors import (
    MergeDerivedKey,
    MergeSameKey,
    MergeSourceIsAlias,
    MergeTypeMismatch,
    UnknownKey,
    ValidationError,
)
from ..models import new_id, parse_time, time_after
from ..models.keys import MergeOutcome, MergePlan, MergeResult, StatusChange
from ..policies import same_value
from ..repositories.claims import LockedFact
from ..repositories.facts import FactState, KeyRepository, MergeVersion
from .beliefs import BeliefService
from .conflicts import checked_key
from .currency import Change

__all__ = ["KeyMerge", "decide"]


@dataclass
class Decision:
    """What a merge does to the two facts' versions (pure: :func:`decide`)."""

    outcome: MergeOutcome
    current: str | None
    changes: list[StatusChange] = field(default_factory=list)
    dispute: tuple[str, str] | None = None
    """(incumbent, challenger) of the dispute the merge opens."""
    chain: list[str] = field(default_factory=list)
    reason: str = ""


def _newer(a: MergeVersion, b: MergeVersion, order: dict[str, int]) -> tuple[MergeVersion, MergeVersion]:
    """(newer, older) by creation time, then by the order the versions were read in."""
    return (a, b) if order[a.id] > order[b.id] else (b, a)


def _lose_current(v: MergeVersion) -> list[StatusChange]:
    """A non-active current claim that loses CURRENT: a stale one is superseded (as a write would
    supersede it); a withdrawn or retracted one keeps its status."""
    return [StatusChange(id=v.id, before=v.status, after="superseded")] if v.status == "stale" else []


def decide(source: str, into: str, versions: Sequence[MergeVersion]) -> Decision:
    """The one current belief, the status changes and the chain of a merge of ``source`` into
    ``into``; ``versions``: both keys' versions, oldest first."""
    order = {v.id: i for i, v in enumerate(versions)}
    cs = next((v for v in versions if v.key == source and v.current), None)
    ci = next((v for v in versions if v.key == into and v.current), None)
    active = [v for v in (cs, ci) if v is not None and v.status == "active"]
    d: Decision
    if len(active) == 2:
        assert cs is not None and ci is not None
        newer, older = _newer(cs, ci, order)
        if same_value(newer.value, older.value):
            d = Decision("same_value", newer.id, [StatusChange(id=older.id, before="active", after="superseded")])
            d.reason = f"both keys held {newer.value!r}: {newer.id} (newer) stays current"
        elif newer.agent == older.agent:
            d = Decision("update", newer.id, [StatusChange(id=older.id, before="active", after="superseded")])
            d.reason = f"{newer.agent} changed the value: {older.value!r} -> {newer.value!r}"
        else:
            d = Decision(
                "dispute",
                newer.id,
                [StatusChange(id=older.id, before="active", after="disputed")],
                dispute=(newer.id, older.id),
            )
            d.reason = (
                f"{older.agent} holds {older.value!r} and {newer.agent} {newer.value!r}: "
                f"{newer.id} (newer) stays current, {older.id} is disputed"
            )
    elif len(active) == 1:
        winner = active[0]
        other = ci if winner is cs else cs
        if other is None:
            outcome: MergeOutcome = "source_only" if winner is cs else "into_only"
            d = Decision(outcome, winner.id, reason=f"only {winner.key} had a current belief")
        else:
            d = Decision("one_active", winner.id, _lose_current(other))
            d.reason = f"only {winner.key}'s current belief is active ({other.id} is {other.status})"
    elif cs is not None and ci is not None:
        newer, older = _newer(cs, ci, order)
        d = Decision("none_active", newer.id, _lose_current(older))
        d.reason = f"neither current belief is active: {newer.id} (newer) stays current"
    elif cs is not None or ci is not None:
        only = cs if cs is not None else ci
        assert only is not None
        d = Decision("source_only" if only is cs else "into_only", only.id, reason=f"only {only.key} had a current")
    else:
        d = Decision("empty", None, reason="neither key has a current belief")
    d.chain = _chain(versions, d)
    return d


def _chain(versions: Sequence[MergeVersion], d: Decision) -> list[str]:
    """The merged SUPERSEDES chain, oldest first: the versions of either chain (and both current
    claims) by creation time, without the disputed one, ending at the one current belief."""
    parked = {d.dispute[1]} if d.dispute else set()
    members = [v for v in versions if (v.chained or v.current) and v.id not in parked]
    if d.current is not None:
        end = next(i for i, v in enumerate(members) if v.id == d.current)
        members = members[: end + 1]
    chain: list[MergeVersion] = []
    for v in members:
        if chain and chain[-1].created >= v.created:
            chain.pop()  # created in the same instant: the chain needs strictly later times
        chain.append(v)
    return [v.id for v in chain]


def _at(locked: Sequence[LockedFact]) -> str:
    """The merge's time, taken under the locks: after both current claims were created."""
    times = [time_after(f.current.created_at if f.current is not None else None) for f in locked]
    return max(times, key=parse_time)


class KeyMerge:
    """Merges the fact keys of one memory space (``bg.keys.merge``; see the module docstring)."""

    def __init__(self, beliefs: BeliefService, repo: KeyRepository) -> None:
        self.beliefs = beliefs
        self.repo = repo

    def _target(self, source: str, into: str, tx: Tx) -> tuple[str, dict[str, FactState]]:
        """The key the versions land on (``into``, or what it is an alias of), refusing what cannot merge."""
        states = self.repo.states([source, into], tx)
        s = states[source]
        if not s.exists:
            raise UnknownKey(source, self.beliefs.space)
        if s.alias is not None:
            raise MergeSourceIsAlias(source, into, self.repo.resolve(source, tx) or s.alias)
        target = into
        if states[into].alias is not None:
            target = self.repo.resolve(into, tx) or into
        if target == source:
            raise MergeSameKey(source, target)
        if target != into:
            states.update(self.repo.states([target], tx))
        return target, states

    def _check(self, source: str, into: str, target: str, types: dict[str, str | None], rules: dict[str, str]) -> None:
        for key in (source, target):
            if key in rules:
                raise MergeDerivedKey(source, into, key, rules[key])
        st, tt = types.get(source), types.get(target)
        if st is not None and tt is not None and st != tt:
            raise MergeTypeMismatch(source, target, st, tt)

    def plan(self, source: str, into: str) -> MergePlan:
        """What :meth:`merge` would do now, read without writing (the same refusals)."""
        source, into = checked_key(source), checked_key(into)
        if source == into:
            raise MergeSameKey(source, into)

        def work(tx: Tx) -> MergePlan:
            target, states = self._target(source, into, tx)
            rules = {k: s.rule for k, s in states.items() if s.rule is not None}
            self._check(source, into, target, {k: s.value_type for k, s in states.items()}, rules)
            versions = self.repo.versions([source, target], tx)
            d = decide(source, target, versions)
            return MergePlan(
                source=source,
                into=target,
                requested_into=into,
                versions=[v.id for v in versions if v.key == source],
                into_versions=sum(1 for v in versions if v.key == target),
                outcome=d.outcome,
                current=d.current,
                changes=d.changes,
                reason=d.reason,
            )

        return self.beliefs.graph.read_tx(work, name="keys.plan_merge")

    def merge(self, source: str, into: str, *, agent: str, reason: str) -> MergeResult:
        """Merge ``source`` into ``into`` in one write transaction (see the module docstring)."""
        source, into = checked_key(source), checked_key(into)
        if not isinstance(agent, str) or not agent.strip() or len(agent) > 256:
            raise ValidationError("merge needs the agent who merges (1-256 characters)")
        if not isinstance(reason, str) or not reason.strip():
            raise ValidationError("merge needs a reason (why the two keys are one fact)")
        if source == into:
            raise MergeSameKey(source, into)
        b = self.beliefs

        def work(tx: Tx) -> MergeResult:
            target, _ = self._target(source, into, tx)
            locked = b.claims.lock_facts(sorted({source, target}), tx)
            if locked[source].alias is not None:  # merged by another transaction meanwhile
                raise MergeSourceIsAlias(source, into, locked[source].alias or "")
            if locked[target].alias is not None:
                raise ValidationError(f"{target!r} was merged into another key meanwhile: merge again")
            rules = {k: f"{f.rule['name']}@{f.rule['version']}" for k, f in locked.items() if f.rule is not None}
            self._check(source, into, target, {k: f.value_type for k, f in locked.items()}, rules)
            versions = self.repo.versions([source, target], tx)
            d = decide(source, target, versions)
            at = _at(list(locked.values()))
            why = f"{source} merged into {target}: {reason.strip()}"
            change = Change(op="merge", reason=why, agent=agent, at=at, roots=[c.id for c in d.changes])
            audit = change.ensure_audit(tx, b.consequences.repo)  # before the changes: ROOT edges keep the prior status
            for c in d.changes:
                b.claims.change_status(
                    tx, id=c.id, status=c.after, at=at, reason=f"{why} ({d.reason})", by=agent, revision_id=new_id()
                )
            moved = self.repo.move(tx, source=source, into=target, current=d.current, audit=audit, at=at)
            self.repo.relink(tx, key=target, chain=d.chain, at=at)
            dispute = None
            if d.dispute is not None:
                dispute = b.conflicts.open_dispute(
                    tx,
                    key=target,
                    incumbent=d.dispute[0],
                    challenger=d.dispute[1],
                    strategy="merge",
                    reason=f"{why}: {d.reason}",
                    at=at,
                )
            has_rules = any(f.rules > 0 for f in locked.values())
            settled = b.consequences.settle(
                tx, change, roots=[c.id for c in d.changes], keys=[target, source], rules=has_rules
            )
            return MergeResult(
                source=source,
                into=target,
                outcome=d.outcome,
                moved=moved,
                current=b.claims.get(d.current, tx=tx) if d.current is not None else None,
                dispute=dispute,
                superseded=[c.id for c in d.changes if c.after == "superseded"],
                changes=d.changes,
                staled=settled.staled,
                rederived=settled.rederived,
                audit=audit,
                reason=d.reason,
            )

        return b.graph.write_tx(work, name="keys.merge")
