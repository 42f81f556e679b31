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
    max_transaction_retry_time: float = Field(default=15.0, ge=0)

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
    timeout: float = Field(default=60.0, gt=0)
    temperature: float = Field(default=0.0, ge=0, le=2)
    max_retries: int = Field(default=2, ge=0)


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
