"""Grounded answers: threshold unknowns without an LLM call, the programmatic grounding
check with one repair, citations of active context beliefs only. Real Neo4j, real MiniLM,
scripted chat model."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.driver import Graph
from belief_graph.llm import ScriptedModel
from belief_graph.settings import Settings


@pytest.fixture()
def model() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture()
def abg(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, model: ScriptedModel
) -> Iterator[BeliefGraph]:
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        b.assert_claim("user.salary", 85000, "The user's annual income is 85,000 euros", agent="user:ana")
        b.assert_claim(
            "project.deadline", "2027-03-31", "The project's launch deadline is 31 March 2027", agent="agent:pm"
        )
        b.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:ana")
        b.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:ana")  # Lisbon superseded
        yield b


def _id(bg: BeliefGraph, key: str) -> str:
    c = bg.belief(key)
    assert c is not None
    return c.id


def test_unknown_without_llm_call_when_nothing_is_similar(abg: BeliefGraph, model: ScriptedModel) -> None:
    r = abg.answer("What is the boiling point of mercury?")
    assert r.status == "unknown" and r.text == "unknown"
    assert r.llm_calls == 0 and model.calls == [] and abg.llm_usage().llm.calls == 0
    assert "threshold" in r.reason and r.best_similarity is not None and r.best_similarity < r.threshold
    assert [c.name for c in r.checks] == ["similarity_threshold"]


def test_unknown_without_llm_call_in_an_empty_space(bg: BeliefGraph) -> None:
    r = bg.answer("How much does the user earn?")
    assert r.status == "unknown" and r.llm_calls == 0 and "no active belief" in r.reason
    assert bg.llm_usage().llm.calls == 0


def test_grounded_answer_with_cited_figures_is_accepted(abg: BeliefGraph, model: ScriptedModel) -> None:
    salary = _id(abg, "user.salary")
    model.add("answer", {"text": "The user earns 85,000 euros a year.", "citations": [salary]})
    r = abg.answer("How much does the user earn per year?")
    assert r.status == "answered", r.reason
    assert r.text == "The user earns 85,000 euros a year." and r.citations == [salary]
    assert r.llm_calls == 1 and abg.llm_usage().llm.calls_for("answer") == 1
    assert [c.id for c in r.cited] == [salary] and all(c.ok for c in r.checks)
    assert r.context is not None and salary in r.context.claim_ids


def test_date_in_another_format_is_grounded(abg: BeliefGraph, model: ScriptedModel) -> None:
    d = _id(abg, "project.deadline")
    model.add("answer", {"text": "The launch is due on 2027-03-31 (March 31, 2027).", "citations": [d]})
    r = abg.answer("When is the project launch due?")
    assert r.status == "answered", r.reason


def test_invented_figure_is_rejected_after_one_repair(abg: BeliefGraph, model: ScriptedModel) -> None:
    salary = _id(abg, "user.salary")
    bad = {"text": "The user earns 85,000 euros, and income grew 7% last year.", "citations": [salary]}
    model.add("answer", bad)
    r = abg.answer("How much does the user earn per year?")
    assert r.llm_calls == 2  # the answer and exactly one repair
    repair = model.calls_for("answer")[1]
    assert "7" in repair.messages[-1].content and "no cited belief" in repair.messages[-1].content
    # the invented answer is refused; the context's belief that says what was asked answers instead
    (grounding,) = [c for c in r.checks if c.name == "grounding"]
    assert not grounding.ok and "7" in grounding.detail
    assert r.status == "answered" and "85,000" in r.text and r.text == r.cited[0].text  # a belief's own words
    assert "failed the grounding check" in next(c.detail for c in r.checks if c.name == "extractive")


def test_unknown_from_the_model_is_not_the_answer_when_the_context_holds_it(
    abg: BeliefGraph, model: ScriptedModel
) -> None:
    salary = _id(abg, "user.salary")
    abg.beliefs.add_agent("user:amara", kind="user")
    model.add("answer", {"text": "unknown", "citations": []})
    r = abg.answer("How much does Amara earn per year?")  # the user by name
    assert r.status == "answered" and r.citations == [salary]
    assert [c.name for c in r.checks][-2:] == ["extractive", "citations_active"]
    off = abg.answer("What is the capital of Mongolia?")  # nothing in memory says it
    assert off.status == "unknown"


def test_an_extractive_answer_is_about_whom_the_question_asks(abg: BeliefGraph, model: ScriptedModel) -> None:
    """A statement about the user's uncle does not answer a question about the user, whatever key a
    model stored it under (here a key of the user's own)."""
    abg.assert_claim("user.diet_note", "vegetarian", "The user's uncle is vegetarian", agent="user:ana")
    model.add("answer", {"text": "unknown", "citations": []}, {"text": "unknown", "citations": []})
    r = abg.answer("Is the user vegetarian?")
    assert r.status == "unknown", r.text
    abg.assert_claim("user.uncle.diet", "vegetarian", "The user's uncle is vegetarian", agent="user:ana")
    uncle = abg.answer("Is the user's uncle vegetarian?")
    assert uncle.status == "answered" and uncle.text == "The user's uncle is vegetarian"


def test_the_reader_is_shown_the_beliefs_about_whom_the_question_asks(abg: BeliefGraph, model: ScriptedModel) -> None:
    """A question about the user is not shown what is said of the user's uncle (a reader takes it for
    the user's own); a question about the uncle, or one that names nobody, is shown it."""
    uncle = abg.assert_claim("user.uncle.diet", "vegetarian", "The user's uncle is vegetarian", agent="user:ana")
    also = abg.assert_claim("user.diet_note", "vegetarian", "The user's aunt is vegetarian too", agent="user:ana")
    model.add("answer", {"text": "unknown", "citations": []})
    r = abg.answer("Is Ana vegetarian?")
    shown = {b["id"] for b in model.calls_for("answer")[-1].inputs["beliefs"]}
    assert uncle.claim.id not in shown and also.claim.id not in shown and shown, shown
    assert r.status == "unknown" and r.context is not None
    assert {i.claim.id for i in r.context.items} == shown  # the context returned is what the reader read
    for question in ("Is the user's uncle vegetarian?", "Who in the family is vegetarian?"):
        abg.answer(question)
        assert uncle.claim.id in {b["id"] for b in model.calls_for("answer")[-1].inputs["beliefs"]}, question


def test_a_question_about_the_user_with_only_other_people_s_beliefs_is_unknown_without_a_call(
    bg: BeliefGraph,
) -> None:
    model = ScriptedModel()
    with BeliefGraph.connect(space=bg.space, settings=bg.settings, embedder=bg.embedder, chat_model=model) as b:
        b.assert_claim("user.uncle.diet", "vegetarian", "The user's uncle is vegetarian", agent="user:nadia")
        r = b.answer("Is Nadia vegetarian?")
    assert r.status == "unknown" and model.calls == [], r.reason
    assert "about other people" in r.reason and r.context is not None and r.context.items == []


def test_the_user_s_name_reads_as_the_user(abg: BeliefGraph, model: ScriptedModel) -> None:
    from belief_graph.services.answers import as_user

    assert as_user("Which gym is Amara a member of? Amara's sister?", ["amara"]) == (
        "Which gym is the user a member of? the user's sister?"
    )
    abg.beliefs.add_agent("user:maya_lopez", kind="user")
    abg.beliefs.add_agent("agent:crm", kind="agent")
    names = abg.retrieval.user_names()
    assert {"maya lopez", "maya", "lopez"} <= set(names) and "crm" not in names


def test_repair_that_fixes_the_answer_is_accepted(abg: BeliefGraph, model: ScriptedModel) -> None:
    salary = _id(abg, "user.salary")
    model.add(
        "answer",
        {"text": "Income grew to 90,000 euros.", "citations": [salary]},
        {"text": "The user's annual income is 85,000 euros.", "citations": [salary]},
    )
    r = abg.answer("How much does the user earn per year?")
    assert r.status == "answered" and r.llm_calls == 2


def test_named_value_must_be_in_a_cited_belief(abg: BeliefGraph, model: ScriptedModel) -> None:
    salary = _id(abg, "user.salary")
    model.add("answer", {"text": "The user lives in Porto.", "citations": [salary]})
    r = abg.answer("Where does the user live and how much does she earn?")
    (grounding,) = [c for c in r.checks if c.name == "grounding"]
    assert not grounding.ok and "Porto" in grounding.detail and r.llm_calls == 2
    # the model's answer is never given as it was; an answer now is a context belief's own statement
    assert r.status == "unknown" or (len(r.cited) == 1 and r.text == r.cited[0].text)


def test_citation_outside_the_context_is_rejected(abg: BeliefGraph, model: ScriptedModel) -> None:
    lisbon = next(v.claim.id for v in abg.beliefs.history("user.city") if v.claim.value == "Lisbon")
    model.add("answer", {"text": "The user lives in Lisbon.", "citations": [lisbon]})
    r = abg.answer("Which city does the user live in?")
    (grounding,) = [c for c in r.checks if c.name == "grounding"]
    assert not grounding.ok and "citation" in grounding.detail and r.llm_calls == 2
    # the superseded belief is never the answer; the current one, from the context, is
    assert r.status == "answered" and r.citations == [_id(abg, "user.city")] and "Lisbon" not in r.text


def test_context_holds_active_beliefs_only(abg: BeliefGraph, model: ScriptedModel) -> None:
    seen: list[list[str]] = []

    def reply(inputs: Mapping[str, Any]) -> dict[str, Any]:
        seen.append([b["id"] for b in inputs["beliefs"]])
        porto = next(b for b in inputs["beliefs"] if b.get("value") == "Porto")
        return {"text": "The user lives in Porto.", "citations": [porto["id"]]}

    model.respond("answer", reply)
    r = abg.answer("Which city does the user live in?")
    assert r.status == "answered" and r.citations == [_id(abg, "user.city")]
    statuses = {abg.beliefs.claim(i).status.value for i in seen[0]}
    assert statuses == {"active"}


def test_model_saying_unknown_is_unknown_when_no_belief_says_what_is_asked(
    abg: BeliefGraph, model: ScriptedModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    import belief_graph.services.answers as answers

    monkeypatch.setattr(answers, "EXTRACTIVE_THRESHOLD", 1.01)  # no belief is close enough
    model.add("answer", {"text": "unknown", "citations": []})
    r = abg.answer("How much does the user earn per year?")
    assert r.status == "unknown" and r.llm_calls == 1 and "found no answer" in r.reason


def test_a_belief_s_since_is_shown_and_grounds_a_when_answer(
    base_settings: Settings, graph: Graph, embedder: Any, space: str, model: ScriptedModel
) -> None:
    """The working context shows when each belief became true, so "since when" has an answer, and a
    date taken from it is grounded; a date it does not hold is not."""
    from datetime import UTC, datetime

    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder, chat_model=model) as b:
        b.assert_claim(
            "user.city", "York", "The user lives in York", agent="user:ruth",
            valid_from=datetime(2026, 6, 25, tzinfo=UTC),
        )  # fmt: skip
        york = _id(b, "user.city")
        model.add("answer", {"text": "Ruth has lived in York since 25 June 2026.", "citations": [york]})
        r = b.answer("Since when has Ruth lived in York?")
        assert r.status == "answered", r.reason
        assert "25 June 2026" in r.text and r.citations == [york]
        shown = model.calls_for("answer")[0].messages[-1].content
        assert '"since": "2026-06-25"' in shown or '"since":"2026-06-25"' in shown, shown

        model.add("answer", {"text": "Ruth has lived in York since 3 May 2026.", "citations": [york]})
        r = b.answer("Since when has Ruth lived in York?")
        (grounding,) = [c for c in r.checks if c.name == "grounding"]
        assert not grounding.ok  # 3 May is in no cited belief
