"""The flat names of :class:`~belief_graph.facade.BeliefGraph` from before its namespaces, kept so
that code, the CLI, the MCP server and the docs that use them keep working. Each is one line that
calls its namespace; new code calls the namespace (``bg.beliefs.set_policy(...)`` rather than
``bg.set_policy(...)``). Nothing here holds logic or state.

| namespace | kept flat names |
|---|---|
| ``bg.beliefs`` | claim, explain, history, revert, as_of, set_policy, set_authority, policies, policy_for, disputes, resolve_dispute, auto_resolve, add_agent, agents, register_key |
| ``bg.keys`` | ``bg.keys(prefix)`` lists the key registry (``KeyService.__call__``) |
| ``bg.support`` | supports, audits, audit, audits_for_claim, dependents, stale, rederive |
| ``bg.rules`` (``rule_service``) | add_rule, rule, rule_instances, derive_by_rule, remove_rule; ``bg.rules()`` lists |
| ``bg.argumentation`` | import_framework, framework, frameworks, delete_framework, export_framework, grounded, ground_framework, explain_label, explain_framework_label, solve_framework_file, store_attacks |
| ``bg.perspectives`` (``perspective_service``) | add_perspective, load_perspectives, perspective, encode, interpretations, search_interpretations; ``bg.perspectives()`` lists |
| ``bg.deliberations`` (``deliberation_service``) | deliberate, deliberation; ``bg.deliberations()`` lists |
| ``bg.retrieval`` | lookup, recall_as_of |
| ``bg.importer`` | import_claims, import_file, imports |
| schema and health | init_schema, verify_schema, stats, check, doctor, ogm |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from importlib.resources.abc import Traversable
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from .db.schema import SchemaReport, apply_migrations, stats, verify_schema
from .models import (
    AgentInfo,
    AuthorityRule,
    Claim,
    ClaimInput,
    Dispute,
    Explanation,
    KeyInfo,
    PolicyRule,
    Strategy,
    Version,
    WriteResult,
)
from .models.argumentation import AttackGraph, Framework, GroundedResult, LabelExplanation
from .models.imports import ImportInfo, ImportResult
from .models.perspectives import DeliberationRecord, EncodeResult, InterpretationHit, Perspective
from .models.retrieval import RetrievalHit
from .models.rules import RuleInfo, RuleInstanceInfo, RuleRun, RuleSpec
from .models.support import AuditRecord, AuditSummary, ClaimAudit, ClaimSupport, Dependent, StaleClaim
from .services.beliefs import Basis
from .services.check import CheckReport, run_check
from .services.doctor import DoctorReport, run_doctor
from .services.perspectives import make_spec, read_perspectives
from .services.rederive import Rederiver, RederiveResult

if TYPE_CHECKING:
    from .db.driver import Graph
    from .embeddings import Embedder
    from .llm import LLMClient
    from .services.argumentation import ArgumentationService
    from .services.beliefs import BeliefService
    from .services.deliberation import DeliberationService
    from .services.importer import ImportService
    from .services.keys import KeyService
    from .services.perspectives import PerspectiveService
    from .services.retrieval import RetrievalService
    from .services.rules import RuleService
    from .services.support import SupportService
    from .settings import Settings

__all__ = ["FacadeAliases"]


class FacadeAliases:
    """Mixed into :class:`~belief_graph.facade.BeliefGraph`: the kept flat names (module docstring)."""

    if TYPE_CHECKING:  # provided by BeliefGraph
        graph: Graph
        settings: Settings
        space: str
        embedder: Embedder

        @property
        def beliefs(self) -> BeliefService: ...
        @property
        def support(self) -> SupportService: ...
        @property
        def keys(self) -> KeyService: ...
        @property
        def rules(self) -> RuleService: ...
        @property
        def argumentation(self) -> ArgumentationService: ...
        @property
        def perspectives(self) -> PerspectiveService: ...
        @property
        def deliberations(self) -> DeliberationService: ...
        @property
        def retrieval(self) -> RetrievalService: ...
        @property
        def importer(self) -> ImportService: ...
        @property
        def llm(self) -> LLMClient: ...

    # -- earlier names of namespaces -----------------------------------------------------------------
    @property
    def _beliefs(self) -> BeliefService:
        return self.beliefs

    @property
    def rule_service(self) -> RuleService:
        return self.rules

    @property
    def perspective_service(self) -> PerspectiveService:
        return self.perspectives

    @property
    def deliberation_service(self) -> DeliberationService:
        return self.deliberations

    # -- schema and health ----------------------------------------------------------------------------
    def init_schema(self) -> list[int]:
        return [m.version for m in apply_migrations(self.graph, dimension=self.settings.embedding.dimension)]

    def verify_schema(self, wait_seconds: float = 60.0) -> SchemaReport:
        return verify_schema(self.graph, dimension=self.settings.embedding.dimension, wait_seconds=wait_seconds)

    def stats(self, all_spaces: bool = False) -> list[dict[str, Any]]:
        return stats(self.graph, None if all_spaces else self.space)

    def check(self, limit: int = 100) -> CheckReport:
        """The invariants of this space, checked read-only in Cypher (services/check.py)."""
        return run_check(self.graph, self.space, limit=limit, duplicates=self.keys.duplicates)

    def doctor(self, sample: int = 200) -> DoctorReport:
        return run_doctor(
            self.graph,
            self.embedder,
            dimension=self.settings.embedding.dimension,
            sample=sample,
            duplicates=(self.space, self.keys.duplicates),
        )

    def ogm(self) -> SimpleNamespace:
        """neomodel classes bound to this instance's driver (exploration from Python)."""
        from .db.ogm import bind

        return bind(self.graph.driver, self.graph.database)

    # -- bg.beliefs -----------------------------------------------------------------------------------
    def claim(self, claim_id: str) -> Claim:
        return self.beliefs.claim(claim_id)

    def explain(self, claim_id: str) -> Explanation:
        """Why memory says what a claim says: agent, justifications, versions, disputes, audits."""
        return self.beliefs.explain(claim_id)

    def history(self, key: str) -> list[Version]:
        return self.beliefs.history(key)

    def revert(self, key: str, *, agent: str, to: str | None = None) -> WriteResult:
        return self.beliefs.revert(key, agent=agent, to=to)

    def as_of(self, key: str, at: datetime, basis: Basis = "recorded") -> Claim | None:
        return self.beliefs.as_of(key, at, basis)

    def set_policy(self, pattern: str, strategy: str, **auto_rules: Any) -> PolicyRule:
        return self.beliefs.set_policy(pattern, strategy, **auto_rules)

    def set_authority(self, agent: str, pattern: str, weight: float) -> AuthorityRule:
        return self.beliefs.set_authority(agent, pattern, weight)

    def policies(self) -> tuple[list[PolicyRule], list[AuthorityRule]]:
        return self.beliefs.policies.policies(), self.beliefs.policies.authorities()

    def policy_for(self, key: str) -> tuple[Strategy, PolicyRule | None]:
        return self.beliefs.policy_for(key)

    def disputes(self, status: str | None = "open", key: str | None = None) -> list[Dispute]:
        return self.beliefs.disputes_list(status, key)

    def resolve_dispute(self, dispute_id: str, winner: str, by: str, reason: str) -> Dispute:
        return self.beliefs.resolve_dispute(dispute_id, winner, by, reason)

    def auto_resolve(self) -> list[Dispute]:
        return self.beliefs.auto_resolve()

    def add_agent(self, agent: str, kind: str = "agent", description: str | None = None) -> AgentInfo:
        return self.beliefs.add_agent(agent, kind, description)

    def agents(self) -> list[AgentInfo]:
        return self.beliefs.agent_repo.all()

    def register_key(self, key: str, description: str) -> KeyInfo:
        return self.beliefs.register_key(key, description)

    # -- bg.support -----------------------------------------------------------------------------------
    def supports(self, claim_id: str) -> ClaimSupport:
        return self.support.supports(claim_id)

    def audits(self, limit: int = 50) -> list[AuditSummary]:
        return self.support.audits(limit)

    def audit(self, audit_id: str) -> AuditRecord:
        return self.support.audit(audit_id)

    def audits_for_claim(self, claim_id: str) -> list[ClaimAudit]:
        return self.support.audits_for_claim(claim_id)

    def dependents(self, claim_id_or_key: str, limit: int = 200) -> list[Dependent]:
        return self.support.dependents(claim_id_or_key, limit)

    def stale(self, limit: int = 100) -> list[StaleClaim]:
        return self.support.stale(limit)

    def rederive(self, claim_id: str, *, agent: str) -> RederiveResult:
        """Ask the LLM (job ``rederive``) for the new form of a stale free-text conclusion; never implicit."""
        return Rederiver(self.support, lambda: self.llm).rederive(claim_id, agent=agent)

    # -- bg.rules -------------------------------------------------------------------------------------
    def add_rule(self, spec: RuleSpec | dict[str, Any], *, agent: str | None = None, apply: bool = True) -> RuleRun:
        return self.rules.add(spec, agent=agent, apply=apply)

    def rule(self, name: str) -> RuleInfo:
        return self.rules.get(name)[0]

    def rule_instances(self, name: str, status: str | None = None, limit: int = 100) -> list[RuleInstanceInfo]:
        return self.rules.instances(name, status, limit)

    def derive_by_rule(self, name: str, key: str | Sequence[str] | None = None, *, agent: str | None = None) -> RuleRun:
        return self.rules.run(name, key, agent=agent)

    def remove_rule(self, name: str, reason: str, *, agent: str | None = None) -> RuleRun:
        return self.rules.remove(name, reason, agent=agent)

    # -- bg.argumentation -----------------------------------------------------------------------------
    def import_framework(
        self, path: str | Path, name: str | None = None, *, format: str | None = None, replace: bool = False
    ) -> Framework:
        return self.argumentation.import_framework(path, name, format=format, replace=replace)

    def framework(self, name: str) -> Framework:
        return self.argumentation.framework(name)

    def frameworks(self) -> list[Framework]:
        return self.argumentation.frameworks()

    def delete_framework(self, name: str) -> bool:
        return self.argumentation.delete_framework(name)

    def export_framework(self, name: str, format: str = "apx") -> str:
        return self.argumentation.export_text(name, format)

    def grounded(self, ns: str) -> GroundedResult:
        return self.argumentation.ground(ns)

    def ground_framework(self, name: str) -> GroundedResult:
        return self.argumentation.ground_framework(name)

    def explain_label(self, ns: str, name: str) -> LabelExplanation:
        return self.argumentation.explain_label(ns, name)

    def explain_framework_label(self, name: str, argument: str) -> LabelExplanation:
        return self.argumentation.explain_framework(name, argument)

    def solve_framework_file(self, path: str | Path, *, format: str | None = None) -> GroundedResult:
        return self.argumentation.solve(path, format=format)

    def store_attacks(self, ns: str, arguments: Sequence[str], attacks: Sequence[Sequence[str]]) -> AttackGraph:
        return self.argumentation.store_attacks(ns, arguments, attacks)

    # -- bg.perspectives and bg.deliberations ---------------------------------------------------------
    def add_perspective(self, name: str, goal: str, ontology: Any, relevance: float | None = None) -> Perspective:
        return self.perspectives.add([make_spec(name, goal, ontology, relevance)])[0]

    def load_perspectives(self, path: str | Path | Traversable) -> list[Perspective]:
        return self.perspectives.add(read_perspectives(path))

    def perspective(self, name: str) -> Perspective:
        return self.perspectives.get(name)

    def encode(
        self, episode_ids: Sequence[str] | None = None, perspectives: Sequence[str] | None = None
    ) -> EncodeResult:
        return self.perspectives.encode(episode_ids, perspectives)

    def interpretations(self, perspective: str, status: str | None = None) -> list[InterpretationHit]:
        return self.perspectives.interpretations(perspective, status)

    def search_interpretations(self, query: str, perspective: str, k: int = 5) -> list[InterpretationHit]:
        return self.perspectives.search(query, perspective, k)

    def deliberate(
        self, query: str, perspectives: Sequence[str] | None = None, *, k: int = 5, batched: bool = True
    ) -> DeliberationRecord:
        return self.deliberations.deliberate(query, perspectives, k=k, batched=batched)

    def deliberation(self, deliberation_id: str) -> DeliberationRecord:
        return self.deliberations.get(deliberation_id)

    # -- bg.retrieval and bg.importer -----------------------------------------------------------------
    def lookup(
        self,
        keys: Sequence[str] | str | None = None,
        prefix: str | None = None,
        *,
        as_of: datetime | None = None,
        include_inactive: bool = False,
        limit: int = 100,
    ) -> list[RetrievalHit]:
        return self.retrieval.lookup(keys, prefix, as_of=as_of, include_inactive=include_inactive, limit=limit)

    def recall_as_of(self, query: str, at: datetime, k: int = 5, **filters: Any) -> list[RetrievalHit]:
        return self.retrieval.recall(query, k, as_of=at, **filters)

    def import_claims(
        self, items: Iterable[Mapping[str, Any] | ClaimInput], *, name: str | None = None, **options: Any
    ) -> ImportResult:
        return self.importer.import_items(items, name=name, **options)

    def import_file(self, path: str | Path, *, name: str | None = None, **options: Any) -> ImportResult:
        return self.importer.import_jsonl(path, name=name, **options)

    def imports(self, limit: int = 50) -> list[ImportInfo]:
        return self.importer.all(limit)
