"""Pure pydantic models: what crosses the repository boundary (records become these).

One module per concept: :mod:`.beliefs` (claims, versions, revisions, disputes, recall hits; its
public names are re-exported here), :mod:`.support`, :mod:`.argumentation`, :mod:`.perspectives`,
:mod:`.retrieval`, :mod:`.rules` and :mod:`.imports`.
"""

from __future__ import annotations

from .beliefs import (
    KEY_RE as KEY_RE,
    AgentInfo,
    AuthorityRule,
    Claim,
    ClaimInput as ClaimInput,
    ClaimStatus,
    Dispute,
    Episode,
    Explanation,
    KeyInfo,
    PolicyRule,
    RecallHit,
    Revision,
    Strategy,
    Value as Value,
    Version,
    WriteOp,
    WriteResult,
    new_id,
    time_after,
    utcnow,
)

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
    "time_after",
    "utcnow",
]
