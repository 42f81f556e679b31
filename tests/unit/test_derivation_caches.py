"""The rule engine's per-process caches: keyed by the stored spec, shared, bounded, read-only."""

from __future__ import annotations

import pytest

from belief_graph.services.derivation import (
    SPEC_CACHE_SIZE,
    STRATA_CACHE_SIZE,
    compiled_rule,
    strata_of,
)
from belief_graph.services.rules import parse_rule


def _raw(name: str, premise: str, conclusion: str, text: str = "t") -> str:
    spec = parse_rule(
        {
            "name": name,
            "premises": [{"key": premise, "as": "v"}],
            "conclusion": {"key": conclusion, "value": "{v}", "text": text},
        }
    )
    return spec.to_json()


def test_a_stored_spec_is_parsed_and_compiled_once() -> None:
    raw = _raw("age", "user.{u}.birth_year", "user.{u}.born")
    spec, compiled = compiled_rule(raw)
    assert compiled.variables == ["u", "v"]
    assert spec.conclude({"u": "ann", "v": 1990})[0] == 1990
    again = compiled_rule(_raw("age", "user.{u}.birth_year", "user.{u}.born"))
    assert again[0] is spec and again[1] is compiled


def test_strata_follow_the_rule_set_and_cannot_be_changed_by_a_caller() -> None:
    a = ("a", _raw("a", "x.{i}.p", "y.{i}.q"))
    b = ("b", _raw("b", "y.{i}.q", "z.{i}.r"))
    strata = strata_of((a, b))
    assert dict(strata) == {"a": 0, "b": 1}
    with pytest.raises(TypeError):
        strata["b"] = 0  # type: ignore[index]
    # an edit of a rule is a new set: b no longer reads what a concludes
    b2 = ("b", _raw("b", "w.{i}.q", "z.{i}.r"))
    assert dict(strata_of((a, b2))) == {"a": 0, "b": 0}
    assert dict(strata_of((a, b))) == {"a": 0, "b": 1}


def test_a_process_that_sees_many_rule_versions_keeps_a_bounded_number() -> None:
    # months of rule edits: every version is a new stored spec and every edit a new rule set
    compiled_rule.cache_clear()
    strata_of.cache_clear()
    versions = SPEC_CACHE_SIZE + 50
    for n in range(versions):
        raw = _raw("r", "x.{i}.p", "y.{i}.q", text=f"version {n}")
        compiled_rule(raw)
        if n < STRATA_CACHE_SIZE + 10:
            strata_of((("r", raw),))
    assert compiled_rule.cache_info().currsize == SPEC_CACHE_SIZE
    assert strata_of.cache_info().currsize == STRATA_CACHE_SIZE
