"""Derivation rules of a memory space: add, list, run and remove them (DESIGN.md, "Derivation
rules"; docs/rules.md).

A rule is stored in the graph as a versioned ``Rule`` node; the engine re-evaluates its instances
whenever one of their premises changes (:mod:`.derivation`, called by every write through
:class:`~.currency.Consequences`). This service is the admin side:

* :meth:`RuleService.add` checks the spec against the space's other rules (no two rules derive the
  same key; no cycle between rules, so re-evaluation always ends), stores a new version (a rule of
  the same name is replaced: the justifications its earlier version gave are retired), then derives
  its instances from the keys that match its first premise, in batches of ``batch`` keys per
  transaction;
* :meth:`RuleService.run` re-evaluates a rule's instances by hand (one key, or all);
* :meth:`RuleService.remove` retires the rule's justifications: conclusions only it supported go
  stale, and its keys are no longer protected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Graph, Tx
from ..errors import MAX_PROBLEM, RuleNotFound, ValidationError, listed
from ..limits import check_limit
from ..models import KEY_RE, utcnow
from ..models.rules import CompiledRule, RuleInfo, RuleInstanceInfo, RuleRun, RuleSpec, patterns_intersect, rule_edges
from ..repositories.rules import RuleRepository
from .currency import Change, Consequences, Settled
from .derivation import rule_tag

__all__ = ["RuleService", "parse_rule"]

_BATCH = 500


def parse_rule(spec: RuleSpec | dict[str, Any]) -> RuleSpec:
    """A validated :class:`RuleSpec` (a typed :class:`ValidationError` naming what is wrong)."""
    if isinstance(spec, RuleSpec):
        return spec
    if not isinstance(spec, dict):
        raise ValidationError(f"a rule is a mapping (name, premises, conclusion), got {type(spec).__name__}")
    try:
        return RuleSpec.model_validate(spec)
    except PydanticValidationError as exc:
        msg = listed(
            [f"{'.'.join(str(p) for p in e['loc']) or 'rule'}: {e['msg']}" for e in exc.errors()],
            sep="; ",
            width=MAX_PROBLEM,
        )
        raise ValidationError(f"invalid rule: {msg}") from exc


def _prefix(regex: str) -> str:
    """The literal start of a compiled anchor regex (the index narrows the scan by it)."""
    body = regex[1:] if regex.startswith("^") else regex
    out = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(body[i + 1])
            i += 2
            continue
        if ch in "[($":
            break
        out.append(ch)
        i += 1
    return "".join(out)


def _cycle(rules: dict[str, CompiledRule]) -> list[str] | None:
    """A cycle in the rule graph (R -> S when R's conclusion can be a premise of S), if any."""
    edges = rule_edges(rules)
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        path.append(n)
        for m in edges[n]:
            if state.get(m) == 1:
                return path[path.index(m) :] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        state[n] = 2
        path.pop()
        return None

    for n in sorted(rules):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


class RuleService:
    """Derivation rules of one memory space."""

    def __init__(self, graph: Graph, space: str, consequences: Consequences, batch: int = _BATCH) -> None:
        if batch < 1:
            raise ValidationError("batch must be at least 1")
        self.graph = graph
        self.space = space
        self.consequences = consequences
        self.repo = RuleRepository(graph, space)
        self.batch = batch

    # -- reads --------------------------------------------------------------------------------------
    def all(self, all_versions: bool = False) -> list[RuleInfo]:
        return self.repo.rules(all_versions=all_versions)

    def specs(self) -> list[RuleSpec]:
        """The specs of the active rules, without counting their instances (``remember`` reads them
        for the keys it shows the extractor)."""
        return self.repo.active_specs()

    def get(self, name: str, all_versions: bool = False) -> list[RuleInfo]:
        """The active version of ``name`` (every version with ``all_versions``, oldest first)."""
        got = self.repo.rules(name=name, all_versions=all_versions)
        if not got or not any(r.status == "active" for r in got) and not all_versions:
            raise RuleNotFound(name, self.space)
        return got

    def instances(self, name: str, status: str | None = None, limit: int = 100) -> list[RuleInstanceInfo]:
        if status not in (None, "new", "resolved", "unresolved"):
            raise ValidationError("status is 'resolved', 'unresolved' or 'new'")
        check_limit(limit, 100_000)
        self.get(name)
        return self.repo.instances(name, status, limit)

    # -- writes -------------------------------------------------------------------------------------
    def add(
        self,
        spec: RuleSpec | dict[str, Any],
        *,
        agent: str | None = None,
        apply: bool = True,
        progress: Callable[[int, int], None] | None = None,
    ) -> RuleRun:
        """Store a rule (a new version when the name exists) and, with ``apply``, derive its instances."""
        rule = parse_rule(spec)
        compiled = rule.compile()
        at = utcnow().isoformat()

        def store(tx: Tx) -> tuple[RuleInfo, Settled]:
            others = {r.name: r.spec.compile() for r in self.repo.rules(tx=tx) if r.name != rule.name}
            for name, other in others.items():
                if patterns_intersect(other.conclusion_pattern, compiled.conclusion_pattern):
                    raise ValidationError(
                        f"rule {rule.name!r} would derive keys that rule {name!r} derives "
                        f"({rule.conclusion.key!r} and {other.conclusion_pattern!r} overlap): one writer per key"
                    )
            cycle = _cycle({**others, rule.name: compiled})
            if cycle:
                raise ValidationError(
                    "rules would form a cycle (a conclusion feeding its own premises): " + " -> ".join(cycle)
                )
            info, replaced = self.repo.create(tx, rule, compiled, at)
            retired: list[str] = []
            if replaced is not None:
                retired = self.repo.retire_justifications(tx, rule.name, keep=rule_tag(rule.name, info.version))
                self.repo.delete_instances(tx, rule.name)
            what = f"rule {rule.name}@{info.version} " + (f"replaces @{replaced}" if replaced else "added")
            change = Change(op="rule", reason=what, agent=agent, at=at)
            return info, self.consequences.settle(tx, change, roots=retired)

        info, settled = self.graph.write_tx(store, name="rules.add")
        run = RuleRun(rule=f"{info.name}@{info.version}", audit=settled.audit, rederived=list(settled.rederived))
        if apply:
            self._apply(info, compiled, agent, run, progress)
        return run

    def run(
        self,
        name: str,
        key: str | Sequence[str] | None = None,
        *,
        agent: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> RuleRun:
        """Re-evaluate ``name``'s instances by hand: those whose first premise is ``key`` (one key or
        several, in batches), or all."""
        info = self.get(name)[0]
        compiled = info.spec.compile()
        run = RuleRun(rule=f"{info.name}@{info.version}")
        if key is None:
            self._apply(info, compiled, agent, run, progress)
            return run
        keys = [key] if isinstance(key, str) else list(key)
        for k in keys:
            if not isinstance(k, str) or not KEY_RE.match(k) or not re.match(compiled.anchor_regex, k):
                raise ValidationError(
                    f"{k!r} does not match the first premise of rule {name!r} ({info.spec.premises[0].key!r})"
                )
        for start in range(0, len(keys), self.batch):
            self._batch(info, keys[start : start + self.batch], agent, run)
            if progress is not None:
                progress(min(start + self.batch, len(keys)), len(keys))
        return run

    def remove(self, name: str, reason: str, *, agent: str | None = None) -> RuleRun:
        """Remove a rule: its conclusions keep their history; those only it supported go stale."""
        if not isinstance(reason, str) or not reason.strip():
            raise ValidationError("a reason is required to remove a rule")
        at = utcnow().isoformat()

        def work(tx: Tx) -> tuple[int, Settled]:
            version = self.repo.remove(tx, name, at)
            if version is None:
                raise RuleNotFound(name, self.space)
            retired = self.repo.retire_justifications(tx, name, keep=None)
            self.repo.delete_instances(tx, name)
            change = Change(op="rule", reason=f"rule {name}@{version} removed: {reason.strip()}", agent=agent, at=at)
            return version, self.consequences.settle(tx, change, roots=retired)

        version, settled = self.graph.write_tx(work, name="rules.remove")
        return RuleRun(rule=f"{name}@{version}", audit=settled.audit, rederived=list(settled.rederived))

    # -- helpers ------------------------------------------------------------------------------------
    def _apply(
        self,
        info: RuleInfo,
        compiled: CompiledRule,
        agent: str | None,
        run: RuleRun,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        keys = self.repo.anchor_keys(compiled.anchor_regex, _prefix(compiled.anchor_regex))
        for start in range(0, len(keys), self.batch):
            self._batch(info, keys[start : start + self.batch], agent, run)
            if progress is not None:
                progress(min(start + self.batch, len(keys)), len(keys))

    def _batch(self, info: RuleInfo, keys: Sequence[str], agent: str | None, run: RuleRun) -> None:
        at = utcnow().isoformat()
        tag = f"{info.name}@{info.version}"
        anchors = set(keys)

        def work(tx: Tx) -> Settled:
            affected = self.repo.affected(tx, list(keys), at)
            only = {(r, k) for r, k in affected if r == info.name}
            change = Change(op="rule", reason=f"rule {tag} run on {len(anchors)} key(s)", agent=agent, at=at)
            return self.consequences.settle(tx, change, keys=sorted(anchors), only=only)

        settled = self.graph.write_tx(work, name="rules.run")
        run.evaluated += len(keys)
        run.rederived += settled.rederived
        run.unresolved += [u for u in settled.unresolved if u.rule == info.name]
        run.audit = settled.audit or run.audit
