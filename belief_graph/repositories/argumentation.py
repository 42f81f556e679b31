"""Argumentation repository: attack graphs (``:Argument`` / ``ATTACKS``), frameworks, grounded steps.

The only caller of ``cypher/argumentation/*``. Every method takes an optional ``tx``; the service
composes them into transactions. Records become models here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ..db.driver import Tx
from ..models.argumentation import Attack, AttackerInfo, Framework
from .core import Repo

__all__ = ["ArgumentationRepository"]

# The PROFILE keyword is prepended to a vetted registry statement to count its db hits (the
# bench's linearity check); the statement itself still lives in cypher/argumentation/.
_PROFILE_KEYWORD: Final = "PROFILE"


def _db_hits(plan: dict[str, Any] | None) -> int:
    if not plan:
        return 0
    return int(plan.get("dbHits") or 0) + sum(_db_hits(c) for c in plan.get("children", []))


class ArgumentationRepository(Repo):
    # Positional-only query names: several queries here take a ``$name`` parameter.
    def _rd(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.read(query, **params)

    def _wr(self, tx: Tx | None, query: str, /, **params: Any) -> list[dict[str, Any]]:
        return self.graph.run(tx, query, **params) if tx is not None else self.graph.write(query, **params)

    # -- frameworks ----------------------------------------------------------------------------
    def create_framework(
        self,
        tx: Tx,
        *,
        name: str,
        ns: str,
        source: str | None,
        format: str | None,
        arguments: int,
        attacks: int,
        status: str,
        created_at: str,
    ) -> Framework:
        rows = self.graph.run(
            tx,
            "argumentation.create_framework",
            space=self.space,
            name=name,
            ns=ns,
            source=source,
            format=format,
            arguments=arguments,
            attacks=attacks,
            status=status,
            created_at=created_at,
        )
        return Framework.model_validate(rows[0]["framework"])

    def set_framework_status(self, name: str, status: str, tx: Tx | None = None) -> Framework | None:
        rows = self._wr(tx, "argumentation.set_framework_status", space=self.space, name=name, status=status)
        return Framework.model_validate(rows[0]["framework"]) if rows else None

    def get_framework(self, name: str, tx: Tx | None = None) -> Framework | None:
        rows = self._rd(tx, "argumentation.get_framework", space=self.space, name=name)
        return Framework.model_validate(rows[0]["framework"]) if rows else None

    def list_frameworks(self, tx: Tx | None = None) -> list[Framework]:
        rows = self._rd(tx, "argumentation.list_frameworks", space=self.space)
        return [Framework.model_validate(r["framework"]) for r in rows]

    def delete_framework_node(self, name: str, tx: Tx | None = None) -> int:
        rows = self._wr(tx, "argumentation.delete_framework", space=self.space, name=name)
        return int(rows[0]["deleted"]) if rows else 0

    # -- arguments and attacks -------------------------------------------------------------------
    def create_arguments(self, tx: Tx, ns: str, names: Sequence[str]) -> int:
        rows = self.graph.run(tx, "argumentation.create_arguments", space=self.space, ns=ns, names=list(names))
        return int(rows[0]["created"])

    def create_attacks(self, tx: Tx, ns: str, pairs: Sequence[tuple[str, str]]) -> int:
        rows = self.graph.run(
            tx, "argumentation.create_attacks", space=self.space, ns=ns, attacks=[[x, y] for x, y in pairs]
        )
        return int(rows[0]["created"])

    def delete_arguments(self, ns: str, tx: Tx | None = None) -> int:
        """Delete the plain Argument nodes of ``ns`` inside ``tx`` (small namespaces)."""
        rows = self._wr(tx, "argumentation.delete_arguments", space=self.space, ns=ns)
        return int(rows[0]["deleted"]) if rows else 0

    def delete_arguments_batched(self, ns: str, batch: int = 10_000) -> None:
        """Delete the plain Argument nodes of ``ns`` in auto-committed batches (large namespaces)."""
        self.graph.run_autocommit("argumentation.delete_arguments_batched", space=self.space, ns=ns, batch=batch)

    def enlist(self, tx: Tx, ns: str, ids: Sequence[str]) -> list[str]:
        rows = self.graph.run(tx, "argumentation.enlist_nodes", space=self.space, ns=ns, ids=list(ids))
        return [str(i) for i in rows[0]["ids"]] if rows else []

    def merge_attacks(self, tx: Tx, ns: str, attacks: Sequence[Attack]) -> int:
        rows = self.graph.run(
            tx,
            "argumentation.merge_attacks",
            space=self.space,
            ns=ns,
            attacks=[a.model_dump() for a in attacks],
        )
        return int(rows[0]["attacks"]) if rows else 0

    def release_nodes(self, ns: str, tx: Tx | None = None) -> int:
        rows = self._wr(tx, "argumentation.release_nodes", space=self.space, ns=ns)
        return int(rows[0]["released"]) if rows else 0

    def export(self, ns: str, tx: Tx | None = None) -> tuple[list[str], list[tuple[str, str]]]:
        """Every argument name and distinct attack pair of ``ns`` (one statement, one record).

        Parallel ``ATTACKS`` edges between one pair give the pair once (first-seen order)."""
        row = self._rd(tx, "argumentation.export_framework", space=self.space, ns=ns)[0]
        return list(row["names"]), list(dict.fromkeys(zip(row["src"], row["dst"], strict=True)))

    # -- grounded labelling steps ----------------------------------------------------------------
    def start_grounded(self, tx: Tx, ns: str, last: int, *, profile: bool = False) -> tuple[dict[str, Any], int]:
        """Counters + waves 1..``last`` + ``last`` waves from the next non-empty one + (when nothing
        is pending) the UNDEC pass, in one statement."""
        return self._step(tx, "argumentation.start_grounded", profile, space=self.space, ns=ns, last_wave=last)

    def ground_small(
        self, tx: Tx, ns: str, max_arguments: int, max_attacks: int, *, profile: bool = False
    ) -> tuple[dict[str, Any], int]:
        """The whole labelling of a namespace of at most ``max_arguments`` arguments and
        ``max_attacks`` attacks into them in one statement (an empty row when it has more, or none)."""
        return self._step(
            tx,
            "argumentation.ground_small",
            profile,
            space=self.space,
            ns=ns,
            max_arguments=max_arguments,
            max_attacks=max_attacks,
        )

    def ground_small_alone(self, ns: str, max_arguments: int, max_attacks: int) -> dict[str, Any]:
        """:meth:`ground_small` as its own write transaction (the driver's ``execute_query``, which
        sends BEGIN together with the statement): one round trip and the commit."""
        rows = self._wr(
            None,
            "argumentation.ground_small",
            space=self.space,
            ns=ns,
            max_arguments=max_arguments,
            max_attacks=max_attacks,
        )
        return rows[0] if rows else {}

    def propagate_waves(
        self, tx: Tx, ns: str, first: int, last: int, *, profile: bool = False
    ) -> tuple[dict[str, Any], int]:
        return self._step(
            tx, "argumentation.propagate_waves", profile, space=self.space, ns=ns, first_wave=first, last_wave=last
        )

    def write_labels(self, ns: str, in_: Sequence[str], out: Sequence[str], undec: Sequence[str]) -> int:
        """Write a labelling computed elsewhere (one write transaction, one statement)."""
        rows = self.graph.write(
            "argumentation.write_labels",
            space=self.space,
            ns=ns,
            in_names=list(in_),
            out_names=list(out),
            undec_names=list(undec),
        )
        return int(rows[0]["written"]) if rows else 0

    def labels(self, ns: str, tx: Tx | None = None) -> dict[str, Any]:
        return self._rd(tx, "argumentation.get_labels", space=self.space, ns=ns)[0]

    def explain(self, ns: str, name: str, tx: Tx | None = None) -> dict[str, Any] | None:
        rows = self._rd(tx, "argumentation.explain_argument", space=self.space, ns=ns, name=name)
        if not rows:
            return None
        row = rows[0]

        def infos(items: list[dict[str, Any]]) -> list[AttackerInfo]:
            unique = {i["name"]: i for i in items}  # several ATTACKS edges between one pair
            return sorted((AttackerInfo.model_validate(i) for i in unique.values()), key=lambda a: a.name)

        return {**row, "attackers": infos(row["attackers"]), "targets": infos(row["targets"])}

    def _step(self, tx: Tx, name: str, profile: bool, **params: Any) -> tuple[dict[str, Any], int]:
        """Run one solver statement in ``tx``: its one row (empty when it returned none); with
        ``profile`` also its total db hits."""
        if not profile:
            rows = self.graph.run(tx, name, **params)
            return (rows[0] if rows else {}), 0
        q = self.graph.registry[name]
        result = tx.run(" ".join((_PROFILE_KEYWORD, q.text)), q.check_params(params))
        rows = [r.data() for r in result]
        summary = result.consume()
        return (rows[0] if rows else {}), _db_hits(summary.profile)
