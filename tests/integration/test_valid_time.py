"""``as_of(key, at, basis="valid")``: what was true at a time, by what memory knows now, against the
real Neo4j; and valid_from as the writes keep it. The recorded basis (what memory believed then)
keeps its own tests (test_policies, test_currency, test_hardening)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import ValidationError
from belief_graph.models import Claim
from belief_graph.services.temporal import when_from_text

DAY = timedelta(days=1)


def _value(c: Claim | None) -> object:
    return None if c is None else c.value


def _instant(text: str | None) -> datetime:
    assert text is not None
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_late_report_answers_for_the_time_it_claims(bg: BeliefGraph) -> None:
    """Lisbon since 60 days ago, written now; then "by the way, I moved to Porto two weeks ago",
    written a moment later. Ten days ago the user lived in Porto; memory believed nothing then."""
    now = datetime.now(UTC)
    lisbon = bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a", valid_from=now - 60 * DAY)
    between = datetime.now(UTC)
    porto = bg.assert_claim("user.city", "Porto", "moved to Porto", agent="user:a", valid_from=now - 14 * DAY)
    assert porto.op.value == "UPDATE"

    assert _value(bg.beliefs.as_of("user.city", now - 10 * DAY, basis="valid")) == "Porto"
    assert bg.beliefs.as_of("user.city", now - 10 * DAY) is None  # recorded: nothing was written then
    assert _value(bg.beliefs.as_of("user.city", between, basis="valid")) == "Porto"  # the report covers it
    assert _value(bg.beliefs.as_of("user.city", between)) == "Lisbon"  # what memory believed at that moment
    assert _value(bg.beliefs.as_of("user.city", now - 30 * DAY, basis="valid")) == "Lisbon"
    assert bg.beliefs.as_of("user.city", now - 61 * DAY, basis="valid") is None
    assert bg.beliefs.as_of("user.city", datetime.now(UTC), basis="valid") == bg.belief("user.city")

    # the writes kept valid_from as given; history shows it with each version
    versions = bg.beliefs.history("user.city")
    assert [v.claim.id for v in versions] == [lisbon.claim.id, porto.claim.id]
    assert abs(_instant(versions[0].claim.valid_from) - (now - 60 * DAY)) < timedelta(milliseconds=1)
    assert abs(_instant(versions[1].claim.valid_from) - (now - 14 * DAY)) < timedelta(milliseconds=1)
    assert _instant(versions[0].claim.created_at) < _instant(versions[1].claim.created_at)


def test_a_time_read_from_the_turn_is_a_valid_from(bg: BeliefGraph) -> None:
    """The path remember will take: the turn's words resolved against the time it was said."""
    said = datetime.now(UTC)
    bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a", valid_from=said - 400 * DAY)
    when = when_from_text("By the way, I moved to Porto two weeks ago.", said)
    assert when is not None and not when.future
    bg.assert_claim("user.city", "Porto", "moved to Porto two weeks ago", agent="user:a", valid_from=when.at)
    assert _value(bg.beliefs.as_of("user.city", said - 10 * DAY, basis="valid")) == "Porto"
    assert _value(bg.beliefs.as_of("user.city", said - 15 * DAY, basis="valid")) == "Lisbon"
    plan = when_from_text("I'm moving to Braga next week", said)
    assert plan is not None and plan.future
    with pytest.raises(ValidationError, match="in the future"):
        bg.assert_claim("user.city", "Braga", "moving to Braga", agent="user:a", valid_from=plan.at)
    assert _value(bg.belief("user.city")) == "Porto"  # nothing written


def test_a_correction_with_an_earlier_valid_from_covers_its_period(bg: BeliefGraph) -> None:
    """Lisbon from 60 days ago; Porto from 20 days ago; then the correction: Braga, from 40 days
    ago. The version recorded last covers what it claims, the earlier ones the rest."""
    now = datetime.now(UTC)
    bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a", valid_from=now - 60 * DAY)
    bg.assert_claim("user.city", "Porto", "lives in Porto", agent="user:a", valid_from=now - 20 * DAY)
    bg.assert_claim("user.city", "Braga", "actually Braga", agent="user:a", valid_from=now - 40 * DAY)
    assert _value(bg.beliefs.as_of("user.city", now - 50 * DAY, basis="valid")) == "Lisbon"
    assert _value(bg.beliefs.as_of("user.city", now - 30 * DAY, basis="valid")) == "Braga"
    assert _value(bg.beliefs.as_of("user.city", now - 10 * DAY, basis="valid")) == "Braga"  # not the later valid_from
    assert _value(bg.beliefs.as_of("user.city", datetime.now(UTC), basis="valid")) == "Braga"


