"""The grounding of extracted facts: what a turn states, independent of any model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, strategies as st

from belief_graph.services.turns.extraction_grounding import check_fact, turn_kind
from belief_graph.services.turns.value_forms import as_value


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("What's the weather like today?", "question"),
        ("what is the weather like today", "question"),  # no question mark
        ("Can you remind me to call mom", "question"),
        ("Do you think I should move to Berlin?", "question"),
        ("Any idea when the train leaves", "question"),
        ("Remind me to call the vet", "question"),  # a request: it still reaches extraction
        ("Hi!", "small_talk"),
        ("Hello there, how are you?", "small_talk"),
        ("Thanks a lot, that's great!", "small_talk"),
        ("ok cool", "small_talk"),
        ("Good morning! Have a nice day.", "small_talk"),
        ("I moved to Lisbon.", "statement"),
        ("Where I grew up, it rains a lot.", "statement"),
        ("Hi! I moved to Lisbon last month. How are you?", "statement"),
        ("Thanks! My deadline is Friday.", "statement"),
        ("I moved to Porto last week, what's a good gym near Bolhão?", "statement"),
        ("Can you suggest a gift for my sister, who turns 30 in May?", "statement"),
        ("I'm not married.", "statement"),
        ("What about since?", "question"),  # a subordinator with nothing after it opens no clause
    ],
)
def test_turn_kind(text: str, kind: str) -> None:
    assert turn_kind(text) == kind


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
        ("user.rent", 1200.0, "Rent is 1,200 a month."),
        ("project.deadline", "2027-03-31", "The launch is due 31 March 2027."),
        ("project.budget", "$1,200", "The budget is 1200 dollars."),
        ("user.vegetarian", True, "I'm vegetarian."),
        ("user.eats_meat", False, "I don't eat meat anymore."),
        ("user.hobbies", "hiking, chess, cooking and jazz", "I love hiking, chess, cooking and live music."),
        ("user.birth_month", "May", "My birthday is in May."),  # a common word as the whole value
        ("user.vegan", "true", "I'm vegan now."),  # a boolean written as a string
        # facts stated inside questions, requests and asides
        ("user.sister.age", 30, "Can you suggest a gift for my sister, who turns 30 in May?"),
        ("user.city", "Porto", "I moved to Porto last week, what's a good gym near Bolhão?"),
        ("user.city", "Porto", "Now that I'm in Porto, where can I buy a bike?"),
        ("user.home", "flat in Porto", "What's a good gym near my new flat in Porto?"),
        ("user.diet", "vegetarian", "Any dinner ideas? I'm vegetarian."),
        ("user.allergy", "peanuts", "Can you find a bakery, since I'm allergic to peanuts?"),
        ("user.job", "team lead", "Did you know I got promoted to team lead?"),
        ("user.passport_expiry", "June", "Please note that my passport expires in June."),
        ("user.wife.name", "Ana", "What's a good gift for my wife Ana, she loves pottery?"),
        ("user.wife.hobby", "pottery", "What's a good gift for my wife Ana, she loves pottery?"),
        ("user.rent", 1400, "ugh my landlord raised the rent to 1400 a month, is that even legal?"),
        ("user.married", False, "I'm not married."),
        ("user.diet.eats_fish", False, "Went fully vegan in March, so no more fish or eggs for me."),  # "no" before
        ("user.has_siblings", False, "I have no siblings."),
        ("user.travel.flies", False, "I don't fly anymore, long story."),  # flies = fly
        ("user.diet", "no meat", "I don't eat meat."),  # the value carries its own negation
        ("user.allergy", "peanuts", "I should mention I'm allergic to peanuts."),
        ("user.allergies", "penicillin allergy", "I'm allergic to penicillin, what do they give instead?"),  # -ic/-y
        ("user.studies", "law studies", "I studied law in Leeds."),
        ("user.insurance_renewal", "June", "Also can you remind me my car insurance renews in June?"),
        ("user.seat", "window seat", "I'd like a window seat please."),  # a preference, stated
        ("user.job_title", "UX designer", "hey, UX designer here, fully remote, living in Leeds."),  # telegraphic
        ("user.works_remotely", True, "hey, UX designer here, fully remote, living in Leeds."),
        ("user.partner.name", "Sam", "My boyfriend Sam loves vinyl, any gift ideas?"),
        ("user.daughter.age", 5, "Games to play with my daughter Mila, who's 5 and at Kita Sonnenschein?"),
        ("user.report.name", "Priyanka", "My manager wants a promo case for Priyanka, who reports to me."),
        ("user.manager.name", "Dana", "What should I bring to my first 1:1 with Dana, my new manager?"),
        ("user.phone", "iPhone 15", "How do I move my chats over to the iPhone 15 I bought yesterday?"),
        ("user.shift", "day shifts", "Finally on days as of Monday!"),  # the key's own word in the value
        ("user.employer", "Mercy General Hospital", "Just off a night shift at Mercy General."),  # a third missing
        ("user.rent", 1400, "My landlord raised the rent to 1,400."),  # his action on the speaker's rent
        ("user.city", "Accra", "So the company relocated me to Accra last month."),  # the speaker as object
        ("user.team_lead.editor", "Vim", "My team lead Priyanka swears by Vim and says 'real devs don't use mice'."),
        ("user.dog.name", "Pickle", "Pickle can't hold it for nine hours."),  # the negation follows the value
        ("user.food_dislike", "mushrooms", "I can't stand mushrooms."),  # a negative attribute
        ("user.physio", "Tuesday 24 February, 08:30", "Physio is on Tue 24 Feb at 08:30."),  # abbreviations
        ("user.work_start", "05:00", "Started at a bakery this week, 5am starts."),  # a 12-hour time
        ("user.sister.birthday", "July 22", "Can you set a reminder a week before Anjali's birthday on July 22?"),
        ("user.employer", "Acme", "Booking confirmed for Dana at Acme: desk 4.12."),  # an agent's record, below
    ],
)
def test_stated_values_are_grounded(key: str, value: object, source: str) -> None:
    assert check_fact(key, value, "a statement", source, speaker_is_user="Booking" not in source).grounded


@pytest.mark.parametrize(
    ("key", "value", "source", "reason"),
    [
        ("weather.today", "sunny", "What's the weather like today?", "a question"),
        ("user.eats_fish", False, "No, I eat fish every day.", "without a negation"),  # "no" far from "fish"
        ("user.mood", "happy", "Thanks, that's great!", "small talk"),
        ("user.city", "Berlin", "Should I move to Berlin? I live in Lisbon.", "only in a hypothetical"),
        ("user.city", "Berlin", "If I moved to Berlin I'd learn German.", "a hypothetical"),
        (
            "user.language",
            "German",
            "I live in Lisbon. If I moved to Berlin I'd learn German.",
            "only in a hypothetical",
        ),
        ("user.phone", "Android", "I might switch to Android.", "a hypothetical"),
        ("user.pet", "dog", "I live alone. Should I get a dog?", "only in a hypothetical"),
        ("user.hobby", "audiobooks", "I'm a data engineer, any tips for audiobooks?", "only in a question"),
        ("user.city", "Lisbon", "I don't live in Lisbon anymore, I'm in Porto now.", "only in a negation"),
        ("user.city", "Lyon", "My mom keeps saying I should move back to Lyon.", "a hypothetical"),
        ("user.diet", "vegan", "My boss is vegan, so team lunches are tricky.", "of the speaker's boss"),
        ("user.age", 30, "Can you suggest a gift for my sister, who turns 30 in May?", "of the speaker's sister"),
        ("user.hobby", "pottery", "What's a good gift for my wife Ana, she loves pottery?", "of the speaker's wife"),
        ("user.married", True, "I'm single and my sister is married.", "of the speaker's sister"),
        ("user.city", "Lyon", "Did I tell you my sister moved to Lyon?", "of the speaker's sister"),
        ("user.restaurant", "Nopal", "Book a table for four at Nopal on Friday.", "a request"),
        (
            "user.manager",
            "Greta Lind",
            "My 1:1 with Greta, my manager, is on Friday.",
            "missing: lind",
        ),  # an invented surname
        ("user.city", "Glasgow", "Ollie moved to Glasgow for a new job.", "of Ollie"),
        (
            "user.city",
            "Toronto",
            "My brother just moved to Toronto and keeps sending me photos.",
            "of the speaker's brother",
        ),
        ("user.city", "Berlin", "I'm in Denver and the rest of the team is in Berlin.", "of Rest Of The Team"),
        (
            "user.employer",
            "Panasonic",
            "Dad on the phone: 'your cousin got a job at Panasonic, why not you?' lol",
            "quotation",
        ),
        ("user.city", "Berlin", "Is Berlin actually nice in winter?", "a question"),
        ("user.rate", 110, "Did it, raised my rate to $95. If it keeps going I might go to $110.", "a hypothetical"),
        ("user.hobby", "mushrooms", "Kenji's back tomorrow. He won't touch anything with mushrooms.", "negation"),
        ("user.timezone", "America/New_York", "I'm on Eastern time.", "missing: america, new, york"),
        ("user.timezone", "UTC", "My timezone is what the example says.", "missing: utc"),
        ("user.salary", 90000, "I earn 80k a year.", "no such number"),
        ("project.deadline", "2027-04-30", "The launch is due 31 March 2027.", "'2027-04-30'"),
        ("user.vegetarian", False, "I'm vegetarian.", "without a negation"),
        ("user.vegetarian", True, "I love steak.", "never asserts"),
        ("user.married", True, "I'm not married.", "only with a negation"),
        ("user.name", "", "My name is Ana.", "the statement is not in what the turn asserts"),
        ("user.birth_month", "May", "My birthday is in June.", "missing: may"),
        ("user.alcohol", "false", "I love spicy food.", "never asserts"),
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
def test_a_plain_question_never_grounds_anything(text: str) -> None:
    # one question of one clause, with no possessive phrase ("my ...") or factive verb ("did you
    # know ..."): punctuation cuts clauses, line breaks sentences
    words = [w for w in "".join(c if c.isalnum() else " " for c in text).split()]
    words = [w for w in words if w.lower() not in ("my", "our", "know", "knew", "remember", "heard", "hear")]
    question = f"What about {' '.join(words)} ?"
    assert turn_kind(question) in ("question", "small_talk")
    assert not check_fact("x.y", text, text, question).grounded


@pytest.mark.parametrize(
    ("text", "key", "value", "kept"),
    [
        ("The user lives in Bristol.", "user.city", "Bristol", "The user lives in Bristol."),
        ("Now that I'm in Bristol, where can I get a bike?", "user.city", "Bristol", "The user's city is Bristol."),
        ("My sister turns 30 in May", "user.sister.age", 30, "The user's sister age is 30."),
        ("I work remotely", "user.works_remotely", True, "The user: works remotely, yes."),
        ("I like it here", None, None, "I like it here"),  # a statement without a key stays as it was
    ],
)
def test_a_claim_keeps_a_self_contained_statement(text: str, key: str | None, value: object, kept: str) -> None:
    from belief_graph.services.remember import self_contained

    assert self_contained(text, key, value) == kept


SAID = datetime(2026, 6, 9, 10, 0, tzinfo=UTC)  # a Tuesday


@pytest.mark.parametrize(
    ("key", "value", "source", "at"),
    [
        # an hour said without am/pm, in either reading
        ("user.bedtime", "23:00", "Four coffees a day, in bed by 11, wide awake at 3am.", None),
        ("user.medication_time", "07:00", "I take levothyroxine at 7 every morning.", None),
        ("user.opening_hours", "07:00-15:00", "We open at 7 and close at 3 now.", None),
        # a figure written with its unit
        ("user.medication.dose", "50 mg", "I started 50mg on Monday.", None),
        ("user.medication.dose", "100mg", "The doctor upped me to 100 mg.", None),
        # a value whose figure and most words are said: the make a model adds to a model name
        ("user.car", "2014 Honda Civic", "The renewal quote for my 2014 Civic just jumped 30%.", None),
        ("user.car", "Hyundai Ioniq 5", "We drive the Ioniq 5 everywhere.", None),
        # a date said relative to the turn, resolved by the model: the last one or the next one
        ("user.appointments.dentist", "2026-06-10", "The tooth comes out at the dentist tomorrow.", SAID),
        ("user.company.audit_date", "2026-06-30", "Our security audit is on the 30th.", SAID),
        ("user.company.audit_date", "30 June", "Our security audit is on the 30th.", SAID),
        ("user.partner.birthday", "June 12", "Josh turns 30 on the 12th.", SAID),
        ("user.mother.birthday_month", "July", "I'm flying home for Mum's 60th next month.", SAID),
        # a number spelled out as the whole value, yes/no as booleans
        ("user.father.age", "seventy", "My dad's 70 and just got his first smartphone.", None),
        ("user.lactose_intolerant", "yes", "I'm lactose intolerant so oat milk it is.", None),
    ],
)
def test_normalised_values_are_stated(key: str, value: object, source: str, at: datetime | None) -> None:
    check = check_fact(key, value, "", source, at=at)
    assert check.grounded, check.reason


@pytest.mark.parametrize(
    ("key", "value", "source", "at"),
    [
        ("user.bedtime", "23:00", "I ran 11 km before bed.", None),  # 11 is a distance, not an hour
        ("user.bedtime", "23:00", "I go to bed at 11 km from home.", None),
        ("user.appointments.dentist", "2026-06-10", "The tooth comes out at the dentist tomorrow.", None),  # when?
        ("user.appointments.dentist", "2026-06-12", "The tooth comes out at the dentist tomorrow.", SAID),
        ("user.manager", "Greta Lind", "Greta is my manager.", None),  # a surname is never said
        ("user.birthday", "June 28", "My wife loves pottery and her birthday's on the 28th.", SAID),
        ("user.father.age", "seventy", "My dad's 65 but acts like he's 90.", None),
    ],
)
def test_normalisation_does_not_invent(key: str, value: object, source: str, at: datetime | None) -> None:
    assert not check_fact(key, value, "", source, at=at).grounded


@pytest.mark.parametrize(
    ("given", "meant"),
    [("seventy", 70), ("sixty-five", 65), ("twenty one", 21), ("two hundred", 200), ("a dozen", 12),
     ("yes", True), ("No", False), ("TRUE", True), ("single", "single"), ("once", "once"),
     ("one-bed", "one-bed"), ("nineteen ninety", "nineteen ninety"), ("Porto", "Porto"), ("null", None),
     ("NULL", None), ("none", "none")],
)  # fmt: skip
def test_as_value_reads_what_the_model_meant(given: str, meant: object) -> None:
    got = as_value(given)
    assert got == meant and type(got) is type(meant)


@pytest.mark.parametrize(
    ("key", "value", "source", "grounded"),
    [
        # the speaker says what they are: not the boss's diet, not the sister's city
        ("user.boss.diet", "pescatarian",
         "Lunch went great, Delia loved it. For the record I'm the opposite of vegan, pescatarian.", False),
        ("user.sister.city", "Lyon", "I'm in Lyon for good now, the move is done.", False),
        ("user.diet", "pescatarian", "For the record I'm the opposite of vegan, pescatarian.", True),
        # said of the person, by name, by pronoun, by their word, or for a "we": theirs
        ("user.boss.diet", "vegan", "My boss Delia is vegan and it's her birthday on Friday.", True),
        ("user.boss.diet", "vegan", "My boss is coming to lunch and I'm stressed. She's vegan, any ideas?", True),
        ("user.boss.diet", "vegan", "I'm booking a vegan place for my boss.", True),
        ("user.team.sprint_length", "two weeks", "I'm a manager with 4 reports and we run two-week sprints.", True),
        # a proper name names the person or pet, never the speaker's own attribute
        ("user.daughter.name", "Lucía", "Lucía finishes school at 15:00 and I'm at the office till 17:00.", True),
    ],
)  # fmt: skip
def test_a_value_the_speaker_says_of_themself_is_no_other_persons(
    key: str, value: str, source: str, grounded: bool
) -> None:
    got = check_fact(key, value, "", source)
    assert got.grounded is grounded, got.reason
    if not grounded:
        assert "of the speaker, not" in got.reason


@pytest.mark.parametrize(
    ("key", "value", "source", "grounded"),
    [
        ("user.daughter.school_grade", 3, "Freya's in third grade this year.", True),  # an ordinal
        ("user.kids", 1, "My first kid was born in 2019.", False),  # "first" is an order, not a count
        # a noun made of a request verb opens a record's field, not a request
        ("user.trip.nights", 3, "Booking BK-55102: Hotel Gion, Kyoto. Check-in 14 Oct 2026, 3 nights.", True),
        ("user.trip.nights", 3, "Can you book 3 nights at Hotel Gion for me?", False),  # a question
    ],
)
def test_ordinals_and_record_fields(key: str, value: object, source: str, grounded: bool) -> None:
    assert check_fact(key, value, "", source).grounded is grounded


@pytest.mark.parametrize(
    ("key", "value", "source", "grounded"),
    [
        # a clause of the speaker's embedded without "that" in a question presupposes what it says
        ("user.medication", "amlodipine 5 mg",
         "Does the amlodipine 5 mg my doctor switched me to from lisinopril last week clash with grapefruit?", True),
        ("user.car", "Tesla Model 3",
         "How often should I charge the used Tesla Model 3 I traded my Civic in for on Saturday?", True),
        # what somebody else recommends, or what the speaker only considers, is not said of them
        ("user.car", "Tesla Model 3", "Should I get the Tesla Model 3 my brother recommended?", False),
        ("user.car", "Tesla Model 3", "Is the Tesla Model 3 I'm thinking of buying any good?", False),
        # "remind me" presupposes its complement, not a reminder's task or an embedded question
        ("user.errand", "call mom", "Can you remind me to call mom?", False),
        ("user.dentist", "Friday", "Can you remind me whether the dentist is on Friday?", False),
    ],
)  # fmt: skip
def test_embedded_clauses_in_questions(key: str, value: object, source: str, grounded: bool) -> None:
    assert check_fact(key, value, "", source).grounded is grounded


def test_an_agents_record_asserts_what_it_quotes_a_person_does_not() -> None:
    """An agent relays a document: its quotation is the record's content (negations included);
    a person quoting somebody else does not assert what the quote says."""
    digest = "Email digest: 'Your stay at Hotel Gion Kawabata: 2 nights from 14 Oct' (from a booking site)."
    assert check_fact("user.trip.hotel_nights", 2, "", digest, speaker_is_user=False).grounded
    assert not check_fact("user.trip.hotel_nights", 2, "", digest, speaker_is_user=True).grounded
    intake = "Boarding intake: 'the cat is not spayed, keep her in a separate suite'."
    assert check_fact("user.cat.spayed", False, "", intake, speaker_is_user=False).grounded
    assert not check_fact("user.cat.spayed", True, "", intake, speaker_is_user=False).grounded


@pytest.mark.parametrize(
    ("key", "turn"),
    [
        ("user.allergies", "Pharmacy profile sync, Rosa Delgado: no known allergies."),
        ("user.car", "Sold the Octavia last month. Car-free now and cycling everywhere."),
        ("user.band", "Left the band last month. Creative differences, classic."),
        ("user.work_hours_limit", "My visa came through on the 3rd, so no more 20-hour cap."),
        ("user.allergies.medication", "Under 'known drug allergies' I'm putting none."),
    ],
)
def test_none_is_stated_where_the_turn_says_there_is_none(key: str, turn: str) -> None:
    assert check_fact(key, "none", "", turn, speaker_is_user=not turn.startswith("Pharmacy")).grounded


@pytest.mark.parametrize(
    ("key", "turn"),
    [
        ("user.car", "My car is in the garage again."),  # the thing, but nothing ends it
        ("user.gym_membership", "Cancelled FitBox last week, way too crowded."),  # the key's thing never said
        ("user.car", "My brother has no car, so I drive him."),  # somebody else's
    ],
)
def test_none_is_refused_where_the_turn_does_not_say_so(key: str, turn: str) -> None:
    assert not check_fact(key, "none", "", turn).grounded
