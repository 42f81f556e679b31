"""The LLM layer: one seam for every LLM job (extract, classify, disambiguate, encode, critique,
judge, propose, answer), with typed structured output, validation and repair, batching,
accounting and provenance. See docs/llm.md.

Nothing here imports ``langchain_openai``: the OpenAI chat model lives in
``belief_graph.llm.openai`` and is imported only when :func:`make_chat_model` builds it.
"""

from __future__ import annotations

from .factory import make_chat_model, make_client, resolve_provider
from .jobs import (
    JOBS,
    Answer,
    Attack,
    BeliefView,
    CandidateClaim,
    ClaimView,
    Classification,
    Classifications,
    ClassifyItem,
    ConceptView,
    Contender,
    Critique,
    EncodedItem,
    Encoding,
    ExtractedFact,
    Extraction,
    Judgement,
    KeyChoice,
    KeyChoices,
    KeyItem,
    Observation,
    PerspectiveView,
    Proposal,
    ProposalView,
    Turn,
)
from .prompts import Prompt, get_prompts, load_prompts
from .protocol import ChatMessage, ChatModel, ChatRequest, ModelTimeout, RawResponse, prompt_key
from .replay import RecordingModel, ReplayFile, ReplayModel, demo_replay_path
from .runner import JobResult, LLMClient, Provenance
from .scripted import Refusal, ScriptedModel, Timeout, Unavailable
from .usage import CallRecord, JobUsage, LLMUsage, UsageMeter, UsageReport

__all__ = [
    "JOBS",
    "Answer",
    "Attack",
    "BeliefView",
    "CallRecord",
    "CandidateClaim",
    "ChatMessage",
    "ChatModel",
    "ChatRequest",
    "ClaimView",
    "Classification",
    "Classifications",
    "ClassifyItem",
    "ConceptView",
    "Contender",
    "Critique",
    "EncodedItem",
    "Encoding",
    "ExtractedFact",
    "Extraction",
    "JobResult",
    "JobUsage",
    "Judgement",
    "KeyChoice",
    "KeyChoices",
    "KeyItem",
    "LLMClient",
    "LLMUsage",
    "ModelTimeout",
    "Observation",
    "PerspectiveView",
    "Prompt",
    "Proposal",
    "ProposalView",
    "Provenance",
    "RawResponse",
    "RecordingModel",
    "Refusal",
    "ReplayFile",
    "ReplayModel",
    "ScriptedModel",
    "Timeout",
    "Turn",
    "Unavailable",
    "UsageMeter",
    "UsageReport",
    "demo_replay_path",
    "get_prompts",
    "load_prompts",
    "make_chat_model",
    "make_client",
    "prompt_key",
    "resolve_provider",
]
