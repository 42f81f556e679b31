"""Derivation rule specs: validation, compilation to slot templates, conclusions, rule-graph checks."""

from __future__ import annotations

import re

import pytest

from belief_graph.errors import ValidationError
from belief_graph.models.rules import CompiledRule, RuleSpec, format_template, patterns_intersect, rule_strata
from belief_graph.services.rules import _cycle, _prefix, parse_rule

HEAD_OF_STATE = {
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
}


def test_compiles_a_multi_hop_join_to_slot_templates() -> None:
    c = parse_rule(HEAD_OF_STATE).compile()
    assert c.variables == ["w", "performer", "country", "head"]
    assert c.anchor_pos == [1]
    assert c.premise_keys == ["work.{0}.performer", "person.{1}.citizenship", "country.{2}.head_of_state"]
    assert c.conclusion_key == "work.{0}.performer_head_of_state"
    assert re.match(c.anchor_regex, "work.w17.performer")
    assert not re.match(c.anchor_regex, "work.w17.performer.x")
    assert not re.match(c.anchor_regex, "work.a.b.performer")
    assert re.match(c.conclusion_regex, "work.w17.performer_head_of_state")
    assert c.premise_patterns[1] == ["person", None, "citizenship"]


def test_conclusion_keeps_the_premise_value_type_for_a_single_variable() -> None:
    spec = parse_rule(
        {
            "name": "age",
            "premises": [{"key": "user.{u}.birth_year", "as": "y"}],
            "conclusion": {"key": "user.{u}.born", "value": "{y}", "text": "{u} was born in {y} ({{approx}})"},
        }
    )
    value, text = spec.conclude({"u": "ann", "y": 1990})
    assert value == 1990 and isinstance(value, int)
    assert text == "ann was born in 1990 ({approx})"
    spec2 = spec.model_copy(update={"conclusion": spec.conclusion.model_copy(update={"value": "born {y}"})})
    assert spec2.conclude({"u": "ann", "y": 1990})[0] == "born 1990"
    spec3 = spec.model_copy(update={"conclusion": spec.conclusion.model_copy(update={"value": True})})
    assert spec3.conclude({"u": "ann", "y": 1990})[0] is True
    assert format_template("{a} and {b}", {"a": True, "b": 2.0}) == "true and 2.0"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"name": "1bad"}, "rule name"),
        ({"premises": []}, "at least 1"),
        ({"premises": [{"key": "work.{w}.performer", "as": "w"}]}, "already bound"),
        (
            {"premises": [{"key": "work.{w}.performer", "as": "p"}, {"key": "person.{nobody}.citizenship", "as": "c"}]},
            "before it is bound",
        ),
        ({"premises": [{"key": "work.{w}.{w}", "as": "c"}]}, "twice"),
        ({"premises": [{"key": "work.x{w}.performer", "as": "c"}]}, "whole-segment variable"),
        ({"premises": [{"key": "work..performer", "as": "c"}]}, "segment"),
        ({"premises": [{"key": "work.{w}.performer", "as": "bad name"}]}, "variable name"),
        ({"conclusion": {"key": "work.{head}.x", "value": "{head}", "text": "t"}}, "first premise's variables"),
        ({"conclusion": {"key": "work.{w}.x", "value": "{nope}", "text": "t"}}, "no premise binds"),
        ({"conclusion": {"key": "work.{w}.x", "value": "{head}", "text": "a { b"}}, "lone"),
        ({"conclusion": {"key": "work.{w}.performer", "value": "{head}", "text": "t"}}, "feed itself"),
        ({"direct_writes": "allow"}, "direct_writes"),
        ({"extra": 1}, "extra"),
        ({"premises": [{"key": f"k{i}.{{w}}" if i == 0 else f"k{i}.x", "as": f"v{i}"} for i in range(9)]}, "at most 8"),
    ],
)
def test_bad_specs_are_typed_errors(change: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValidationError, match=re.compile(message, re.I)):
        parse_rule({**HEAD_OF_STATE, **change})


def test_parse_rule_refuses_non_mappings() -> None:
    with pytest.raises(ValidationError, match="mapping"):
        parse_rule(["not", "a", "rule"])


def test_round_trip_through_stored_json() -> None:
    spec = parse_rule(HEAD_OF_STATE)
    assert RuleSpec.model_validate_json(spec.to_json()) == spec


def test_patterns_intersect_segment_by_segment() -> None:
    assert patterns_intersect(["user", None, "tz"], ["user", "ann", None])
    assert not patterns_intersect(["user", None, "tz"], ["org", None, "tz"])
    assert not patterns_intersect(["user", None], ["user", None, "tz"])


def test_rule_graph_cycles_are_found() -> None:
    a = parse_rule(
        {
            "name": "a",
            "premises": [{"key": "x.{i}.p", "as": "v"}],
            "conclusion": {"key": "y.{i}.q", "value": "{v}", "text": "t"},
        }
    ).compile()
    b = parse_rule(
        {
            "name": "b",
            "premises": [{"key": "y.{i}.q", "as": "v"}],
            "conclusion": {"key": "z.{i}.r", "value": "{v}", "text": "t"},
        }
    ).compile()
    c = parse_rule(
        {
            "name": "c",
            "premises": [{"key": "z.{i}.r", "as": "v"}],
            "conclusion": {"key": "x.{i}.p", "value": "{v}", "text": "t"},
        }
    ).compile()
    assert _cycle({"a": a, "b": b}) is None
    assert _cycle({"a": a, "b": b, "c": c}) == ["a", "b", "c", "a"]


def _rule(name: str, premises: list[str], conclusion: str) -> CompiledRule:
    return parse_rule(
        {
            "name": name,
            "premises": [{"key": k, "as": f"v{n}"} for n, k in enumerate(premises)],
            "conclusion": {"key": conclusion, "value": "{v0}", "text": "t"},
        }
    ).compile()


def test_rule_strata_put_every_rule_after_the_rules_that_can_feed_it() -> None:
    # a diamond (b and c both from a's conclusion, d from both) and a rule no other rule feeds
    rules = {
        "a": _rule("a", ["x.{i}.p"], "y.{i}.q"),
        "b": _rule("b", ["y.{i}.q"], "z.{i}.r"),
        "c": _rule("c", ["x.{i}.p", "y.{i}.q", "z.{i}.r"], "w.{i}.s"),
        "d": _rule("d", ["w.{i}.s"], "v.{i}.t"),
        "lone": _rule("lone", ["k.{i}.p"], "k.{i}.q"),
    }
    assert rule_strata(rules) == {"a": 0, "b": 1, "c": 2, "d": 3, "lone": 0}
    loop = {**rules, "e": _rule("e", ["v.{i}.t"], "x.{i}.p")}
    with pytest.raises(ValueError, match="cycle"):
        rule_strata(loop)


def test_anchor_prefix_for_the_index() -> None:
    c = parse_rule(HEAD_OF_STATE).compile()
    assert _prefix(c.anchor_regex) == "work."
    plain = parse_rule(
        {
            "name": "p",
            "premises": [{"key": "user.employer", "as": "e"}],
            "conclusion": {"key": "user.x", "value": "{e}", "text": "t"},
        }
    ).compile()
    assert _prefix(plain.anchor_regex) == "user.employer"
