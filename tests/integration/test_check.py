"""``db check`` / ``bg.admin.check()``: holds on healthy spaces, and names the offending ids of each kind
of corruption (made here with test-only Cypher, since the engine never makes them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.db.registry import get_registry
from belief_graph.errors import ValidationError
from belief_graph.services.check import INVARIANTS

BIN = str(Path(sys.executable).with_name("belief-graph"))


def _world(bg: BeliefGraph) -> dict[str, str]:
    """A small space that exercises every write path: versions, corroboration, a dispute, a derived
    claim, retract and restore, a valid_from before the previous version was written (a late report),
    a grounded attack graph."""
    ep = bg.add_episode("I moved to Porto", agent="user:a")
    ep2 = bg.add_episode("I like cats", agent="user:a")
    lisbon = bg.assert_claim("user.city", "Lisbon", "lives in Lisbon", agent="user:a").claim.id
    porto = bg.assert_claim("user.city", "Porto", "lives in Porto", agent="user:a", evidence=[ep.id]).claim.id
    bg.assert_claim("user.city", "Porto", "lives in Porto", agent="agent:b", evidence=[ep2.id])
    bg.conflicts.set_policy("user.pet", "authority")
    bg.conflicts.set_authority("hr", "user.*", 0.9)
    cat = bg.assert_claim("user.pet", "cat", "has a cat", agent="hr", evidence=[ep2.id]).claim.id
    dog = bg.assert_claim("user.pet", "dog", "has a dog", agent="bot").claim.id
    coast = bg.derive("the user lives near the sea", [porto], "user.coast", agent="agent:x").id
    bg.retract([ep2.id], "wrong")
    bg.restore([ep2.id], "right")
    bg.assert_claim("user.tz", "CET", "tz CET", agent="u")
    bg.assert_claim("user.tz", "WET", "tz WET", agent="u", valid_from=datetime.now(UTC) - timedelta(days=3))
    bg.argumentation.store_attacks("x:ns", ["a", "b", "c"], [("a", "b"), ("b", "c")])
    bg.argumentation.ground("x:ns")
    return {"ep": ep.id, "ep2": ep2.id, "lisbon": lisbon, "porto": porto, "cat": cat, "dog": dog, "coast": coast}


def _q(bg: BeliefGraph, text: str, **params: Any) -> None:
    bg.graph.driver.execute_query(text, s=bg.space, **params)


def test_a_healthy_space_passes_and_every_statement_is_read_only(bg: BeliefGraph) -> None:
    _world(bg)
    report = bg.admin.check()
    assert report.ok, report.to_dict()
    assert [i.name for i in report.invariants] == [n for n, _ in INVARIANTS]
    for name, _ in INVARIANTS:
        q = get_registry()[f"check.{name}"]
        assert q.mode == "read" and "space" in q.params and "limit" in q.params


Corrupt = Callable[[BeliefGraph, dict[str, str]], None]

CORRUPTIONS: list[tuple[str, str, str, Corrupt]] = [
    (
        "second active claim",
        "active_per_key",
        "user.city",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id}) SET c.status = 'active'", id=w["lisbon"]),
    ),
    (
        "CURRENT moved to a superseded claim",
        "current_beliefs",
        "user.city",
        lambda bg, w: _q(
            bg,
            "MATCH (f:Fact {space: $s, key: 'user.city'})-[r:CURRENT]->() DELETE r WITH f "
            "MATCH (c:Claim {space: $s, id: $id}) CREATE (f)-[:CURRENT]->(c)",
            id=w["lisbon"],
        ),
    ),
    (
        "two CURRENT edges",
        "current_beliefs",
        "user.pet",
        lambda bg, w: _q(
            bg,
            "MATCH (f:Fact {space: $s, key: 'user.pet'}), (c:Claim {space: $s, id: $id}) CREATE (f)-[:CURRENT]->(c)",
            id=w["dog"],
        ),
    ),
    (
        "chain against time",
        "version_chains",
        "porto",
        lambda bg, w: _q(
            bg,
            "MATCH (c:Claim {space: $s, id: $id}) SET c.created_at = datetime('2001-01-01T00:00:00Z')",
            id=w["porto"],
        ),
    ),
    (
        "branching chain",
        "version_chains",
        "dog",
        lambda bg, w: _q(
            bg,
            "MATCH (a:Claim {space: $s, id: $a}), (b:Claim {space: $s, id: $b}) CREATE (a)-[:SUPERSEDES]->(b)",
            a=w["dog"],
            b=w["lisbon"],
        ),
    ),
    (
        "valid_to before valid_from",
        "version_chains",
        "lisbon",
        lambda bg, w: _q(
            bg, "MATCH (c:Claim {space: $s, id: $id}) SET c.valid_to = c.valid_from - duration('P1D')", id=w["lisbon"]
        ),
    ),
    (
        "premise gone, conclusion still active",
        "current_support",
        "coast",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id}) SET c.status = 'stale'", id=w["porto"]),
    ),
    (
        "status changed without a revision",
        "revision_chains",
        "cat",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id}) SET c.status = 'withdrawn'", id=w["cat"]),
    ),
    (
        "two revisions at one time in no order",
        "revision_chains",
        "in no order",
        lambda bg, w: _q(
            bg,
            "MATCH (c:Claim {space: $s, id: $id})-[:HAS_REVISION]->(r) WITH c, r ORDER BY r.at DESC LIMIT 1 "
            "CREATE (c)-[:HAS_REVISION]->(:Revision {space: $s, id: '!' + r.id, claim: c.id, status: 'withdrawn', "
            "at: r.at, seq: r.seq})",
            id=w["cat"],
        ),
    ),
    (
        "a revision dated before one written earlier",
        "revision_chains",
        "written earlier",
        lambda bg, w: _q(
            bg,
            "MATCH (c:Claim {space: $s, id: $id})-[:HAS_REVISION]->(r) WITH c, r ORDER BY r.at DESC LIMIT 1 "
            "CREATE (c)-[:HAS_REVISION]->(:Revision {space: $s, id: '!' + r.id, claim: c.id, status: c.status, "
            "at: r.at - duration('PT1H'), seq: coalesce(r.seq, 0) + 1})",
            id=w["cat"],
        ),
    ),
    (
        "claim without revisions",
        "revision_chains",
        "dog",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id})-[:HAS_REVISION]->(r) DETACH DELETE r", id=w["dog"]),
    ),
    (
        "edge into another space",
        "cross_space_relationships",
        "ep",
        lambda bg, w: _q(
            bg,
            "MATCH (e:Episode {space: $s, id: $id}) CREATE (e)-[:PREMISE_OF]->(:Justification "
            "{space: $s + '-elsewhere', id: 'foreign-j'})",
            id=w["ep"],
        ),
    ),
    (
        "status label disagrees",
        "status_labels",
        "cat",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id}) REMOVE c:Active SET c:Withdrawn", id=w["cat"]),
    ),
    (
        "retracted episode without its label",
        "status_labels",
        "ep2",
        lambda bg, w: _q(bg, "MATCH (e:Episode {space: $s, id: $id}) SET e.status = 'retracted'", id=w["ep2"]),
    ),
    (
        "grounded mark disagrees with the label",
        "grounded_labels",
        "x:ns/b",
        lambda bg, w: _q(bg, "MATCH (a:Argument {space: $s, ns: 'x:ns', name: 'b'}) REMOVE a:Out SET a:In"),
    ),
    (
        "two grounded marks",
        "grounded_labels",
        "x:ns/a",
        lambda bg, w: _q(bg, "MATCH (a:Argument {space: $s, ns: 'x:ns', name: 'a'}) SET a:Undec"),
    ),
    (
        "grounded mark on a claim never solved",
        "grounded_labels",
        "cat",
        lambda bg, w: _q(bg, "MATCH (c:Claim {space: $s, id: $id}) SET c:Out", id=w["cat"]),
    ),
    (
        "reconsolidation marks left",
        "scratch_state",
        "coast",
        lambda bg, w: _q(
            bg, "MATCH (c:Claim {space: $s, id: $id}) SET c._rc = 'run-1', c._rc_in = true, c:RcFrontier", id=w["coast"]
        ),
    ),
    (
        "solver state left",
        "scratch_state",
        "x:ns",
        lambda bg, w: _q(
            bg, "MATCH (a:Argument {space: $s, ns: 'x:ns', name: 'b'}) SET a.state = 'OUT', a.undefeated = 0"
        ),
    ),
]


@pytest.mark.parametrize("case, invariant, needle, corrupt", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_each_corruption_is_reported_with_its_ids(
    bg: BeliefGraph, graph, case: str, invariant: str, needle: str, corrupt: Corrupt
) -> None:  # type: ignore[no-untyped-def]
    w = _world(bg)
    assert bg.admin.check().ok
    try:
        corrupt(bg, w)
        report = bg.admin.check()
        broken = {i.name: i for i in report.failed}
        assert invariant in broken, report.to_dict()
        shown = " ".join(broken[invariant].offending)
        assert w.get(needle, needle) in shown, (case, shown)
        assert broken[invariant].violations >= 1
    finally:
        graph.write("admin.delete_space", space=bg.space + "-elsewhere")


def test_limit_caps_the_list_not_the_count(bg: BeliefGraph) -> None:
    for i in range(5):
        bg.assert_claim(f"k.k{i}", "a", f"a {i}", agent="u")
        bg.assert_claim(f"k.k{i}", "b", f"b {i}", agent="u")
    _q(bg, "MATCH (c:Claim {space: $s, status: 'superseded'}) SET c.status = 'active'")
    r = bg.admin.check(limit=2)
    apk = next(i for i in r.invariants if i.name == "active_per_key")
    assert apk.violations == 5 and len(apk.offending) == 2
    with pytest.raises(ValidationError):
        bg.admin.check(limit=0)


def _cli(args: list[str], settings) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    e = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    e.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
    )
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=e, timeout=300)


def test_cli_exit_code_ids_and_json(bg: BeliefGraph, base_settings) -> None:  # type: ignore[no-untyped-def]
    w = _world(bg)
    ok = _cli(["--space", bg.space, "db", "check"], base_settings)
    assert ok.returncode == 0 and "all 9 invariants hold" in ok.stdout, ok.stdout + ok.stderr
    _q(bg, "MATCH (c:Claim {space: $s, id: $id}) SET c.status = 'active'", id=w["lisbon"])
    bad = _cli(["--space", bg.space, "db", "check"], base_settings)
    assert bad.returncode == 1 and w["lisbon"] in bad.stdout and "active_per_key" in bad.stdout, bad.stdout
    js = _cli(["--space", bg.space, "db", "check", "--json"], base_settings)
    assert js.returncode == 1
    data = json.loads(js.stdout)
    assert data["ok"] is False and data["space"] == bg.space
    apk = next(i for i in data["invariants"] if i["name"] == "active_per_key")
    assert apk["violations"] == 1 and w["lisbon"] in apk["offending"][0]


def test_check_statements_start_from_the_space_indexes(graph) -> None:  # type: ignore[no-untyped-def]
    """Work bounded by the space: no all-nodes or all-relationships scan, and no label scan but the
    (normally empty) RcFrontier one."""
    for name, _ in INVARIANTS:
        q = get_registry()[f"check.{name}"]
        with graph.driver.session(database=graph.database) as session:
            plan = session.run("EXPLAIN " + q.text, space="x", limit=1).consume().plan
        ops: list[tuple[str, str]] = []

        def walk(p: dict[str, Any]) -> None:
            ops.append((p["operatorType"].split("@")[0], str(p.get("args", {}).get("Details", ""))))  # noqa: B023 (runs in this iteration)
            for child in p.get("children", []):
                walk(child)

        walk(plan)
        scans = [(op, d) for op, d in ops if "Scan" in op and not (op == "NodeByLabelScan" and "RcFrontier" in d)]
        assert not scans, (name, scans)
        assert any("IndexSeek" in op for op, _ in ops), name
