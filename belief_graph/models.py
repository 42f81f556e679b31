"""Pure pydantic models: what crosses the repository boundary (records become these)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "Claim",
    "ClaimStatus",
    "Episode",
    "RecallHit",
    "WriteOp",
    "WriteResult",
    "new_id",
    "utcnow",
]

Value = str | int | float | bool | None
KEY_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*(\.[A-Za-z0-9_][A-Za-z0-9_\-]*)*$")


def new_id() -> str:
    """Client-generated, time-ordered id (UUIDv7 when the runtime has it, else UUIDv4)."""
    maker = getattr(uuid, "uuid7", None)
    return str(maker() if maker is not None else uuid.uuid4())


def utcnow() -> datetime:
    return datetime.now(UTC)


class ClaimStatus(StrEnum):
    active = "active"
    superseded = "superseded"
    disputed = "disputed"
    withdrawn = "withdrawn"
    retracted = "retracted"


class WriteOp(StrEnum):
    ADD = "ADD"
    UPDATE = "UPDATE"
    REPLACE = "REPLACE"
    NOOP = "NOOP"
    SUPERSEDED = "SUPERSEDED"
    DISPUTED = "DISPUTED"


class Episode(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    text: str
    agent: str
    conversation: str | None = None
    at: str | None = None


class Claim(BaseModel):
    model_config = ConfigDict(frozen=True)
    id: str
    key: str | None = None
    value: Value = None
    text: str
    kind: Literal["observation", "semantic", "derived", "interpretation"] = "semantic"
    agent: str
    status: ClaimStatus = ClaimStatus.active
    confidence: float | None = None
    created_at: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> Claim:
        return cls.model_validate({k: v for k, v in rec.items() if v is not None or k in ("value",)})


class WriteResult(BaseModel):
    """What one write did: the operation, the claim, what it superseded."""

    op: WriteOp
    claim: Claim
    superseded: Claim | None = None
    reason: str = ""


class RecallHit(BaseModel):
    claim: Claim
    score: float
    scores: dict[str, float] = Field(default_factory=dict)


class ClaimInput(BaseModel):
    """Validated input of a structured write (``assert_claim``)."""

    key: str | None = None
    value: Value = None
    text: str = Field(min_length=1, max_length=20_000)
    agent: str = Field(min_length=1, max_length=256)
    agent_kind: Literal["user", "agent", "system"] = "agent"
    kind: Literal["observation", "semantic", "derived", "interpretation"] = "semantic"
    evidence: list[str] = Field(default_factory=list)
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    valid_from: datetime | None = None

    @field_validator("key")
    @classmethod
    def _key(cls, v: str | None) -> str | None:
        if v is not None and (len(v) > 256 or not KEY_RE.match(v)):
            raise ValueError("fact keys are dotted names like 'user.timezone' (letters, digits, _ and -)")
        return v

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("text must not be blank")
        return v
