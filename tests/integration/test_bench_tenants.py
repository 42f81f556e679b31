"""``bench tenants`` end to end on a tiny size: its rows, that a space's own claim comes first, and that
it leaves nothing behind. No timing is asserted."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from belief_graph.cli import app
from belief_graph.db.driver import Graph
from belief_graph.errors import ValidationError


def test_bench_tenants_tiny(graph: Graph) -> None:
    r = CliRunner().invoke(
        app, ["bench", "tenants", "--tenant", "60", "--shares", "1,0.2", "--queries", "5", "--others", "2", "--json"]
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    rows = out["rows"]
    assert [row["share"] for row in rows] == [1.0, 0.2]
    assert [row["claims_in_index"] for row in rows] == [60, 300]
    assert all(row["self_at_1"] == 1.0 and row["recall_ms_p50"] > 0 for row in rows)
    assert rows[0]["recall_p50_over_alone"] == 1.0 and rows[0]["fetch_max"] >= 50
    left = graph.driver.execute_query(
        "MATCH (n) WHERE n.space STARTS WITH 'bench-tenant-' RETURN count(n) AS n"
    ).records[0]["n"]
    assert left == 0
    bad = CliRunner().invoke(app, ["bench", "tenants", "--shares", "0"])
    assert bad.exit_code != 0 and isinstance(bad.exception, ValidationError)
