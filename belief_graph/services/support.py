"""Justifications (DESIGN.md, "Support"), computed in Cypher.

* :meth:`SupportService.derive` adds one immutable AND-justification. Deriving the same statement
  again (same key and text) from other premises adds an alternative (OR) to the same claim.
* :meth:`SupportService.retract` / :meth:`SupportService.restore`: selective reconsolidation, in
  :mod:`.reconsolidation`.
* :meth:`SupportService.supports`, :meth:`~SupportService.dependents`, :meth:`~SupportService.stale`
  and the audits: what a claim rests on, what rests on it, what went stale and why.
* :meth:`SupportService.context` compiles the working context from active beliefs, each with its
  support certificate, cut to a token budget (the compiler is :mod:`.context`).
* :meth:`SupportService.rederive` asks the model for the new form of a stale conclusion (:mod:`.rederive`).

Python only orchestrates: it validates input, runs the statements of ``cypher/support/`` in one
transaction, and loops over the fixpoint's waves until the frontier is empty.
"""

from __future__ import annotations

import hashlib
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
from ..limits import check_aware, check_limit, check_name, check_number
from ..llm import LLMClient
from ..models import KEY_RE, Claim, Value, new_id, time_after
from ..models.support import (
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
from ..repositories.core import Runner
from ..repositories.currency import CurrencyRepository
from ..repositories.support import SupportRepository
from .context import ContextCompiler
from .currency import Change, Consequences
from .reconsolidation import Reconsolidation, checked_ids
from .rederive import Rederiver, RederiveResult

__all__ = ["SupportService", "statement_signature"]

_KINDS = ("observation", "semantic", "derived", "interpretation")
_WAVES_PER_CALL = 64


def statement_signature(key: str | None, text: str) -> str:
    """The identity of a derived statement: same key and same text = same claim."""
    return hashlib.sha256(f"{key or ''}\x1f{text}".encode()).hexdigest()[:40]


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
        self.currency = CurrencyRepository(graph, space, runner=runner)
        self.claims = ClaimRepository(graph, space)
        self.strict_agents = strict_agents
        self.agents = AgentRepository(graph, space)
        self.consequences = consequences or Consequences(
            graph, space, embedder, dimension, runner=runner, waves_per_call=waves_per_call
        )
        """Settles each reconsolidation: currency of the conclusions and rule re-derivation."""
        self.reconsolidation = Reconsolidation(
            graph,
            space,
            self.repo,
            self.currency,
            self.consequences,
            check_agent=self._check_agent,
            waves_per_call=waves_per_call,
            one_statement=one_statement,
        )
        """Retract and restore (services/reconsolidation.py); a derive that reinstates a claim uses it too."""

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
        prem = checked_ids(premises, "premise")
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
                    self.reconsolidation.reconsolidate(
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
                got = self.claims.get(claim.id, tx=tx)
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
                got = self.claims.get(claim_id, tx=tx)
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
        deps = self.currency.dependents(claim_id, dependents) if dependents > 0 else []
        return ClaimSupport(claim=claim, families=families, dependents=deps)

    # -- currency ---------------------------------------------------------------------------------
    def dependents(self, claim_id_or_key: str, limit: int = 200) -> list[Dependent]:
        """The conclusions resting on a claim or episode (an id), or on a fact's current claim (a key),
        nearest first: what goes stale or is withdrawn when it changes."""
        if not isinstance(claim_id_or_key, str) or not claim_id_or_key.strip():
            raise ValidationError("dependents needs a claim id, an episode id or a fact key")
        check_limit(limit, 10_000)
        target = claim_id_or_key
        if not self.repo.find_nodes([target]):
            current = self.claims.current(target) if KEY_RE.match(target) else None
            if current is None:
                raise ClaimNotFound(target, self.space)
            target = current.id
        return self.currency.dependents(target, limit)

    def stale(self, limit: int = 100) -> list[StaleClaim]:
        """The stale conclusions of this space, newest first, each with the premise change that made it stale."""
        check_limit(limit, 10_000)
        return self.currency.stale_claims(limit)

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
        """Invalidate evidence (episodes or claims) and withdraw exactly what lost every support
        (:mod:`.reconsolidation`).

        Raises:
            ValidationError: no roots, blank reason, unknown mode, or a root already retracted.
            ClaimNotFound: a root is not an episode or claim of this space.
        """
        return self.reconsolidation.run("retract", root_ids, reason, mode, agent, at)

    def restore(
        self,
        root_ids: Sequence[str] | str,
        reason: str,
        mode: str = "justification",
        *,
        agent: str | None = None,
        at: datetime | None = None,
    ) -> AuditRecord:
        """Lift a retraction and reinstate the withdrawn claims whose support is intact again
        (:mod:`.reconsolidation`).

        Raises:
            ValidationError: no roots, blank reason, unknown mode, or a root that is not retracted.
            ClaimNotFound: a root is not an episode or claim of this space.
        """
        return self.reconsolidation.run("restore", root_ids, reason, mode, agent, at)

    # -- audits --------------------------------------------------------------------------------------
    def rederive(self, claim_id: str, *, agent: str) -> RederiveResult:
        """Ask the LLM (job ``rederive``) for the new form of a stale free-text conclusion; never implicit."""
        if self._llm is None:
            raise ConfigurationError("this support service was built without a language model: rederive needs one")
        return Rederiver(self.supports, self.derive, self.claims, self._llm).rederive(claim_id, agent=agent)

    def audits(self, limit: int = 50) -> list[AuditSummary]:
        """The reconsolidation audits of this space, newest first."""
        check_limit(limit, 10_000)
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
