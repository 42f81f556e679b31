"""Pydantic models of justifications, reconsolidation and currency (DESIGN.md, "Support" and
"Currency of derived claims").

What crosses the repository boundary: support families (AND-justifications with their premises),
reconsolidation audits, dependents and stale conclusions, and the working context compiled from
active beliefs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from .beliefs import Claim, Value

__all__ = [
    "MODES",
    "AuditEntry",
    "AuditRecord",
    "AuditSummary",
    "ClaimAudit",
    "ClaimSupport",
    "ContextItem",
    "Dependent",
    "Mode",
    "Premise",
    "StaleClaim",
    "SupportFamily",
    "WorkingContext",
    "estimate_tokens",
]

Mode = Literal["none", "influence", "justification"]
MODES: tuple[str, ...] = ("none", "influence", "justification")
"""Reconsolidation modes: ``none`` marks the roots only (under-revises), ``influence`` withdraws
everything reachable (over-revises), ``justification`` (default) is the exact least fixpoint."""

OUT_STATUSES = frozenset({"withdrawn", "retracted"})
"""Statuses of a claim that does not hold (support): every other status holds."""

AuditOp = Literal["retract", "restore", "derive", "update", "rule", "merge"]
"""``retract``/``restore``: reconsolidation; ``derive``: a withdrawn or stale claim gained a
justification; ``update``: a write superseded premises (assert, derive with a key, a settled
dispute, a revert); ``rule``: a derivation rule was added, changed, removed or run by hand;
``merge``: two fact keys were merged (``bg.keys.merge``: ``source_key`` into ``into_key``)."""

AuditAction = Literal["ROOT", "WITHDREW", "RETAINED", "REINSTATED", "STALED", "REFRESHED", "REDERIVED"]


def premise_current(kind: str, status: str) -> bool:
    """A premise is current: an episode that is not retracted, a claim that is ``active``."""
    return status != "retracted" if kind == "episode" else status == "active"


def estimate_tokens(text: str) -> int:
    """The working context's token estimate: ``ceil(len(text) / 4)`` (about 4 characters per
    token for English with GPT-style tokenizers). Documented in docs/reconsolidation.md."""
    return (len(text) + 3) // 4


class Premise(BaseModel):
    """One premise of a justification: an episode (evidence) or a claim."""

    model_config = ConfigDict(frozen=True)
    id: str
    kind: Literal["episode", "claim"]
    text: str | None = None
    status: str = "active"
    key: str | None = None
    value: Value = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def holds(self) -> bool:
        """IN: an episode unless retracted; a claim unless withdrawn or retracted."""
        return self.status not in OUT_STATUSES

    @computed_field  # type: ignore[prop-decorator]
    @property
    def current(self) -> bool:
        """IN and current: an episode unless retracted; a claim only while it is ``active``."""
        return premise_current(self.kind, self.status)


class SupportFamily(BaseModel):
    """One immutable AND-justification: the claim holds through it iff every premise holds."""

    model_config = ConfigDict(frozen=True)
    id: str
    rule: str | None = None
    agent: str | None = None
    created_at: str | None = None
    premises: list[Premise] = Field(default_factory=list)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def intact(self) -> bool:
        """Every premise holds (support)."""
        return all(p.holds for p in self.premises)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def current(self) -> bool:
        """Every premise holds and is current: the claim is current through this family."""
        return all(p.current for p in self.premises)

    def describe(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        prem = "; ".join(
            f"{p.kind} {p.id}: {p.text!r}" + ("" if p.current else f" [{p.status}]") for p in self.premises
        )
        return f"{self.id}{rule} <- {prem}"


class Dependent(BaseModel):
    """A conclusion downstream of a claim or episode (along PREMISE_OF/JUSTIFIES)."""

    model_config = ConfigDict(frozen=True)
    claim: Claim
    depth: int
    """1 for a direct conclusion, 2 for a conclusion of a conclusion, ..."""
    via: str
    """The justification through which it depends (the first one found on a shortest path)."""
    rule: str | None = None
    """That justification's rule (``rule:<name>@<version>`` for rule-derived claims)."""


class ClaimSupport(BaseModel):
    """A claim, its support families (OR across families, AND within one) and its dependents."""

    claim: Claim
    families: list[SupportFamily] = Field(default_factory=list)
    dependents: list[Dependent] = Field(default_factory=list)
    """Conclusions that rest on this claim, nearest first."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def base(self) -> bool:
        """A claim without justification is a base claim (IN unless retracted)."""
        return not self.families

    @computed_field  # type: ignore[prop-decorator]
    @property
    def intact(self) -> list[str]:
        """Ids of the families whose premises all hold."""
        return [f.id for f in self.families if f.intact]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def current(self) -> list[str]:
        """Ids of the families whose premises all hold and are current."""
        return [f.id for f in self.families if f.current]


class AuditEntry(BaseModel):
    """What one audit did to one node, and why."""

    action: AuditAction
    id: str
    kind: Literal["episode", "claim"]
    text: str | None = None
    key: str | None = None
    status: str | None = None
    """The node's status now (it may have changed again since the audit)."""
    prior: str | None = None
    """For a root: its status before the operation."""
    via: str | None = None
    """For RETAINED/REINSTATED/REFRESHED: the justification that holds; for REDERIVED: the new one."""
    lost: list[str] = Field(default_factory=list)
    """For WITHDREW/STALED: each justification and the premises it lacks (``j lacks p1, p2``)."""
    rule: str | None = None
    """For REDERIVED: the rule (``name@version``)."""
    superseded: str | None = None
    """For REDERIVED: the claim the new version superseded."""


