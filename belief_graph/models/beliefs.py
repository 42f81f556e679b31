"""Pure pydantic models: what crosses the repository boundary (records become these)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "AgentInfo",
    "AuthorityRule",
    "Claim",
    "Dispute",
    "Explanation",
    "KeyInfo",
    "PolicyRule",
    "Revision",
    "Strategy",
    "Version",
    "ClaimStatus",
    "Episode",
    "RecallHit",
    "WriteOp",
    "WriteResult",
    "new_id",
    "parse_time",
    "time_after",
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


def parse_time(at: str) -> datetime:
    """A stored time (ISO 8601 with an offset or ``Z``, Neo4j's nanoseconds included) as an aware
    datetime; UTC when it carries no offset. A ``ValueError`` when it is no such time."""
    t = datetime.fromisoformat(at.replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def time_after(previous: str | None) -> str:
    """The time of a write taken once the fact's lock is held: now, but never earlier than the
    version it follows (the clocks of several clients may disagree), so chain order = time order."""
    now = utcnow()
    if previous:
        floor = parse_time(previous) + timedelta(microseconds=1)
        if floor > now:
            now = floor
    return now.isoformat()


class ClaimStatus(StrEnum):
    active = "active"
    superseded = "superseded"
    disputed = "disputed"
    withdrawn = "withdrawn"
    retracted = "retracted"
    stale = "stale"
    """A conclusion whose premises are no longer current: the evidence was not wrong, the world moved on."""


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
    rejections: list[str] = Field(default_factory=list)
    """Facts extracted from this turn but refused before writing (JSON: text, key, value, reason)."""


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


class Strategy(StrEnum):
    recency = "recency"
    authority = "authority"
    consensus = "consensus"
    argumentation = "argumentation"
    llm_judge = "llm_judge"


class Dispute(BaseModel):
    """A conflict that policy could not settle (or that was settled later, with the trail)."""

    model_config = ConfigDict(frozen=True)
    id: str
    key: str
    status: Literal["open", "resolved"]
    strategy: str | None = None
    reason: str | None = None
    incumbent: Claim
    challenger: Claim
    winner: str | None = None
    resolved_by: str | None = None
    resolution: str | None = None
    rule: str | None = None
    at: str | None = None
    resolved_at: str | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Dispute:
        d = {k: v for k, v in row["dispute"].items() if v is not None}
        return cls.model_validate(
            {**d, "incumbent": Claim.from_record(row["incumbent"]), "challenger": Claim.from_record(row["challenger"])}
        )


class WriteResult(BaseModel):
    """What one write did: the operation, the claim, what it superseded, the dispute it opened."""

    op: WriteOp
    claim: Claim
    superseded: Claim | None = None
    reason: str = ""
    strategy: str | None = None
    dispute: Dispute | None = None
    resolved: list[Dispute] = Field(default_factory=list)
    """Disputes on this key that an auto-resolution rule settled during this write."""
    warnings: list[str] = Field(default_factory=list)
    audit: str | None = None
    """The audit of what this write did to the conclusions resting on what it changed, if any."""
    staled: list[str] = Field(default_factory=list)
    """Conclusions this write made stale (their premises are no longer current)."""
    rederived: list[Claim] = Field(default_factory=list)
    """New versions that derivation rules wrote because of this write."""


class PolicyRule(BaseModel):
    pattern: str
    strategy: Strategy
    specificity: int = 0
    auto_authority_gap: float | None = None
    auto_corroboration: int | None = None
    auto_age_days: float | None = None
    auto_age_winner: Literal["incumbent", "challenger"] | None = None


class AuthorityRule(BaseModel):
    agent: str
    pattern: str
    weight: float
    specificity: int = 0


class AgentInfo(BaseModel):
    id: str
    kind: str | None = None
    description: str | None = None
    registered: bool = False


class KeyInfo(BaseModel):
    key: str
    description: str | None = None
    value_type: str | None = None
    value: Value = None
    current: str | None = None
    merged_into: str | None = None
    """Set on an alias: a key merged into another (``bg.keys.merge``); its versions live there."""


class Revision(BaseModel):
    status: str
    at: str | None = None
    reason: str | None = None
    by: str | None = None
    audit: str | None = None


class Version(BaseModel):
    """One version of a fact in its history."""

    claim: Claim
    revisions: list[Revision]
    current: bool = False
    superseded_by: str | None = None
    supersedes: str | None = None


class Explanation(BaseModel):
    """Why memory says what a claim says."""

    claim: Claim
    current: bool
    justifications: list[dict[str, Any]]
    revisions: list[Revision]
    disputes: list[dict[str, Any]]
    superseded_by: str | None = None
    supersedes: str | None = None
    versions: list[Version] = Field(default_factory=list)
    audits: list[dict[str, Any]] = Field(default_factory=list)
    dependents: list[dict[str, Any]] = Field(default_factory=list)
    """The conclusions that rest on this claim (``{id, key, value, text, status, depth, rule}``)."""

    def text(self) -> str:
        """A short human-readable account."""
        c = self.claim
        lines = [
            f"{c.text!r} ({c.key or 'no key'} = {c.value!r}) by {c.agent}: {c.status}"
            + (", the current belief" if self.current and c.status == "active" else "")
        ]
        for j in self.justifications:
            prem = ", ".join(f"{p.get('kind')} {p.get('id')}" for p in j.get("premises", [])) or "no premises"
            lines.append(f"  justified ({j.get('rule')}{', by ' + j['agent'] if j.get('agent') else ''}) by {prem}")
        for r in self.revisions:
            lines.append(f"  {r.at}: {r.status} - {r.reason}")
        for d in self.disputes:
            lines.append(
                f"  dispute {d.get('id')} ({d.get('role', '').lower()}): {d.get('status')} - {d.get('reason')}"
            )
        for a in self.audits:
            lines.append(f"  audit {a.get('id')}: {a.get('reason')} ({a.get('action', a.get('mode'))})")
        for d in self.dependents:
            lines.append(
                f"  {'  ' * (int(d.get('depth') or 1) - 1)}supports {d.get('id')} "
                f"({d.get('key') or 'no key'}): {d.get('text')!r} [{d.get('status')}]"
            )
        if self.superseded_by:
            lines.append(f"  superseded by {self.superseded_by}")
        return "\n".join(lines)


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

    @field_validator("value", mode="before")
    @classmethod
    def _value_kind(cls, v: Any) -> Any:
        if v is not None and not isinstance(v, str | int | float | bool):
            raise ValueError(f"a fact value is a string, number or boolean, got {type(v).__name__}")
        return v

    @field_validator("value")
    @classmethod
    def _value(cls, v: Value) -> Value:
        from ..limits import MAX_CLAIM_TEXT, check_number, check_text

        if isinstance(v, str):
            check_text(v, "value", MAX_CLAIM_TEXT, blank=True)
        return check_number(v, "value")  # type: ignore[no-any-return]

    @field_validator("valid_from")
    @classmethod
    def _valid_from(cls, v: datetime | None) -> datetime | None:
        from ..limits import check_past

        return check_past(v, "valid_from")

    @field_validator("evidence")
    @classmethod
    def _evidence(cls, v: list[str]) -> list[str]:
        from ..limits import check_name

        for e in v:
            check_name(e, "an evidence id")
        return v