def test_a_retracted_version_is_skipped(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a", valid_from=now - 60 * DAY)
    porto = bg.assert_claim("user.city", "Porto", "moved to Porto", agent="user:a", valid_from=now - 14 * DAY)
    believed = datetime.now(UTC)
    bg.retract([porto.claim.id], "the user was joking")
    assert _value(bg.beliefs.as_of("user.city", now - 10 * DAY, basis="valid")) == "Lisbon"
    # Lisbon ended when Porto was recorded; with Porto retracted memory holds no belief now
    assert bg.belief("user.city") is None
    assert bg.beliefs.as_of("user.city", datetime.now(UTC), basis="valid") is None
    assert _value(bg.beliefs.as_of("user.city", believed)) == "Porto"  # recorded: as it was then


def test_a_withdrawn_conclusion_is_skipped(bg: BeliefGraph) -> None:
    """A conclusion whose only evidence was retracted was never justified, by what memory knows now;
    memory did believe it for a while (recorded basis)."""
    ep = bg.add_episode("I moved to the coast", agent="user:a")
    coast = bg.derive("the user lives near the sea", [ep.id], "user.coast", agent="agent:x")
    believed = datetime.now(UTC)
    audit = bg.retract([ep.id], "the user was joking")
    assert bg.beliefs.claim(coast.id).status.value == "withdrawn" and audit.id
    assert bg.beliefs.as_of("user.coast", believed, basis="valid") is None
    assert getattr(bg.beliefs.as_of("user.coast", believed), "id", None) == coast.id


def test_a_disputed_version_is_skipped_and_a_lost_challenger_never_held(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.conflicts.set_policy("user.pet", "authority")
    bg.conflicts.set_authority("hr", "user.*", 0.9)
    bg.assert_claim("user.pet", "cat", "has a cat", agent="hr", valid_from=now - 30 * DAY)
    dog = bg.assert_claim("user.pet", "dog", "has a dog", agent="bot", valid_from=now - 5 * DAY)
    assert dog.op.value == "DISPUTED" and dog.dispute is not None
    assert _value(bg.beliefs.as_of("user.pet", now - 2 * DAY, basis="valid")) == "cat"
    bg.conflicts.resolve_dispute(dog.dispute.id, "incumbent", by="user:admin", reason="hr knows")
    assert bg.beliefs.claim(dog.claim.id).status.value == "superseded"  # lost: superseded, but it never held
    assert _value(bg.beliefs.as_of("user.pet", now - 2 * DAY, basis="valid")) == "cat"
    fish = bg.assert_claim("user.pet", "fish", "has a fish", agent="bot2", valid_from=now - 3 * DAY)
    assert fish.dispute is not None
    bg.conflicts.resolve_dispute(fish.dispute.id, "challenger", by="user:admin", reason="seen it")
    assert _value(bg.beliefs.as_of("user.pet", now - 2 * DAY, basis="valid")) == "fish"
    assert _value(bg.beliefs.as_of("user.pet", now - 4 * DAY, basis="valid")) == "cat"


def test_a_stale_conclusion_counts_in_its_time(bg: BeliefGraph) -> None:
    """A conclusion that went stale held until it did: valid-time answers give it for then, not after."""
    porto = bg.assert_claim("user.city", "Porto", "lives in Porto", agent="user:a")
    coast = bg.derive("the user lives near the sea", [porto.claim.id], "user.coast", agent="agent:x")
    held = datetime.now(UTC)
    moved = bg.assert_claim("user.city", "Madrid", "moved to Madrid", agent="user:a")
    assert coast.id in moved.staled and bg.beliefs.claim(coast.id).status.value == "stale"
    after = datetime.now(UTC)
    assert getattr(bg.beliefs.as_of("user.coast", held, basis="valid"), "id", None) == coast.id
    assert bg.beliefs.as_of("user.coast", after, basis="valid") is None
    assert getattr(bg.beliefs.as_of("user.coast", held), "id", None) == coast.id  # recorded: the same here


def test_recorded_stays_the_default_and_the_basis_is_checked(bg: BeliefGraph) -> None:
    now = datetime.now(UTC)
    bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a", valid_from=now - 60 * DAY)
    between = datetime.now(UTC)
    bg.assert_claim("user.city", "Porto", "moved to Porto", agent="user:a", valid_from=now - 14 * DAY)
    assert bg.beliefs.as_of("user.city", between) == bg.beliefs.as_of("user.city", between, basis="recorded")
    assert bg.beliefs.as_of("user.city", between) == bg.beliefs.as_of("user.city", between, "recorded")
    assert _value(bg.beliefs.as_of("user.city", between, basis="valid")) == "Porto"
    with pytest.raises(ValidationError, match="basis"):
        bg.beliefs.as_of("user.city", between, basis="believed")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        bg.beliefs.as_of("user.city", datetime.now(), basis="valid")  # naive


def test_cli_as_of_valid_and_valid_from(run_cli, space: str) -> None:  # type: ignore[no-untyped-def]
    now = datetime.now(UTC).replace(microsecond=0)
    base = ["--space", space, "memory"]
    r = run_cli([*base, "assert", "user.city", "Lisbon", "lives in Lisbon", "--agent", "user:a"])
    assert r.returncode == 0, r.stderr
    late = (now - 14 * DAY).isoformat()
    r = run_cli([*base, "assert", "user.city", "Porto", "moved", "--agent", "user:a", "--valid-from", late, "--json"])
    assert r.returncode == 0, r.stderr
    assert _instant(json.loads(r.stdout)["claim"]["valid_from"]) == now - 14 * DAY
    at = (now - 10 * DAY).isoformat()
    r = run_cli([*base, "as-of", "user.city", at, "--valid", "--json"])
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == "Porto"
    r = run_cli([*base, "as-of", "user.city", at, "--json"])  # recorded: nothing was believed then
    assert r.returncode == 1 and json.loads(r.stdout) is None
    r = run_cli([*base, "as-of", "user.city", at, "--valid"])
    assert r.returncode == 0 and "Porto" in r.stdout and "true at" in r.stdout
    r = run_cli([*base, "history", "user.city"])
    assert r.returncode == 0 and "valid from" in r.stdout
    ahead = (now + 2 * DAY).isoformat()
    r = run_cli([*base, "assert", "user.city", "Braga", "plan", "--agent", "user:a", "--valid-from", ahead])
    assert r.returncode == 2 and "in the future" in r.stderr
