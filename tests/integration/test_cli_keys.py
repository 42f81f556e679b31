"""``belief-graph memory merge-keys`` and ``memory schema ...`` end to end (real entry point, real Neo4j)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from belief_graph import BeliefGraph

Run = Callable[..., CompletedProcess[str]]


def _counts(bg: BeliefGraph) -> list[tuple[str, str, int]]:
    rows = bg.graph.read("admin.count_by_label_status", space=bg.space)
    return sorted((str(r["label"]), str(r["status"]), int(r["count"])) for r in rows)


def test_merge_keys_shows_the_plan_without_yes_then_merges(bg: BeliefGraph, run_cli: Run) -> None:
    old = bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:a").claim.id
    new = bg.assert_claim("user.location.city", "Porto", "The user lives in Porto", agent="user:b").claim.id
    before = _counts(bg)
    args = ["--space", bg.space, "memory", "merge-keys", "user.location.city", "user.city", "--reason", "drift"]
    r = run_cli(args)
    assert r.returncode == 2, r.stderr
    assert "dispute" in r.stdout and f"{old}: active -> disputed" in r.stdout and "--yes" in r.stderr
    r = run_cli([*args, "--json"])
    assert r.returncode == 2 and json.loads(r.stdout)["plan"]["current"] == new
    assert _counts(bg) == before
    r = run_cli([*args, "--yes", "--agent", "user:admin", "--json"])
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)["result"]
    assert out["outcome"] == "dispute" and out["current"]["id"] == new and out["dispute"]["challenger"]["id"] == old
    assert bg.support.audit(out["audit"]).agent == "user:admin"
    r = run_cli(["--space", bg.space, "memory", "keys"])
    assert r.returncode == 0 and "merged into" in r.stdout
    r = run_cli(["--space", bg.space, "memory", "belief", "user.location.city", "--json"])
    assert r.returncode == 0 and json.loads(r.stdout)["id"] == new
    r = run_cli([*args, "--yes"])  # the source is an alias now: a refusal (exit 2, one line), nothing written
    assert r.returncode == 2 and "already merged into 'user.city'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    r = run_cli(["--space", bg.space, "memory", "merge-keys", "no.such", "user.city", "--reason", "x"])
    assert r.returncode == 1 and "no fact with key 'no.such'" in r.stderr


def test_merge_keys_text_output(bg: BeliefGraph, run_cli: Run) -> None:
    bg.assert_claim("user.city", "Lisbon", "The user lives in Lisbon", agent="user:a")
    bg.assert_claim("user.location.city", "Porto", "The user lives in Porto", agent="user:a")
    r = run_cli(
        ["--space", bg.space, "memory", "merge-keys", "user.location.city", "user.city", "--reason", "drift", "--yes"]
    )
    assert r.returncode == 0, r.stderr
    assert "merged user.location.city into user.city: update" in r.stdout and "audit" in r.stdout


def test_schema_set_show_history_drop(bg: BeliefGraph, run_cli: Run, tmp_path: Path) -> None:
    base = ["--space", bg.space, "memory", "schema"]
    r = run_cli([*base, "show"])
    assert r.returncode == 1 and "no key schema" in r.stderr
    yml = tmp_path / "schema.yaml"
    yml.write_text(
        "unknown: refuse\nkeys:\n"
        "  - key: user.city\n    description: the city the user lives in\n    type: string\n    examples: [Lisbon]\n"
        "  - key: user.age\n    description: the user's age in years\n    type: number\n"
    )
    r = run_cli([*base, "set", str(yml), "--agent", "user:admin", "--json"])
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert (
        out["version"] == 1
        and out["unknown"] == "refuse"
        and [k["key"] for k in out["keys"]] == ["user.city", "user.age"]
    )
    js = tmp_path / "schema.json"
    js.write_text(json.dumps([{"key": "user.city", "description": "the city the user lives in", "type": "string"}]))
    r = run_cli([*base, "set", str(js)])
    assert r.returncode == 0 and "key schema v2" in r.stdout
    r = run_cli([*base, "show", "--json"])
    assert r.returncode == 0 and json.loads(r.stdout)["version"] == 2
    r = run_cli([*base, "history", "--json"])
    assert [(s["version"], s["status"]) for s in json.loads(r.stdout)] == [(1, "replaced"), (2, "active")]
    bad = tmp_path / "bad.yaml"
    bad.write_text("- key: user.city\n  description: ' '\n")
    r = run_cli([*base, "set", str(bad)])
    assert r.returncode == 2 and "blank description" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run_cli([*base, "drop", "--agent", "user:admin"])
    assert r.returncode == 0 and "dropped key schema v2" in r.stdout
    r = run_cli([*base, "drop"])
    assert r.returncode == 1 and "no key schema" in r.stderr
    r = run_cli([*base, "history"])
    assert r.returncode == 0 and "dropped" in r.stdout