class AuditSummary(BaseModel):
    id: str
    op: AuditOp
    mode: str
    reason: str
    agent: str | None = None
    at: str | None = None
    region: int | None = None
    waves: int | None = None
    withdrew: int | None = None
    retained: int | None = None
    reinstated: int | None = None
    staled: int | None = None
    refreshed: int | None = None
    rederived: int | None = None
    source_key: str | None = None
    into_key: str | None = None
    """A ``merge`` audit: the key merged and the key it was merged into."""
    roots: list[str] = Field(default_factory=list)


class AuditRecord(AuditSummary):
    """One reconsolidation: its roots and the claims it withdrew, retained and reinstated."""

    entries: list[AuditEntry] = Field(default_factory=list)
    seconds: float | None = None
    """Wall-clock time of the whole transaction (set by retract/restore, not stored)."""

    def ids(self, action: str) -> list[str]:
        return [e.id for e in self.entries if e.action == action]

    @property
    def withdrawn_ids(self) -> list[str]:
        return self.ids("WITHDREW")

    @property
    def retained_ids(self) -> list[str]:
        return self.ids("RETAINED")

    @property
    def reinstated_ids(self) -> list[str]:
        return self.ids("REINSTATED")

    @property
    def root_ids(self) -> list[str]:
        return self.ids("ROOT")

    @property
    def staled_ids(self) -> list[str]:
        return self.ids("STALED")

    @property
    def refreshed_ids(self) -> list[str]:
        return self.ids("REFRESHED")

    @property
    def rederived_ids(self) -> list[str]:
        return self.ids("REDERIVED")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> AuditRecord:
        a = {k: v for k, v in row["audit"].items() if v is not None}
        entries = [AuditEntry.model_validate({k: v for k, v in e.items() if v is not None}) for e in row["entries"]]
        return cls.model_validate({**a, "entries": entries, "roots": [e.id for e in entries if e.action == "ROOT"]})


class ClaimAudit(BaseModel):
    """One audit as seen from one claim (``audits_for_claim``): what it did to that claim."""

    audit: AuditSummary
    action: AuditAction
    via: str | None = None
    lost: list[str] = Field(default_factory=list)
    prior: str | None = None
    statuses: list[str] = Field(default_factory=list)
    """The statuses of the revisions this audit wrote for the claim."""

    def flat(self) -> dict[str, Any]:
        """One flat dict (``id, op, mode, reason, agent, at, action, via, lost, statuses``) for
        ``Explanation.audits``."""
        a = self.audit
        return {
            "id": a.id,
            "op": a.op,
            "mode": a.mode,
            "reason": a.reason,
            "agent": a.agent,
            "at": a.at,
            "action": self.action,
            "via": self.via,
            "lost": list(self.lost),
            "statuses": list(self.statuses),
        }

    def text(self) -> str:
        a = self.audit
        what = {
            "ROOT": "root",
            "WITHDREW": "withdrawn",
            "RETAINED": "retained",
            "REINSTATED": "reinstated",
            "STALED": "stale",
            "REFRESHED": "current again",
            "REDERIVED": "re-derived",
        }[self.action]
        why = f" via {self.via}" if self.via else (f" ({'; '.join(self.lost)})" if self.lost else "")
        return f"{a.at} {a.op} (mode {a.mode}): {what}{why}: {a.reason} (audit {a.id})"


class StaleClaim(BaseModel):
    """A stale conclusion and the premise change that made it stale."""

    claim: Claim
    since: str | None = None
    """When it became stale (the audit's time)."""
    audit: str | None = None
    """The audit that made it stale."""
    cause: str | None = None
    """That audit's reason: the premise change (``user.employer: 'acme' -> 'globex' ...``)."""
    op: str | None = None
    """That audit's operation (``update``, ``retract``, ``rule``, ...)."""
    lost: list[str] = Field(default_factory=list)
    """Each justification and the premises that are no longer current (``j lacks c1 (superseded)``)."""
    changed: list[str] = Field(default_factory=list)
    """The premises whose change started it (the audit's roots)."""
    rule: str | None = None
    """For a rule-derived claim: the rule, and ``missing`` the premise key its join no longer resolves."""
    missing: str | None = None


class ContextItem(BaseModel):
    """One active belief in the working context, with its support certificate."""

    rank: int
    claim: Claim
    score: float | None = None
    certificate: SupportFamily | None = None
    """The intact justification and its premises; ``None`` for a base claim (no justification)."""
    tokens: int
    text: str


class WorkingContext(BaseModel):
    """The working context compiled from the revised state, cut to a token budget."""

    query: str | None = None
    keys: list[str] = Field(default_factory=list)
    budget_tokens: int
    used_tokens: int
    items: list[ContextItem] = Field(default_factory=list)
    omitted: int = 0
    """Ranked candidates left out because the next one did not fit the budget."""
    text: str = ""

    @property
    def claim_ids(self) -> list[str]:
        return [i.claim.id for i in self.items]

    def cited_ids(self) -> set[str]:
        """Every claim and premise id the context cites (items and their certificates)."""
        out = set(self.claim_ids)
        for i in self.items:
            if i.certificate is not None:
                out.update(p.id for p in i.certificate.premises)
        return out
