"""The known keys shown to the extract job: the keys stored rules read first, a rule's lookup
tables never, the rest as the registry and the closest claims give them."""

from __future__ import annotations

from belief_graph.models.rules import RuleSpec
from belief_graph.services.key_candidates import RuleKeys, candidate_keys, rule_keys


def _rule(name: str, *premises: tuple[str, str], conclusion: str = "user.derived") -> RuleSpec:
    return RuleSpec.model_validate(
        {
            "name": name,
            "premises": [{"key": k, "as": a} for k, a in premises],
            "conclusion": {"key": conclusion, "value": "{" + premises[-1][1] + "}", "text": "derived"},
        }
    )


TIMEZONE = _rule("tz", ("user.city", "city"), ("city.{city}.timezone", "tz"), conclusion="user.timezone")
OFFICE = _rule("office", ("user.employer", "org"), ("org.{org}.office_city", "oc"), conclusion="user.office_city")
HEADS = _rule("heads", ("person.{p}.citizenship", "c"), ("country.{c}.head", "h"), conclusion="person.{p}.head")


def test_fixed_premises_are_wanted_and_premises_filled_from_a_value_are_lookups() -> None:
    reads = rule_keys([TIMEZONE, OFFICE, HEADS])
    assert reads.wanted == ("user.city", "user.employer")
    assert reads.is_lookup("city.Denver.timezone") and reads.is_lookup("org.Octavo.office_city")
    assert reads.is_lookup("country.France.head")
    # a first premise with a slot is what the rule is anchored on, not a table it looks up in
    assert not reads.is_lookup("person.ada.citizenship")
    assert not reads.is_lookup("city.Denver.population") and not reads.is_lookup("user.city")


def test_candidates_put_the_wanted_keys_first_and_leave_the_lookup_tables_out() -> None:
    reads = rule_keys([TIMEZONE])
    got = candidate_keys(
        reads, ["city.Denver.timezone", "user.job", "city.Berlin.timezone"], ["user.job", "user.city"], cap=8
    )
    assert got == ["user.city", "user.job"]


def test_wanted_keys_take_at_most_half_of_the_list() -> None:
    reads = RuleKeys(wanted=tuple(f"user.k{i}" for i in range(10)))
    got = candidate_keys(reads, ["user.a", "user.b", "user.c", "user.d", "user.e"], [], cap=8)
    assert got == ["user.k0", "user.k1", "user.k2", "user.k3", "user.a", "user.b", "user.c", "user.d"]


def test_without_rules_the_list_is_the_registry_then_the_claims() -> None:
    assert candidate_keys(RuleKeys(), ["a.x", "b.y"], ["b.y", "c.z"], cap=2) == ["a.x", "b.y"]


def test_the_keys_rules_derive_and_refuse_to_have_written_are_known_by_rule() -> None:
    keys = rule_keys(
        [
            TIMEZONE,
            HEADS,
            _rule("open", ("user.a", "a"), conclusion="user.b").model_copy(update={"direct_writes": "dispute"}),
        ]
    )
    assert keys.derived_by("user.timezone") == "tz"
    assert keys.derived_by("person.ada.head") == "heads"
    assert keys.derived_by("user.b") is None  # a rule that parks direct writes as disputes lets them through
    assert keys.derived_by("user.city") is None
