"""The conversation suite of ``belief-graph bench memory``: its format, loader and checks.

The suite is multi-session conversations written for this project (``lab/belief_graph_lab/data/memory/``,
one YAML file per category; each item says where it comes from in ``origin``). An item is:

* ``facts``: the gold facts of the item by a local id (``city``), each with the key a careful
  memory would use (``user.city``) and the other keys a model might name it with (``drift``);
* ``setup``: what exists before the conversation (agents and their authority, conflict policies,
  derivation rules, world facts written as structured claims);
* ``sessions``: turns with their time; each turn says which gold facts it ``states`` (with the
  value, a self-contained statement, value aliases, ``since`` when the turn says when it became
  true, and how it relates to the fact's previous statement) and which ``traps`` a drifting model
  might wrongly extract from it (a hypothetical, a question's content, another person's fact);
  a turn by an agent may instead ``derive`` a conclusion from current facts;
* ``questions`` asked after the last session through ``answer``, ``context``, ``belief`` or
  ``as_of``, with the accepted answers (``expect``), the values that must not be given any more
  (``stale``), or ``unknown: true`` when memory does not hold the answer.

``python -m belief_graph_lab.benchmarks.memory_suite`` checks every file and prints counts per category.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from belief_graph.models import KEY_RE

__all__ = [
    "CATEGORIES",
    "Derivation",
    "FactDef",
    "Item",
    "Question",
    "Session",
    "Setup",
    "Statement",
    "SuiteError",
    "Trap",
    "Turn",
    "load_suite",
]

Category = Literal["update", "contradiction", "paraphrase", "temporal", "multi_agent", "distractor", "derived"]
CATEGORIES: tuple[str, ...] = (
    "update",
    "contradiction",
    "paraphrase",
    "temporal",
    "multi_agent",
    "distractor",
    "derived",
)
GoldValue = str | int | float | bool


class SuiteError(ValueError):
    """A suite file that does not follow the format (file, item and what is wrong)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _key(v: str) -> str:
    if not isinstance(v, str) or len(v) > 256 or not KEY_RE.match(v):
        raise ValueError(f"{v!r} is not a fact key (dotted segments of letters, digits, _ and -)")
    return v


class FactDef(_Model):
    """A gold fact of the item: the key a careful memory uses and the keys a model might drift to."""

    key: str
    about: str = Field(min_length=1)
    """What the fact is, in a few words ("where the user lives")."""
    drift: list[str] = Field(default_factory=list)
    """Other keys a model might name this fact with (synonyms: ``user.home_city``); the noisy
    extractor also derives nesting and plural variants by itself."""

    @field_validator("key")
    @classmethod
    def _k(cls, v: str) -> str:
        return _key(v)

    @field_validator("drift")
    @classmethod
    def _d(cls, v: list[str]) -> list[str]:
        return [_key(k) for k in v]


class Statement(_Model):
    """A gold fact as one turn states it."""

    fact: str
    value: GoldValue
    text: str = Field(min_length=1)
    """One self-contained sentence ("The user lives in Porto.")."""
    aliases: list[GoldValue] = Field(default_factory=list)
    """Other forms of the value that mean the same ("NYC" for "New York")."""
    since: datetime | None = None
    """When the turn says the fact became true ("since March" -> that March's first day), resolved
    against the session's time; ``None`` when the turn does not say."""
    change: Literal["new", "restate", "update", "correction", "contradiction"] = "new"
    """How this statement relates to the fact's previous statement: ``restate`` (same value, maybe in
    other words), ``update`` (the world changed), ``correction`` (the speaker fixes a mistake),
    ``contradiction`` (the two cannot both hold and nothing says which is right)."""
    evidence: str | None = None
    """The turn's words the stand-in models cite for the fact when their own citation (the piece
    of the turn sharing most words with ``text``) would find nothing: an inference whose words
    and statement share none ("Ava arrived on Tuesday" for "no longer pregnant")."""


class Trap(_Model):
    """What a drifting model might extract from the turn but the turn does not state as true."""

    key: str
    value: GoldValue
    text: str = Field(min_length=1)
    why: Literal["question", "hypothetical", "other_person", "negated", "plan", "assistant", "joke", "quoted"]

    @field_validator("key")
    @classmethod
    def _k(cls, v: str) -> str:
        return _key(v)


