"""Fact identity's reading of keys and its decision rules, with no model and no database."""

from __future__ import annotations

import pytest

from belief_graph.services.identity import (
    compatible,
    duplicate_pairs,
    mask_value,
    relate,
    shape,
)
from belief_graph.settings import PolicySettings

POLICY = PolicySettings()  # align 0.86, ask 0.72


def test_a_key_is_read_as_root_words_head_and_parties() -> None:
    s = shape("me.Location.HomeCities")
    assert (s.root, s.words, s.head) == ("user", ("location", "home", "city"), "city")
    assert shape("user.profile.city").core == shape("user.city").core == frozenset({"city"})
    assert shape("user.sister_age").core == shape("user.sister.age").core
    assert shape("user.pets").core == shape("user.pet").core
    assert shape("user.sister.city").parties and not shape("user.city").parties
    assert shape("user.mom.city").parties == shape("user.mother.city").parties  # one party, two words


@pytest.mark.parametrize(
    ("text", "value", "masked"),
    [
        ("The user lives in Porto.", "Porto", "The user lives in something ."),
        ("The user's sister turns 30 in May.", 30, "The user's sister turns something in May."),
        ("The user works at Lumen Labs.", "Lumen Labs", "The user works at something ."),
        ("The user is vegetarian.", True, "The user is vegetarian."),
        ("Budget: 1,200 euros a month", 1200, "Budget: something euros a month"),
        # the value's words said in the plural are the value
        ("The user trains on Tuesdays and Saturdays.", "Tuesday and Saturday", "The user trains on something ."),
    ],
)
def test_the_value_is_masked_out_of_the_statement(text: str, value: object, masked: str) -> None:
    assert mask_value(text, value) == masked


@pytest.mark.parametrize(
    ("proposed", "existing", "similarity", "same", "relation"),
    [
        ("user.pets", "user.pet", 0.1, False, "same_attribute"),  # plural, whatever the statements say
        ("user.profile.city", "user.city", 0.1, False, "same_attribute"),  # a container word
        ("user.sister_age", "user.sister.age", 0.1, False, "same_attribute"),  # a separator
        ("user.company", "user.employer", 0.95, False, "same_statement"),  # a synonym, the same statement
        ("user.location.city", "user.city", 0.9, False, "same_statement"),
        ("user.location.city", "user.city", 0.75, False, "related"),  # not sure: asked
        ("user.work_city", "user.home_city", 0.99, False, "related"),  # siblings: never sure
        ("user.work_laptop", "user.personal_laptop", 0.95, True, "related"),
        ("user.hometown", "user.city", 0.8, True, "restated"),  # the same value said again
        ("user.pet_count", "user.kids", 0.3, True, "unrelated"),  # the same value alone proves nothing
        ("user.car.price", "user.car_budget", 0.5, False, "unrelated"),
    ],
)
def test_relations(proposed: str, existing: str, similarity: float, same: bool, relation: str) -> None:
    assert relate(shape(proposed), shape(existing), similarity, same, POLICY) == relation


def test_facts_of_other_people_other_roots_or_other_types_are_never_candidates() -> None:
    assert not compatible(shape("user.city"), shape("user.sister.city"), "Lyon", "string")
    assert not compatible(shape("user.age"), shape("user.daughter.age"), 7, "number")
    assert not compatible(shape("user.deadline"), shape("project.deadline"), "Friday", "string")
    assert not compatible(shape("user.age"), shape("user.age_group"), 30, "string")
    assert compatible(shape("me.city"), shape("user.city"), "Porto", "string")
    assert compatible(shape("user.mom.city"), shape("user.mother.city"), "Cardiff", None)


def test_the_same_attribute_in_the_same_words_is_one_fact_whatever_the_value_type() -> None:
    # "max €8,000" stored a string, "12k now" proposes a number under the plural key: one budget
    assert compatible(shape("user.car_budgets"), shape("user.car_budget"), 12000, "string")
    assert relate(shape("user.car_budgets"), shape("user.car_budget"), 0.5, False, POLICY) == "same_attribute"
    # other words stay kept apart by type: a number is not a city or an age group
    assert not compatible(shape("user.age"), shape("user.age_group"), 30, "string")
    assert not compatible(shape("user.city_count"), shape("user.city"), 3, "string")


def test_a_party_named_in_general_terms_may_be_the_precise_one_but_only_the_model_can_tell() -> None:
    kid, daughter = shape("user.kid.name"), shape("user.daughter.name")
    assert compatible(kid, daughter, "Mila", "string")
    assert relate(kid, daughter, 0.99, True, POLICY) == "related"  # asked, never aligned by itself
    assert not compatible(shape("user.son.name"), daughter, "Mila", "string")


