"""Currency of derived claims against the real server (DESIGN.md, "Currency of derived claims"):
conclusions whose premises are superseded, retracted or withdrawn go stale in the same transaction,
with a revision and an audit naming the premise change; nothing in the present uses them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.db.driver import Tx
from belief_graph.errors import ClaimNotFound, ValidationError


def _status(bg: BeliefGraph, cid: str) -> str:
    return bg.beliefs.claim(cid).status.value


def _audits_of(bg: BeliefGraph, cid: str) -> list[tuple[str, str]]:
    return [(a.audit.op, a.action) for a in bg.support.audits_for_claim(cid)]


def _chain(bg: BeliefGraph) -> dict[str, str]:
    """Four facts chained into one free-text answer (the Why of the currency contract)."""
    ids = {
        "performer": bg.assert_claim("work.w1.performer", "p1", "Work w1 was performed by p1", agent="user:u").claim.id,
        "citizenship": bg.assert_claim("person.p1.citizenship", "c1", "p1 is a citizen of c1", agent="user:u").claim.id,
        "head": bg.assert_claim("country.c1.head", "h1", "The head of state of c1 is h1", agent="user:u").claim.id,
        "party": bg.assert_claim("person.h1.party", "green", "h1 belongs to the green party", agent="user:u").claim.id,
    }
    answer = bg.derive(
        "The party of the head of state of the performer's country of w1 is green",
        list(ids.values()),
        key="work.w1.answer",
        agent="agent:reasoner",
    )
    second = bg.derive("Recommend w1 to green-party listeners", [answer.id], agent="agent:recommender")
    ids["answer"], ids["second"] = answer.id, second.id
    return ids


@pytest.mark.parametrize(
    "fact, key, value",
    [
        ("performer", "work.w1.performer", "p2"),
        ("citizenship", "person.p1.citizenship", "c2"),
        ("head", "country.c1.head", "h2"),
        ("party", "person.h1.party", "blue"),
    ],
)
def test_updating_any_premise_of_a_chain_makes_the_answer_and_its_consequences_stale(
    bg: BeliefGraph, fact: str, key: str, value: str
) -> None:
    ids = _chain(bg)
    before = datetime.now(UTC)
    r = bg.assert_claim(key, value, f"{key} is now {value}", agent="user:u")
    assert r.op == WriteOp.UPDATE
    # the answer and the conclusion drawn from it, in the same transaction as the update
    assert set(r.staled) == {ids["answer"], ids["second"]}
    assert _status(bg, ids["answer"]) == "stale" and _status(bg, ids["second"]) == "stale"
    assert bg.belief("work.w1.answer") is None
    # the audit names the premise change; the revision points at it
    audit = bg.support.audit(r.audit)  # type: ignore[arg-type]
    assert audit.op == "update" and key in audit.reason and ids[fact] in audit.root_ids
    assert set(audit.staled_ids) == {ids["answer"], ids["second"]}
    lost = {e.id: e.lost for e in audit.entries if e.action == "STALED"}
    assert any(f"{ids[fact]} (superseded)" in x for x in lost[ids["answer"]])
    assert any(f"{ids['answer']} (stale)" in x for x in lost[ids["second"]])
    assert ("update", "STALED") in _audits_of(bg, ids["answer"])
    # history keeps what was believed
    assert bg.beliefs.as_of("work.w1.answer", before).id == ids["answer"]  # type: ignore[union-attr]
    # nothing in the present uses it
    ctx = bg.context(budget_tokens=100_000, limit=100)
    assert ids["answer"] not in ctx.cited_ids() and ids["second"] not in ctx.cited_ids()
    assert ids[fact] not in ctx.cited_ids()
    hits = bg.recall("party of the head of state of the performer's country", k=20)
    assert all(h.claim.status.value == "active" for h in hits)
    assert ids["answer"] not in {h.claim.id for h in hits}


def test_context_certificates_never_cite_a_superseded_premise(bg: BeliefGraph) -> None:
    ep = bg.add_episode("HR record: Ann's employer is Acme", agent="system:hr")
    employer = bg.assert_claim("user.employer", "acme", "Ann works at Acme", agent="user:ann", evidence=[ep.id])
    tz = bg.assert_claim("org.acme.tz", "CET", "Acme is on CET", agent="agent:hr")
    # two ways to the same conclusion: one through the employer, one through a direct episode
    note = bg.add_episode("Ann said she works on CET", agent="user:ann")
    work_tz = bg.derive("Ann works on CET", [employer.claim.id, tz.claim.id], key="user.work_tz", agent="agent:a")
    bg.derive("Ann works on CET", [note.id], key="user.work_tz", agent="agent:a")
    r = bg.assert_claim("user.employer", "globex", "Ann moved to Globex", agent="user:ann")
    assert r.staled == []  # the episode still makes it current
    assert _status(bg, work_tz.id) == "active"
    ctx = bg.context(keys=["user.work_tz"], budget_tokens=10_000)
    cert = ctx.items[0].certificate
    assert cert is not None and [p.id for p in cert.premises] == [note.id]
    sup = bg.support.supports(work_tz.id)
    assert sup.current == [cert.id] and len(sup.intact) == 2  # both hold (support), one is current
    # retract the note: the remaining justification holds but is not current -> stale, not withdrawn
    audit = bg.retract([note.id], "Ann never said that")
    assert audit.withdrawn_ids == [] and audit.staled_ids == [work_tz.id]
    assert _status(bg, work_tz.id) == "stale"
    # restore: current again, on the same audit trail
    audit = bg.restore([note.id], "she did say it")
    assert audit.refreshed_ids == [work_tz.id] and _status(bg, work_tz.id) == "active"


def test_noop_and_corroboration_change_no_conclusion(bg: BeliefGraph) -> None:
    base = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:a")
    concl = bg.derive("The user's timezone is Europe/Lisbon", [base.claim.id], key="user.tz", agent="agent:x")
    n_audits = len(bg.support.audits())
    same = bg.assert_claim("user.city", "Porto", "The user lives in Porto", agent="user:a")
    corr = bg.assert_claim("user.city", "porto ", "Porto it is", agent="agent:b")
    assert same.op == WriteOp.NOOP and corr.op == WriteOp.NOOP
    assert same.audit is None and corr.audit is None and corr.staled == []
    assert _status(bg, concl.id) == "active" and len(bg.support.audits()) == n_audits


def test_a_withdrawn_conclusion_reinstated_on_non_current_support_comes_back_stale(bg: BeliefGraph) -> None:
    ep = bg.add_episode("Ann joined Acme", agent="system:hr")
    employer = bg.assert_claim("user.employer", "acme", "Ann works at Acme", agent="user:ann")
    concl = bg.derive("Ann can use Acme's VPN", [employer.claim.id], agent="agent:it")
    bg.derive("Ann can use Acme's VPN", [ep.id], agent="agent:it")  # OR: the episode
    bg.retract([ep.id], "wrong person")
    assert _status(bg, concl.id) == "active"  # still current through the employer claim
    bg.assert_claim("user.employer", "globex", "Ann moved to Globex", agent="user:ann")
    assert _status(bg, concl.id) == "stale"  # the only current route is gone
    bg.retract([employer.claim.id], "HR error")  # the superseded version itself is retracted
    assert _status(bg, concl.id) == "withdrawn"  # no support at all: withdrawn wins over stale
    audit = bg.restore([employer.claim.id], "HR confirmed it")
    # support is intact again, but the employer claim is superseded: it comes back stale
    assert concl.id in audit.reinstated_ids and _status(bg, concl.id) == "stale"
    assert bg.beliefs.claim(employer.claim.id).status.value == "superseded"


def test_derive_needs_current_premises_and_a_current_justification_refreshes(bg: BeliefGraph) -> None:
    old = bg.assert_claim("user.diet", "vegan", "The user is vegan", agent="user:a")
    concl = bg.derive("Suggest vegan restaurants", [old.claim.id], agent="agent:x")
    new = bg.assert_claim("user.diet", "vegetarian", "The user is vegetarian now", agent="user:a")
    assert _status(bg, concl.id) == "stale"
    before = bg.admin.stats()
    with pytest.raises(ValidationError, match="not current"):
        bg.derive("Suggest vegan cafes", [old.claim.id], agent="agent:x")
    assert bg.admin.stats() == before
    ep = bg.add_episode("The user asked for vegan restaurants tonight", agent="user:a")
    refreshed = bg.derive("Suggest vegan restaurants", [ep.id], agent="agent:x")
    assert refreshed.id == concl.id and refreshed.status.value == "active"
    assert ("derive", "REFRESHED") in _audits_of(bg, concl.id)
    cert = bg.context(budget_tokens=10_000).items
    assert [p.id for i in cert if i.claim.id == concl.id for p in i.certificate.premises] == [ep.id]  # type: ignore[union-attr]
    assert new.claim.id in {i.claim.id for i in cert}


def test_evidence_claims_are_premises_too(bg: BeliefGraph) -> None:
    lang = bg.assert_claim("user.language", "pt", "The user speaks Portuguese", agent="user:a")
    greet = bg.assert_claim(
        "agent.greeting", "Olá", "Greet the user with Olá", agent="agent:x", evidence=[lang.claim.id]
    )
    r = bg.assert_claim("user.language", "de", "The user speaks German", agent="user:a")
    assert r.staled == [greet.claim.id]
    assert bg.belief("agent.greeting") is None
    # a new value for the stale key is a new version of it
    again = bg.assert_claim(
        "agent.greeting", "Hallo", "Greet the user with Hallo", agent="agent:x", evidence=[r.claim.id]
    )
    assert again.op == WriteOp.ADD and again.superseded is not None and again.superseded.id == greet.claim.id
    assert _status(bg, greet.claim.id) == "superseded"


def test_a_settled_dispute_makes_the_losers_conclusions_stale(bg: BeliefGraph) -> None:
    bg.conflicts.set_policy("user.*", "authority")
    bg.conflicts.set_authority("agent:a", "user.*", 0.9)
    bg.conflicts.set_authority("agent:b", "user.*", 0.1)
    inc = bg.assert_claim("user.role", "engineer", "The user is an engineer", agent="agent:a")
    concl = bg.derive("Send the user engineering news", [inc.claim.id], agent="agent:x")
    ch = bg.assert_claim("user.role", "designer", "The user is a designer", agent="agent:b")
    assert ch.op == WriteOp.DISPUTED and _status(bg, concl.id) == "active"
    bg.conflicts.resolve_dispute(ch.dispute.id, "challenger", by="user:admin", reason="checked")  # type: ignore[union-attr]
    assert _status(bg, concl.id) == "stale"
    stale = {s.claim.id: s for s in bg.support.stale()}
    assert "dispute" in (stale[concl.id].cause or "") and inc.claim.id in stale[concl.id].changed


def test_dependents_stale_supports_and_explain(bg: BeliefGraph) -> None:
    ids = _chain(bg)
    deps = bg.support.dependents("person.p1.citizenship")
    assert [(d.claim.id, d.depth) for d in deps] == [(ids["answer"], 1), (ids["second"], 2)]
    assert deps[0].via and bg.support.dependents(ids["citizenship"]) == deps
    sup = bg.support.supports(ids["answer"])
    assert [d.claim.id for d in sup.dependents] == [ids["second"]]
    assert bg.beliefs.explain(ids["citizenship"]).dependents[0]["id"] == ids["answer"]
    r = bg.assert_claim("person.p1.citizenship", "c2", "p1 is a citizen of c2 now", agent="user:u")
    stale = bg.support.stale()
    assert {s.claim.id for s in stale} == {ids["answer"], ids["second"]}
    s = next(x for x in stale if x.claim.id == ids["answer"])
    assert s.audit == r.audit and s.op == "update" and ids["citizenship"] in s.changed
    assert "person.p1.citizenship" in (s.cause or "") and s.since
    sup = bg.support.supports(ids["answer"])
    assert sup.current == [] and sup.intact  # it holds, it is not current
    assert "stale" in bg.beliefs.explain(ids["answer"]).text()
    with pytest.raises(ClaimNotFound):
        bg.support.dependents("no.such.key")
    with pytest.raises(ValidationError):
        bg.support.dependents("  ")


def test_cli_support_dependents_and_stale(bg: BeliefGraph, run_cli) -> None:  # type: ignore[no-untyped-def]
    ids = _chain(bg)
    bg.assert_claim("country.c1.head", "h9", "The head of state of c1 is h9", agent="user:u")
    out = run_cli(["--space", bg.space, "support", "dependents", "person.p1.citizenship", "--json"])
    assert out.returncode == 0, out.stderr
    assert [d["claim"]["id"] for d in json.loads(out.stdout)] == [ids["answer"], ids["second"]]
    out = run_cli(["--space", bg.space, "support", "stale", "--json"])
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert {r["claim"]["id"] for r in rows} == {ids["answer"], ids["second"]}
    assert all("country.c1.head" in r["cause"] for r in rows)
    out = run_cli(["--space", bg.space, "support", "stale"])
    assert out.returncode == 0 and "country.c1.head" in out.stdout
    out = run_cli(["--space", bg.space, "support", "dependents", "no.such.key"])
    assert out.returncode == 1 and out.stderr.startswith("error:") and len(out.stderr.strip().splitlines()) == 1


def test_status_labels_follow_the_status_through_every_kind_of_write(bg: BeliefGraph) -> None:
    """Browser and Bloom style by label: every claim carries exactly the status label of its status."""
    ids = _chain(bg)
    ep = bg.add_episode("seen on the record", agent="user:u")
    bg.assert_claim("user.pet", "cat", "The user has a cat", agent="user:u", evidence=[ep.id])
    bg.conflicts.set_policy("user.*", "authority")
    bg.conflicts.set_authority("agent:a", "user.*", 0.9)
    bg.assert_claim("user.role", "engineer", "engineer", agent="agent:a")
    bg.assert_claim("user.role", "designer", "designer", agent="agent:b")  # disputed
    bg.assert_claim("person.p1.citizenship", "c2", "p1 is a citizen of c2", agent="user:u")  # stale, superseded
    bg.retract([ep.id], "wrong record")  # withdrawn, retracted episode
    bg.retract([ids["head"]], "not the head")  # retracted claim (the chain's conclusions: withdrawn)
    lang = bg.assert_claim("user.lang", "pt", "The user speaks Portuguese", agent="user:u")
    bg.derive("Greet the user in Portuguese", [lang.claim.id], agent="agent:x")
    bg.assert_claim("user.lang", "de", "The user speaks German", agent="user:u")  # stale
    status_labels = ["Active", "Superseded", "Disputed", "Withdrawn", "Retracted", "Stale"]
    claims = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) RETURN c.status AS status, [l IN labels(c) WHERE l IN $ls] AS ls",
        s=bg.space,
        ls=status_labels,
    ).records
    assert {"active", "superseded", "disputed", "withdrawn", "retracted", "stale"} <= {r["status"] for r in claims}
    assert all(r["ls"] == [r["status"].capitalize()] for r in claims), [(r["status"], r["ls"]) for r in claims]
    episodes = bg.graph.driver.execute_query(
        "MATCH (e:Episode {space: $s}) RETURN coalesce(e.status, 'active') AS status, [l IN labels(e) WHERE l IN $ls] AS ls",
        s=bg.space,
        ls=status_labels,
    ).records
    assert all(r["ls"] == (["Retracted"] if r["status"] == "retracted" else []) for r in episodes)
    assert any(r["status"] == "retracted" for r in episodes)
    bg.restore([ep.id], "it was right")
    statuses = bg.graph.driver.execute_query(
        "MATCH (e:Episode {space: $s, id: $id}) RETURN labels(e) AS ls", s=bg.space, id=ep.id
    ).records[0]["ls"]
    assert statuses == ["Episode"]


def test_two_revisions_of_one_claim_in_one_transaction_keep_their_order(bg: BeliefGraph) -> None:
    """A restore reinstates a conclusion (the support pass writes `active`) whose premise was
    superseded meanwhile (the currency pass then writes `stale`), in one statement at one time.
    Revisions were ordered by (time, id), so the random ids decided which came last: `as_of(now)` and
    `db check` said `active` for a stale claim in 7 of 10 trials. The revisions of one claim now
    carry their order of writing (`seq`)."""
    for i in range(8):
        e = bg.add_episode(f"the user moved ({i})", agent="user:a")
        p = bg.assert_claim(f"user.city{i}", "a", f"the user lives in a ({i})", agent="user:a", evidence=[e.id])
        d = bg.derive(f"the user is near a ({i})", [p.claim.id], key=f"user.near{i}", agent="agent:x")
        bg.retract([e.id], "wrong")
        bg.assert_claim(f"user.city{i}", "b", f"the user lives in b ({i})", agent="user:a")
        bg.restore([e.id], "right after all")
        assert _status(bg, d.id) == "stale"
        revisions = bg.beliefs.explain(d.id).revisions
        assert [r.status for r in revisions[-2:]] == ["active", "stale"], revisions
        assert bg.beliefs.as_of(f"user.near{i}", datetime.now(UTC)) is None
    report = bg.admin.check()
    assert report.ok, [(f.name, f.detail) for f in report.failed]


def _revisions(bg: BeliefGraph, cid: str) -> list[str]:
    """The claim's revision statuses, oldest first, in the order every reader uses."""
    return [r.status for r in bg.beliefs.explain(cid).revisions]


