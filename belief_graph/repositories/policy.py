"""The policy area (``cypher/policy/``): strategy and authority rules per key pattern."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import keypatterns
from ..db.driver import Tx
from ..models import AuthorityRule, PolicyRule
from .core import Repo

__all__ = ["PolicyRepository"]


class PolicyRepository(Repo):
    """Strategy and authority rules. Which rule covers a key is decided here, in Python, by
    :func:`keypatterns.match` (linear time); ``match_steps`` counts its character comparisons."""

    match_steps: int = 0

    def set_policy(self, tx: Tx | None = None, **fields: Any) -> PolicyRule:
        rows = self._write(tx, "policy.set_policy_rule", space=self.space, **fields)
        return PolicyRule.model_validate(rows[0]["rule"])

    def set_authority(self, tx: Tx | None = None, **fields: Any) -> AuthorityRule:
        rows = self._write(tx, "policy.set_authority_rule", space=self.space, **fields)
        return AuthorityRule.model_validate(rows[0]["rule"])

    def policies(self, tx: Tx | None = None) -> list[PolicyRule]:
        return [
            PolicyRule.model_validate(r["rule"]) for r in self._read(tx, "policy.list_policy_rules", space=self.space)
        ]

    def authorities(self, tx: Tx | None = None) -> list[AuthorityRule]:
        rows = self._read(tx, "policy.list_authority_rules", space=self.space)
        return [AuthorityRule.model_validate(r["rule"]) for r in rows]

    def match_policy(self, key: str, tx: Tx | None = None) -> PolicyRule | None:
        """The most specific strategy rule whose pattern matches ``key`` (rules come most specific
        first, then by pattern), or None."""
        counter = keypatterns.MatchCounter()
        try:
            for row in self._read(tx, "policy.list_policy_rules", space=self.space):
                if keypatterns.match(row["rule"]["pattern"], key, counter):
                    return PolicyRule.model_validate(row["rule"])
            return None
        finally:
            self.match_steps += counter.steps

    def match_authority(self, key: str, agents: Sequence[str], tx: Tx | None = None) -> dict[str, float | None]:
        """Per agent, the weight of its most specific authority rule for ``key`` (an exact agent
        beats ``*``, then pattern specificity, then the pattern text), or None."""
        wanted = sorted(set(agents))
        rows = [r["rule"] for r in self._read(tx, "policy.find_authority_rules", space=self.space, agents=wanted)]
        counter = keypatterns.MatchCounter()
        found: dict[str, float | None] = {}
        for agent in wanted:
            candidates = sorted(
                (r for r in rows if r["agent"] in (agent, "*")),
                key=lambda r: (r["agent"] != agent, -int(r["specificity"] or 0), r["pattern"]),
            )
            rule = next((r for r in candidates if keypatterns.match(r["pattern"], key, counter)), None)
            found[agent] = None if rule is None or rule["weight"] is None else float(rule["weight"])
        self.match_steps += counter.steps
        return {a: found.get(a) for a in agents}