class Derivation(_Model):
    """A conclusion an agent draws from current facts (``derive``): it must go stale when a premise changes."""

    text: str = Field(min_length=1)
    premises: list[str] = Field(min_length=1)
    """Fact ids of the item whose current beliefs the conclusion rests on."""
    key: str | None = None
    value: GoldValue | None = None


class Turn(_Model):
    agent: str = Field(min_length=1)
    """``user:<name>`` for a user, ``agent:<name>`` for another agent, ``assistant`` for the assistant's
    own replies (context only: never remembered as the user's facts)."""
    text: str = Field(default="", max_length=2000)
    states: list[Statement] = Field(default_factory=list)
    traps: list[Trap] = Field(default_factory=list)
    derive: Derivation | None = None

    @model_validator(mode="after")
    def _shape(self) -> Turn:
        if self.derive is None and not self.text.strip():
            raise ValueError("a turn has text (or is a derive step)")
        if self.derive is not None and (self.states or self.traps):
            raise ValueError("a derive step states no facts and has no traps")
        if self.agent == "assistant" and self.states:
            raise ValueError("assistant turns state no user facts")
        return self


class Session(_Model):
    at: datetime
    """When the session starts (timezone-aware); its turns are one minute apart."""
    turns: list[Turn] = Field(min_length=1)

    @field_validator("at")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        if v.tzinfo is None:
            raise ValueError("session times carry a timezone (e.g. 2026-03-02T09:15:00Z)")
        return v


class AgentDef(_Model):
    id: str
    kind: Literal["user", "agent", "system"] = "agent"
    authority: float | None = Field(default=None, ge=0, le=1)
    """Weight on every key (``set_authority(agent, '*', w)``); ``None``: none declared."""


class PolicyDef(_Model):
    pattern: str
    strategy: Literal["recency", "authority", "consensus", "argumentation"]


class WorldFact(_Model):
    key: str
    value: GoldValue
    text: str
    agent: str = "system:world"

    @field_validator("key")
    @classmethod
    def _k(cls, v: str) -> str:
        return _key(v)


