"""Every call of one process is causally chained: the transactions of ``read_tx``/``write_tx`` and the
single statements of ``read``/``write`` share the driver's bookmarks. On a cluster that is what makes a
recall routed to a secondary see the claim the same process has just asserted (docs/scaling.md)."""

from __future__ import annotations

import uuid

from belief_graph.db.driver import Graph


def test_a_write_transaction_leaves_its_bookmark_for_the_next_read(graph: Graph) -> None:
    manager = graph.driver.execute_query_bookmark_manager
    space = f"test-{uuid.uuid4().hex[:12]}"
    try:
        before = set(manager.get_bookmarks())
        graph.write_tx(lambda tx: graph.run(tx, "bench.write_probe", space=space, id="p1"), name="test")
        after_tx = set(manager.get_bookmarks())
        assert after_tx and after_tx != before  # the session's commit was recorded where execute_query looks
        graph.write("bench.write_probe", space=space, id="p2")
        after_write = set(manager.get_bookmarks())
        assert after_write != after_tx
        seen = graph.read_tx(
            lambda tx: tx.run("MATCH (p:BenchProbe {space: $s}) RETURN count(p) AS n", s=space).single()["n"],
            name="test",
        )
        assert seen == 2 and set(manager.get_bookmarks()) == after_write  # a read adds no new state
    finally:
        graph.write("admin.delete_space", space=space)
