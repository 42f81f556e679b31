"""Memory jobs: ``extract`` (facts from conversation turns), ``revisit`` (does the latest turn change
a held belief extraction left alone?), ``classify`` (a new claim against existing ones) and
``disambiguate`` (pick or coin a fact key)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ...models import Value
from .base import (
    CandidateClaim,
    ClaimView,
    JobLimits,
    JobSpec,
    Turn,
    _check_key,
    _In,
    _one_per_item,
    _Out,
)

# ---------------------------------------------------------------------------------------------
# extract
# ---------------------------------------------------------------------------------------------


class ExtractInput(_In):
    turns: list[Turn]
    known_keys: list[str] = Field(default_factory=list)


class ExtractedFact(_Out):
    source: str = Field(description="id of the turn this fact comes from")
    key: str | None = Field(description="dotted fact key such as user.timezone, or null for a free statement")
    value: Value = Field(description="the fact's value (string, number, boolean) or null")
    text: str = Field(description="one self-contained sentence stating the fact")
    kind: Literal["observation", "semantic"] = Field(
        description="observation: what was literally said or seen; semantic: a durable fact"
    )
    confidence: float = Field(ge=0, le=1, description="0..1")
    evidence: str | None = Field(
        default=None,
        description="the words of the turn the fact rests on, copied exactly; needed when the value is not said "
        "but follows from what is said",
    )


class Extraction(_Out):
    facts: list[ExtractedFact]


# ---------------------------------------------------------------------------------------------
# revisit
# ---------------------------------------------------------------------------------------------


class HeldBelief(_In):
    """A current belief shown to ``revisit``, named by its key (one belief per key in a call)."""

    key: str = Field(min_length=1)
    value: Value = None
    text: str = Field(min_length=1)
    agent: str | None = None


class RevisitInput(_In):
    turns: list[Turn]
    beliefs: list[HeldBelief]


class Revisited(_Out):
    key: str = Field(description="the key of the belief this entry is about")
    changed: bool = Field(
        description="true when the latest turn says the belief's value is no longer (or never was) true"
    )
    value: Value = Field(description="the value the latest turn gives instead, in its own words; null when unchanged")
    text: str = Field(description="one self-contained sentence stating the new value; empty when unchanged")
    evidence: str | None = Field(
        default=None, description="the words of the latest turn that say or imply the change, copied exactly"
    )


class Revisits(_Out):
    items: list[Revisited]


# ---------------------------------------------------------------------------------------------
# classify
# ---------------------------------------------------------------------------------------------


class ClassifyItem(_In):
    id: str = Field(min_length=1)
    claim: ClaimView
    candidates: list[CandidateClaim] = Field(default_factory=list)


class ClassifyInput(_In):
    items: list[ClassifyItem]


class Classification(_Out):
    item: str = Field(description="id of the classified input item")
    action: Literal["NOOP", "UPDATE", "REPLACE", "ADD"]
    relation: Literal["same", "conflict", "unrelated"]
    target_id: str | None = Field(description="id of the candidate claim acted on; null for ADD")
    rationale: str


class Classifications(_Out):
    items: list[Classification]


# ---------------------------------------------------------------------------------------------
# disambiguate
# ---------------------------------------------------------------------------------------------


class KeyItem(_In):
    id: str = Field(min_length=1)
    text: str = Field(min_length=1)
    proposed_key: str | None = None


class KeyInput(_In):
    items: list[KeyItem]
    known_keys: list[str] = Field(default_factory=list)


class KeyChoice(_Out):
    item: str = Field(description="id of the input item")
    key: str = Field(description="the chosen dotted fact key")
    is_new: bool = Field(description="true when the key is not one of the known keys")
    rationale: str


class KeyChoices(_Out):
    items: list[KeyChoice]


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def _check_extract(inp: ExtractInput, out: Extraction) -> list[str]:
    ids = {t.id for t in inp.turns}
    problems: list[str] = []
    for i, f in enumerate(out.facts):
        if f.source not in ids:
            problems.append(f"facts[{i}].source {f.source!r} is not a turn id (one of {sorted(ids)})")
        if not f.text.strip():
            problems.append(f"facts[{i}].text is empty")
        problems += _check_key(f"facts[{i}]", f.key)
    return problems


def _check_revisit(inp: RevisitInput, out: Revisits) -> list[str]:
    keys = [b.key for b in inp.beliefs]
    problems = [f"beliefs: key {k!r} is shown twice" for k in sorted({k for k in keys if keys.count(k) > 1})]
    problems += _one_per_item("key", keys, [r.key for r in out.items])
    for n, r in enumerate(out.items):
        where = f"items[{n}] ({r.key})"
        if r.changed and (r.value is None or not r.text.strip()):
            problems.append(f"{where}: a changed belief needs the new value and a sentence stating it")
    return problems


def _check_classify(inp: ClassifyInput, out: Classifications) -> list[str]:
    problems = _one_per_item("item", [i.id for i in inp.items], [c.item for c in out.items])
    by_id = {i.id: i for i in inp.items}
    for n, c in enumerate(out.items):
        item = by_id.get(c.item)
        if item is None:
            continue
        cands = {x.id for x in item.candidates}
        where = f"items[{n}] ({c.item})"
        if c.action == "ADD":
            if c.target_id is not None:
                problems.append(f"{where}: ADD takes no target_id (null)")
            if c.relation != "unrelated":
                problems.append(f"{where}: ADD means relation 'unrelated'")
        else:
            if c.target_id not in cands:
                problems.append(f"{where}: {c.action} needs target_id among the item's candidates {sorted(cands)}")
            if c.action == "NOOP" and c.relation != "same":
                problems.append(f"{where}: NOOP means relation 'same'")
            if c.action == "REPLACE" and c.relation != "conflict":
                problems.append(f"{where}: REPLACE means relation 'conflict'")
            if c.action == "UPDATE" and c.relation == "unrelated":
                problems.append(f"{where}: UPDATE needs relation 'same' or 'conflict'")
    return problems


def _check_disambiguate(inp: KeyInput, out: KeyChoices) -> list[str]:
    problems = _one_per_item("item", [i.id for i in inp.items], [c.item for c in out.items])
    known = set(inp.known_keys)
    for n, c in enumerate(out.items):
        where = f"items[{n}] ({c.item})"
        problems += _check_key(where, c.key)
        if c.is_new and c.key in known:
            problems.append(f"{where}: key {c.key!r} is a known key, so is_new must be false")
        if not c.is_new and c.key not in known:
            problems.append(f"{where}: key {c.key!r} is not a known key, so is_new must be true")
    return problems


# ---------------------------------------------------------------------------------------------
# Specs
# ---------------------------------------------------------------------------------------------


EXTRACT = JobSpec(
    "extract",
    ExtractInput,
    Extraction,
    _check_extract,
    "facts from conversation turns",
    "turns",
    "facts",
    ("source",),
    limits=JobLimits(max_tokens=384, max_tokens_per_item=256, timeout=90, timeout_per_item=40),
    keeps_valid_items=True,
)

REVISIT = JobSpec(
    "revisit",
    RevisitInput,
    Revisits,
    _check_revisit,
    "does the latest turn change a held belief extraction left alone?",
    "beliefs",
    "items",
    (),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=128, timeout=90, timeout_per_item=25),
)

CLASSIFY = JobSpec(
    "classify",
    ClassifyInput,
    Classifications,
    _check_classify,
    "a new claim against existing ones (NOOP/UPDATE/REPLACE/ADD)",
    "items",
    "items",
    ("item", "target_id"),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=192, timeout=90, timeout_per_item=30),
)

DISAMBIGUATE = JobSpec(
    "disambiguate",
    KeyInput,
    KeyChoices,
    _check_disambiguate,
    "choose an existing fact key or coin a new one",
    "items",
    "items",
    ("item",),
    limits=JobLimits(max_tokens=256, max_tokens_per_item=160, timeout=90, timeout_per_item=25),
)
