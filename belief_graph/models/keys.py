"""Fact keys as a namespace of their own (``bg.keys``): merging drifted keys, and a space's
optional key schema (services/keys.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .beliefs import Claim, Dispute, Value

__all__ = ["DuplicateKeys", "KeySchema", "KeySpec", "MergeOutcome", "MergePlan", "MergeResult", "StatusChange"]

KeyType = Literal["string", "number", "boolean"]
UnknownKeys = Literal["other", "refuse"]

MergeOutcome = Literal[
    "empty",  # neither key has a current claim
    "source_only",  # only the source had a current claim: it becomes the target's
    "into_only",  # only the target had one: it stays
    "same_value",  # both active, the same value: the newer stays, the older is superseded by it
    "update",  # both active, values differ, one writer: the newer stays, the older is superseded
    "dispute",  # both active, values differ, two writers: the newer stays, the older is disputed
    "one_active",  # one active, the other's current not active: the active one is current
    "none_active",  # neither current is active: the newer stays current
]


class KeySpec(BaseModel):
    """One declared key of a key schema."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    description: str
    type: KeyType | None = None
    examples: list[Value] = Field(default_factory=list)


class KeySchema(BaseModel):
    """One version of a space's key schema (``bg.keys.schema()`` returns the active one)."""

    model_config = ConfigDict(frozen=True)
    version: int
    status: Literal["active", "replaced", "dropped"]
    unknown: UnknownKeys
    """``other``: facts outside the schema are kept under a reviewed ``other.`` key; ``refuse``: refused."""
    keys: list[KeySpec]
    agent: str | None = None
    created_at: str | None = None
    ended_at: str | None = None
    """When a later version replaced it or it was dropped."""
    ended_by: str | None = None

    def get(self, key: str) -> KeySpec | None:
        return next((k for k in self.keys if k.key == key), None)


class StatusChange(BaseModel):
    """A claim whose status a merge changed."""

    id: str
    before: str
    after: str


class MergePlan(BaseModel):
    """What ``bg.keys.merge(source, into)`` would do, read without writing (the CLI shows it)."""

    source: str
    into: str
    """The key the versions land under (``into``, or the key ``into`` is an alias of)."""
    requested_into: str
    versions: list[str] = Field(default_factory=list)
    """The source's claims (all its versions), moved under ``into``."""
    into_versions: int = 0
    outcome: MergeOutcome
    current: str | None = None
    """The claim that will be the one current belief."""
    changes: list[StatusChange] = Field(default_factory=list)
    reason: str = ""


class MergeResult(BaseModel):
    """What one merge did."""

    source: str
    into: str
    outcome: MergeOutcome
    moved: list[str] = Field(default_factory=list)
    """Ids of the claims moved from ``source`` to ``into`` (every version keeps its id)."""
    current: Claim | None = None
    dispute: Dispute | None = None
    superseded: list[str] = Field(default_factory=list)
    changes: list[StatusChange] = Field(default_factory=list)
    staled: list[str] = Field(default_factory=list)
    rederived: list[Claim] = Field(default_factory=list)
    audit: str
    """The ``Audit`` (op ``merge``) that records the merge: ``bg.support.audit(id)``."""
    reason: str = ""


class DuplicateKeys(BaseModel):
    """Two current beliefs of one space that fact identity calls the same fact (services/identity.py):
    likely drift, repaired with ``bg.keys.merge``."""

    model_config = ConfigDict(frozen=True)
    keys: tuple[str, str]
    values: tuple[Value, Value]
    relation: Literal["same_attribute", "same_statement", "restated"]
    """The evidence: the same attribute words, the same statement with values masked, or the same value."""
    similarity: float
    """Of the two statements with their values masked out (embedding cosine)."""

    @property
    def merge_command(self) -> str:
        return f"belief-graph memory merge-keys {self.keys[1]} {self.keys[0]} --reason 'one fact'"
