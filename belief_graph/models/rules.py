"""Derivation rules (DESIGN.md, "Derivation rules"): the spec a user writes, its compiled form
stored on the ``Rule`` node, and what crosses the repository boundary.

A rule is a chain of premises chosen by key pattern and **joined on values**: the first premise's
key may hold variables (``work.{w}.performer``), which pick the rule's *instances*; every later
premise's key is a template over variables bound before it, either a segment of the first key or
the value of an earlier premise (``person.{performer}.citizenship``). The conclusion's key uses the
first premise's variables only, so each instance derives exactly one key::

    RuleSpec.model_validate({
        "name": "performer_head_of_state",
        "premises": [
            {"key": "work.{w}.performer", "as": "performer"},
            {"key": "person.{performer}.citizenship", "as": "country"},
            {"key": "country.{country}.head_of_state", "as": "head"},
        ],
        "conclusion": {
            "key": "work.{w}.performer_head_of_state",
            "value": "{head}",
            "text": "The head of state of the country of citizenship of the performer of {w} is {head}.",
        },
    })

Templates: ``{name}`` is a variable; in texts ``{{`` and ``}}`` are literal braces. A value
template that is exactly one variable keeps the premise value's type (number, boolean); any other
template gives a string; a value without variables is a constant. See docs/rules.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .beliefs import Claim, Value

__all__ = [
    "MAX_PREMISES",
    "CompiledRule",
    "RuleConclusion",
    "RuleInfo",
    "RuleInstanceInfo",
    "RulePremise",
    "RuleRun",
    "RuleSpec",
    "format_template",
    "patterns_intersect",
    "rule_edges",
    "rule_strata",
]

MAX_PREMISES = 8
"""The longest chain one rule may join (hops = premises)."""

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]{0,63}$")
_VAR_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
_SEG_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_\-]*$")
_SEG_VAR_RE = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]{0,63})\}$")
_TEXT_VAR_RE = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]{0,63})\}|[{}]")
_KEY_SEGMENT = r"[A-Za-z0-9_][A-Za-z0-9_\-]*"

Segment = str | None
"""A compiled key pattern segment: a literal, or ``None`` for a variable (any one segment)."""


def _segments(template: str, what: str) -> list[tuple[str, bool]]:
    """``[(literal or variable name, is_variable)]`` of a key template, validated."""
    if not isinstance(template, str) or not template or len(template) > 256:
        raise ValueError(f"{what}: a dotted key template of 1-256 characters")
    out: list[tuple[str, bool]] = []
    for seg in template.split("."):
        m = _SEG_VAR_RE.match(seg)
        if m:
            out.append((m.group(1), True))
        elif _SEG_RE.match(seg):
            out.append((seg, False))
        else:
            raise ValueError(
                f"{what}: segment {seg!r} of {template!r} is neither a key segment (letters, digits, _ and -) "
                "nor a whole-segment variable like {name}"
            )
    return out


def _text_vars(template: str) -> list[str]:
    """The variables a text template uses (``{{``/``}}`` are literal braces); a lone brace is an error."""
    names: list[str] = []
    for m in _TEXT_VAR_RE.finditer(template):
        tok = m.group(0)
        if tok in ("{{", "}}"):
            continue
        if m.group(1) is None:
            raise ValueError(f"a lone {tok!r} in {template!r}: write {{{{ or }}}} for a literal brace")
        names.append(m.group(1))
    return names


def format_template(template: str, binds: dict[str, Value]) -> str:
    """Fill ``{name}`` from ``binds`` (strings of the values); ``{{``/``}}`` are literal braces."""

    def sub(m: re.Match[str]) -> str:
        tok = m.group(0)
        if tok == "{{":
            return "{"
        if tok == "}}":
            return "}"
        return _render(binds[m.group(1)])

    return _TEXT_VAR_RE.sub(sub, template)


def _render(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(value)
    return "" if value is None else str(value)


def patterns_intersect(a: list[Segment], b: list[Segment]) -> bool:
    """Whether some key matches both patterns (same length, literals equal where both are literal)."""
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


def rule_edges(rules: dict[str, CompiledRule]) -> dict[str, list[str]]:
    """The rule graph: R -> S when R's conclusion can be a premise of S."""
    return {
        r: sorted(
            s
            for s, cs in rules.items()
            if any(patterns_intersect(cr.conclusion_pattern, p) for p in cs.premise_patterns)
        )
        for r, cr in rules.items()
    }


