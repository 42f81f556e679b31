"""Justifications and selective reconsolidation (DESIGN.md, "Support"), computed in Cypher.

* :meth:`SupportService.derive` adds one immutable AND-justification. Deriving the same statement
  again (same key and text) from other premises adds an alternative (OR) to the same claim.
* :meth:`SupportService.retract` / :meth:`SupportService.restore` find the reactivation region
  downstream of the roots in Cypher, re-evaluate support inside it to the **least fixpoint** in
  Cypher (forward chaining from support grounded outside the region, so support cycles never
  justify themselves), and record what changed on one ``Audit`` with immutable ``Revision``\\ s —
  all in one transaction. Nothing outside the region is written; outside premises are read.
* :meth:`SupportService.context` compiles the working context from active beliefs, each with its
  support certificate, cut to a token budget (the compiler is :mod:`.context`).

Python only orchestrates: it validates input, runs the statements of ``cypher/support/`` in one
transaction, and loops over the fixpoint's waves until the frontier is empty.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from ..db.driver import Graph, Tx
from ..embeddings import Embedder
from ..errors import (
    AuditNotFound,
    ClaimNotFound,
    ConfigurationError,
    ConstraintViolation,
    DerivedKeyConflict,
    EmbeddingDimensionError,
    UnknownAgent,
    ValidationError,
    listed,
)
from ..limits import check_aware, check_name, check_number
from ..llm import LLMClient
from ..models import KEY_RE, Claim, Value, new_id, time_after, utcnow
from ..models.support import (
    MODES,
    OUT_STATUSES,
    AuditRecord,
    AuditSummary,
    ClaimAudit,
    ClaimSupport,
    Dependent,
    StaleClaim,
    WorkingContext,
    premise_current,
)
from ..repositories.agents import AgentRepository
from ..repositories.claims import ClaimRepository
from ..repositories.support import Runner, SupportRepository
from .context import ContextCompiler
from .currency import Change, Consequences
from .rederive import Rederiver, RederiveResult

__all__ = ["SupportService", "statement_signature"]

_KINDS = ("observation", "semantic", "derived", "interpretation")
_WAVES_PER_CALL = 64


def statement_signature(key: str | None, text: str) -> str:
    """The identity of a derived statement: same key and same text = same claim."""
    return hashlib.sha256(f"{key or ''}\x1f{text}".encode()).hexdigest()[:40]


def _iso(t: datetime | None) -> str:
    return (check_aware(t, "at") or utcnow()).isoformat()


def _ids(values: Sequence[str] | str, what: str) -> list[str]:
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values:
        if not isinstance(v, str) or not v.strip():
            raise ValidationError(f"{what} ids must be non-empty strings, got {v!r}")
        if v not in out:
            out.append(v)
    return out


def _reason(reason: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationError("a reason is required (say why the evidence is invalidated or restored)")
    if len(reason) > 2000:
        raise ValidationError("reason is longer than 2000 characters")
    return reason.strip()


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise ValidationError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


class SupportService:
    """Justifications, reconsolidation and working context for one memory space."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        embedder: Embedder,
        dimension: int,
        runner: Runner | None = None,
        waves_per_call: int = _WAVES_PER_CALL,
        strict_agents: bool = False,
        consequences: Consequences | None = None,
        one_statement: bool = True,
        llm: Callable[[], LLMClient] | None = None,
    ) -> None:
        """``runner`` replaces Graph.run for the support statements (profiling); ``waves_per_call``
        bounds the waves one ``support.fixpoint`` statement runs (1 = one statement per wave);
        ``strict_agents`` (``PolicySettings.strict_agents``): derive, retract and restore by an
        agent never registered with ``add_agent`` raise :class:`UnknownAgent`, as writes do;
        ``one_statement=False`` runs retract/restore as the step statements (find_nodes, open_audit,
        mark_region, fixpoint, apply_labels, the currency pass, get_audit) instead of
        ``support.repair``: the same writes, one round trip per step (the bench's baseline); ``llm``
        builds the model :meth:`rederive` asks (the facade's, built only when asked)."""
        self._llm = llm
        self.one_statement = one_statement
        if waves_per_call < 1:
            raise ValidationError("waves_per_call must be at least 1")
        self.waves_per_call = waves_per_call
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.repo = SupportRepository(graph, space, runner=runner)
        self.claims = ClaimRepository(graph, space)
        self.strict_agents = strict_agents
        self.agents = AgentRepository(graph, space)
        self.consequences = consequences or Consequences(
            graph, space, embedder, dimension, runner=runner, waves_per_call=waves_per_call
        )
        """Settles each reconsolidation: currency of the conclusions and rule re-derivation."""

    # -- derive ---------------------------------------------------------------------------------
    def derive(
        self,
        text: str,
        premises: Sequence[str],
        key: str | None = None,
        *,
        agent: str,
        rule: str | None = None,
        kind: str = "derived",
        confidence: float | None = None,
        at: datetime | None = None,
        agent_kind: str = "agent",
        value: Value = None,
        props: Mapping[str, str | int | float | bool] | None = None,
        supersedes: str | None = None,
    ) -> Claim:
        """Add one AND-justification ``premises -> text`` and return the claim.

        A new statement becomes a new active claim (with ``key``: the fact's current version,
        superseding the previous one; ``value`` is that version's value). The same statement again
        (same ``key`` and ``text``) adds an alternative justification to the existing claim and
        returns it; the same premise set again changes nothing. A withdrawn claim whose new
        justification holds is reinstated, together with what it supports (one audit, op
        ``derive``); a stale one whose new justification is current becomes active again.
        ``props``: scalar provenance stored on a new claim; ``supersedes``: a claim without a key
        that the new one replaces (a stale conclusion re-derived), in the same transaction.

        Raises:
            ValidationError: blank text/agent, malformed key, empty premises, an unknown premise, a
                premise that is the conclusion itself, or (for a new claim) a premise that is not
                current (an episode retracted, a claim not active).
            DerivedKeyConflict: ``key`` is derived by a rule.
        """
        if value is not None and (not isinstance(value, str | int | float | bool) or key is None):
            raise ValidationError("value is a string, number or boolean, and needs a key")
        if supersedes is not None and key is not None:
            raise ValidationError(
                "supersedes is for claims without a key (a key's new version supersedes its current one)"
            )
        check_number(value, "value")
        check_aware(at, "at")
        if not isinstance(text, str) or not text.strip():
            raise ValidationError("text must not be blank")
        if len(text) > 20_000:
            raise ValidationError("text is longer than 20000 characters")
        if not isinstance(agent, str) or not agent.strip():
            raise ValidationError("agent must not be empty")
        if key is not None and (not isinstance(key, str) or len(key) > 256 or not KEY_RE.match(key)):
            raise ValidationError(f"malformed fact key {key!r}: dotted names like 'user.timezone'")
        if kind not in _KINDS:
            raise ValidationError(f"kind must be one of {', '.join(_KINDS)}, got {kind!r}")
        if agent_kind not in ("user", "agent", "system"):
            raise ValidationError(f"agent_kind must be user, agent or system, got {agent_kind!r}")
        if confidence is not None and not 0.0 <= confidence <= 1.0:
            raise ValidationError("confidence must be between 0 and 1")
        if rule is not None and (not isinstance(rule, str) or len(rule) > 256):
            raise ValidationError("rule must be a string of at most 256 characters")
        if isinstance(premises, str) or not premises:
            raise ValidationError("a justification needs at least one premise (episode or claim ids)")
        prem = _ids(premises, "premise")
        sig = statement_signature(key, text)
        vector = self._embed(text)

        def work(tx: Tx) -> Claim:
            self._check_agent(agent, tx)
            # with a key, the fact's lock first: derivations of one fact serialize on it
            nonlocal key, sig
            locked = self.claims.lock_fact(key, tx) if key is not None else None
            if locked is not None and locked.alias is not None:  # a merged key: the conclusion lands on its target
                locked = self.claims.follow_alias(locked, tx)
                key, sig = locked.key, statement_signature(locked.key, text)
            if locked is not None and locked.rule is not None:
                raise DerivedKeyConflict(key or "", f"{locked.rule['name']}@{locked.rule['version']}", self.space)
            current = locked.current if locked is not None else None
            # the time is taken after the lock, so a fact's chain order is its time order
            now = at.isoformat() if at is not None else time_after(current.created_at if current is not None else None)
            # then the premises' locks: their status is read after a retract/supersession of them commits
            self.claims.lock_premises(prem, tx)
            found, existing = self.repo.prepare_derive(prem, sig, tx)
            missing = [p for p in prem if p not in found]
            if missing:
                raise ValidationError(f"{listed(missing, 'unknown premise id(s)')} (space {self.space!r})")
            if existing is not None:
                claim, families = existing
                if claim.id in prem:
                    raise ValidationError(f"claim {claim.id} cannot be a premise of its own justification")
                if frozenset(prem) in families:
                    return claim  # the same justification already exists: nothing to add
                jid = new_id()
                claim, out = self.repo.add_justification(
                    tx, claim_id=claim.id, justification_id=jid, rule=rule, agent=agent, created_at=now, premises=prem
                )
                if claim.status == "withdrawn" and not out:
                    # what the reinstatement reads (the claim, what rests on it, their premises): locked first
                    self.repo.lock_region(tx, [claim.id])
                    self._reconsolidate(
                        tx,
                        "derive",
                        [claim.id],
                        "justification",
                        f"new justification {jid} holds",
                        agent,
                        now,
                        [claim.key] if claim.key else [],
                    )
                elif claim.status == "stale" and not out:
                    change = Change(
                        op="derive",
                        reason=f"new justification {jid} of {claim.id}",
                        agent=agent,
                        at=now,
                        roots=[claim.id],
                    )
                    self.consequences.settle(tx, change, roots=[claim.id])
                else:
                    return claim
                got = self.repo.get_claim(claim.id, tx=tx)
                assert got is not None
                return got
            out_now = [p for p in prem if found[p]["status"] in OUT_STATUSES]
            if out_now:
                raise ValidationError(
                    f"premise(s) {', '.join(out_now)} do not hold (withdrawn or retracted): a new claim needs "
                    "premises that hold; derive an existing statement to record a dormant alternative"
                )
            past = [
                f"{p} ({found[p]['status']})" for p in prem if not premise_current(found[p]["kind"], found[p]["status"])
            ]
            if past:
                raise ValidationError(
                    f"premise(s) {', '.join(past)} are not current: a new conclusion rests on current beliefs "
                    "(cite the current version of the fact)"
                )
            claim_id = new_id()
            created, out = self.repo.create_derived(
                tx,
                id=claim_id,
                sig=sig,
                key=key,
                value=value,
                text=text,
                kind=kind,
                agent=agent,
                agent_kind=agent_kind,
                confidence=confidence,
                created_at=now,
                embedding=vector,
                justification_id=new_id(),
                rule=rule,
                premises=prem,
                props=dict(props or {}),
            )
            if out:  # a concurrent write changed a premise before we locked it
                raise ValidationError(f"{listed(out, 'premise(s) no longer current')}")
            if supersedes is not None:
                self.claims.supersede_keyless(
                    supersedes, claim_id, now, f"replaced by {claim_id}" + (f" ({rule})" if rule else ""), tx
                )
                change = Change(
                    op="update",
                    reason=f"claim {supersedes} superseded by {claim_id}",
                    agent=agent,
                    at=now,
                    roots=[supersedes, claim_id],
                )
                self.consequences.settle(tx, change, roots=[supersedes])
            if key is not None:
                if current is None:
                    self.claims.set_current(key, claim_id, tx)
                    change = Change(
                        op="update", reason=f"{key}: derived by {agent}", agent=agent, at=now, roots=[claim_id]
                    )
                    self.consequences.settle(tx, change, keys=[key], rules=locked is not None and locked.rules > 0)
                else:
                    old = self.claims.supersede(
                        key, current.id, claim_id, now, "derived: newer version of the fact", tx
                    )
                    change = Change(
                        op="update",
                        reason=f"{key}: newer version derived by {agent}",
                        agent=agent,
                        at=now,
                        roots=[current.id, claim_id],
                    )
                    self.consequences.settle(
                        tx,
                        change,
                        roots=[current.id] if old.has_dependents else [],
                        keys=[key],
                        rules=locked is not None and locked.rules > 0,
                    )
                got = self.repo.get_claim(claim_id, tx=tx)
                assert got is not None
                return got
            return created

        try:
            return self.graph.write_tx(work, name="support.derive")
        except ConstraintViolation:
            # a concurrent derive created the same statement first: now it exists, add to it
            return self.graph.write_tx(work, name="support.derive")

    def _check_agent(self, agent: str, tx: Tx) -> None:
        if self.strict_agents and agent not in self.agents.registered([agent], tx):
            raise UnknownAgent(agent, self.space)

    def supports(self, claim_id: str, dependents: int = 50) -> ClaimSupport:
        """The claim's support families (its justifications, each with premises and whether they hold
        and are current) and up to ``dependents`` of the conclusions that rest on it."""
        got = self.repo.supports(claim_id)
        if got is None:
            raise ClaimNotFound(claim_id, self.space)
        claim, families = got
        deps = self.repo.dependents(claim_id, dependents) if dependents > 0 else []
        return ClaimSupport(claim=claim, families=families, dependents=deps)

    # -- currency ---------------------------------------------------------------------------------
    def dependents(self, claim_id_or_key: str, limit: int = 200) -> list[Dependent]:
        """The conclusions resting on a claim or episode (an id), or on a fact's current claim (a key),
        nearest first: what goes stale or is withdrawn when it changes."""
        if not isinstance(claim_id_or_key, str) or not claim_id_or_key.strip():
            raise ValidationError("dependents needs a claim id, an episode id or a fact key")
        if not 1 <= limit <= 10_000:
            raise ValidationError("limit must be between 1 and 10000")
        target = claim_id_or_key
        if not self.repo.find_nodes([target]):
            current = self.claims.current(target) if KEY_RE.match(target) else None
            if current is None:
                raise ClaimNotFound(target, self.space)
            target = current.id
        return self.repo.dependents(target, limit)

    def stale(self, limit: int = 100) -> list[StaleClaim]:
        """The stale conclusions of this space, newest first, each with the premise change that made it stale."""
        if not 1 <= limit <= 10_000:
            raise ValidationError("limit must be between 1 and 10000")
        return self.repo.stale_claims(limit)

    # -- retract / restore ------------------------------------------------------------------------
    def retract(
        self,
        root_ids: Sequence[str] | str,
        reason: str,
        mode: str = "justification",
        *,
        agent: str | None = None,
        at: datetime | None = None,
    ) -> AuditRecord:
        """Invalidate evidence (episodes or claims) and withdraw exactly what lost every support.

        Raises:
            ValidationError: no roots, blank reason, unknown mode, or a root already retracted.
            ClaimNotFound: a root is not an episode or claim of this space.
        """
        return self._operation("retract", root_ids, reason, mode, agent, at)

    def restore(
        self,
        root_ids: Sequence[str] | str,
        reason: str,
        mode: str = "justification",
        *,
        agent: str | None = None,
        at: datetime | None = None,
    ) -> AuditRecord:
        """Lift a retraction and reinstate the withdrawn claims whose support is intact again.

        Raises:
            ValidationError: no roots, blank reason, unknown mode, or a root that is not retracted.
            ClaimNotFound: a root is not an episode or claim of this space.
        """
        return self._operation("restore", root_ids, reason, mode, agent, at)

    def _operation(
        self, op: str, root_ids: Sequence[str] | str, reason: str, mode: str, agent: str | None, at: datetime | None
    ) -> AuditRecord:
        if not root_ids:
            raise ValidationError(f"{op} needs at least one root id")
        roots = _ids(root_ids, "root")
        why = _reason(reason)
        _mode(mode)
        when = _iso(at)

        def work(tx: Tx) -> AuditRecord:
            if agent is not None:
                self._check_agent(agent, tx)
            # what the operation reads (roots, what rests on them, their premises) is locked first
            self.repo.lock_region(tx, roots)
            if self.one_statement:
                return self._repair(tx, op, roots, mode, why, agent, when)
            found = self.repo.find_nodes(roots, tx=tx)
            if any(r not in found for r in roots) or any(
                (found[r]["status"] == "retracted") == (op == "retract") for r in roots
            ):
                self._refuse(tx, op, roots)
            keys = sorted({found[r]["key"] for r in roots if found[r]["key"] is not None})
            return self._reconsolidate(tx, op, roots, mode, why, agent, when, keys)

        t0 = time.perf_counter()
        record = self.graph.write_tx(work, name=f"support.{op}")
        return record.model_copy(update={"seconds": time.perf_counter() - t0})

    def _refuse(self, tx: Tx, op: str, roots: list[str]) -> None:
        """Raise the error that makes ``op`` on ``roots`` invalid (support.repair wrote nothing)."""
        found = self.repo.find_nodes(roots, tx=tx)
        for r in roots:
            if r not in found:
                raise ClaimNotFound(r, self.space)
        if op == "retract":
            again = [r for r in roots if found[r]["status"] == "retracted"]
            if again:
                raise ValidationError(f"{listed(again, 'already retracted')} (restore it first)")
        else:
            live = [r for r in roots if found[r]["status"] != "retracted"]
            if live:
                raise ValidationError(f"nothing to restore: {listed(live, 'not retracted')}")
        raise AssertionError(f"support.repair refused {op} of {roots} for no reason find_nodes sees")

    def _repair(
        self, tx: Tx, op: str, roots: list[str], mode: str, reason: str, agent: str | None, at: str
    ) -> AuditRecord:
        """What :meth:`_reconsolidate` does, for retract/restore, in one statement (``support.repair``)
        when it fits: then the transaction is ``support.lock_region``, that statement and the commit. The statement returns
        what is left, and this finishes it with the step statements, in the same order:
        a fixpoint deeper than ``waves_per_call`` waves (``pending``), the settling of keys whose
        belief changed (rules first), a currency fixpoint deeper than ``waves_per_call``."""
        audit, run = new_id(), new_id()
        row = self.repo.repair(
            tx,
            id=audit,
            op=op,
            mode=mode,
            reason=reason,
            agent=agent,
            at=at,
            roots=roots,
            evaluate=mode != "none",
            force=(op != "retract") if mode == "influence" else None,
            waves=self.waves_per_call,
            currency=mode == "justification",
            run=run,
        )
        if row is None:
            self._refuse(tx, op, roots)
        assert row is not None
        change = Change(op=op, reason=reason, agent=agent, at=at, audit=audit)
        if row["pending"]:  # the support fixpoint needs more waves: the step statements, as before
            waves = int(row["waves"])
            region = list(row["region_ids"])
            budget = min(len(region), self.waves_per_call)
            while True:
                gained = self.repo.fixpoint(tx, run=audit, waves=budget)
                waves += sum(1 for g in gained if g > 0)
                if not gained or gained[-1] == 0:
                    break
            _, changed = self.repo.apply_labels(
                tx, audit=audit, at=at, reason=reason, region=region, force=None, waves=waves
            )
            self.consequences.settle(tx, change, roots=roots, keys=sorted(set(row["keys"]) | set(changed)))
        elif not row["settled"]:
            if mode == "justification":  # keys involved: the rule engine goes first
                self.consequences.settle(tx, change, roots=roots, keys=sorted(set(row["keys"])))
            else:
                return AuditRecord.from_row(row)
        elif row["cpending"]:  # the currency fixpoint needs more waves
            region = list(row["cregion_ids"])
            budget = min(len(region), self.waves_per_call)
            while True:
                gained = self.repo.fixpoint(tx, run=run, waves=budget)
                if not gained or gained[-1] == 0:
                    break
            _, _, changed = self.repo.currency_apply(tx, audit=audit, run=run, at=at, reason=reason, region=region)
            if changed:
                self.consequences.settle(tx, change, keys=sorted(set(changed)))
        elif row["ckeys"]:  # the currency pass changed beliefs: their rules, then on
            self.consequences.settle(tx, change, keys=sorted(set(row["ckeys"])))
        else:
            return AuditRecord.from_row(row)
        record = self.repo.audit(audit, tx=tx)
        assert record is not None
        return record

    def _reconsolidate(
        self,
        tx: Tx,
        op: str,
        roots: list[str],
        mode: str,
        reason: str,
        agent: str | None,
        at: str,
        keys: list[str],
    ) -> AuditRecord:
        """Everything of one reconsolidation, inside ``tx``: audit, roots, region, fixpoint, labels,
        then (mode ``justification``) the currency of the conclusions and rule re-derivation of the
        keys whose belief changed, on the same audit."""
        audit = new_id()
        self.repo.open_audit(
            tx, id=audit, op=op, mode=mode, reason=reason, agent=agent, at=at, roots=roots, evaluate=mode != "none"
        )
        region: list[str] = []
        waves = 0
        force: bool | None = None
        if mode != "none":
            region, seeds = self.repo.mark_region(tx, run=audit, roots=roots)
            if mode == "influence":
                force = op != "retract"
            elif seeds:
                # all waves in one statement; again only while the last wave still gained
                budget = min(len(region), self.waves_per_call)
                while True:
                    gained = self.repo.fixpoint(tx, run=audit, waves=budget)
                    waves += sum(1 for g in gained if g > 0)
                    if not gained or gained[-1] == 0:
                        break
        changed: list[str] = []
        if region:
            _, changed = self.repo.apply_labels(
                tx, audit=audit, at=at, reason=reason, region=region, force=force, waves=waves
            )
        else:
            self.repo.close_audit(tx, audit=audit)
        if mode == "justification":
            change = Change(op=op, reason=reason, agent=agent, at=at, audit=audit)
            self.consequences.settle(tx, change, roots=roots, keys=sorted(set(keys) | set(changed)))
        record = self.repo.audit(audit, tx=tx)
        assert record is not None
        return record

    # -- audits --------------------------------------------------------------------------------------
    def rederive(self, claim_id: str, *, agent: str) -> RederiveResult:
        """Ask the LLM (job ``rederive``) for the new form of a stale free-text conclusion; never implicit."""
        if self._llm is None:
            raise ConfigurationError("this support service was built without a language model: rederive needs one")
        return Rederiver(self, self._llm).rederive(claim_id, agent=agent)

    def audits(self, limit: int = 50) -> list[AuditSummary]:
        """The reconsolidation audits of this space, newest first."""
        if not 1 <= limit <= 10_000:
            raise ValidationError("limit must be between 1 and 10000")
        return self.repo.audits(limit)

    def audit(self, audit_id: str) -> AuditRecord:
        """One audit: its roots and what it withdrew, retained and reinstated, and why."""
        rec = self.repo.audit(audit_id)
        if rec is None:
            raise AuditNotFound(audit_id, self.space)
        return rec

    def audits_for_claim(self, claim_id: str) -> list[ClaimAudit]:
        """Every audit that touched this claim (or episode), oldest first (for ``explain``).

        Raises:
            ClaimNotFound: the space has no claim or episode ``claim_id``.
        """
        found = self.repo.audits_for_claim(check_name(claim_id, "claim id") or "")
        if found is None:
            raise ClaimNotFound(claim_id, self.space)
        return found

    # -- working context ---------------------------------------------------------------------------
    def context(
        self,
        query: str | None = None,
        keys: Sequence[str] | None = None,
        budget_tokens: int = 1000,
        limit: int = 50,
    ) -> WorkingContext:
        """The working context from active beliefs with their support certificates
        (:meth:`ContextCompiler.compile <belief_graph.services.context.ContextCompiler.compile>`)."""
        return ContextCompiler(self.repo, self._embed).compile(query, keys, budget_tokens, limit)

    # -- helpers ---------------------------------------------------------------------------------------
    def _embed(self, text: str, query_mode: bool = False) -> list[float]:
        vec = self.embedder.embed_query(text) if query_mode else self.embedder.embed_documents([text])[0]
        if len(vec) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return vec
