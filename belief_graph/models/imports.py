"""Models of bulk import (``bg.importer.import_items``, ``belief-graph memory import``): the progress an
import keeps in the graph and what one run of it did."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

__all__ = ["ImportInfo", "ImportResult", "RejectedLine"]

OPS = ("add", "update", "replace", "superseded", "disputed", "noop")
"""The write operations counted per import (``WriteOp`` values, lower case)."""


class RejectedLine(BaseModel):
    """A line the ``skip`` policy left out, and why."""

    line: int
    error: str


class ImportInfo(BaseModel):
    """One import as recorded in the graph (an ``Import`` node per space and name)."""

    name: str
    source: str | None = None
    status: str = "running"
    """``running`` (started, or interrupted) or ``complete`` (every line of its last run committed)."""
    done: int = 0
    """Lines committed (a rerun resumes after them)."""
    digest: str = ""
    """SHA-256 chain over the committed lines' bytes (a rerun checks its source against it)."""
    batches: int = 0
    runs: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    """Cumulative over the import's runs: claims per write operation, ``rejected``, ``staled``, ``rederived``."""
    errors: list[str] = Field(default_factory=list)
    """The first 100 rejected lines (``line N: why``)."""
    started_at: str | None = None
    updated_at: str | None = None
    finished_at: str | None = None

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> ImportInfo:
        counts = {k[2:]: int(v or 0) for k, v in rec.items() if k.startswith("n_")}
        return cls(
            name=rec["name"],
            source=rec.get("source"),
            status=rec.get("status") or "running",
            done=int(rec.get("done") or 0),
            digest=str(rec.get("digest") or ""),
            batches=int(rec.get("batches") or 0),
            runs=int(rec.get("runs") or 0),
            counts=counts,
            errors=list(rec.get("errors") or []),
            started_at=rec.get("started_at"),
            updated_at=rec.get("updated_at"),
            finished_at=rec.get("finished_at"),
        )


class ImportResult(BaseModel):
    """What one run of an import did."""

    name: str
    source: str | None = None
    resumed_from: int = 0
    """Lines already committed by earlier runs (skipped here, their digest checked)."""
    lines: int = 0
    """Lines this run read after ``resumed_from`` (blank and rejected lines included)."""
    done: int = 0
    """Lines committed in total after this run."""
    written: int = 0
    """Claims this run created (every operation but NOOP)."""
    ops: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(OPS, 0))
    staled: int = 0
    """Conclusions made stale by the imported writes."""
    rederived: int = 0
    """New versions derivation rules wrote because of the imported writes."""
    rejected: list[RejectedLine] = Field(default_factory=list)
    batches: int = 0
    """Transactions committed by this run."""
    seconds: float = 0.0
    embed_seconds: float = 0.0
    """Of ``seconds``: computing embeddings (batched)."""
    write_seconds: float = 0.0
    """Of ``seconds``: the write transactions."""
    embedder: str | None = None

    @property
    def claims_per_second(self) -> float:
        """Lines written (claims created or NOOP) per second of this run."""
        n = sum(self.ops.values())
        return n / self.seconds if self.seconds > 0 else 0.0
