"""What the reader of an answer is shown (services/answers.py ``about_whom_asked``): for a question
about the user, not the beliefs about another person of their life; the user's team and pets are
the user's own."""

from __future__ import annotations

import pytest

from belief_graph.models import Claim
from belief_graph.models.support import ContextItem, WorkingContext
from belief_graph.services.answers import about_whom_asked


def _item(rank: int, key: str | None, text: str) -> ContextItem:
    claim = Claim(id=f"c{rank}", key=key, value="v", text=text, agent="user:nadia")
    return ContextItem(rank=rank, claim=claim, tokens=5, text=f"[{rank}] {text}")


CTX = WorkingContext(
    budget_tokens=100,
    used_tokens=25,
    items=[
        _item(1, "user.uncle.diet", "The user's uncle is vegetarian"),
        _item(2, "user.diet_note", "The user's father eats no meat"),  # another person, by the statement
        _item(3, "user.diet", "The user eats fish on Fridays"),
        _item(4, "user.team.size", "The user's team has 7 people"),
        _item(5, "user.dog.diet", "The user's dog eats raw food"),
    ],
)
CTX = CTX.model_copy(update={"text": "\n".join(i.text for i in CTX.items)})


@pytest.mark.parametrize(
    "question", ["Is the user vegetarian?", "What do I eat?", "Does the user eat meat?", "What did I eat in May?"]
)
def test_a_question_about_the_user_is_not_shown_other_people_s_beliefs(question: str) -> None:
    shown, left_out = about_whom_asked(question, CTX)
    assert [i.claim.id for i in shown.items] == ["c3", "c4", "c5"] and left_out == 2
    assert shown.used_tokens == 15 and shown.text.splitlines() == [i.text for i in shown.items]


@pytest.mark.parametrize(
    "question",
    [
        "Is the user's uncle vegetarian?",  # names a person
        "Who in the user's family is vegetarian?",  # asks who
        "Is Anjali vegetarian?",  # does not say it is about the user
        "How long have the user and Alex been together?",  # names somebody else
    ],
)
def test_other_questions_are_shown_the_whole_context(question: str) -> None:
    shown, left_out = about_whom_asked(question, CTX)
    assert shown is CTX and left_out == 0