def test_likely_duplicates_are_pairs_of_current_beliefs_the_rules_call_one_fact() -> None:
    def rows(*facts: tuple[str, object, str]) -> list[dict[str, object]]:
        return [{"key": k, "current": {"value": v, "text": t}} for k, v, t in facts]

    def embed(texts: list[str]) -> list[list[float]]:  # one direction per distinct masked statement
        kinds = sorted(set(texts))
        return [[1.0 if kinds.index(t) == i else 0.0 for i in range(len(kinds))] for t in texts]

    found = duplicate_pairs(
        rows(
            ("user.city", "Porto", "The user lives in Porto."),
            ("user.location.city", "Lisbon", "The user lives in Lisbon."),
            ("user.sister.city", "Lyon", "The user lives in Lyon."),  # a party of its own: not a duplicate
            ("user.pets", "cat", "The user has a cat."),
            ("user.pet", "dog", "The user owns a dog."),
        ),
        embed,
        POLICY,
    )
    assert found == [
        ("user.city", "user.location.city", "same_statement", 1.0),
        ("user.pet", "user.pets", "same_attribute", 0.0),
    ]


@pytest.mark.parametrize(
    ("value", "held", "fitted"),
    [
        ("1,350", "number", 1350),
        ("€8,000", "number", 8000),
        ("12k", "number", 12000),
        ("six", "number", 6),
        ("about 1400 euros", "number", None),  # not exactly a number
        ("yes", "boolean", True),
        (7, "string", "7"),
    ],
)
def test_a_value_fits_a_type_only_when_it_says_exactly_that(value: object, held: str, fitted: object) -> None:
    from belief_graph.services.identity import fit_value

    assert fit_value(value, held) == fitted


def test_a_bare_key_names_the_one_fact_whose_words_say_the_same_attribute() -> None:
    from belief_graph.services.identity import identify_key

    rows = [
        {"key": k}
        for k in ("user.pets", "project.atlas.about.deadline", "user.sister.city", "user.home_city", "user.work_city")
    ]
    assert identify_key("user.pet", rows) == "user.pets"
    assert identify_key("project.atlas.deadline", rows) == "project.atlas.about.deadline"
    assert identify_key("user.city", rows) is None  # home or work: two fit, none is chosen
    assert identify_key("user.sister.city", rows) == "user.sister.city"
    assert identify_key("user.brother.city", rows) is None  # another party


@pytest.mark.parametrize(
    ("key", "fixed"),
    [
        ("user.sister.birthday", True),
        ("user.blood_type", True),
        ("user.native_language", True),
        ("user.mother_tongue", True),
        ("user.city", False),
        ("user.wedding_date", False),  # a planned date can move
        ("user.father.age", False),
    ],
)
def test_facts_that_cannot_change(key: str, fixed: bool) -> None:
    from belief_graph.services.identity import fixed_attribute

    assert fixed_attribute(key) is fixed


@pytest.mark.parametrize(
    ("key", "old", "new", "redated"),
    [
        ("user.education.graduation_years", 2012, 2016, True),  # graduated in 2012, later "finished in 2016"
        ("user.job.start_year", 2018, 2023, True),
        ("user.start_date", "2018-03-01", "2023-03-01", True),
        ("user.job.start_year", 2018, 2018, False),  # the same year: no contradiction
        ("user.graduation_year", 2026, 2027, False),  # a planned graduation moved: it had not happened
        ("user.city", 2012, 2016, False),  # not the date of an event
        ("user.move_year", 2012, 2016, False),  # moving again is an update
    ],
)
def test_past_event_redated(key: str, old: object, new: object, redated: bool) -> None:
    from datetime import UTC, datetime

    from belief_graph.services.identity import past_event_redated

    assert past_event_redated(key, old, new, datetime(2026, 6, 1, tzinfo=UTC)) is redated


@pytest.mark.parametrize(
    ("key", "old", "new", "months", "went_back"),
    [
        ("user.father.age", 70, 65, 1, True),  # "My dad's 70", weeks later "Dad's only 65"
        ("user.age", "30 years old", "29", 0, True),
        ("user.daughter.age", 5, 6, 6, False),  # a birthday in between
        ("user.daughter.age", 5, 8, 6, True),  # three years older in six months
        ("user.son.age", 4, 7, 36, False),
        ("user.dog.age", "10 weeks", "20 weeks", 2, False),  # not in years: no rule
        ("user.team.size", 7, 4, 1, False),  # not an age
    ],
)  # fmt: skip
def test_age_went_back(key: str, old: object, new: object, months: int, went_back: bool) -> None:
    from datetime import UTC, datetime, timedelta

    from belief_graph.services.identity import age_went_back

    then = datetime(2026, 1, 12, tzinfo=UTC)
    assert age_went_back(key, old, new, then, then + timedelta(days=30.5 * months)) is went_back