def rule_strata(rules: dict[str, CompiledRule]) -> dict[str, int]:
    """Each rule's stratum in an acyclic rule graph: 0 when no rule can feed it, else one more than
    the highest stratum of the rules that can. Re-evaluating a change stratum by stratum reads
    every premise after the rules that can change it have run, so each derived key gets one new
    version per change, from its final premises (a diamond, R -> S and R -> T -> S, would otherwise
    write S from T's old value and again from its new one)."""
    feeds: dict[str, list[str]] = {r: [] for r in rules}
    for r, targets in rule_edges(rules).items():
        for s in targets:
            feeds[s].append(r)
    strata: dict[str, int] = {}

    def stratum(n: str, depth: int = 0) -> int:
        if n not in strata:
            if depth > len(rules):
                raise ValueError(f"the rules form a cycle through {n!r}")
            strata[n] = max((stratum(m, depth + 1) + 1 for m in feeds[n]), default=0)
        return strata[n]

    for n in sorted(rules):
        stratum(n)
    return strata


class RulePremise(BaseModel):
    """One premise: a fact chosen by its key template; its value is bound to ``as``."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid")
    key: str
    as_: str = Field(alias="as")


class RuleConclusion(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    """A key template over the first premise's variables only."""
    value: str | int | float | bool
    """A template (``"{head}"``) or a constant."""
    text: str = Field(min_length=1, max_length=2000)
    """The derived claim's statement, a template."""


class RuleSpec(BaseModel):
    """A derivation rule as a user writes it (YAML, JSON or Python)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    description: str | None = Field(default=None, max_length=2000)
    premises: list[RulePremise] = Field(min_length=1, max_length=MAX_PREMISES)
    conclusion: RuleConclusion
    direct_writes: Literal["refuse", "dispute"] = "refuse"
    """What a direct write (``assert_claim``, ``derive``) to a key this rule derives does:
    ``refuse`` (a typed error naming the rule) or ``dispute`` (the write is parked as a disputed
    challenger of the derived belief, with an open ``Dispute``)."""

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME_RE.match(v):
            raise ValueError("a rule name is 1-64 characters: a letter, then letters, digits, _ and -")
        return v

    @model_validator(mode="after")
    def _variables(self) -> RuleSpec:
        self.compile()  # every check lives in one place
        return self

    def compile(self) -> CompiledRule:
        """Check the variables and compile the templates to slot form (``{0}``, ``{1}``, ...)."""
        slots: dict[str, int] = {}
        anchor = _segments(self.premises[0].key, "premise 1 key")
        anchor_pos: list[int] = []
        for i, (name, is_var) in enumerate(anchor):
            if is_var:
                if name in slots:
                    raise ValueError(f"variable {{{name}}} appears twice in the first premise's key")
                slots[name] = len(slots)
                anchor_pos.append(i)
        anchor_vars = list(slots)
        premise_keys: list[str] = []
        patterns: list[list[Segment]] = []
        for n, p in enumerate(self.premises, start=1):
            segs = _segments(p.key, f"premise {n} key")
            compiled: list[str] = []
            pattern: list[Segment] = []
            for name, is_var in segs:
                if is_var:
                    if name not in slots:
                        raise ValueError(f"premise {n} key uses {{{name}}} before it is bound")
                    compiled.append("{" + str(slots[name]) + "}")
                    pattern.append(None)
                else:
                    compiled.append(name)
                    pattern.append(name)
            premise_keys.append(".".join(compiled))
            patterns.append(pattern)
            if not _VAR_RE.match(p.as_):
                raise ValueError(f"premise {n}: 'as' must be a variable name, got {p.as_!r}")
            if p.as_ in slots:
                raise ValueError(f"premise {n}: variable {{{p.as_}}} is already bound")
            slots[p.as_] = len(slots)
        ckey = _segments(self.conclusion.key, "conclusion key")
        c_compiled: list[str] = []
        c_pattern: list[Segment] = []
        for name, is_var in ckey:
            if is_var:
                if name not in anchor_vars:
                    raise ValueError(
                        f"the conclusion key may use only the first premise's variables ({', '.join(anchor_vars) or 'none'}), "
                        f"not {{{name}}}: each instance must derive one fixed key"
                    )
                c_compiled.append("{" + str(slots[name]) + "}")
                c_pattern.append(None)
            else:
                c_compiled.append(name)
                c_pattern.append(name)
        for what, template in (
            ("conclusion text", self.conclusion.text),
            ("conclusion value", self.conclusion.value if isinstance(self.conclusion.value, str) else ""),
        ):
            for name in _text_vars(template):
                if name not in slots:
                    raise ValueError(f"{what} uses {{{name}}}, which no premise binds")
        if isinstance(self.conclusion.value, float) and self.conclusion.value != self.conclusion.value:
            raise ValueError("conclusion value must not be NaN")
        if any(patterns_intersect(c_pattern, p) for p in patterns):
            raise ValueError("the conclusion key matches one of the rule's own premises (a rule may not feed itself)")
        anchor_regex = "^" + r"\.".join(_KEY_SEGMENT if is_var else re.escape(name) for name, is_var in anchor) + "$"
        conclusion_regex = "^" + r"\.".join(_KEY_SEGMENT if s is None else re.escape(s) for s in c_pattern) + "$"
        return CompiledRule(
            name=self.name,
            variables=list(slots),
            anchor_vars=anchor_vars,
            anchor_pos=anchor_pos,
            anchor_regex=anchor_regex,
            premise_keys=premise_keys,
            premise_patterns=patterns,
            conclusion_key=".".join(c_compiled),
            conclusion_pattern=c_pattern,
            conclusion_regex=conclusion_regex,
        )

    def conclude(self, binds: dict[str, Value]) -> tuple[Value, str]:
        """The conclusion's value and text for one instance's bound variables."""
        v = self.conclusion.value
        if isinstance(v, str):
            names = _text_vars(v)
            if len(names) == 1 and v == "{" + names[0] + "}":
                value: Value = binds[names[0]]
            else:
                value = format_template(v, binds)
        else:
            value = v
        return value, format_template(self.conclusion.text, binds)

    def to_json(self) -> str:
        return json.dumps(self.model_dump(by_alias=True, exclude_none=True), sort_keys=True)


@dataclass(frozen=True)
class CompiledRule:
    """What the engine stores on the ``Rule`` node and evaluates in Cypher."""

    name: str
    variables: list[str]
    """Slot order: the first premise's key variables, then each premise's ``as``."""
    anchor_vars: list[str]
    anchor_pos: list[int]
    """For each anchor variable, the index of its segment in the first premise's key."""
    anchor_regex: str
    premise_keys: list[str]
    """Key templates in slot form: ``person.{1}.citizenship``."""
    premise_patterns: list[list[Segment]]
    conclusion_key: str
    conclusion_pattern: list[Segment]
    conclusion_regex: str


