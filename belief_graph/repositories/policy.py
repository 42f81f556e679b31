"""Repositories for conflict policy: strategy and authority rules, disputes, agents, the key registry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import keypatterns
from ..db.driver import Tx
from ..models import AgentInfo, AuthorityRule, Claim, Dispute, Explanation, KeyInfo, PolicyRule, Revision, Version
from .core import Repo

__all__ = ["AgentRepository", "DisputeRepository", "FactRepository", "PolicyRepository", "VersionRepository"]


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


class DisputeRepository(Repo):
    def create(self, tx: Tx, **fields: Any) -> None:
        self.graph.run(tx, "dispute.create_dispute", space=self.space, **fields)

    def get(self, dispute_id: str, tx: Tx | None = None) -> Dispute | None:
        rows = self._read(tx, "dispute.get_dispute", space=self.space, id=dispute_id)
        return Dispute.from_row(rows[0]) if rows else None

    def find(self, status: str | None = None, key: str | None = None, tx: Tx | None = None) -> list[Dispute]:
        if key is not None:
            rows = self._read(tx, "dispute.key_disputes", space=self.space, key=key, status=status)
        else:
            rows = self._read(tx, "dispute.list_disputes", space=self.space, status=status)
        return [Dispute.from_row(r) for r in rows]

    def close(self, tx: Tx, **fields: Any) -> bool:
        return bool(self.graph.run(tx, "dispute.close_dispute", space=self.space, **fields))


class AgentRepository(Repo):
    def register(self, tx: Tx | None = None, **fields: Any) -> AgentInfo:
        rows = self._write(tx, "agent.register_agent", space=self.space, **fields)
        return AgentInfo.model_validate(rows[0]["agent"])

    def registered(self, ids: Sequence[str], tx: Tx | None = None) -> set[str]:
        return {r["id"] for r in self._read(tx, "agent.find_agents", space=self.space, ids=list(ids))}

    def all(self, tx: Tx | None = None) -> list[AgentInfo]:
        return [AgentInfo.model_validate(r["agent"]) for r in self._read(tx, "agent.list_agents", space=self.space)]


class FactRepository(Repo):
    def set_value_type(self, key: str, value_type: str, tx: Tx) -> str:
        rows = self.graph.run(tx, "fact.set_value_type", space=self.space, key=key, value_type=value_type)
        return str(rows[0]["value_type"])

    def register(self, tx: Tx | None = None, **fields: Any) -> KeyInfo:
        rows = self._write(tx, "fact.register_key", space=self.space, **fields)
        return KeyInfo.model_validate(rows[0])

    def find(self, prefix: str | None = None, tx: Tx | None = None) -> list[KeyInfo]:
        return [KeyInfo.model_validate(r) for r in self._read(tx, "fact.list_keys", space=self.space, prefix=prefix)]

    def existing(self, keys: Sequence[str], tx: Tx | None = None) -> set[str]:
        return {r["key"] for r in self._read(tx, "fact.existing_keys", space=self.space, keys=list(keys))}

    def value_types(self, keys: Sequence[str], tx: Tx | None = None) -> dict[str, str | None]:
        """Existing keys among ``keys`` -> the value type they hold (``None``: not typed yet)."""
        rows = self._read(tx, "fact.existing_keys", space=self.space, keys=list(keys))
        return {r["key"]: r["value_type"] for r in rows}

    def similar_claims(
        self, embedding: Sequence[float], k: int, agent: str | None = None, tx: Tx | None = None
    ) -> list[tuple[Claim, float]]:
        rows = self._read(
            tx,
            "retrieval.similar_active_claims",
            space=self.space,
            embedding=list(embedding),
            k=k,
            fetch=max(50, 20 * k),
            agent=agent,
        )
        return [(Claim.from_record(r["claim"]), float(r["score"])) for r in rows]

    def identity_candidates(self, prefixes: Sequence[str], limit: int, tx: Tx | None = None) -> list[dict[str, Any]]:
        """Facts under ``prefixes`` with a current belief or a registry entry (fact identity's candidates)."""
        return self._read(tx, "fact.identity_candidates", space=self.space, prefixes=list(prefixes), limit=limit)

    def similar(self, embedding: Sequence[float], k: int, tx: Tx | None = None) -> list[tuple[str, str | None, float]]:
        rows = self._read(
            tx, "fact.similar_keys", space=self.space, embedding=list(embedding), k=k, fetch=max(50, 10 * k)
        )
        return [(r["key"], r["description"], float(r["score"])) for r in rows]


class VersionRepository(Repo):
    def change_status(self, tx: Tx, **fields: Any) -> Claim:
        rows = self.graph.run(tx, "claim.change_status", space=self.space, **fields)
        return Claim.from_record(rows[0]["claim"])

    def corroborate(self, tx: Tx, **fields: Any) -> None:
        self.graph.run(tx, "claim.corroborate_claim", space=self.space, **fields)

    def positions(self, key: str, tx: Tx | None = None) -> list[dict[str, Any]]:
        return self._read(tx, "claim.key_positions", space=self.space, key=key)

    def history(self, key: str, tx: Tx | None = None) -> list[Version]:
        rows = self._read(tx, "claim.key_history", space=self.space, key=key)
        return [
            Version(
                claim=Claim.from_record(r["claim"]),
                revisions=[Revision.model_validate(x) for x in r["revisions"]],
                current=bool(r["current"]),
                superseded_by=r["superseded_by"],
                supersedes=r["supersedes"],
            )
            for r in rows
        ]

    def as_of(self, key: str, at: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.belief_as_of", space=self.space, key=key, at=at)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def valid_at(self, key: str, at: str, tx: Tx | None = None) -> Claim | None:
        rows = self._read(tx, "claim.belief_valid_at", space=self.space, key=key, at=at)
        return Claim.from_record(rows[0]["claim"]) if rows else None

    def explain(self, claim_id: str, tx: Tx | None = None) -> Explanation | None:
        rows = self._read(tx, "claim.explain_claim", space=self.space, id=claim_id)
        if not rows:
            return None
        r = rows[0]
        return Explanation(
            claim=Claim.from_record(r["claim"]),
            current=bool(r["current"]),
            justifications=r["justifications"],
            revisions=[Revision.model_validate(x) for x in r["revisions"]],
            disputes=r["disputes"],
            superseded_by=r["superseded_by"],
            supersedes=r["supersedes"],
        )
