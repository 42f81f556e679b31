"""Schema and health of one memory space on its database (``bg.admin``): apply and verify the
versioned schema (``schemas/``), count nodes, check the space's invariants, the doctor's report,
and the neomodel classes for exploring from Python. The CLI's ``db`` and ``doctor`` commands call these.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from ..db.driver import Graph
from ..db.schema import SchemaReport, apply_migrations, verify_schema
from ..embeddings import Embedder
from ..models.keys import DuplicateKeys
from ..repositories.admin import AdminRepository
from .check import CheckReport, run_check
from .doctor import DoctorReport, run_doctor

__all__ = ["AdminService"]


class AdminService:
    """Schema and health: ``init_schema``, ``verify_schema``, ``stats``, ``check``, ``doctor``, ``ogm``."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        embedder: Embedder,
        dimension: int,
        duplicates: Callable[[], list[DuplicateKeys]],
    ) -> None:
        """``duplicates`` lists the space's likely duplicate keys (``bg.keys.duplicates``) for check and doctor."""
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.duplicates = duplicates

    def init_schema(self) -> list[int]:
        """Apply the pending ``schemas/`` migrations; the versions applied now."""
        return [m.version for m in apply_migrations(self.graph, dimension=self.dimension)]

    def verify_schema(self, wait_seconds: float = 60.0) -> SchemaReport:
        """Compare the database's constraints and indexes with the migrations, waiting for ONLINE."""
        return verify_schema(self.graph, dimension=self.dimension, wait_seconds=wait_seconds)

    def stats(self, all_spaces: bool = False) -> list[dict[str, Any]]:
        """Node counts by label and status, of this space (or of every space)."""
        return AdminRepository(self.graph, self.space).count_space(None if all_spaces else self.space)

    def check(self, limit: int = 100) -> CheckReport:
        """The invariants of this space, checked read-only in Cypher (services/check.py)."""
        return run_check(self.graph, self.space, limit=limit, duplicates=self.duplicates)

    def doctor(self, sample: int = 200) -> DoctorReport:
        """Connectivity, schema, vector index, embedding coverage and a paraphrase probe (services/doctor.py)."""
        return run_doctor(
            self.graph,
            self.embedder,
            dimension=self.dimension,
            sample=sample,
            duplicates=(self.space, self.duplicates),
        )

    def ogm(self) -> SimpleNamespace:
        """neomodel classes bound to this graph's driver (exploration from Python)."""
        from ..db.ogm import bind  # neomodel is imported only when asked for

        return bind(self.graph.driver, self.graph.database)
