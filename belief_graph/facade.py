"""The :class:`BeliefGraph` facade: one memory space on one Neo4j database. Composes; holds no logic.

    with BeliefGraph.connect(space="default") as bg:      # settings from BELIEF_GRAPH_* env vars
        bg.assert_claim("user.risk_tolerance", "cautious", "The user is cautious with money", agent="user:alice")
        bg.conflicts.set_policy("user.*", "authority")    # everything else lives in a namespace

Namespaces are services of the space, built on first use and wired here only. Each operation has one public name,
``bg.<namespace>.<method>``, but the everyday calls at the end (CHANGELOG.md says why). ``fmt: off``: the API's contents.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

from .db.driver import Graph, create_driver
from .embeddings import CountingEmbedder, Embedder
from .lazy import LazyEmbedder, usage_report
from .llm import ChatModel, LLMClient, UsageReport, make_client
from .models import Claim, Episode, Value, WriteResult
from .models.retrieval import AnswerResult, RetrievalHit
from .models.support import AuditRecord, WorkingContext
from .services.admin import AdminService
from .services.answers import AnswerService
from .services.argumentation import ArgumentationService
from .services.beliefs import BeliefService, claim_input
from .services.conflict_af import conflict_grounder
from .services.conflicts import ConflictService
from .services.deliberation import DeliberationService
from .services.explanations import support_hooks
from .services.explore import ExploreService
from .services.importer import ImportService
from .services.keys import KeyService
from .services.perspectives import PerspectiveService
from .services.remember import RememberResult, RememberService, llm_prejudge
from .services.retrieval import RetrievalService
from .services.rules import RuleService
from .services.support import SupportService
from .settings import Settings, load_settings

__all__ = ["BeliefGraph", "resolve_settings"]


def resolve_settings(space: str | None, settings: Settings | None) -> Settings:
    """``settings`` (read from the environment when not given) for ``space`` (validated), as ``connect`` uses them."""
    s = settings if settings is not None else load_settings()
    return s if space is None else s.model_copy(update={"space": load_settings(space=space).space})


# fmt: off
class BeliefGraph:
    """One memory space on one Neo4j database (:meth:`connect`): the namespaces, then the everyday calls."""

    def __init__(self, graph: Graph, settings: Settings, space: str, embedder: Embedder,
                 chat_model: ChatModel | None = None) -> None:
        self.graph, self.settings, self.space = graph, settings, space
        self.embedder = embedder if isinstance(embedder, CountingEmbedder) else CountingEmbedder(embedder)
        self._chat_model = chat_model  # None: built from settings.llm on first use
        self._dim = settings.embedding.dimension

    @classmethod
    def connect(cls, space: str | None = None, *, settings: Settings | None = None, embedder: Embedder | None = None,
                verify: bool = True, chat_model: ChatModel | None = None) -> BeliefGraph:
        """Build from settings (read from the environment when not given) for an explicit space."""
        s = resolve_settings(space, settings)
        graph = Graph(create_driver(s.neo4j), s.neo4j)
        try:
            if verify:
                graph.verify()
        except Exception:
            graph.close()
            raise
        return cls(graph, s, s.space, embedder if embedder is not None else LazyEmbedder(s), chat_model=chat_model)

    def close(self) -> None:  # or use ``with``
        self.graph.close()
    def __enter__(self) -> BeliefGraph:
        return self
    def __exit__(self, *exc: object) -> None:
        self.close()

    @cached_property
    def beliefs(self) -> BeliefService:
        """Episodes, claims, versions, agents and registered keys: the write path (services/beliefs.py)."""
        b = BeliefService(self.graph, self.space, self.embedder, self._dim, self.settings.policy)
        b.conflicts.prejudge = llm_prejudge(lambda: self.llm)  # the llm_judge strategy's verdict
        b.conflicts.grounder = conflict_grounder(self.graph, self.space)  # the argumentation strategy's labelling
        b.explain_hooks += support_hooks(lambda: self.support)  # explain shows audits and dependents
        return b

    @cached_property
    def conflicts(self) -> ConflictService:
        """Conflict policy (strategies, authority rules) and disputes: the one ``bg.beliefs`` writes through."""
        return self.beliefs.conflicts

    @cached_property
    def keys(self) -> KeyService:
        """Fact keys: the registry, merge drifted keys, resolve aliases, the key schema (services/keys.py)."""
        return KeyService(self.beliefs)

    @cached_property
    def support(self) -> SupportService:
        """Justifications, reconsolidation (retract/restore), audits, working context, staleness."""
        return SupportService(self.graph, self.space, self.embedder, self._dim, consequences=self.beliefs.consequences,
                              strict_agents=self.settings.policy.strict_agents, llm=lambda: self.llm)

    @cached_property
    def rules(self) -> RuleService:
        """Derivation rules (services/rules.py)."""
        return RuleService(self.graph, self.space, self.beliefs.consequences)

    @cached_property
    def argumentation(self) -> ArgumentationService:
        """Attack graphs, imported ICCMA frameworks and the grounded labelling in Cypher."""
        return ArgumentationService(self.graph, self.space, self.settings.limits, self.settings.server)

    @cached_property
    def perspectives(self) -> PerspectiveService:
        """Perspectives, encoding and retrieval by perspective (services/perspectives.py)."""
        return PerspectiveService(self.graph, self.space, self.embedder, self._dim, lambda: self.llm)

    @cached_property
    def deliberations(self) -> DeliberationService:
        """Deliberation by argument among perspectives (services/deliberation.py)."""
        return DeliberationService(self.graph, self.space, self.perspectives, lambda: self.llm)

    @cached_property
    def retrieval(self) -> RetrievalService:
        """Hybrid recall and key look-ups (services/retrieval.py)."""
        return RetrievalService(self.graph, self.space, self.embedder, self._dim, self.settings.retrieval, lambda: self.llm)

    @cached_property
    def answers(self) -> AnswerService:
        """Grounded answers (services/answers.py); the LLM is built only when asked."""
        return AnswerService(self.retrieval, self.support, lambda: self.llm)

    @cached_property
    def importer(self) -> ImportService:
        """Bulk import (services/importer.py; docs/import.md)."""
        return ImportService(self.beliefs)

    @cached_property
    def explore(self) -> ExploreService:
        """The curated questions (``explore.*``) and their HTML views (``bg.explore.support(key).save(...)``)."""
        return ExploreService(self.graph, self.space)

    @cached_property
    def admin(self) -> AdminService:
        """Schema and health: init_schema, verify_schema, stats, check, doctor, ogm (services/admin.py)."""
        return AdminService(self.graph, self.space, self.embedder, self._dim, lambda: self.keys.duplicates())

    @cached_property
    def llm(self) -> LLMClient:
        """The LLM job runner: ``chat_model`` of :meth:`connect`, else built from ``settings.llm`` (docs/llm.md)."""
        return make_client(self.settings.llm, self._chat_model, server=self.settings.llm_server)

    def llm_usage(self) -> UsageReport:
        """Chat-model calls per job (tokens, latency, failures) and embedding calls of this engine."""
        return usage_report(self.__dict__.get("llm"), self.embedder)  # never builds a model to report on it

    # -- the everyday calls (the rest: bg.<namespace>.<method>) ----------------------------------------
    def add_episode(self, text: str, agent: str, conversation: str | None = None, at: datetime | None = None) -> Episode:
        return self.beliefs.add_episode(text, agent, conversation=conversation, at=at)

    def assert_claim(self, key: str | None, value: Value, text: str, agent: str, evidence: list[str] | None = None,
                     confidence: float | None = None, valid_from: datetime | None = None, kind: str = "semantic") -> WriteResult:
        """Write a belief (``key`` + ``value``) through the conflict policy of its key, in one transaction."""
        return self.beliefs.assert_claim(claim_input(key=key, value=value, text=text, agent=agent, evidence=evidence or [],
                                                     confidence=confidence, valid_from=valid_from, kind=kind))

    def remember(self, messages_or_text: str | Sequence[str | dict[str, Any]], agent: str,
                 conversation: str | None = None, at: datetime | None = None) -> RememberResult:
        """Extract facts from the latest turn with the LLM and write them as :meth:`assert_claim` does."""
        return RememberService(self.beliefs, lambda: self.llm, self.keys.schema, self.rules.specs).remember(
            messages_or_text, agent, conversation, at)

    def belief(self, key: str) -> Claim | None:
        """The current belief for ``key`` (None when there is none)."""
        return self.beliefs.belief(key)

    def recall(self, query: str, k: int = 5, perspective: str | None = None, keys: Sequence[str] | None = None,
               as_of: datetime | None = None, include_inactive: bool = False, *, key_prefix: str | None = None,
               include_interpretations: bool = False) -> list[RetrievalHit]:
        """Hybrid recall over active claims, each hit with score parts, provenance and certificate."""
        return self.retrieval.recall(query, k, perspective=perspective, keys=keys, as_of=as_of, include_inactive=include_inactive,
                                     key_prefix=key_prefix, include_interpretations=include_interpretations)

    def answer(self, query: str, *, k: int = 8, budget_tokens: int = 1000, threshold: float | None = None) -> AnswerResult:
        """Answer from active beliefs only, cited and checked; ``unknown`` with the reason otherwise."""
        return self.answers.answer(query, k=k, budget_tokens=budget_tokens, threshold=threshold)

    def derive(self, text: str, premises: Sequence[str], key: str | None = None, *, agent: str, rule: str | None = None,
               kind: str = "derived", confidence: float | None = None, at: datetime | None = None) -> Claim:
        """Add one AND-justification ``premises -> text``; the same statement again adds an OR alternative."""
        return self.support.derive(text, premises, key, agent=agent, rule=rule, kind=kind, confidence=confidence, at=at)

    def retract(self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *, agent: str | None = None) -> AuditRecord:
        """Invalidate evidence; withdraw exactly the claims that lost every support (one audit)."""
        return self.support.retract(root_ids, reason, mode, agent=agent)

    def restore(self, root_ids: Sequence[str] | str, reason: str, mode: str = "justification", *, agent: str | None = None) -> AuditRecord:
        """Lift a retraction; reinstate the withdrawn claims whose support is intact again (one audit)."""
        return self.support.restore(root_ids, reason, mode, agent=agent)

    def context(self, query: str | None = None, keys: Sequence[str] | None = None, budget_tokens: int = 1000, limit: int = 50) -> WorkingContext:
        """The working context: active beliefs with support certificates, ranked and cut to the budget."""
        return self.support.context(query=query, keys=keys, budget_tokens=budget_tokens, limit=limit)