def test_revisions_one_transaction_writes_at_one_time_keep_the_order_they_were_written_in(bg: BeliefGraph) -> None:
    """The general property behind the test above: whatever their ids, the revisions of one claim
    written by one transaction at one time are ordered as written (two status changes here, the
    second with an id that sorts first). Every reader agrees with the claim's status."""
    c = bg.assert_claim("user.mood", "calm", "The user is calm", agent="user:a").claim
    at = datetime.now(UTC).isoformat()

    def two_changes(tx: Tx) -> None:
        for rid, status in (("z:" + c.id, "withdrawn"), ("a:" + c.id, "active")):
            bg.graph.run(
                tx,
                "claim.change_status",
                space=bg.space,
                id=c.id,
                status=status,
                at=at,
                reason=f"test: {status}",
                by="user:admin",
                revision_id=rid,
            )

    bg.graph.write_tx(two_changes)
    assert _status(bg, c.id) == "active"
    assert _revisions(bg, c.id) == ["active", "withdrawn", "active"]
    assert [r.status for r in bg.beliefs.history("user.mood")[0].revisions] == ["active", "withdrawn", "active"]
    assert bg.beliefs.as_of("user.mood", datetime.now(UTC)).id == c.id  # type: ignore[union-attr]
    hits = bg.recall("The user is calm", keys=["user.mood"], as_of=datetime.now(UTC), include_inactive=True)
    assert [(h.claim.id, h.status_then) for h in hits] == [(c.id, "active")]
    assert bg.admin.check().ok


