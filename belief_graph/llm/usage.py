"""Accounting: every chat-model call (and every embedding call) is counted.

:class:`UsageMeter` records one :class:`CallRecord` per chat-model call — repair retries and
failed calls included — with the job name, the outcome, tokens in/out when the provider reports
them, the batch size and the wall-clock latency. :class:`UsageReport` puts the per-job totals
next to the embedder's :class:`~belief_graph.embeddings.EmbeddingUsage` (calls, items, seconds);
``BeliefGraph.llm_usage()`` returns one, the CLI prints it with ``--verbose``.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..embeddings import EmbeddingUsage

__all__ = ["CallRecord", "JobUsage", "LLMUsage", "Outcome", "UsageMeter", "UsageReport"]

Outcome = Literal["ok", "invalid", "length", "refusal", "empty", "timeout", "unavailable"]
"""``length``: the answer was cut off at the call's ``max_tokens`` (repaired like ``invalid``)."""


@dataclass(frozen=True)
class CallRecord:
    """One call to a chat model."""

    job: str
    model: str
    prompt: str
    attempt: int
    outcome: Outcome
    seconds: float
    items: int = 0
    tokens_in: int | None = None
    tokens_out: int | None = None


@dataclass
class JobUsage:
    """Totals for one job. ``tokens_*`` sum what providers reported; ``unreported`` counts calls
    that reported no token counts (scripted models, some servers, failed calls)."""

    calls: int = 0
    ok: int = 0
    failed: int = 0
    items: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    unreported: int = 0
    seconds: float = 0.0

    def add(self, r: CallRecord) -> None:
        self.calls += 1
        if r.outcome == "ok":
            self.ok += 1
            self.items += r.items
        else:
            self.failed += 1
        if r.tokens_in is None and r.tokens_out is None:
            self.unreported += 1
        self.tokens_in += r.tokens_in or 0
        self.tokens_out += r.tokens_out or 0
        self.seconds += r.seconds


@dataclass
class LLMUsage:
    """Per-job totals (a snapshot)."""

    jobs: dict[str, JobUsage] = field(default_factory=dict)

    @property
    def total(self) -> JobUsage:
        t = JobUsage()
        for u in self.jobs.values():
            t.calls += u.calls
            t.ok += u.ok
            t.failed += u.failed
            t.items += u.items
            t.tokens_in += u.tokens_in
            t.tokens_out += u.tokens_out
            t.unreported += u.unreported
            t.seconds += u.seconds
        return t

    @property
    def calls(self) -> int:
        return self.total.calls

    def calls_for(self, job: str) -> int:
        u = self.jobs.get(job)
        return u.calls if u is not None else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "jobs": {k: _rounded(asdict(v)) for k, v in sorted(self.jobs.items())},
            "total": _rounded(asdict(self.total)),
        }


def _rounded(d: dict[str, Any]) -> dict[str, Any]:
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in d.items()}


class UsageMeter:
    """Thread-safe call recorder. Keeps the totals and the last ``keep`` records."""

    def __init__(self, keep: int = 1000) -> None:
        self._lock = threading.Lock()
        self._usage = LLMUsage()
        self._records: deque[CallRecord] = deque(maxlen=keep)

    def record(self, r: CallRecord) -> None:
        with self._lock:
            self._usage.jobs.setdefault(r.job, JobUsage()).add(r)
            self._records.append(r)

    def snapshot(self) -> LLMUsage:
        with self._lock:
            return LLMUsage({k: JobUsage(**asdict(v)) for k, v in self._usage.jobs.items()})

    @property
    def records(self) -> list[CallRecord]:
        with self._lock:
            return list(self._records)

    def reset(self) -> LLMUsage:
        """Return the totals so far and start from zero."""
        with self._lock:
            snap = self._usage
            self._usage = LLMUsage()
            self._records.clear()
            return snap


@dataclass
class UsageReport:
    """Chat-model usage per job plus embedding usage, for one engine."""

    llm: LLMUsage
    embedding: EmbeddingUsage | None = None
    model: str | None = None
    embedder: str | None = None

    def to_dict(self) -> dict[str, Any]:
        emb = None
        if self.embedding is not None:
            emb = {
                "model": self.embedder,
                "calls": self.embedding.calls,
                "items": self.embedding.items,
                "seconds": round(self.embedding.seconds, 4),
            }
        return {"llm": {"model": self.model, **self.llm.to_dict()}, "embedding": emb}

    def lines(self) -> list[str]:
        """Human-readable lines (what ``--verbose`` prints)."""
        out = [f"llm usage (model {self.model or 'not built'}):"]
        if not self.llm.jobs:
            out.append("  no chat-model calls")
        for job, u in sorted(self.llm.jobs.items()):
            tokens = f"tokens in/out {u.tokens_in}/{u.tokens_out}"
            if u.unreported:
                tokens += f" ({u.unreported} call(s) unreported)"
            out.append(
                f"  {job:<12} calls {u.calls} (ok {u.ok}, failed {u.failed}), items {u.items}, "
                f"{tokens}, {u.seconds * 1000:.1f} ms"
            )
        if self.embedding is not None:
            e = self.embedding
            out.append(
                f"embedding usage ({self.embedder}): calls {e.calls}, items {e.items}, {e.seconds * 1000:.1f} ms"
            )
        return out
