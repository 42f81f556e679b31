"""The :class:`BeliefGraph` facade: composes services for one memory space. Holds no logic.

    from belief_graph import BeliefGraph

    with BeliefGraph.connect(space="default") as bg:      # settings from BELIEF_GRAPH_* env vars
        bg.assert_claim("user.risk_tolerance", "cautious",
                        "The user is cautious with money", agent="user:alice")
        print(bg.belief("user.risk_tolerance"))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from types import SimpleNamespace, TracebackType
from typing import Any

from .driver import Graph, create_driver
from .embeddings import Embedder, make_embedder
from .embeddings import CountingEmbedder, DelegatingEmbedder
from .llm import ChatModel, LLMClient, LLMUsage, UsageReport, make_client
from .models import (
    AgentInfo,
    AuthorityRule,
    Claim,
    ClaimInput,
    Dispute,
    Episode,
    Explanation,
    KeyInfo,
    PolicyRule,
    RecallHit,
    Strategy,
    Value,
    Version,
    WriteResult,
)
from .schema import SchemaReport, apply_migrations, stats, verify_schema
from .services.beliefs import BeliefService
from .services.conflict_af import conflict_grounder
from .services.remember import RememberResult, RememberService, llm_prejudge
from pathlib import Path  # issue 6
from .models_argumentation import AttackGraph, Framework, GroundedResult, LabelExplanation  # issue 6
from .services.argumentation import ArgumentationService  # issue 6
from .services.check import CheckReport, run_check
from .services.doctor import DoctorReport, run_doctor
from .models_support import AuditRecord, AuditSummary, ClaimAudit, ClaimSupport, Dependent, StaleClaim, WorkingContext
from .models_rules import RuleInfo, RuleInstanceInfo, RuleRun, RuleSpec
from .services.rederive import RederiveResult, Rederiver
from .services.rules import RuleService
from .services.support import SupportService
from .models_retrieval import AnswerResult, RetrievalHit  # issue 8
from .services.answers import AnswerService  # issue 8
from .services.retrieval import RetrievalService  # issue 8
from .models_perspectives import DeliberationRecord, DeliberationSummary, EncodeResult, InterpretationHit, Perspective  # issue 7
from .services.deliberation import DeliberationService  # issue 7
from .services.perspectives import PerspectiveService, read_perspectives  # issue 7
from .services.perspectives import make_spec as make_perspective_spec  # issue 7
from importlib.resources.abc import Traversable  # issue 7
from .services.explore import ExploreService
from .models_import import ImportInfo, ImportResult
from .services.importer import ImportService
from .settings import Settings, load_settings

__all__ = ["BeliefGraph"]


class BeliefGraph:
    """One memory space on one Neo4j database. Use :meth:`connect` and close it (or use ``with``)."""

    def __init__(
        self, graph: Graph, settings: Settings, space: str, embedder: Embedder, chat_model: ChatModel | None = None
    ) -> None:
        self.graph = graph
        self.settings = settings
        self.space = space
        embedder = embedder if isinstance(embedder, CountingEmbedder) else CountingEmbedder(embedder)  # issue 3: usage
        self.embedder = embedder
        self._chat_model = chat_model  # issue 3: None = built from settings.llm on first use
        self._llm: LLMClient | None = None
        self._beliefs = BeliefService(graph, space, embedder, settings.embedding.dimension, settings.policy)
        self._beliefs.prejudge = llm_prejudge(lambda: self.llm)  # the llm_judge strategy (issue 4)
        self._remember = RememberService(self._beliefs, lambda: self.llm)
        self._beliefs.grounder = conflict_grounder(graph, space)  # the argumentation strategy
        self._beliefs.explain_hooks.append(  # issue 4 x issue 5: explain shows the audits
            lambda _b, ex: ex.audits.extend(a.flat() for a in self.audits_for_claim(ex.claim.id))
        )
        self._beliefs.explain_hooks.append(  # and what rests on the claim
            lambda _b, ex: ex.dependents.extend(
                {**d.claim.model_dump(include={"id", "key", "value", "text", "status"}), "depth": d.depth,
                 "via": d.via, "rule": d.rule}
                for d in self.support.dependents(ex.claim.id, limit=100)
            )
        )

    @classmethod
    def connect(
        cls,
        space: str | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        verify: bool = True,
        chat_model: ChatModel | None = None,
    ) -> BeliefGraph:
        """Build from settings (read from the environment when not given) for an explicit space."""
        s = settings if settings is not None else load_settings()
        if space is not None:
            s = s.model_copy(update={"space": load_settings(space=space).space})
        emb = embedder if embedder is not None else _LazyEmbedder(s)
        driver = create_driver(s.neo4j)
        graph = Graph(driver, s.neo4j)
        try:
            if verify:
                graph.verify()
        except Exception:
            driver.close()
            raise
        return cls(graph, s, s.space, emb, chat_model=chat_model)

    # -- lifecycle -------------------------------------------------------------------------
    def close(self) -> None:
        self.graph.close()

    def __enter__(self) -> BeliefGraph:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- schema and health ---------------------------------------------------------------------
    def init_schema(self) -> list[int]:
        return [m.version for m in apply_migrations(self.graph, dimension=self.settings.embedding.dimension)]

    def verify_schema(self, wait_seconds: float = 60.0) -> SchemaReport:
        return verify_schema(self.graph, dimension=self.settings.embedding.dimension, wait_seconds=wait_seconds)

    def stats(self, all_spaces: bool = False) -> list[dict[str, Any]]:
        return stats(self.graph, None if all_spaces else self.space)

    def check(self, limit: int = 100) -> CheckReport:
        """The invariants of this space, checked read-only in Cypher (services/check.py)."""
        return run_check(self.graph, self.space, limit=limit)

    def doctor(self, sample: int = 200) -> DoctorReport:
        return run_doctor(self.graph, self.embedder, dimension=self.settings.embedding.dimension, sample=sample)

    # -- writes ----------------------------------------------------------------------------------
    def add_episode(
        self, text: str, agent: str, conversation: str | None = None, at: datetime | None = None
    ) -> Episode:
        return self._beliefs.add_episode(text, agent, conversation=conversation, at=at)

    def assert_claim(
        self,
        key: str | None,
        value: Value,
        text: str,
        agent: str,
        evidence: list[str] | None = None,
        confidence: float | None = None,
        valid_from: datetime | None = None,
        kind: str = "semantic",
    ) -> WriteResult:
        data = _validated(
            key=key, value=value, text=text, agent=agent, evidence=evidence or [],
            confidence=confidence, valid_from=valid_from, kind=kind,
        )
        return self._beliefs.assert_claim(data)

    # -- reads -----------------------------------------------------------------------------------
    def claim(self, claim_id: str) -> Claim:
        return self._beliefs.claim(claim_id)

    def belief(self, key: str) -> Claim | None:
        return self._beliefs.belief(key)

    def recall(
        self,
        query: str,
        k: int = 5,
        perspective: str | None = None,
        keys: Sequence[str] | None = None,
        as_of: datetime | None = None,
        include_inactive: bool = False,
        *,
        key_prefix: str | None = None,
        include_interpretations: bool = False,
    ) -> list[RetrievalHit]:
        """Hybrid recall (vector + fulltext, score fusion; ``fusion="rrf"`` on the service) over the active claims of this
        space, each hit with score parts, provenance and support certificate (issue 8; see
        services/retrieval.py). ``perspective``: that perspective's interpretations only;
        ``as_of``: what memory believed then; ``include_inactive``: every status, shown."""
        return self.retrieval.recall(
            query, k, perspective=perspective, keys=keys, as_of=as_of, include_inactive=include_inactive,
            key_prefix=key_prefix, include_interpretations=include_interpretations,
        )

    # -- LLM layer (issue 3) ---------------------------------------------------------------------
    @property
    def llm(self) -> LLMClient:
        """The LLM job runner (extract, classify, disambiguate, encode, critique, judge, propose,
        answer): the ``chat_model`` given to :meth:`connect`, else built on first use from
        ``settings.llm`` (OpenAI with an API key, else the local server of ``belief-graph llm
        serve`` while it runs, otherwise replay of the shipped demo file)."""
        if self._llm is None:
            self._llm = make_client(self.settings.llm, self._chat_model, server=self.settings.llm_server)
        return self._llm

    def llm_usage(self) -> UsageReport:
        """Chat-model calls per job (tokens, latency, failures) and embedding calls of this engine."""
        llm = self._llm.usage() if self._llm is not None else LLMUsage()
        model = self._llm.model_name if self._llm is not None else None
        emb = self.embedder.usage if isinstance(self.embedder, CountingEmbedder) else None
        inner = self.embedder.inner if isinstance(self.embedder, CountingEmbedder) else self.embedder
        unbuilt = isinstance(inner, _LazyEmbedder) and not inner.built  # do not load a model to name it
        name = None if unbuilt else inner.name
        return UsageReport(llm=llm, embedding=emb, model=model, embedder=name)

    # -- conflict policy and disputes (issue 4) --------------------------------------------------
    def remember(
        self,
        messages_or_text: str | Sequence[str | dict[str, Any]],
        agent: str,
        conversation: str | None = None,
        at: datetime | None = None,
    ) -> RememberResult:
        """Extract typed, self-contained facts from the latest turn with the LLM and write them
        through the same path as :meth:`assert_claim` (one transaction, provenance on each claim)."""
        return self._remember.remember(messages_or_text, agent, conversation=conversation, at=at)

    def history(self, key: str) -> list[Version]:
        """Every version of a fact, oldest first, with status, agent, time and why it changed."""
        return self._beliefs.history(key)

    def revert(self, key: str, *, agent: str, to: str | None = None) -> WriteResult:
        """Write an earlier version of a fact again as a new version (default: the one the current
        version superseded); derived conclusions follow as for any update."""
        return self._beliefs.revert(key, agent=agent, to=to)

    def as_of(self, key: str, at: datetime) -> Claim | None:
        """What memory believed about ``key`` at time ``at`` (timezone-aware)."""
        return self._beliefs.as_of(key, at)

    def explain(self, claim_id: str) -> Explanation:
        """Why memory says what a claim says: agent, justifications, versions, disputes, audits."""
        return self._beliefs.explain(claim_id)

    def set_policy(self, pattern: str, strategy: str, **auto_rules: Any) -> PolicyRule:
        """Conflict strategy for a key pattern (``user.schedule.*``); ``auto_rules``: ``auto_authority_gap``,
        ``auto_corroboration``, ``auto_age_days``, ``auto_age_winner``."""
        return self._beliefs.set_policy(pattern, strategy, **auto_rules)

    def set_authority(self, agent: str, pattern: str, weight: float) -> AuthorityRule:
        """Authority weight (0..1) of an agent (or ``*``) on a key pattern."""
        return self._beliefs.set_authority(agent, pattern, weight)

    def policies(self) -> tuple[list[PolicyRule], list[AuthorityRule]]:
        return self._beliefs.policies.policies(), self._beliefs.policies.authorities()

    def policy_for(self, key: str) -> tuple[Strategy, PolicyRule | None]:
        return self._beliefs.policy_for(key)

    def disputes(self, status: str | None = "open", key: str | None = None) -> list[Dispute]:
        return self._beliefs.disputes_list(status, key)

    def resolve_dispute(self, dispute_id: str, winner: str, by: str, reason: str) -> Dispute:
        """Winner (``incumbent``/``challenger`` or a claim id) becomes current, the loser superseded."""
        return self._beliefs.resolve_dispute(dispute_id, winner, by, reason)

    def auto_resolve(self) -> list[Dispute]:
        """Apply the declared auto-resolution rules to every open dispute."""
        return self._beliefs.auto_resolve()

    def add_agent(self, agent: str, kind: str = "agent", description: str | None = None) -> AgentInfo:
        return self._beliefs.add_agent(agent, kind, description)

    def agents(self) -> list[AgentInfo]:
        return self._beliefs.agent_repo.all()

    def register_key(self, key: str, description: str) -> KeyInfo:
        """Add a known fact key with a description (the key registry used for key resolution)."""
        return self._beliefs.register_key(key, description)

    def keys(self, prefix: str | None = None) -> list[KeyInfo]:
        return self._beliefs.facts.find(prefix)


    # -- justifications and reconsolidation (issue 5) ----------------------------------------------
    @property
    def support(self) -> SupportService:
        """The justification/reconsolidation service of this space (see services/support.py)."""
        svc = self.__dict__.get("_support_service")
        if svc is None:
            svc = SupportService(self.graph, self.space, self.embedder, self.settings.embedding.dimension,
                                 strict_agents=self.settings.policy.strict_agents,
                                 consequences=self._beliefs.consequences)
            self.__dict__["_support_service"] = svc
        return svc

    def derive(
        self, text: str, premises: Sequence[str], key: str | None = None, *, agent: str, rule: str | None = None,
        kind: str = "derived", confidence: float | None = None, at: datetime | None = None,
    ) -> Claim:
        """Add one AND-justification ``premises -> text``; the same statement again adds an OR alternative."""
        return self.support.derive(text, premises, key, agent=agent, rule=rule, kind=kind, confidence=confidence, at=at)

    def supports(self, claim_id: str) -> ClaimSupport:
        """A claim's support families (justifications with premises and whether each holds)."""
        return self.support.supports(claim_id)

    def retract(
        self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *, agent: str | None = None
    ) -> AuditRecord:
        """Invalidate evidence; withdraw exactly the claims that lost every support (one audit)."""
        return self.support.retract(root_ids, reason, mode, agent=agent)

    def restore(
        self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *, agent: str | None = None
    ) -> AuditRecord:
        """Lift a retraction; reinstate the withdrawn claims whose support is intact again (one audit)."""
        return self.support.restore(root_ids, reason, mode, agent=agent)

    def audits(self, limit: int = 50) -> list[AuditSummary]:
        """Reconsolidation audits of this space, newest first."""
        return self.support.audits(limit)

    def audit(self, audit_id: str) -> AuditRecord:
        """What one reconsolidation did, and why."""
        return self.support.audit(audit_id)

    def audits_for_claim(self, claim_id: str) -> list[ClaimAudit]:
        """Every reconsolidation audit that touched one claim, oldest first."""
        return self.support.audits_for_claim(claim_id)

    def context(
        self, query: str | None = None, keys: Sequence[str] | None = None, budget_tokens: int = 1000, limit: int = 50
    ) -> WorkingContext:
        """The working context: active beliefs with support certificates, ranked and cut to the budget."""
        return self.support.context(query=query, keys=keys, budget_tokens=budget_tokens, limit=limit)

    def dependents(self, claim_id_or_key: str, limit: int = 200) -> list[Dependent]:
        """The conclusions resting on a claim, an episode, or a fact's current claim (by key), nearest first."""
        return self.support.dependents(claim_id_or_key, limit)

    def stale(self, limit: int = 100) -> list[StaleClaim]:
        """Stale conclusions (premises no longer current), each with the premise change that made it stale."""
        return self.support.stale(limit)

    def rederive(self, claim_id: str, *, agent: str) -> RederiveResult:
        """Ask the LLM (job ``rederive``) for the new form of a stale free-text conclusion, from the
        current versions of its premises; recorded with rule ``llm:rederive`` and the model's
        provenance. One model call; never run implicitly."""
        return Rederiver(self.support, lambda: self.llm).rederive(claim_id, agent=agent)

    # -- derivation rules --------------------------------------------------------------------------
    @property
    def rule_service(self) -> RuleService:
        """Derivation rules of this space (services/rules.py)."""
        svc = self.__dict__.get("_rule_service")
        if svc is None:
            svc = RuleService(self.graph, self.space, self._beliefs.consequences)
            self.__dict__["_rule_service"] = svc
        return svc

    def add_rule(self, spec: RuleSpec | dict[str, Any], *, agent: str | None = None, apply: bool = True) -> RuleRun:
        """Store a derivation rule (a new version when the name exists) and derive its instances."""
        return self.rule_service.add(spec, agent=agent, apply=apply)

    def rules(self, all_versions: bool = False) -> list[RuleInfo]:
        return self.rule_service.all(all_versions)

    def rule(self, name: str) -> RuleInfo:
        return self.rule_service.get(name)[0]

    def rule_instances(self, name: str, status: str | None = None, limit: int = 100) -> list[RuleInstanceInfo]:
        return self.rule_service.instances(name, status, limit)

    def derive_by_rule(self, name: str, key: str | Sequence[str] | None = None, *, agent: str | None = None) -> RuleRun:
        """Re-evaluate a rule's instances by hand: those whose first premise is ``key`` (or keys), or all."""
        return self.rule_service.run(name, key, agent=agent)

    def remove_rule(self, name: str, reason: str, *, agent: str | None = None) -> RuleRun:
        """Remove a rule; conclusions only it supported go stale, its keys are writable again."""
        return self.rule_service.remove(name, reason, agent=agent)


    # -- argumentation (issue 6) -------------------------------------------------------------------
    @property
    def argumentation(self) -> ArgumentationService:
        """Attack graphs, imported ICCMA frameworks and the grounded labelling in Cypher (stateless)."""
        return ArgumentationService(self.graph, self.space, self.settings.limits)

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
        """Grounded labelling of namespace ``ns`` computed in Neo4j (labels written back)."""
        return self.argumentation.ground(ns)

    def ground_framework(self, name: str) -> GroundedResult:
        return self.argumentation.ground_framework(name)

    def explain_label(self, ns: str, name: str) -> LabelExplanation:
        return self.argumentation.explain_label(ns, name)

    def explain_framework_label(self, name: str, argument: str) -> LabelExplanation:
        return self.argumentation.explain_framework(name, argument)

    def solve_framework_file(self, path: str | Path, *, format: str | None = None) -> GroundedResult:
        """Solve an ICCMA file in Neo4j without keeping it (scratch namespace)."""
        return self.argumentation.solve(path, format=format)

    def store_attacks(self, ns: str, arguments: Sequence[str], attacks: Sequence[Sequence[str]]) -> AttackGraph:
        return self.argumentation.store_attacks(ns, arguments, attacks)


    # -- perspectives and deliberation (issue 7) ---------------------------------------------------
    @property
    def perspective_service(self) -> PerspectiveService:
        """Perspectives, encoding and retrieval by perspective (services/perspectives.py)."""
        svc = self.__dict__.get("_perspective_service")
        if svc is None:
            svc = PerspectiveService(self.graph, self.space, self.embedder, self.settings.embedding.dimension,
                                     lambda: self.llm)
            self.__dict__["_perspective_service"] = svc
        return svc

    @property
    def deliberation_service(self) -> DeliberationService:
        """Deliberation by argument among perspectives (services/deliberation.py)."""
        svc = self.__dict__.get("_deliberation_service")
        if svc is None:
            svc = DeliberationService(self.graph, self.space, self.perspective_service, lambda: self.llm)
            self.__dict__["_deliberation_service"] = svc
        return svc

    def add_perspective(
        self, name: str, goal: str, ontology: Any, relevance: float | None = None
    ) -> Perspective:
        """Add a perspective: a goal and its own ontology (``[{name, description}]``, ``{name:
        description}`` or names); ``relevance`` is its pre-filter threshold (raw cosine)."""
        return self.perspective_service.add([make_perspective_spec(name, goal, ontology, relevance)])[0]

    def load_perspectives(self, path: str | Path | Traversable) -> list[Perspective]:
        """Add every perspective of a YAML/JSON file (one transaction; FormatError on a bad file)."""
        return self.perspective_service.add(read_perspectives(path))

    def perspectives(self) -> list[Perspective]:
        return self.perspective_service.all()

    def perspective(self, name: str) -> Perspective:
        return self.perspective_service.get(name)

    def encode(
        self, episode_ids: Sequence[str] | None = None, perspectives: Sequence[str] | None = None
    ) -> EncodeResult:
        """Each perspective interprets the relevant episodes in its own vocabulary (pre-filter, one
        LLM call per perspective per batch, one write transaction); returns the matrix."""
        return self.perspective_service.encode(episode_ids, perspectives)

    def interpretations(self, perspective: str, status: str | None = None) -> list[InterpretationHit]:
        return self.perspective_service.interpretations(perspective, status)

    def search_interpretations(self, query: str, perspective: str, k: int = 5) -> list[InterpretationHit]:
        """Retrieval by perspective: that perspective's active interpretations nearest to ``query``."""
        return self.perspective_service.search(query, perspective, k)

    def deliberate(
        self, query: str, perspectives: Sequence[str] | None = None, *, k: int = 5, batched: bool = True
    ) -> DeliberationRecord:
        """Perspectives propose and critique; the grounded extension decides select/compose/conflict."""
        return self.deliberation_service.deliberate(query, perspectives, k=k, batched=batched)

    def deliberation(self, deliberation_id: str) -> DeliberationRecord:
        """One stored deliberation (stale when a cited interpretation is no longer active)."""
        return self.deliberation_service.get(deliberation_id)

    def deliberations(self, limit: int = 20) -> list[DeliberationSummary]:
        return self.deliberation_service.recent(limit)


    # -- retrieval and grounded answers (issue 8) --------------------------------------------------
    @property
    def retrieval(self) -> RetrievalService:
        """Hybrid recall and key look-ups of this space (services/retrieval.py)."""
        svc = self.__dict__.get("_retrieval_service")
        if svc is None:
            svc = RetrievalService(self.graph, self.space, self.embedder, self.settings.embedding.dimension,
                                   self.settings.retrieval, lambda: self.llm)
            self.__dict__["_retrieval_service"] = svc
        return svc

    @property
    def answers(self) -> AnswerService:
        """Grounded answers of this space (services/answers.py); the LLM is built only when asked."""
        svc = self.__dict__.get("_answer_service")
        if svc is None:
            svc = AnswerService(self.retrieval, self.support, lambda: self.llm)
            self.__dict__["_answer_service"] = svc
        return svc

    def answer(
        self, query: str, *, k: int = 8, budget_tokens: int = 1000, threshold: float | None = None
    ) -> AnswerResult:
        """Answer from active beliefs only, cited and checked (figures, dates, named values);
        ``unknown`` with the reason otherwise — without an LLM call when nothing is similar enough."""
        return self.answers.answer(query, k=k, budget_tokens=budget_tokens, threshold=threshold)

    def lookup(
        self, keys: Sequence[str] | str | None = None, prefix: str | None = None, *, as_of: datetime | None = None,
        include_inactive: bool = False, limit: int = 100,
    ) -> list[RetrievalHit]:
        """Exact-key or key-prefix look-up (``prefix='user.'``), with provenance and certificates."""
        return self.retrieval.lookup(keys, prefix, as_of=as_of, include_inactive=include_inactive, limit=limit)

    def recall_as_of(self, query: str, at: datetime, k: int = 5, **filters: Any) -> list[RetrievalHit]:
        """What memory believed at time ``at`` that matches ``query`` (exact: from the revisions)."""
        return self.retrieval.recall(query, k, as_of=at, **filters)

    # -- bulk import -------------------------------------------------------------------------------
    @property
    def importer(self) -> ImportService:
        """Bulk import of this space (services/importer.py; docs/import.md)."""
        svc = self.__dict__.get("_import_service")
        if svc is None:
            svc = ImportService(self._beliefs)
            self.__dict__["_import_service"] = svc
        return svc

    def import_claims(self, items: Iterable[Mapping[str, Any] | ClaimInput], *, name: str | None = None,
                      **options: Any) -> ImportResult:
        """Write many claims (mappings with ``key, value, text, agent, ...``) through the same path as
        :meth:`assert_claim`, ``batch_size`` per transaction, embeddings batched; resumable by ``name``.
        ``options``: ``agent`` (default writer), ``batch_size`` (500), ``on_error`` (``stop``/``skip``),
        ``restart``, ``progress(done, written)``."""
        return self.importer.import_items(items, name=name, **options)

    def import_file(self, path: str | Path, *, name: str | None = None, **options: Any) -> ImportResult:
        """Import a JSON Lines file (one claim per line); a rerun of the same file resumes where it stopped."""
        return self.importer.import_jsonl(path, name=name, **options)

    def imports(self, limit: int = 50) -> list[ImportInfo]:
        """The bulk imports of this space with their progress, most recent first."""
        return self.importer.all(limit)

    # -- exploration -------------------------------------------------------------------------------
    @property
    def explore(self) -> ExploreService:
        """The curated questions (``explore.*``) of this space and their HTML views
        (``bg.explore.support(key).save("view.html")``; see services/explore.py)."""
        return ExploreService(self.graph, self.space)

    def ogm(self) -> SimpleNamespace:
        """neomodel classes bound to this instance's driver (exploration from Python)."""
        from .ogm import bind

        return bind(self.graph.driver, self.graph.database)


class _LazyEmbedder(DelegatingEmbedder):
    """Builds the configured embedder on first use, so admin commands (``db init``, ``server``)
    never load a model or need an API key they do not use."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(None)
        self._settings = settings

    @property
    def built(self) -> bool:
        return self._wrapped is not None

    @property
    def inner(self) -> Embedder:
        if self._wrapped is None:
            self._wrapped = make_embedder(self._settings.embedding, self._settings.llm)
        return self._wrapped


def _validated(**fields: Any) -> ClaimInput:
    from pydantic import ValidationError as PydanticValidationError

    from .errors import ValidationError

    try:
        return ClaimInput(**fields)
    except PydanticValidationError as exc:
        msg = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ValidationError(f"invalid claim: {msg}") from exc