def test_a_writer_whose_clock_is_behind_still_writes_the_claims_last_revision(bg: BeliefGraph) -> None:
    """Two writers, the second one's clock an hour behind the first's: its status change is dated
    at the previous revision's time (never before it), so the latest revision is the last one
    written and as_of(now), history, recall as_of and db check agree with the claim's status."""
    c = bg.assert_claim("user.mood", "calm", "The user is calm", agent="user:a").claim
    now = datetime.now(UTC)
    for n, (status, at) in enumerate([("withdrawn", now), ("active", now - timedelta(hours=1))]):
        bg.graph.write(
            "claim.change_status",
            space=bg.space,
            id=c.id,
            status=status,
            at=at.isoformat(),
            reason=f"writer {n}: {status}",
            by="user:admin",
            revision_id=f"{c.id}:w{n}",
        )
    assert _status(bg, c.id) == "active"
    revisions = bg.beliefs.explain(c.id).revisions
    assert [r.status for r in revisions] == ["active", "withdrawn", "active"]
    assert revisions[-1].at == revisions[-2].at  # clamped to the previous revision, ordered by seq
    later = datetime.now(UTC) + timedelta(seconds=1)
    assert bg.beliefs.as_of("user.mood", later).id == c.id  # type: ignore[union-attr]
    hits = bg.recall("The user is calm", keys=["user.mood"], as_of=later, include_inactive=True)
    assert [(h.claim.id, h.status_then) for h in hits] == [(c.id, "active")]
    assert bg.admin.check().ok
