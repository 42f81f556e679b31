"""``bench all --tiny`` end to end: one row per figure of every study, the JSON file, and no bench space
left behind. Structure only: no timing and no goal is asserted."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.db.driver import Graph
from belief_graph.errors import ValidationError
from belief_graph_lab.benchmarks.all_studies import STUDIES


def _bench_nodes(graph: Graph) -> int:
    return int(
        graph.driver.execute_query(
            "MATCH (n) WHERE n.space STARTS WITH 'bench-' OR n.space STARTS WITH '__bench' RETURN count(n) AS n"
        ).records[0]["n"]
    )


def test_bench_all_tiny(graph: Graph, tmp_path: Path) -> None:
    before = _bench_nodes(graph)  # a bench stopped half-way elsewhere may have left its space
    out_file = tmp_path / "all.json"
    r = CliRunner().invoke(app, ["bench", "all", "--tiny", "--out", str(out_file)])
    assert r.exit_code == 0, r.output
    assert "bench all (tiny sizes)" in r.output
    out = json.loads(out_file.read_text())
    assert out["preset"] == "tiny" and out["command"] == "belief-graph bench all --tiny"
    assert list(out["studies"]) == list(STUDIES)
    assert all(s["error"] is None for s in out["studies"].values()), {k: s["error"] for k, s in out["studies"].items()}
    assert {row["study"] for row in out["rows"]} == set(STUDIES)
    for row in out["rows"]:
        assert set(row) == {"study", "figure", "goal", "measured", "ratio", "met"}
        assert row["ratio"] is None or row["ratio"] >= 0
        assert row["met"] in (True, False, None)
    assert _bench_nodes(graph) == before


def test_bench_all_refuses_unknown_study() -> None:
    bad = CliRunner().invoke(app, ["bench", "all", "--only", "nope"])
    assert bad.exit_code != 0 and isinstance(bad.exception, ValidationError)


def test_bench_edits_measures_the_current_schema(graph: Graph) -> None:
    """`bench edits` applies pending migrations and waits for the indexes before it measures: an edit
    costs hundreds of db hits on the schema (57,702 were measured once on a store without it)."""
    before = _bench_nodes(graph)
    r = CliRunner().invoke(app, ["bench", "edits", "--sizes", "100", "--repeats", "3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {row["depth"] for row in out["rows"]} == {2, 4, 6}
    for row in out["rows"]:
        assert 0 < row["db_hits_plain"] < row["db_hits_edit"] < 2_000, row
    assert _bench_nodes(graph) == before
