"""What a turn asserts: clauses and their moods, independent of any model."""

from __future__ import annotations

import pytest

from belief_graph.services.turns.clauses import NAMED, clauses


def moods(text: str) -> list[tuple[str, str]]:
    return [(c.mood, c.text) for c in clauses(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Can you suggest a gift for my sister, who turns 30 in May?",
            [("question", "Can you suggest a gift for my sister"), ("assert", "who turns 30 in May?")],
        ),
        (
            "I moved to Porto last week, what's a good gym near Bolhão?",
            [("assert", "I moved to Porto last week"), ("question", "what's a good gym near Bolhão?")],
        ),
        (
            "Now that I'm in Porto, where can I buy a bike?",
            [("assert", "Now that I'm in Porto"), ("question", "where can I buy a bike?")],
        ),
        ("If I moved to Berlin I'd learn German.", [("hypothetical", "If I moved to Berlin I'd learn German.")]),
        ("I might switch to Android.", [("hypothetical", "I might switch to Android.")]),
        ("I'd like a window seat please.", [("assert", "I'd like a window seat please.")]),
        ("I'm not married.", [("negated", "I'm not married.")]),
        ("Remind me to call the vet", [("request", "Remind me to call the vet")]),
        ("Hi! Thanks so much.", [("small_talk", "Hi!"), ("small_talk", "Thanks so much.")]),
        ("I love hiking, cycling and climbing.", [("assert", "I love hiking"), ("assert", "cycling and climbing.")]),
        ("Rent is 1,200 a month, due at 9:30.", [("assert", "Rent is 1,200 a month"), ("assert", "due at 9:30.")]),
        ("When does the train leave?", [("question", "When does the train leave?")]),
        ("When I lived in Osaka I ate ramen daily.", [("assert", "When I lived in Osaka I ate ramen daily.")]),
        (
            "I'm a nurse, any tips for night shifts?",
            [("assert", "I'm a nurse"), ("question", "any tips for night shifts?")],
        ),
    ],
)
def test_each_clause_has_its_mood(text: str, expected: list[tuple[str, str]]) -> None:
    assert moods(text) == expected


def test_questions_and_requests_presuppose_their_possessive_phrases() -> None:
    (q,) = clauses("What's a good gym near my new flat in Porto?")
    assert q.mood == "question" and q.presupposed == ("my new flat in porto",)
    (r,) = clauses("Find flights for my trip to Tokyo")
    assert r.mood == "request" and r.presupposed == ("my trip",)
    (n,) = clauses("Please note that my passport expires in June.")
    assert n.presupposed == ("my passport expires in june",)
    (f,) = clauses("Did you know I got promoted to team lead?")
    assert "i got promoted to team lead" in f.presupposed
    (w,) = clauses("Do you know where I can buy a bike?")
    assert w.presupposed == ()


@pytest.mark.parametrize(
    ("text", "party"),
    [
        ("My boss is vegan.", "boss"),
        ("My sister's birthday is May 3.", "sister"),
        ("My wife Ana loves pottery.", "wife"),
        ("My landlord raised the rent to 1400.", "landlord"),  # his action (grounding keeps user.rent)
        ("My flat is in Porto.", None),
        ("I live in Porto.", None),
        ("Our twins just turned 4.", "twins"),
    ],
)
def test_the_party_a_clause_speaks_of(text: str, party: str | None) -> None:
    assert clauses(text)[0].party == party


def test_a_relative_clause_and_a_pronoun_speak_of_the_person_named_before() -> None:
    rel = clauses("Can you suggest a gift for my sister, who turns 30 in May?")
    assert rel[1].party == "sister"
    pro = clauses("What's a good gift for my wife Ana, she loves pottery?")
    assert pro[1].mood == "assert" and pro[1].party == "wife"
    split = clauses("I'm single and my sister is married.")
    assert [(c.mood, c.party) for c in split] == [("assert", None), ("assert", "sister")]


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("I moved to Leipzig at the start of the month.", True),
        ("Lena is on the Team plan now.", True),
        ("Rebooked on UA 1187, Wed 13 May.", True),
        ("HRIS change event: reorg effective 2026-02-16.", True),
        ("I no longer eat fish.", True),
        ("Lena Fischer's workspace shows the Team plan in the admin console.", False),
        ("Pharmacy profile sync, Rosa Delgado: no known allergies.", False),
        ("Greta's still my manager as far as I know.", False),
    ],
)
def test_says_change(text: str, changed: bool) -> None:
    from belief_graph.services.turns.clauses import says_change

    assert says_change(text) is changed


@pytest.mark.parametrize(
    "text",
    [
        "Driving Paris to Biarritz in the Ioniq 5 in July.",  # a gerund opens it, not a name
        "Six months smoke-free today!!",  # a count opens it
        "I'm 34 and the only pension I have is the workplace one through Kestrel Insurance.",  # "I" is the speaker
    ],
)
def test_openers_that_are_not_somebody_else(text: str) -> None:
    assert all(c.party is None for c in clauses(text) if c.mood == "assert")


def test_a_name_still_opens_a_clause_of_somebody_else() -> None:
    assert [c.party for c in clauses("Ollie moved to Glasgow.")] == [NAMED]
    assert clauses("the rest of the team is in Berlin")[0].party == NAMED


def test_a_possessive_phrase_runs_through_a_date_in_may() -> None:
    """ "May" before a day is the month, not the modal that would end the phrase."""
    (c,) = clauses("Can you help me plan something for our anniversary on May 23?")
    assert c.presupposed == ("our anniversary on may 23",)
    assert all("come" not in p for c in clauses("Can you check whether my sister may come?") for p in c.presupposed)