class Setup(_Model):
    agents: list[AgentDef] = Field(default_factory=list)
    policies: list[PolicyDef] = Field(default_factory=list)
    rules: list[dict[str, Any]] = Field(default_factory=list)
    """Derivation rule specs (docs/rules.md), added before the conversation."""

    @field_validator("rules")
    @classmethod
    def _rules(cls, v: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from belief_graph.errors import ValidationError
        from belief_graph.services.rules import parse_rule

        for spec in v:
            try:
                parse_rule(spec).compile()
            except ValidationError as exc:
                raise ValueError(f"rule {spec.get('name')!r}: {exc}") from exc
        return v

    world: list[WorldFact] = Field(default_factory=list)


class Question(_Model):
    ask: str = Field(min_length=1)
    via: Literal["answer", "context", "belief", "as_of"] = "answer"
    fact: str | None = None
    """The gold fact asked about (``None`` for a question memory cannot answer)."""
    expect: list[GoldValue] = Field(default_factory=list)
    """Accepted answers: the value and its aliases (any one of them counts)."""
    stale: list[GoldValue] = Field(default_factory=list)
    """Values that must not be given: earlier versions, a hypothetical, the losing side."""
    unknown: bool = False
    """Memory does not hold the answer: the right reply is ``unknown`` (or no belief)."""
    at: datetime | None = None
    """For ``as_of``: the moment asked about."""
    conflict: bool = False
    """The right answer surfaces a conflict (two statements that cannot both hold)."""

    @model_validator(mode="after")
    def _shape(self) -> Question:
        if self.unknown and self.expect:
            raise ValueError("a question is either unknown or has expected answers, not both")
        if not self.unknown and not self.expect:
            raise ValueError("give the expected answers (expect) or mark the question unknown")
        if self.via in ("belief", "as_of") and self.fact is None:
            raise ValueError(f"a {self.via} question names the fact it reads")
        if self.via == "as_of" and self.at is None:
            raise ValueError("an as_of question names the moment (at)")
        if self.at is not None and self.at.tzinfo is None:
            raise ValueError("question times carry a timezone")
        return self


class Item(_Model):
    id: str = Field(pattern=r"^[a-z]+-[0-9]{3}$")
    category: Category
    origin: str = Field(min_length=10)
    """Where the item comes from (who wrote it, when, and what real situation it models)."""
    user: str = Field(pattern=r"^user:[a-z0-9_\-]+$")
    facts: dict[str, FactDef] = Field(default_factory=dict)
    setup: Setup = Field(default_factory=Setup)
    sessions: list[Session] = Field(min_length=1)
    questions: list[Question] = Field(min_length=1)

    @model_validator(mode="after")
    def _refs(self) -> Item:
        known = set(self.facts)
        keys = Counter(f.key for f in self.facts.values())
        shared = sorted(k for k, n in keys.items() if n > 1)
        if shared:
            raise ValueError(f"two facts share the key(s) {shared}: one key per fact")
        last: datetime | None = None
        for s in self.sessions:
            if last is not None and s.at <= last:
                raise ValueError("sessions are in time order")
            last = s.at
            for t in s.turns:
                for st in t.states:
                    if st.fact not in known:
                        raise ValueError(f"turn states unknown fact {st.fact!r} (declare it under facts)")
                if t.derive is not None:
                    bad = [p for p in t.derive.premises if p not in known]
                    if bad:
                        raise ValueError(f"derive rests on unknown facts {bad}")
        stated = {st.fact for s in self.sessions for t in s.turns for st in t.states}
        unused = known - stated
        if unused:
            raise ValueError(f"facts never stated: {sorted(unused)}")
        for q in self.questions:
            if q.fact is not None and q.fact not in known:
                raise ValueError(f"question asks about unknown fact {q.fact!r}")
        return self

    # -- derived views, used by the runner and the scores ---------------------------------------
    def turns(self) -> Iterable[tuple[int, int, datetime, Turn]]:
        """(session index, turn index, the turn's time, turn) in order."""
        from datetime import timedelta

        for si, s in enumerate(self.sessions):
            for ti, t in enumerate(s.turns):
                yield si, ti, s.at + timedelta(minutes=ti), t

    @property
    def asked_at(self) -> datetime:
        """Questions are asked a day after the last session started."""
        from datetime import timedelta

        return self.sessions[-1].at + timedelta(days=1)


def _suite_dir() -> Path:
    return Path(str(files("belief_graph_lab") / "data" / "memory"))


def load_suite(paths: Sequence[Path] | None = None, categories: Sequence[str] | None = None) -> list[Item]:
    """Every item of the suite files (default: ``lab/belief_graph_lab/data/memory/*.yaml``), checked.

    Raises:
        SuiteError: a file that does not parse or an item that does not follow the format
            (the file, the item id and the problem), or two items with one id.
    """
    chosen = list(paths) if paths else sorted(_suite_dir().glob("*.yaml"))
    items: list[Item] = []
    seen: dict[str, Path] = {}
    for path in chosen:
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise SuiteError(f"{path}: not YAML: {exc}") from exc
        if not isinstance(data, dict) or not isinstance(data.get("items"), list):
            raise SuiteError(f"{path}: a suite file is a mapping with a list 'items'")
        for n, raw in enumerate(data["items"]):
            ident = raw.get("id", f"#{n}") if isinstance(raw, dict) else f"#{n}"
            try:
                item = Item.model_validate(raw)
            except ValueError as exc:
                raise SuiteError(f"{path}: item {ident}: {exc}") from exc
            if item.id in seen:
                raise SuiteError(f"{path}: item id {item.id} also in {seen[item.id]}")
            seen[item.id] = path
            if categories is None or item.category in categories:
                items.append(item)
    return items


def _summary(items: Sequence[Item]) -> str:
    by_cat: Counter[str] = Counter(i.category for i in items)
    turns: Counter[str] = Counter(i.category for i in items for _, _, _, t in i.turns() if t.states)
    lines = [f"{len(items)} items"]
    for c in CATEGORIES:
        lines.append(f"  {c:<13} {by_cat.get(c, 0):>4} items, {turns.get(c, 0):>4} fact-carrying turns")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - a check for people writing items
    try:
        suite = load_suite([Path(a) for a in sys.argv[1:]] or None)
    except SuiteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(_summary(suite))
