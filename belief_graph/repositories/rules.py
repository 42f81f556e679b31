"""Repository of derivation rules and their instances (``cypher/rules/``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..db.driver import Tx
from ..models import Claim
from ..models.rules import CompiledRule, RuleInfo, RuleInstanceInfo, RuleSpec
from .core import Repo

__all__ = ["RuleRepository"]


class RuleRepository(Repo):
    # -- rules ---------------------------------------------------------------------------------
    def create(self, tx: Tx, spec: RuleSpec, compiled: CompiledRule, at: str) -> tuple[RuleInfo, int | None]:
        """Store a new version; returns it and the version it replaced (None for a new rule)."""
        rows = self.graph.run(
            tx,
            "rules.create_rule",
            space=self.space,
            name=spec.name,
            spec=spec.to_json(),
            description=spec.description,
            premise_keys=compiled.premise_keys,
            anchor_pos=compiled.anchor_pos,
            anchor_regex=compiled.anchor_regex,
            conclusion_key=compiled.conclusion_key,
            conclusion_regex=compiled.conclusion_regex,
            direct_writes=spec.direct_writes,
            at=at,
        )
        row = rows[0]
        return RuleInfo.from_row(row), (int(row["replaced"]) if row["replaced"] is not None else None)

    def rules(self, name: str | None = None, all_versions: bool = False, tx: Tx | None = None) -> list[RuleInfo]:
        rows = self._read(tx, "rules.list_rules", space=self.space, name=name, all_versions=all_versions)
        return [RuleInfo.from_row(r) for r in rows]

    def remove(self, tx: Tx, name: str, at: str) -> int | None:
        rows = self.graph.run(tx, "rules.remove_rule", space=self.space, name=name, at=at)
        return int(rows[0]["version"]) if rows else None

    def retire_justifications(self, tx: Tx, name: str, keep: str | None) -> list[str]:
        rows = self.graph.run(tx, "rules.retire_justifications", space=self.space, name=name, keep=keep)
        return list(rows[0]["claims"]) if rows else []

    def delete_instances(self, tx: Tx, name: str) -> int:
        rows = self.graph.run(tx, "rules.delete_instances", space=self.space, name=name)
        return int(rows[0]["deleted"]) if rows else 0

    def anchor_keys(self, regex: str, prefix: str, tx: Tx | None = None) -> list[str]:
        return [r["key"] for r in self._read(tx, "rules.anchor_keys", space=self.space, regex=regex, prefix=prefix)]

    # -- instances (inside the writer's transaction) ------------------------------------------------
    def affected(self, tx: Tx, keys: Sequence[str], at: str) -> list[tuple[str, str]]:
        """``[(rule, derived key)]`` of the instances a change of ``keys`` affects (new ones created)."""
        rows = self.graph.run(tx, "rules.affected_instances", space=self.space, keys=list(keys), at=at)
        return [(r["rule"], r["key"]) for r in rows]

    def active_rules(self, tx: Tx) -> list[dict[str, Any]]:
        """The active versions (name, version, spec) inside ``tx``, without instance counts."""
        return self.graph.run(tx, "rules.active_rules", space=self.space)

    def active_specs(self) -> list[RuleSpec]:
        """The specs of the active versions, without instance counts (one indexed read)."""
        return [
            RuleSpec.model_validate_json(r["spec"]) for r in self._read(None, "rules.active_rules", space=self.space)
        ]

    def evaluate(self, tx: Tx, instances: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """Walk each instance's premise chain over the current beliefs (see the statement)."""
        return self.graph.run(
            tx,
            "rules.evaluate_instances",
            space=self.space,
            instances=[{"rule": r, "key": k} for r, k in instances],
        )

    def record(self, tx: Tx, audit: str | None, at: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.graph.run(tx, "rules.record_instances", space=self.space, audit=audit, at=at, rows=rows)

    def instances(self, name: str, status: str | None, limit: int) -> list[RuleInstanceInfo]:
        rows = self.graph.read("rules.list_instances", space=self.space, name=name, status=status, limit=limit)
        out = []
        for r in rows:
            i = r["instance"]
            out.append(
                RuleInstanceInfo(
                    rule=i["rule"],
                    key=i["key"],
                    status=i["status"] or "new",
                    anchor=list(i["anchor"] or []),
                    reads=list(i["reads"] or []),
                    missing=i["missing"],
                    belief=Claim.from_record(r["belief"]) if r["belief"] else None,
                )
            )
        return out
