"""The programmatic grounding check: figures, dates, named values, citations."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, strategies as st

from belief_graph.llm.jobs import Answer, AnswerInput, BeliefView
from belief_graph.services.answers import grounding_check
from belief_graph.services.grounding import check_grounding, extract_figures, extract_named_values, is_unknown


@dataclass
class B:
    id: str
    text: str
    key: str | None = None
    value: object = None


BELIEFS = [
    B("b1", "The user's annual income is 85,000 euros", "user.salary", 85000),
    B("b2", "The project's launch deadline is 31 March 2027", "project.deadline", "2027-03-31"),
    B("b3", "The user lives in Porto", "user.city", "Porto"),
    B("b4", "The team holds its daily stand-up at 09:30", "project.standup", "09:30"),
]


def kinds(text: str, cites: list[str], q: str = "question?") -> list[str]:
    return [p.kind for p in check_grounding(q, BELIEFS, text, cites)]


@pytest.mark.parametrize(
    "text,cites",
    [
        ("The user earns 85,000 euros a year.", ["b1"]),
        ("The user earns 85000 euros.", ["b1"]),
        ("The user earns €85k per year.", ["b1"]),
        ("Launch is due 2027-03-31.", ["b2"]),
        ("Launch is due on March 31, 2027.", ["b2"]),
        ("Launch is due on 31/03/2027.", ["b2"]),
        ("Launch is due in March 2027.", ["b2"]),
        ("The stand-up is at 9:30 every day.", ["b4"]),
        ("She lives in Porto and earns 85,000 euros.", ["b1", "b3"]),
        ("unknown", []),
        ("Unknown.", []),
    ],
)
def test_grounded_answers_pass(text: str, cites: list[str]) -> None:
    assert kinds(text, cites) == []


@pytest.mark.parametrize(
    "text,cites,kind",
    [
        ("The user earns 90,000 euros.", ["b1"], "figure"),
        ("Income grew 5% to 85,000 euros.", ["b1"], "figure"),
        ("Launch is due 2027-04-30.", ["b2"], "figure"),
        ("Launch is due on 1 April 2027.", ["b2"], "figure"),
        ("The user lives in Porto.", ["b1"], "name"),  # Porto is a context value, not cited
        ("The user lives in Lisbon.", ["b3"], "name"),  # invented name
        ("Dana Kim approved 85,000 euros.", ["b1"], "name"),
        ("The user earns 85,000 euros.", [], "citation"),
        ("The user earns 85,000 euros.", ["b9"], "citation"),
        ("", ["b1"], "empty"),
    ],
)
def test_ungrounded_answers_fail(text: str, cites: list[str], kind: str) -> None:
    assert kind in kinds(text, cites)


def test_names_from_the_question_may_be_repeated() -> None:
    assert kinds("Alice lives in Porto.", ["b3"], q="Where does Alice live?") == []


def test_extractors() -> None:
    figs = dict(extract_figures("On 2027-03-31 at 14:30 we paid $1,200.50 (12%)"))
    assert figs["2027-03-31"] >= {"2027-03-31"} and figs["14:30"] == {"14:30"} and figs["1,200.50"] == {"1200.5"}
    assert figs["12"] == {"12"}
    assert extract_named_values('He met Bob in "New York".', ["vegetarian"]) == ["New York", "Bob"]
    assert is_unknown(" UNKNOWN. ") and not is_unknown("unknown city")


def test_answer_job_check_uses_the_grounding_check() -> None:
    inp = AnswerInput(
        question="How much?", beliefs=[BeliefView(id="b1", text=BELIEFS[0].text, key="user.salary", value=85000)]
    )
    assert grounding_check(inp, Answer(text="85,000 euros.", citations=["b1"])) == []
    assert any("figures" in p for p in grounding_check(inp, Answer(text="86,000 euros.", citations=["b1"])))


@given(st.integers(min_value=0, max_value=10**9))
def test_any_number_absent_from_the_cited_beliefs_is_rejected(n: int) -> None:
    text = f"The figure is {n:,}."
    problems = kinds(text, ["b1"])
    if n == 85000:
        assert problems == []
    else:
        assert "figure" in problems


@dataclass
class Since(B):
    since: str | None = None


@pytest.mark.parametrize("day", ["2026-12-07T01:58:12.123000+00:00", "2026-07-17T07:12:00Z", "2027-12-27 12:07"])
def test_a_beliefs_timestamp_is_a_date_and_a_time_never_loose_numbers(day: str) -> None:
    """A belief's ``since`` is shown to the reader; its day, month, year and minutes must not ground
    an invented figure ("7%" on a 7th, "12%" in December), whatever today's date."""
    salary = Since("b1", "The user's annual income is 85,000 euros", "user.salary", 85000, since=day)
    for invented in ("income grew 7% last year", "income grew 12% last year", "a 2026 bonus", "up 58 euros"):
        problems = check_grounding("q?", [salary], f"The user earns 85,000 euros, and {invented}.", ["b1"])
        assert [p.kind for p in problems] == ["figure"], (day, invented)
    assert not check_grounding("q?", [salary], f"The user earns 85,000 euros since {day[:10]}.", ["b1"])
    month = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"][int(day[5:7]) - 1]  # fmt: skip
    assert not check_grounding("q?", [salary], f"It is 85,000 euros since {month} {day[:4]}.", ["b1"])
