"""The belief-graph CLI end to end (real entry point, real Neo4j): one-line typed errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import uuid
from pathlib import Path

import pytest
from cli_runner import run_cli_with

from belief_graph import BeliefGraph
from belief_graph.repositories.admin import AdminRepository
from belief_graph.settings import Settings


def run(args: list[str], settings: Settings, **env: str) -> subprocess.CompletedProcess[str]:
    return run_cli_with(settings, args, **env)


@pytest.fixture()
def cli_space(graph):  # type: ignore[no-untyped-def]
    name = f"cli-{uuid.uuid4().hex[:10]}"
    yield name
    graph.write("admin.delete_space", space=name)


def _count(graph, space: str) -> int:  # type: ignore[no-untyped-def]
    return sum(r["count"] for r in graph.read("admin.count_by_label_status", space=space))


def test_memory_round_trip_and_json(base_settings: Settings, graph, cli_space: str) -> None:  # type: ignore[no-untyped-def]
    r = run(
        [
            "--space",
            cli_space,
            "memory",
            "assert",
            "user.city",
            "Porto",
            "The user lives in Porto",
            "--agent",
            "user:a",
            "--json",
        ],
        base_settings,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["op"] == "ADD" and out["claim"]["value"] == "Porto"
    r = run(["--space", cli_space, "memory", "belief", "user.city", "--json"], base_settings)
    assert r.returncode == 0 and json.loads(r.stdout)["id"] == out["claim"]["id"]
    r = run(["--space", cli_space, "memory", "recall", "where does she live?", "--json"], base_settings)
    assert r.returncode == 0 and json.loads(r.stdout)[0]["claim"]["key"] == "user.city"
    r = run(["--space", cli_space, "db", "stats", "--json"], base_settings)
    counts = {(c["label"], c["status"]): c["count"] for c in json.loads(r.stdout)["counts"]}
    assert counts[("Claim", "active")] == 1
    r = run(["--space", cli_space, "memory", "belief", "user.nothing"], base_settings)
    assert r.returncode == 1


def test_db_verify_and_doctor_json(base_settings: Settings) -> None:
    r = run(["db", "verify", "--json"], base_settings)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["ok"] is True
    r = run(["doctor", "--json"], base_settings)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["ok"] is True


def _one_line_error(r: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in r.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("env", "code", "needle"),
    [
        ({"BELIEF_GRAPH_NEO4J__PASSWORD": "wrong-password"}, 1, "wrong user or password"),
        ({"BELIEF_GRAPH_NEO4J__URI": "bolt://127.0.0.1:1"}, 1, "cannot reach Neo4j"),
        ({"BELIEF_GRAPH_NEO4J__URI": "http://127.0.0.1:7474"}, 2, "BELIEF_GRAPH_NEO4J__URI"),
        ({"BELIEF_GRAPH_EMBEDDING__DIMENSION": "many"}, 2, "BELIEF_GRAPH_EMBEDDING__DIMENSION"),
        ({"BELIEF_GRAPH_EMBEDDING__DIMENSION": "512", "BELIEF_GRAPH_EMBEDDING__PROVIDER": "local"}, 2, "dimension"),
        ({"BELIEF_GRAPH_SPACE": "bad space!"}, 2, "BELIEF_GRAPH_SPACE"),
    ],
)
def test_bad_settings_give_one_typed_line_and_write_nothing(
    base_settings: Settings,
    graph,
    cli_space: str,
    env: dict[str, str],
    code: int,
    needle: str,  # type: ignore[no-untyped-def]
) -> None:
    env = {"BELIEF_GRAPH_SPACE": cli_space, **env}
    r = run(["memory", "assert", "user.x", "1", "The user likes x", "--agent", "u"], base_settings, **env)
    assert r.returncode == code, (r.returncode, r.stderr)
    assert needle in _one_line_error(r)
    assert _count(graph, cli_space) == 0


def test_bad_input_to_a_command(base_settings: Settings, graph, cli_space: str) -> None:  # type: ignore[no-untyped-def]
    r = run(["--space", cli_space, "memory", "assert", "not a key", "1", "text", "--agent", "u"], base_settings)
    assert r.returncode == 2
    assert "invalid claim" in _one_line_error(r)
    r = run(
        [
            "--space",
            cli_space,
            "memory",
            "assert",
            "user.k",
            "1",
            "text",
            "--agent",
            "u",
            "--evidence",
            "no-such-episode",
        ],
        base_settings,
    )
    assert r.returncode == 2 and "unknown evidence" in _one_line_error(r)
    r = run(["--space", cli_space, "memory", "claim", "no-such-claim"], base_settings)
    assert r.returncode == 1 and "no claim with id" in _one_line_error(r)
    assert _count(graph, cli_space) == 0


def test_db_init_takes_a_wait(base_settings: Settings, graph) -> None:  # type: ignore[no-untyped-def]
    r = run(["db", "init", "--wait", "5", "--json"], base_settings)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["applied"] == [] and out["verify"]["ok"] is True
    # a bad option value is a usage error: exit 2 and a message naming the option, no traceback
    for bad in (
        ["db", "init", "--wait", "-1"],
        ["db", "init", "--wait", "soon"],
        ["bench", "grounded", "--repeat", "0"],
    ):
        r = run(bad, base_settings)
        assert r.returncode == 2 and bad[-2] in r.stderr and "Traceback" not in r.stderr, (bad, r.stderr)


def test_db_init_refuses_a_different_dimension(base_settings: Settings, graph) -> None:  # type: ignore[no-untyped-def]
    before = graph.read("schema.show_indexes")
    r = run(
        ["db", "init"],
        base_settings,
        BELIEF_GRAPH_EMBEDDING__DIMENSION="1536",
        BELIEF_GRAPH_EMBEDDING__PROVIDER="openai",
        BELIEF_GRAPH_LLM__API_KEY="sk-test-not-used",
    )
    assert r.returncode == 1
    assert "dimension" in _one_line_error(r)
    assert graph.read("schema.show_indexes") == before


def test_db_drop_space_counts_without_yes_and_deletes_only_that_space(
    base_settings: Settings,
    graph,  # type: ignore[no-untyped-def]
    cli_space: str,
) -> None:
    other = f"{cli_space}-kept"
    try:
        for space in (cli_space, other):
            for key, value in (("user.city", "Porto"), ("user.food", "vegan")):
                r = run(
                    ["--space", space, "memory", "assert", key, value, f"{key} is {value}", "--agent", "u"],
                    base_settings,
                )
                assert r.returncode == 0, r.stderr
        before, kept = _count(graph, cli_space), _count(graph, other)
        assert before > 0 and kept > 0

        r = run(["db", "drop-space", cli_space, "--json"], base_settings)  # no --yes: counts only
        assert r.returncode == 2, r.stderr
        assert json.loads(r.stdout)["deleted"] == 0
        assert _count(graph, cli_space) == before

        r = run(["db", "drop-space", cli_space, "--yes", "--batch", "100", "--json"], base_settings)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout)
        assert out["deleted"] > 0 and out["left"] == []
        assert _count(graph, cli_space) == 0
        assert _count(graph, other) == kept  # another space is untouched

        r = run(["db", "drop-space", cli_space, "--yes"], base_settings)  # nothing left: a typed error
        assert r.returncode == 1 and "holds nothing" in r.stderr
        r = run(["db", "drop-space", "bad space!", "--yes"], base_settings)  # the --space name rules
        assert r.returncode != 0 and _count(graph, other) == kept
    finally:
        graph.write("admin.delete_space", space=other)


def test_deleting_a_space_in_small_batches_reaches_every_label_and_no_other_space(
    bg: BeliefGraph,
    graph,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """Episodes, claims with their revisions and versions, justifications, audits, rules and their
    instances, a stored framework with its arguments, agents, and a node of a label no space index
    covers (written by hand in the console): batches of 3 through the space indexes, then the agents,
    then the sweep leave nothing of the space and the same nodes of another space."""
    other = f"{bg.space}-kept"
    for space in (bg.space, other):
        g = BeliefGraph(bg.graph, bg.settings, space, bg.embedder)
        ep = g.add_episode("the user said she moved", agent="user:a")
        city = g.assert_claim("user.city", "Porto", "the user lives in Porto", agent="user:a", evidence=[ep.id])
        g.derive("the user lives near the sea", [city.claim.id], key="user.coast", agent="agent:x")
        g.assert_claim("user.city", "Lisbon", "the user lives in Lisbon", agent="user:a")
        g.retract([ep.id], "wrong transcript")
        g.rules.add(
            {
                "name": "home",
                "premises": [{"key": "user.{x}", "as": "v"}],
                "conclusion": {"key": "home.{x}", "value": "{v}", "text": "home {x} is {v}"},
            }
        )
        af = tmp_path / f"{space}.af"
        af.write_text("p af 3\n1 2\n2 3\n")
        g.argumentation.import_framework(af, "small")
        g.argumentation.ground_framework("small")
        graph.driver.execute_query("CREATE (:HandWritten {space: $s, note: 'by hand'})", s=space)

    def nodes(space: str) -> int:
        return int(
            graph.driver.execute_query("MATCH (n) WHERE n.space = $s RETURN count(n) AS n", s=space).records[0]["n"]
        )

    kept = nodes(other)
    labels = {r["label"] for r in graph.read("admin.count_by_label_status", space=bg.space)}
    assert {"Claim", "Episode", "Revision", "Justification", "Audit", "Rule", "RuleInstance"} <= labels
    assert {"Argument", "Framework", "Agent", "Fact", "HandWritten"} <= labels
    deleted = AdminRepository(graph, bg.space).delete_space_batched(bg.space, 3)
    assert deleted == kept and nodes(bg.space) == 0  # the two spaces were written alike
    assert nodes(other) == kept
    assert AdminRepository(graph, other).delete_space_batched(other, 1000) == kept
