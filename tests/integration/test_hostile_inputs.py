"""The hostile-input catalogue: what a careless or hostile caller can send through the API and the
CLI, and what happens. Every case ends in a typed error with nothing written, or in a documented
behaviour that the case asserts. docs/security.md has the same table (a test keeps them in step).
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.errors import (
    BeliefGraphError,
    ClaimNotFound,
    ConfigurationError,
    DisputeNotFound,
    FormatError,
    LimitExceeded,
    NotFoundError,
    ValidationError,
)

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "security.md"
NAIVE = datetime(2026, 1, 1, 12, 0)
INJECTION = "x'}) MATCH (n) DETACH DELETE n //"
MAX_MESSAGE = 500
"""Characters of an error message, whatever the size of the input (errors.shown, errors.listed)."""

Call = Callable[[BeliefGraph, dict[str, str]], Any]
Check = Callable[[BeliefGraph, dict[str, str], Any], None]


@dataclass(frozen=True)
class Case:
    id: str
    call: Call
    error: type[BeliefGraphError] | None = None
    """The typed error expected (nothing written); None: a documented behaviour, checked by ``check``."""
    check: Check | None = None


def _write_file(name: str, text: str) -> Callable[[], Path]:
    def make() -> Path:
        p = Path(os.environ.get("PYTEST_TMP", "/tmp")) / f"hostile-{os.getpid()}-{name}"
        p.write_text(text)
        return p

    return make


def _af(name: str, text: str) -> Call:
    make = _write_file(name, text)
    return lambda bg, w: bg.argumentation.import_framework(make(), "hostile")


def _active_value(key: str, value: Any) -> Check:
    def check(bg: BeliefGraph, w: dict[str, str], result: Any) -> None:
        b = bg.belief(key)
        assert b is not None and b.value == value and b.status.value == "active"

    return check


def _injection_stored_as_a_name(bg: BeliefGraph, w: dict[str, str], result: Any) -> None:
    """A framework whose argument name is Cypher text imports as data: the name is stored as is and
    nothing else in the space changed."""
    assert result.arguments == 2 and bg.belief("user.seed") is not None
    assert "x'}]->_MATCH_n_DETACH_DELETE_n_//" in bg.argumentation.export_text("hostile")


API: list[Case] = [
    # fact keys
    Case("key-empty", lambda bg, w: bg.assert_claim("", "v", "t", agent="a"), ValidationError),
    Case("key-space", lambda bg, w: bg.assert_claim("user x", "v", "t", agent="a"), ValidationError),
    Case(
        "key-cypher-injection", lambda bg, w: bg.assert_claim("user." + INJECTION, "v", "t", agent="a"), ValidationError
    ),
    Case("key-257-chars", lambda bg, w: bg.assert_claim("k." + "a" * 255, "v", "t", agent="a"), ValidationError),
    Case("key-non-ascii", lambda bg, w: bg.assert_claim("user.caf\u00e9", "v", "t", agent="a"), ValidationError),
    Case("key-trailing-dot", lambda bg, w: bg.assert_claim("user.", "v", "t", agent="a"), ValidationError),
    Case("key-newline", lambda bg, w: bg.assert_claim("user.x\nMATCH", "v", "t", agent="a"), ValidationError),
    Case("key-not-a-string", lambda bg, w: bg.assert_claim(["user.x"], "v", "t", agent="a"), ValidationError),  # type: ignore[arg-type]
    # values
    Case("value-list", lambda bg, w: bg.assert_claim("user.x", ["a"], "t", agent="a"), ValidationError),  # type: ignore[arg-type]
    Case("value-map", lambda bg, w: bg.assert_claim("user.x", {"a": 1}, "t", agent="a"), ValidationError),  # type: ignore[arg-type]
    Case("value-int-10e30", lambda bg, w: bg.assert_claim("user.x", 10**30, "t", agent="a"), ValidationError),
    Case(
        "value-int-below-int64", lambda bg, w: bg.assert_claim("user.x", -(2**63) - 1, "t", agent="a"), ValidationError
    ),
    Case(
        "value-int64-max",
        lambda bg, w: bg.assert_claim("user.x", 2**63 - 1, "t", agent="a"),
        None,
        _active_value("user.x", 2**63 - 1),
    ),
    Case("value-nan", lambda bg, w: bg.assert_claim("user.x", float("nan"), "t", agent="a"), ValidationError),
    Case("value-inf", lambda bg, w: bg.assert_claim("user.x", float("inf"), "t", agent="a"), ValidationError),
    Case("value-minus-inf", lambda bg, w: bg.assert_claim("user.x", float("-inf"), "t", agent="a"), ValidationError),
    Case("value-1mb-string", lambda bg, w: bg.assert_claim("user.x", "v" * 1_000_000, "t", agent="a"), ValidationError),
    Case("value-lone-surrogate", lambda bg, w: bg.assert_claim("user.x", "v\ud800", "t", agent="a"), ValidationError),
    Case("value-bytes", lambda bg, w: bg.assert_claim("user.x", b"v", "t", agent="a"), ValidationError),  # type: ignore[arg-type]
    Case(
        "value-type-change", lambda bg, w: bg.assert_claim("user.seed", 42, "now a number", agent="a"), ValidationError
    ),
    Case(
        "value-cypher-injection",
        lambda bg, w: bg.assert_claim("user.x", INJECTION, "t", agent="a"),
        None,
        _active_value("user.x", INJECTION),
    ),
    # texts
    Case("text-blank", lambda bg, w: bg.assert_claim("user.x", "v", "   ", agent="a"), ValidationError),
    Case("text-20001-chars", lambda bg, w: bg.assert_claim("user.x", "v", "t" * 20_001, agent="a"), ValidationError),
    Case("text-lone-surrogate", lambda bg, w: bg.assert_claim("user.x", "v", "t\udcff", agent="a"), ValidationError),
    Case(
        "text-nul-and-controls",
        lambda bg, w: bg.assert_claim("user.x", "v", "a\x00b\x1bc", agent="a"),
        None,
        lambda bg, w, r: _text_is(bg, r.claim.id, "a\x00b\x1bc"),
    ),
    Case("episode-10mb", lambda bg, w: bg.add_episode("x" * 10_000_000, agent="a"), ValidationError),
    Case("episode-1000001-chars", lambda bg, w: bg.add_episode("x" * 1_000_001, agent="a"), ValidationError),
    Case("episode-blank", lambda bg, w: bg.add_episode(" \n\t", agent="a"), ValidationError),
    Case("episode-lone-surrogate", lambda bg, w: bg.add_episode("bad \ud800", agent="a"), ValidationError),
    Case("episode-not-a-string", lambda bg, w: bg.add_episode(42, agent="a"), ValidationError),  # type: ignore[arg-type]
    # agents
    Case("agent-empty", lambda bg, w: bg.assert_claim("user.x", "v", "t", agent=""), ValidationError),
    Case("agent-257-chars", lambda bg, w: bg.add_episode("t", agent="a" * 257), ValidationError),
    Case("agent-lone-surrogate", lambda bg, w: bg.add_episode("t", agent="a\udc80"), ValidationError),
    Case("agent-star-registered", lambda bg, w: bg.beliefs.add_agent("*"), ValidationError),
    Case("agent-kind-unknown", lambda bg, w: bg.beliefs.add_agent("x", kind="root"), ValidationError),
    Case(
        "conversation-257-chars", lambda bg, w: bg.add_episode("t", agent="a", conversation="c" * 257), ValidationError
    ),
    # evidence
    Case(
        "evidence-unknown-id",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", evidence=["nope"]),
        ValidationError,
    ),
    Case(
        "evidence-other-space",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", evidence=[w["foreign_ep"]]),
        ValidationError,
    ),
    Case(
        "evidence-retracted",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", evidence=[w["retracted_ep"]]),
        ValidationError,
    ),
    Case(
        "evidence-20000-unknown-ids",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", evidence=[f"e{i}" for i in range(20_000)]),
        ValidationError,
    ),
    Case(
        "evidence-257-char-id",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", evidence=["e" * 257]),
        ValidationError,
    ),
    # numbers and times
    Case(
        "confidence-above-1",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", confidence=1.1),
        ValidationError,
    ),
    Case(
        "confidence-nan",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", confidence=float("nan")),
        ValidationError,
    ),
    Case(
        "confidence-string",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", confidence="high"),  # type: ignore[arg-type]
        ValidationError,
    ),
    Case(
        "valid-from-naive",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", valid_from=NAIVE),
        ValidationError,
    ),
    Case(
        "valid-from-far-future",
        lambda bg, w: bg.assert_claim(
            "user.x", "v", "t", agent="a", valid_from=datetime.now(UTC) + timedelta(days=36500)
        ),
        ValidationError,
    ),
    Case(
        "valid-from-tomorrow",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", valid_from=datetime.now(UTC) + timedelta(days=1)),
        ValidationError,
    ),
    Case(
        "valid-from-1899",
        lambda bg, w: bg.assert_claim("user.x", "v", "t", agent="a", valid_from=datetime(1899, 12, 31, tzinfo=UTC)),
        ValidationError,
    ),
    Case("episode-at-naive", lambda bg, w: bg.add_episode("t", agent="a", at=NAIVE), ValidationError),
    Case("as-of-naive", lambda bg, w: bg.beliefs.as_of("user.seed", NAIVE), ValidationError),
    Case("as-of-string", lambda bg, w: bg.beliefs.as_of("user.seed", "2026-01-01"), ValidationError),  # type: ignore[arg-type]
    Case("derive-at-naive", lambda bg, w: bg.derive("t", [w["ep"]], agent="a", at=NAIVE), ValidationError),
    # recall and look-ups
    Case("recall-blank", lambda bg, w: bg.recall("  "), ValidationError),
    Case("recall-10001-chars", lambda bg, w: bg.recall("q" * 10_001), ValidationError),
    Case("recall-k-0", lambda bg, w: bg.recall("q", k=0), ValidationError),
    Case("recall-k-1001", lambda bg, w: bg.recall("q", k=1001), ValidationError),
    Case("recall-k-bool", lambda bg, w: bg.recall("q", k=True), ValidationError),
    Case("recall-bad-key-filter", lambda bg, w: bg.recall("q", keys=["user x"]), ValidationError),
    Case("recall-lucene-syntax", lambda bg, w: bg.recall('user:* AND (x OR "y~ ^2 \\'), None, lambda bg, w, r: None),
    Case("recall-as-of-naive", lambda bg, w: bg.recall("q", as_of=NAIVE), ValidationError),
    Case("lookup-nothing", lambda bg, w: bg.retrieval.lookup(), ValidationError),
    Case("lookup-limit-0", lambda bg, w: bg.retrieval.lookup("user.seed", limit=0), ValidationError),
    Case("claim-unknown-id", lambda bg, w: bg.beliefs.claim("no-such-claim"), ClaimNotFound),
    Case("claim-of-other-space", lambda bg, w: bg.beliefs.explain(w["foreign_claim"]), ClaimNotFound),
    Case("claim-5m-char-id", lambda bg, w: bg.beliefs.claim("c" * 5_000_000), ClaimNotFound),
    Case("audits-unknown-claim", lambda bg, w: bg.support.audits_for_claim("nope"), ClaimNotFound),
    # reads by key: the key syntax of the writes
    Case("belief-malformed-key", lambda bg, w: bg.belief("user x"), ValidationError),
    Case("belief-5m-char-key", lambda bg, w: bg.belief("k" * 5_000_000), ValidationError),
    Case("history-malformed-key", lambda bg, w: bg.beliefs.history("user x"), ValidationError),
    Case("as-of-malformed-key", lambda bg, w: bg.beliefs.as_of("user x", datetime.now(UTC)), ValidationError),
    Case("context-malformed-key", lambda bg, w: bg.context(keys=["user x"]), ValidationError),
    # key descriptions
    Case("key-description-10mb", lambda bg, w: bg.beliefs.register_key("user.x", "d" * 10_000_000), LimitExceeded),
    Case("key-description-2001-chars", lambda bg, w: bg.beliefs.register_key("user.x", "d" * 2_001), LimitExceeded),
    # policies
    Case(
        "pattern-backtracking",
        lambda bg, w: bg.conflicts.set_policy("*.*.*.*.*.*.*.*.*.zz", "authority"),
        None,
        lambda bg, w, r: _linear_write(bg),
    ),
    Case(
        "pattern-33-segments", lambda bg, w: bg.conflicts.set_policy(".".join(["a"] * 33), "authority"), ValidationError
    ),
    Case("pattern-257-chars", lambda bg, w: bg.conflicts.set_policy("a" * 257, "authority"), ValidationError),
    Case("pattern-regex-syntax", lambda bg, w: bg.conflicts.set_policy("user.(a|b)", "authority"), ValidationError),
    Case(
        "pattern-two-stars-in-a-segment",
        lambda bg, w: bg.conflicts.set_policy("user.*x*", "authority"),
        ValidationError,
    ),
    Case("strategy-unknown", lambda bg, w: bg.conflicts.set_policy("user.*", "majority"), ValidationError),
    Case("authority-weight-1.5", lambda bg, w: bg.conflicts.set_authority("a", "user.*", 1.5), ValidationError),
    Case(
        "authority-weight-nan", lambda bg, w: bg.conflicts.set_authority("a", "user.*", float("nan")), ValidationError
    ),
    Case(
        "auto-corroboration-1",
        lambda bg, w: bg.conflicts.set_policy("user.*", "authority", auto_corroboration=1),
        ValidationError,
    ),
    Case(
        "auto-age-negative",
        lambda bg, w: bg.conflicts.set_policy("user.*", "authority", auto_age_days=-1),
        ValidationError,
    ),
    Case(
        "auto-age-nan",
        lambda bg, w: bg.conflicts.set_policy("user.*", "authority", auto_age_days=float("nan")),
        ValidationError,
    ),
    Case(
        "auto-age-inf",
        lambda bg, w: bg.conflicts.set_policy("user.*", "authority", auto_age_days=float("inf")),
        ValidationError,
    ),
    Case(
        "auto-authority-gap-inf",
        lambda bg, w: bg.conflicts.set_policy("user.*", "authority", auto_authority_gap=float("inf")),
        ValidationError,
    ),
    # disputes
    Case(
        "dispute-unknown",
        lambda bg, w: bg.conflicts.resolve_dispute("nope", "challenger", by="me", reason="r"),
        DisputeNotFound,
    ),
    Case(
        "dispute-bad-winner",
        lambda bg, w: bg.conflicts.resolve_dispute(w["dispute"], "nobody", by="me", reason="r"),
        ValidationError,
    ),
    Case(
        "dispute-no-reason",
        lambda bg, w: bg.conflicts.resolve_dispute(w["dispute"], "challenger", by="me", reason=" "),
        ValidationError,
    ),
    # justifications and reconsolidation
    Case("derive-no-premises", lambda bg, w: bg.derive("t", [], agent="a"), ValidationError),
    Case("derive-unknown-premise", lambda bg, w: bg.derive("t", ["nope"], agent="a"), ValidationError),
    Case("derive-retracted-premise", lambda bg, w: bg.derive("t", [w["retracted_ep"]], agent="a"), ValidationError),
    Case(
        "derive-confidence-nan",
        lambda bg, w: bg.derive("t", [w["ep"]], agent="a", confidence=float("nan")),
        ValidationError,
    ),
    Case("retract-unknown", lambda bg, w: bg.retract(["nope"], "r"), NotFoundError),
    Case("retract-no-reason", lambda bg, w: bg.retract([w["ep"]], ""), ValidationError),
    Case("retract-2001-char-reason", lambda bg, w: bg.retract([w["ep"]], "r" * 2001), ValidationError),
    Case("retract-bad-mode", lambda bg, w: bg.retract([w["ep"]], "r", mode="everything"), ValidationError),
    Case("retract-twice", lambda bg, w: bg.retract([w["retracted_ep"]], "again"), ValidationError),
    Case("restore-not-retracted", lambda bg, w: bg.restore([w["ep"]], "r"), ValidationError),
    # argumentation
    Case("af-header-1e20", _af("huge.af", "p af 100000000000000000000\n"), LimitExceeded),
    Case("af-header-1e6", _af("big.af", "p af 1000000\n"), LimitExceeded),
    Case("af-header-200000", _af("unsolvable.af", "p af 200000\n"), LimitExceeded),
    Case("af-attack-unknown-argument", _af("bad.af", "p af 2\n1 3\n"), FormatError),
    Case(
        "apx-cypher-injection-name",
        _af("inj.apx", "arg(a). arg(x'}]->_MATCH_n_DETACH_DELETE_n_//). att(a,a)."),
        None,
        lambda bg, w, r: _injection_stored_as_a_name(bg, w, r),
    ),
    Case("tgf-no-separator", _af("bad.tgf", "a\nb\n"), FormatError),
    Case(
        "framework-name-newline", lambda bg, w: bg.argumentation.store_attacks("ns\nMATCH", ["a"], []), ValidationError
    ),
    Case(
        "argument-name-100k-chars",
        lambda bg, w: bg.argumentation.store_attacks("x:ns", ["a" * 100_000], []),
        LimitExceeded,
    ),
    Case(
        "argument-name-5m-chars",
        lambda bg, w: bg.argumentation.store_attacks("x:ns", ["a" * 5_000_000], []),
        LimitExceeded,
    ),
    Case("apx-argument-name-100k-chars", _af("long.apx", f"arg({'a' * 100_000}).\n"), LimitExceeded),
    Case(
        "attack-unknown-endpoint",
        lambda bg, w: bg.argumentation.store_attacks("x:ns", ["a"], [("a", "b")]),
        ValidationError,
    ),
    Case(
        "enlist-other-space-proposal",
        lambda bg, w: bg.argumentation.enlist("x:ns", [w["foreign_proposal"]]),
        NotFoundError,
    ),
    # perspectives
    Case("perspective-blank-name", lambda bg, w: bg.perspectives.add_one(" ", "goal", ["term"]), ValidationError),
    Case("perspective-no-ontology", lambda bg, w: bg.perspectives.add_one("p", "goal", []), ValidationError),
    # the checker
    Case("check-limit-0", lambda bg, w: bg.admin.check(limit=0), ValidationError),
]


def _text_is(bg: BeliefGraph, claim_id: str, text: str) -> None:
    assert bg.beliefs.claim(claim_id).text == text


def _linear_write(bg: BeliefGraph) -> None:
    """The backtracking pattern is accepted and a write to a 40-segment key stays linear."""
    repo = bg.conflicts.policy_repo
    repo.match_steps = 0
    key = ".".join(["s"] * 40)
    bg.assert_claim(key, "a", "a", agent="a")
    bg.assert_claim(key, "b", "b", agent="b")
    assert repo.match_steps <= 8 * 3 * len(key) * 20


def _count(bg: BeliefGraph) -> tuple[int, int, int]:
    rows = bg.graph.driver.execute_query(
        "MATCH (n) WHERE n.space IN [$s, $f] OPTIONAL MATCH (n)-[r]-() "
        "RETURN count(DISTINCT n) AS n, count(DISTINCT r) AS r, sum(size(keys(n))) AS p",
        s=bg.space,
        f=bg.space + "-foreign",
    ).records[0]
    return int(rows["n"]), int(rows["r"]), int(rows["p"])


def _make_world(bg: BeliefGraph, settings, embedder, graph) -> dict[str, str]:  # type: ignore[no-untyped-def]
    ep = bg.add_episode("a premise", agent="a").id
    gone = bg.add_episode("retracted evidence", agent="a").id
    bg.assert_claim("user.seed", "s", "seed", agent="a", evidence=[ep])
    bg.retract([gone], "it was wrong")
    bg.conflicts.set_policy("user.pet", "authority")
    bg.conflicts.set_authority("hr", "user.pet", 0.9)
    bg.assert_claim("user.pet", "cat", "has a cat", agent="hr")
    dispute = bg.assert_claim("user.pet", "dog", "has a dog", agent="bot").dispute
    assert dispute is not None
    foreign = bg.space + "-foreign"
    with BeliefGraph.connect(space=foreign, settings=settings, embedder=embedder) as other:
        fep = other.add_episode("elsewhere", agent="x").id
        fclaim = other.assert_claim("user.city", "Oslo", "lives in Oslo", agent="x").claim.id
    graph.driver.execute_query("CREATE (:Proposal {id: $id, space: $s})", id=f"p-{foreign}", s=foreign)
    return {
        "ep": ep,
        "retracted_ep": gone,
        "dispute": dispute.id,
        "foreign_ep": fep,
        "foreign_claim": fclaim,
        "foreign_proposal": f"p-{foreign}",
    }


@pytest.fixture(scope="module")
def shared(base_settings, graph, embedder, tmp_path_factory):  # type: ignore[no-untyped-def]
    """One space for the refused cases: they write nothing, so they can share it (each counts the
    nodes, relationships and properties before and after)."""
    os.environ["PYTEST_TMP"] = str(tmp_path_factory.mktemp("hostile"))
    space = f"test-hostile-{uuid.uuid4().hex[:8]}"
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=embedder) as b:
        yield b, _make_world(b, base_settings, embedder, graph)
    for s in (space, space + "-foreign"):
        graph.write("admin.delete_space", space=s)


@pytest.fixture()
def world(bg: BeliefGraph, base_settings, embedder, graph, tmp_path):  # type: ignore[no-untyped-def]
    os.environ["PYTEST_TMP"] = str(tmp_path)
    yield _make_world(bg, base_settings, embedder, graph)
    graph.write("admin.delete_space", space=bg.space + "-foreign")


REFUSED = [c for c in API if c.error is not None]
DOCUMENTED = [c for c in API if c.error is None]


@pytest.mark.parametrize("case", REFUSED, ids=[c.id for c in REFUSED])
def test_api_refused(shared, case: Case) -> None:  # type: ignore[no-untyped-def]
    bg, w = shared
    before = _count(bg)
    with pytest.raises(case.error) as err:  # type: ignore[arg-type]
        case.call(bg, w)
    assert len(str(err.value)) < MAX_MESSAGE, str(err.value)[:2000]
    assert _count(bg) == before, "a refused call wrote something"


def test_api_refused_cases_left_the_shared_space_intact(shared) -> None:  # type: ignore[no-untyped-def]
    bg, _ = shared
    assert bg.admin.check().ok


@pytest.mark.parametrize("case", DOCUMENTED, ids=[c.id for c in DOCUMENTED])
def test_api_documented(bg: BeliefGraph, world: dict[str, str], case: Case) -> None:
    result = case.call(bg, world)
    assert case.check is not None
    case.check(bg, world, result)
    assert bg.admin.check().ok


# --- the CLI: exit 2 (bad input) or 1 (not found), one line, no traceback, nothing written ------------

CLI: list[tuple[str, list[str | bytes], int]] = [
    ("cli-space-empty", ["--space", "", "memory", "episode", "t", "--agent", "a"], 2),
    ("cli-space-quote", ["--space", "a'b", "memory", "episode", "t", "--agent", "a"], 2),
    ("cli-space-129-chars", ["--space", "s" * 129, "memory", "episode", "t", "--agent", "a"], 2),
    ("cli-value-10e30", ["memory", "assert", "user.big", "1" + "0" * 30, "big", "--agent", "a"], 2),
    ("cli-value-nan", ["memory", "assert", "user.x", "NaN", "nan", "--agent", "a"], 2),
    ("cli-episode-invalid-utf8", ["memory", "episode", b"bad \xff", "--agent", "a"], 2),
    ("cli-agent-invalid-utf8", ["memory", "episode", "t", "--agent", b"a\xfe"], 2),
    ("cli-key-injection", ["memory", "assert", "user." + INJECTION, "v", "t", "--agent", "a"], 2),
    ("cli-recall-blank", ["memory", "recall", " "], 2),
    ("cli-recall-k-0", ["memory", "recall", "q", "-k", "0"], 2),
    ("cli-as-of-naive", ["memory", "as-of", "user.seed", "2026-01-01T00:00:00"], 2),
    ("cli-as-of-garbage", ["memory", "as-of", "user.seed", "yesterday"], 2),
    ("cli-pattern-33-segments", ["policy", "set", ".".join(["a"] * 33), "authority"], 2),
    ("cli-authority-weight-1.5", ["policy", "authority", "a", "user.*", "1.5"], 2),
    (
        "cli-dispute-unknown",
        ["disputes", "resolve", "nope", "--winner", "challenger", "--by", "me", "--reason", "r"],
        1,
    ),
    ("cli-retract-unknown", ["support", "retract", "nope", "--reason", "r"], 1),
    ("cli-check-limit-0", ["db", "check", "--limit", "0"], 2),
    ("cli-af-header-1e20", ["argue", "solve", "@huge.af"], 2),
    ("cli-af-header-1e6", ["argue", "import", "@big.af", "--name", "big"], 2),
    ("cli-af-header-200000", ["argue", "import", "@unsolvable.af", "--name", "big"], 2),
    ("cli-unknown-option", ["memory", "recall", "q", "--evil"], 2),
    ("cli-key-description-100k", ["memory", "register-key", "user.x", "d" * 100_000], 2),
    ("cli-auto-age-nan", ["policy", "set", "user.*", "authority", "--auto-age-days", "nan"], 2),
    ("cli-auto-age-inf", ["policy", "set", "user.*", "authority", "--auto-age-days", "inf"], 2),
    ("cli-apx-argument-name-100k", ["argue", "import", "@long.apx", "--name", "long"], 2),
    (
        "cli-evidence-2000-unknown-ids",
        ["memory", "assert", "user.y", "v", "t", "--agent", "a"] + [f"--evidence=e{i}" for i in range(2000)],
        2,
    ),
    ("cli-belief-malformed-key", ["memory", "belief", "user x"], 2),
    ("cli-audits-unknown-claim", ["support", "history", "nope"], 1),
]


def _cli(args: list[str], settings, space: str, monkeypatch, capsys) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """Run the real entry point (``belief_graph.cli.main``) in this process, as the installed
    ``belief-graph`` script does; returns ``(exit code, stderr)``. Argument bytes that are not UTF-8
    arrive as lone surrogates, exactly as Python decodes ``sys.argv`` (test_hardening.py runs the
    same through a subprocess)."""
    from belief_graph.cli import main

    for k in list(os.environ):
        if k.startswith("BELIEF_GRAPH_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__URI", settings.neo4j.uri)
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__USER", settings.neo4j.user)
    monkeypatch.setenv("BELIEF_GRAPH_NEO4J__PASSWORD", settings.neo4j.password.get_secret_value())
    full = list(args) if args[:1] == ["--space"] else ["--space", space, *args]
    monkeypatch.setattr(sys, "argv", ["belief-graph", *full])
    capsys.readouterr()
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("case_id, args, code", CLI, ids=[c[0] for c in CLI])
def test_cli(
    bg: BeliefGraph,
    base_settings,
    tmp_path,
    monkeypatch,
    capsys,
    case_id: str,  # type: ignore[no-untyped-def]
    args: list[str | bytes],
    code: int,
) -> None:
    (tmp_path / "huge.af").write_text("p af 100000000000000000000\n")
    (tmp_path / "big.af").write_text("p af 1000000\n")
    (tmp_path / "unsolvable.af").write_text("p af 200000\n")
    (tmp_path / "long.apx").write_text(f"arg({'a' * 100_000}).\n")
    argv = [os.fsdecode(a) if isinstance(a, bytes) else str(tmp_path / a[1:]) if a.startswith("@") else a for a in args]
    bg.assert_claim("user.seed", "s", "seed", agent="a")
    before = _count(bg)
    got, err = _cli(argv, base_settings, bg.space, monkeypatch, capsys)
    assert got == code, (got, err[-1000:])
    assert "Traceback" not in err, err
    assert len(err) < MAX_MESSAGE, err[:2000]
    if err.startswith("error: "):
        assert err.count("\n") == 1, err
    else:  # a usage error from the option parser: its own short message
        assert "Usage:" in err or "Error" in err, err
    assert _count(bg) == before


def test_catalogue_size_and_documentation() -> None:
    """At least 60 cases, and docs/security.md lists every one of them."""
    ids = [c.id for c in API] + [c[0] for c in CLI]
    assert len(ids) >= 60 and len(set(ids)) == len(ids)
    doc = DOC.read_text()
    missing = [i for i in ids if f"`{i}`" not in doc]
    assert not missing, f"docs/security.md does not list: {missing}"


def test_configuration_errors_are_typed() -> None:
    from belief_graph.settings import load_settings

    with pytest.raises(ConfigurationError):
        load_settings(space="")
    with pytest.raises(ConfigurationError):
        load_settings(neo4j={"uri": "http://127.0.0.1:7474"})


@pytest.mark.parametrize(
    "section, values",
    [
        ("policy", {"default_authority": float("nan")}),
        ("policy", {"key_align_threshold": float("nan")}),
        ("neo4j", {"connection_timeout": float("inf")}),
        ("neo4j", {"max_transaction_retry_time": float("inf")}),
        ("server", {"start_timeout": float("inf")}),
        ("llm", {"timeout": float("inf")}),
        ("llm", {"timeouts": {"extract": float("nan")}}),
        ("retrieval", {"key_weight": float("nan")}),
    ],
    ids=lambda v: v if isinstance(v, str) else next(iter(v)),
)
def test_settings_numbers_are_finite(section: str, values: dict[str, Any]) -> None:
    """No float setting is NaN or infinite (a timeout of inf waits for ever; NaN compares false)."""
    from belief_graph.settings import load_settings

    with pytest.raises(ConfigurationError, match="finite"):
        load_settings(**{section: values})
