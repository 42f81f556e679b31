"""Reliability against the real server, checked by ``db check``: concurrent writers on one key,
clients killed with SIGKILL at random points of mixed workloads.

Each test has a bounded size that CI runs and a full size marked ``slow``
(``./scripts/test.sh -m slow``; docs/security.md lists the sizes and run times).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from belief_graph import BeliefGraph

REPO = Path(__file__).resolve().parents[2]
WORKLOAD = str(Path(__file__).with_name("_workload.py"))


def _chain(bg: BeliefGraph, key: str) -> dict[str, int]:
    rows = bg.graph.driver.execute_query(
        """
        MATCH (f:Fact {space: $s, key: $k})
        OPTIONAL MATCH (f)<-[:VERSION_OF]-(c:Claim)
        WITH f, count(c) AS versions
        OPTIONAL MATCH (f)-[:CURRENT]->(cur:Claim)
        WITH f, versions, count(cur) AS currents
        OPTIONAL MATCH (a:Claim {space: $s, key: $k, status: 'active'})
        WITH versions, currents, count(a) AS active
        MATCH (c:Claim {space: $s, key: $k})
        OPTIONAL MATCH (c)-[:SUPERSEDES]->(o)
        OPTIONAL MATCH (n)-[:SUPERSEDES]->(c)
        WITH versions, currents, active, c, count(DISTINCT o) AS outs, count(DISTINCT n) AS ins,
             sum(CASE WHEN o IS NOT NULL AND NOT c.created_at > o.created_at THEN 1 ELSE 0 END) AS against_time,
             sum(CASE WHEN o IS NOT NULL AND (o.valid_to IS NULL OR o.valid_to < o.valid_from) THEN 1 ELSE 0 END) AS bad_validity
        RETURN versions, currents, active, max(outs) AS max_out, max(ins) AS max_in,
               sum(CASE WHEN outs = 0 THEN 1 ELSE 0 END) AS tails, sum(CASE WHEN ins = 0 THEN 1 ELSE 0 END) AS heads,
               sum(against_time) AS against_time, sum(bad_validity) AS bad_validity
        """,
        s=bg.space,
        k=key,
    ).records[0]
    return dict(rows)


@pytest.mark.parametrize("writes", [pytest.param(25, id="8x25"), pytest.param(100, id="8x100", marks=pytest.mark.slow)])
def test_eight_processes_on_one_key_keep_one_linear_timed_chain(bg: BeliefGraph, writes: int) -> None:
    """8 processes x N writes on one key: every version kept, one current, a linear chain whose
    created_at order is its SUPERSEDES order, valid_to never before valid_from, and belief(k) equal
    to as_of(k, now). Before the write path took its time after the fact's lock, 340 of 799 links
    ran against created_at."""
    script = textwrap.dedent(
        """
        import sys
        from belief_graph import BeliefGraph
        from belief_graph.embeddings import HashingEmbedder
        space, proc, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
        with BeliefGraph.connect(space=space, embedder=HashingEmbedder(384)) as bg:
            for i in range(n):
                bg.assert_claim("project.status", f"{proc}-{i}", f"status {proc}-{i}", agent=f"worker-{proc}")
        """
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, bg.space, str(p), str(writes)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(8)
    ]
    for p in procs:
        _, err = p.communicate(timeout=900)
        assert p.returncode == 0, err[-2000:]
    c = _chain(bg, "project.status")
    assert c["versions"] == 8 * writes and c["currents"] == 1 and c["active"] == 1, c
    assert c["max_out"] == 1 and c["max_in"] == 1 and c["tails"] == 1 and c["heads"] == 1, c
    assert c["against_time"] == 0 and c["bad_validity"] == 0, c
    now = bg.belief("project.status")
    assert now is not None
    then = bg.beliefs.as_of("project.status", datetime.now(UTC))
    assert then is not None and then.id == now.id
    report = bg.admin.check()
    assert report.ok, report.to_dict()


def _wait_for(proc: subprocess.Popen[str], prefix: str, timeout: float = 120.0) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise AssertionError(
                f"workload ended before {prefix!r}: {proc.wait()} {proc.stderr.read() if proc.stderr else ''}"
            )
        if line.startswith(prefix):
            return line
    raise AssertionError(f"no {prefix!r} within {timeout} s")


@pytest.mark.parametrize(
    "kills", [pytest.param(4, id="4-kills"), pytest.param(20, id="20-kills", marks=pytest.mark.slow)]
)
def test_clients_killed_at_random_points_leave_the_invariants_intact(bg: BeliefGraph, kills: int) -> None:
    """A client process running a mixed workload (writes, derivations, retract/restore, disputes,
    grounded attack graphs) is SIGKILLed at a random point, ``kills`` times on one space; every
    write is one transaction, so ``db check`` finds nothing half-done, and the space takes writes
    afterwards."""
    rng = random.Random(1717)
    seen_ops: list[int] = []
    for k in range(kills):
        proc = subprocess.Popen(
            [sys.executable, WORKLOAD, bg.space, str(k), "0", "--forever"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            _wait_for(proc, "ready")
            target = rng.randrange(1, 6) * 10  # after 10..50 operations ...
            line = _wait_for(proc, f"ops {target}")
            seen_ops.append(int(line.split()[1]))
            time.sleep(rng.random() * 0.3)  # ... and somewhere inside the next ones
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
    report = bg.admin.check()
    assert report.ok, report.to_dict()
    # the space is not left locked or half-written: a full workload runs to its end afterwards
    done = subprocess.run(
        [sys.executable, WORKLOAD, bg.space, "999", "40"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0 and "done 40" in done.stdout, done.stderr[-2000:]
    report = bg.admin.check()
    assert report.ok, report.to_dict()
    assert len(seen_ops) == kills
