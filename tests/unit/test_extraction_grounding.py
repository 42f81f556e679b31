"""The grounding of extracted facts: what a turn states, independent of any model."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from belief_graph.services.extraction_grounding import check_fact, split_sentences, turn_kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("What's the weather like today?", "question"),
        ("what is the weather like today", "question"),  # no question mark
        ("Can you remind me to call mom", "question"),
        ("Do you think I should move to Berlin?", "question"),
        ("Any idea when the train leaves", "question"),
        ("Hi!", "small_talk"),
        ("Hello there, how are you?", "question"),
        ("Thanks a lot, that's great!", "small_talk"),
        ("ok cool", "small_talk"),
        ("Good morning! Have a nice day.", "small_talk"),
        ("I moved to Lisbon.", "statement"),
        ("Do you know I moved to Lisbon.", "statement"),  # a full stop: said, not asked
        ("Where I grew up, it rains a lot.", "statement"),
        ("Hi! I moved to Lisbon last month. How are you?", "statement"),
        ("Thanks! My deadline is Friday.", "statement"),
    ],
)
def test_turn_kind(text: str, kind: str) -> None:
    assert turn_kind(text) == kind


def test_sentences_keep_their_kind() -> None:
    kinds = [(s.text, s.kind) for s in split_sentences("Hi! I moved to Lisbon. Is it sunny there?")]
    assert kinds == [("Hi!", "small_talk"), ("I moved to Lisbon.", "statement"), ("Is it sunny there?", "question")]


@pytest.mark.parametrize(
    ("key", "value", "source"),
    [
        ("user.risk_tolerance", "cautious", "I'm pretty cautious with money, I hate picking individual stocks."),
        (
            "user.risk_tolerance",
            "aggressive",
            "Honestly, after the raise I want to be aggressive: growth funds, crypto.",
        ),
        ("user.city", "Lisbon", "Hi! I moved to Lisbon last month. How are you?"),
        ("user.city", "New York", "We live in new york now."),
        ("user.investments", "individual stocks", "I only buy individual stock picks."),
        ("user.emergency_fund_months", 3, "My emergency fund covers about three months of expenses."),
        ("user.salary", 80000, "I earn 80k a year."),
        ("user.salary", 1200.0, "Rent is 1,200 a month."),
        ("project.deadline", "2027-03-31", "The launch is due 31 March 2027."),
        ("project.budget", "$1,200", "The budget is 1200 dollars."),
        ("user.vegetarian", True, "I'm vegetarian."),
        ("user.eats_meat", False, "I don't eat meat anymore."),
        ("user.hobbies", "hiking, chess, cooking and jazz", "I love hiking, chess, cooking and live music."),
        ("user.birth_month", "May", "My birthday is in May."),  # a common word as the whole value
        ("user.vegan", "true", "I'm vegan now."),  # a boolean written as a string
    ],
)
def test_stated_values_are_grounded(key: str, value: object, source: str) -> None:
    assert check_fact(key, value, "a statement", source).grounded


@pytest.mark.parametrize(
    ("key", "value", "source", "reason"),
    [
        ("weather.today", "sunny", "What's the weather like today?", "a question"),
        ("user.mood", "happy", "Thanks, that's great!", "small talk"),
        ("user.city", "Berlin", "Should I move to Berlin? I live in Lisbon.", "missing: berlin"),
        ("user.timezone", "America/New_York", "I'm on Eastern time.", "missing: america, new, york"),
        ("user.timezone", "UTC", "My timezone is what the example says.", "missing: utc"),
        ("user.salary", 90000, "I earn 80k a year.", "no such number"),
        ("project.deadline", "2027-04-30", "The launch is due 31 March 2027.", "'2027-04-30'"),
        ("user.vegetarian", False, "I'm vegetarian.", "without a negation"),
        ("user.vegetarian", True, "I love steak.", "never mentions"),
        ("user.name", "", "My name is Ana.", "the statement is not in the turn"),
        ("user.birth_month", "May", "My birthday is in June.", "missing: may"),
        ("user.alcohol", "false", "I love spicy food.", "never mentions"),
        ("project.deadline", None, "We have two cats at home.", "key 'project.deadline' without a value"),
    ],
)
def test_values_the_turn_does_not_state_are_refused_with_a_reason(
    key: str, value: object, source: str, reason: str
) -> None:
    check = check_fact(key, value, "a statement", source)
    assert not check.grounded
    assert reason in check.reason


def test_a_key_without_a_value_is_kept_when_the_turn_talks_about_it() -> None:
    assert check_fact("user.pets", None, "The user has two cats at home", "We have two cats and other pets.").grounded


def test_statements_without_a_value_need_most_of_their_words_in_the_turn() -> None:
    src = "I'm pretty cautious with money, I hate picking individual stocks."
    assert check_fact(None, None, "The user dislikes picking individual stocks", src).grounded
    bad = check_fact(None, None, "The user enjoys sunny beaches in Portugal", src)
    assert not bad.grounded and "content words found" in bad.reason


@given(st.text(min_size=1, max_size=80))
def test_a_question_never_grounds_anything(text: str) -> None:
    # one question on one line: line breaks split a turn into sentences of their own
    one_line = " ".join(text.replace("?", " ").replace(".", " ").replace("!", " ").split())
    question = f"What about {one_line} ?"
    assert turn_kind(question) == "question"
    assert not check_fact("x.y", text, text, question).grounded
