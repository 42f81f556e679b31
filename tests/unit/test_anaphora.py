"""A value named where the turn states nothing, taken up by the speaker's own pro-form: the four
rules of :mod:`belief_graph.services.turns.anaphora`, each able to refuse."""

from __future__ import annotations

import pytest

from belief_graph.llm.jobs import ExtractedFact
from belief_graph.services.turns.anaphora import check_taken_up
from belief_graph.services.turns.fact_grounding import ground_fact

LEIPZIG = (
    "Hi! Could you send the replacement filter to Leipzig instead of Hamburg? I moved there at the start of January."
)
GOAL = "Ran a 1:46 half on Sunday, so my coach reckons sub-3:45 is on for Berlin and I'm going for it."


def _fact(key: str, value: object, text: str = "The user's fact.") -> ExtractedFact:
    return ExtractedFact(source="t", key=key, value=value, text=text, kind="semantic", confidence=0.9)


@pytest.mark.parametrize(
    ("turn", "key", "value"),
    [
        (LEIPZIG, "user.city", "Leipzig"),  # named in a request, "there" after "to Leipzig"
        (GOAL, "user.marathon.goal_time", "sub-3:45"),  # named in the coach's words, "going for it"
        ("My sister moved to Lisbon last year and I moved there too.", "user.city", "Lisbon"),
        ("My flatmate recommended Hinge and I went with it.", "user.dating_app", "Hinge"),  # a choice
    ],
)
def test_a_value_the_speaker_takes_up_is_kept(turn: str, key: str, value: str) -> None:
    check = check_taken_up(_fact(key, value), turn, user=True)
    assert check.grounded, check.reason
    assert "taken up by" in check.reason


@pytest.mark.parametrize(
    ("turn", "key", "value", "why"),
    [
        # rule 2: the alternative turned down, or a value named nowhere
        (LEIPZIG, "user.city", "Hamburg", "taken up by no clause"),
        ("Could you send it to Leipzig rather than Hamburg? I moved there.", "user.city", "Hamburg", "no clause"),
        (LEIPZIG, "user.city", "Dresden", "no clause"),
        # rule 1: somebody else's fact, or an agent's record
        (GOAL, "user.coach.goal_time", "sub-3:45", "about the speaker"),
        # rule 3: no pro-form, a pro-form of another's clause, a negation, a modal, "there is"
        ("Should I move to Lisbon? I moved last year.", "user.city", "Lisbon", "no clause"),
        ("Should I move to Lisbon? My friend moved there.", "user.city", "Lisbon", "no clause"),
        ("Is Lisbon nice? I'm not moving there.", "user.city", "Lisbon", "no clause"),
        ("Should I move to Lisbon? I might move there.", "user.city", "Lisbon", "no clause"),
        ("Should I move to Lisbon? Then there is the cost of moving.", "user.city", "Lisbon", "no clause"),
        # rule 3: "there" stands for a place, a value not named after a preposition of place is none
        ("Is sub-4 realistic? I moved there.", "user.marathon.goal_time", "sub-4", "no clause"),
        # rule 3: too far away, two sentences on
        ("Should I move to Lisbon? Rents are high. Anyway. I moved there.", "user.city", "Lisbon", "no clause"),
        # rule 4: the speaker's clause takes nothing up
        ("Should I move to Lisbon? I've always loved it there.", "user.city", "Lisbon", "no clause"),
    ],
)
def test_a_value_nobody_took_up_is_refused(turn: str, key: str, value: str, why: str) -> None:
    check = check_taken_up(_fact(key, value), turn, user=True)
    assert not check.grounded
    assert why in check.reason


def test_an_agents_record_takes_up_nothing() -> None:
    assert not check_taken_up(_fact("user.city", "Leipzig"), LEIPZIG, user=False).grounded


def test_ground_fact_keeps_it_with_a_note_after_the_turn_refused_it() -> None:
    f = _fact("user.city", "Leipzig", "The user lives in Leipzig.")
    g = ground_fact(f, LEIPZIG, user=True, at=None, held=lambda _: None)
    assert g.check.grounded and g.inferred_from is None
    assert "named in 'Could you send the replacement filter to Leipzig" in g.note
    assert "'I moved there at the start of January.'" in g.note
    hamburg = ground_fact(_fact("user.city", "Hamburg"), LEIPZIG, user=True, at=None, held=lambda _: None)
    assert not hamburg.check.grounded