class RuleInfo(BaseModel):
    """A stored rule version."""

    model_config = ConfigDict(frozen=True)
    name: str
    version: int
    status: Literal["active", "replaced", "removed"]
    spec: RuleSpec
    created_at: str | None = None
    instances: int = 0
    resolved: int = 0
    unresolved: int = 0

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> RuleInfo:
        r = row["rule"]
        return cls(
            name=r["name"],
            version=int(r["version"]),
            status=r["status"],
            spec=RuleSpec.model_validate_json(r["spec"]),
            created_at=r.get("created_at"),
            instances=int(row.get("instances") or 0),
            resolved=int(row.get("resolved") or 0),
            unresolved=int(row.get("unresolved") or 0),
        )


class RuleInstanceInfo(BaseModel):
    """One instance of a rule: the key it derives, whether its join resolves, and its belief."""

    model_config = ConfigDict(frozen=True)
    rule: str
    key: str
    status: Literal["new", "resolved", "unresolved"]
    anchor: list[str] = Field(default_factory=list)
    reads: list[str] = Field(default_factory=list)
    """The premise keys its last evaluation read, in chain order."""
    missing: str | None = None
    """For an unresolved instance: the first premise key without a current belief."""
    belief: Claim | None = None
    """The derived key's current claim (any status)."""


class RuleRun(BaseModel):
    """What one re-evaluation did (``derive_by_rule``, ``add_rule``)."""

    rule: str
    evaluated: int = 0
    rederived: list[Claim] = Field(default_factory=list)
    """New versions written (their keys' previous versions superseded)."""
    justified: int = 0
    """Instances whose value did not change but whose premises did: a new justification."""
    unchanged: int = 0
    unresolved: list[RuleInstanceInfo] = Field(default_factory=list)
    audit: str | None = None
