"""Regression tests of the reliability and security defects, each against the real server: every
test here failed before its fix (the defect it names is in its docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from belief_graph import BeliefGraph, WriteOp
from belief_graph.errors import LimitExceeded, NotFoundError, ValidationError

REPO = Path(__file__).resolve().parents[2]
BIN = str(Path(sys.executable).with_name("belief-graph"))


def _count(bg: BeliefGraph) -> tuple[int, int]:
    """Nodes and relationships of the test's space."""
    rows = bg.graph.driver.execute_query(
        "MATCH (n {space: $s}) OPTIONAL MATCH (n)-[r]-() RETURN count(DISTINCT n) AS n, count(DISTINCT r) AS r",
        s=bg.space,
    ).records
    return int(rows[0]["n"]), int(rows[0]["r"])


# --- policy patterns: linear matching ---------------------------------------------------------------


def test_hostile_policy_pattern_does_not_stall_writes(bg: BeliefGraph) -> None:
    """``set_policy("*.*.*.*.*.*.*.*.*.zz")`` made one write to a 40-segment key take 12 s (Cypher
    ``=~`` backtracking, x4 per extra ``*``). Matching now counts its character comparisons: the
    writes below (pass 1 and pass 2, strategy and authority look-ups) stay within a linear bound."""
    hostile = "*.*.*.*.*.*.*.*.*.zz"
    bg.conflicts.set_policy(hostile, "authority")
    bg.conflicts.set_authority("*", hostile, 0.9)
    bg.conflicts.set_policy("s.*", "recency")
    key = ".".join(["s"] * 40)
    repo = bg.conflicts.policy_repo
    repo.match_steps = 0
    first = bg.assert_claim(key, "a", "first", agent="agent-a")
    second = bg.assert_claim(key, "b", "second", agent="agent-b")
    assert first.op == WriteOp.ADD and second.op == WriteOp.SUPERSEDED and second.strategy == "recency"
    calls_bound = 8  # match_policy / match_authority calls of two writes, generously
    rules = 3
    assert 0 < repo.match_steps <= calls_bound * rules * len(key) * len(hostile), repo.match_steps
    # and a key that does end in 'zz' is covered by the hostile rule (authority decides)
    zkey = ".".join(["s"] * 39 + ["zz"])
    assert bg.conflicts.policy_for(zkey)[1].pattern == hostile  # type: ignore[union-attr]


# --- tenancy: a space cannot enlist another space's proposal -----------------------------------------


def test_enlist_refuses_a_proposal_of_another_space(bg: BeliefGraph, graph) -> None:  # type: ignore[no-untyped-def]
    """``argumentation.enlist(ns, [id])`` matched proposals by id alone: space B could move space
    A's proposal into B (and flip A's deliberation label through it)."""
    other = bg.space + "-a"
    pid = f"proposal-{other}"
    try:
        graph.driver.execute_query(
            "CREATE (:Proposal {id: $id, space: $s, deliberation: 'd-1', perspective: 'p', text: 't'})",
            id=pid,
            s=other,
        )
        before = _count(bg)
        with pytest.raises(NotFoundError):
            bg.argumentation.enlist("deliberation:x", [pid])
        row = graph.driver.execute_query(
            "MATCH (p:Proposal {id: $id}) RETURN p.space AS space, p:Argument AS enlisted, p.ns AS ns", id=pid
        ).records[0]
        assert (row["space"], row["enlisted"], row["ns"]) == (other, False, None)
        assert _count(bg) == before
    finally:
        graph.write("admin.delete_space", space=other)


# --- raw exceptions, bounds and silent coercions: a typed error and nothing written --------------------

_NAIVE = datetime(2026, 1, 1, 12, 0)


@pytest.mark.parametrize(
    "case, call",
    [
        ("int beyond 64 bits", lambda bg, ep: bg.assert_claim("user.big", 10**30, "a big number", agent="a")),
        (
            "negative int beyond 64 bits",
            lambda bg, ep: bg.assert_claim("user.big", -(2**63) - 1, "a big number", agent="a"),
        ),
        ("NaN value", lambda bg, ep: bg.assert_claim("user.x", float("nan"), "not a number", agent="a")),
        ("infinite value", lambda bg, ep: bg.assert_claim("user.x", float("inf"), "infinite", agent="a")),
        ("lone surrogate in an episode", lambda bg, ep: bg.add_episode("bad \ud800 text", agent="a")),
        ("lone surrogate in a value", lambda bg, ep: bg.assert_claim("user.x", "v\udcff", "text", agent="a")),
        ("lone surrogate in an agent", lambda bg, ep: bg.add_episode("fine", agent="a\ud800")),
        ("lone surrogate in an authority agent", lambda bg, ep: bg.conflicts.set_authority("a\udc80", "user.x", 0.5)),
        ("10 MB episode", lambda bg, ep: bg.add_episode("x" * 10_000_000, agent="a")),
        ("1 MB claim value", lambda bg, ep: bg.assert_claim("user.x", "v" * 1_000_000, "text", agent="a")),
        ("10,001-character recall query", lambda bg, ep: bg.recall("q" * 10_001)),
        ("naive valid_from", lambda bg, ep: bg.assert_claim("user.x", "v", "text", agent="a", valid_from=_NAIVE)),
        ("naive episode time", lambda bg, ep: bg.add_episode("text", agent="a", at=_NAIVE)),
        ("naive derive time", lambda bg, ep: bg.derive("t", [ep], agent="a", at=_NAIVE)),
    ],
)
def test_bad_values_get_a_typed_error_and_write_nothing(bg: BeliefGraph, case: str, call) -> None:  # type: ignore[no-untyped-def]
    """10**30 raised OverflowError and a lone surrogate UnicodeEncodeError (raw, from the driver);
    NaN/inf, 10 MB texts and naive datetimes (taken as UTC) were accepted."""
    bg.assert_claim("user.seed", "s", "seed", agent="a")
    ep = bg.add_episode("a premise", agent="a").id
    before = _count(bg)
    with pytest.raises(ValidationError):
        call(bg, ep)
    assert _count(bg) == before


def _cli(args: list[str | bytes], settings, **env: str) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    e = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    e.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
    )
    e.update(env)
    return subprocess.run([BIN, *args], capture_output=True, text=True, env=e, timeout=300)


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "assert", "user.big", "1000000000000000000000000000000", "a big number", "--agent", "a"],
        ["memory", "episode", b"bad \xff byte", "--agent", "a"],
        ["memory", "assert", "user.x", "NaN", "not a number", "--agent", "a"],
        ["memory", "episode", "text", "--agent", b"a\xfe"],
    ],
    ids=["int-overflow", "invalid-utf8-episode", "nan", "invalid-utf8-agent"],
)
def test_cli_prints_one_line_not_a_traceback(base_settings, space: str, graph, args) -> None:  # type: ignore[no-untyped-def]
    """The CLI printed tracebacks for OverflowError and UnicodeEncodeError."""
    r = _cli(["--space", space, *args], base_settings)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    assert _count_space(graph, space) == 0


def test_cli_empty_space_is_refused_not_the_default_space(base_settings) -> None:  # type: ignore[no-untyped-def]
    """``--space ""`` silently fell back to the default space."""
    r = _cli(["--space", "", "memory", "episode", "written to the default space?", "--agent", "a"], base_settings)
    assert r.returncode == 2 and "BELIEF_GRAPH_SPACE" in r.stderr, r.stderr


def _count_space(graph, space: str) -> int:  # type: ignore[no-untyped-def]
    return sum(r["count"] for r in graph.read("admin.count_by_label_status", space=space))


# --- size limits of argumentation files ---------------------------------------------------------------


@pytest.mark.parametrize("header", ["p af 100000000000000000000", "p af 1000000"])
def test_argumentation_file_above_the_limit_is_refused(
    bg: BeliefGraph, base_settings, space: str, tmp_path, header: str
) -> None:  # type: ignore[no-untyped-def]
    """A 26-byte ``p af 10^20`` ended in a raw MemoryError; a 13-byte ``p af 1000000`` silently
    imported 10^6 arguments (+490 MB)."""
    f = tmp_path / "huge.af"
    f.write_text(header + "\n")
    before = _count(bg)
    with pytest.raises(LimitExceeded):
        bg.argumentation.import_framework(f, "huge")
    with pytest.raises(LimitExceeded):
        bg.argumentation.solve(f)
    assert _count(bg) == before
    for args in (["argue", "import", str(f), "--name", "huge"], ["argue", "solve", str(f)]):
        r = _cli(["--space", space, *args], base_settings)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "BELIEF_GRAPH_LIMITS__AF_MAX_ARGUMENTS" in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert _count(bg) == before


# --- recall under concurrent writes -------------------------------------------------------------------


def test_recall_never_returns_an_inactive_claim_under_concurrent_writes(base_settings, graph, space: str) -> None:  # type: ignore[no-untyped-def]
    """``recall`` returned superseded and withdrawn claims while writers changed them (73 hits in
    167 reader rounds): statuses were filtered in one statement and read back in another."""
    from belief_graph.embeddings import HashingEmbedder

    emb = HashingEmbedder(base_settings.embedding.dimension)
    keys = [f"project.status{i}" for i in range(6)]
    with BeliefGraph.connect(space=space, settings=base_settings, embedder=emb) as setup:
        ep = setup.add_episode("the weekly status report of the project", agent="pm")
        for k in keys:
            setup.assert_claim(k, "v0", f"project status report {k} value v0", agent="pm", evidence=[ep.id])
    done = threading.Event()
    errors: list[BaseException] = []
    bad: list[tuple[str, str]] = []
    rounds = [0, 0]  # reader rounds, hits seen

    def writer() -> None:
        try:
            with BeliefGraph.connect(space=space, settings=base_settings, embedder=emb) as w:
                for i in range(1, 61):
                    for k in keys[:3]:  # same agent, new value: the old version is superseded
                        w.assert_claim(k, f"v{i}", f"project status report {k} value v{i}", agent="pm")
                    if i % 10 == 0:  # the evidence of the others goes and comes back: withdrawn, reinstated
                        w.retract([ep.id], "wrong report")
                        w.restore([ep.id], "it was right")
        except BaseException as exc:
            errors.append(exc)
        finally:
            done.set()

    def reader() -> None:
        try:
            with BeliefGraph.connect(space=space, settings=base_settings, embedder=emb) as r:
                while not done.is_set() or rounds[0] < 20:
                    hits = r.recall("project status report value", k=8)
                    rounds[0] += 1
                    rounds[1] += len(hits)
                    bad.extend((h.claim.id, h.claim.status.value) for h in hits if h.claim.status.value != "active")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer)] + [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert rounds[0] >= 20 and rounds[1] > 0, rounds
    assert not bad, f"{len(bad)} inactive hits in {rounds[0]} reader rounds: {bad[:5]}"


# --- doctor: no false alarm on the same texts in several spaces ----------------------------------------


def test_doctor_index_coverage_holds_with_the_same_texts_in_many_spaces(bg: BeliefGraph, base_settings, graph) -> None:  # type: ignore[no-untyped-def]
    """``index_coverage`` failed (199/200) on a healthy store holding the same texts in several
    spaces: a claim's own vector has more exact twins than the probe's k = 10 neighbours."""
    from belief_graph.embeddings import HashingEmbedder

    emb = HashingEmbedder(base_settings.embedding.dimension)
    spaces = [f"{bg.space}-twin{i}" for i in range(14)]
    texts = [f"shared sentence number {i} about the weekly plan" for i in range(15)]
    try:
        for s in spaces:
            with BeliefGraph.connect(space=s, settings=base_settings, embedder=emb) as b:
                for t in texts:
                    b.assert_claim(None, None, t, agent="a")
        with BeliefGraph.connect(space=spaces[0], settings=base_settings, embedder=emb) as b:
            report = b.admin.doctor(sample=500)
        cov = next(c for c in report.checks if c.name == "index_coverage")
        assert cov.ok, cov.detail
        assert cov.data["sampled"] >= len(spaces) * len(texts)
    finally:
        for s in spaces:
            graph.write("admin.delete_space", space=s)


def _load_inference_suite(bg: BeliefGraph) -> int:
    """The memories of ``bench recall-quality``'s inference suite, loaded as the bench loads them
    (one claim each, embedded in batches with the configured embedder: the local MiniLM here) into
    ``bg``'s space."""
    import json

    from belief_graph_lab.benchmarks.recall_quality import _cases, _Preloaded, default_suite_path

    mem, _ = _cases(json.loads(default_suite_path().read_text()), None)
    emb = _Preloaded(bg.embedder, [m["text"] for m in mem])
    with BeliefGraph.connect(space=bg.space, settings=bg.settings, embedder=emb, verify=False) as b:
        for m in mem:
            b.assert_claim(m["key"], m["value"], m["text"], agent="user:bench")
    return len(mem)


def test_doctor_index_coverage_reprobes_what_the_approximate_index_missed(bg: BeliefGraph) -> None:
    """``index_coverage`` failed (272/273, then 199/200 on a fresh store) on healthy stores holding
    the recall-quality suite embedded with MiniLM: the vector index is HNSW, approximate, and a
    claim's own vector did not bring it back among k = 10 neighbours (ten others came back, the
    lowest at 0.589); it was found with k = 15 or 40. A miss is now asked again with 4k (k is also
    the search's breadth) before the claim counts as missing.

    The k = 10 miss depends on how the index's graph was built (1 to 2 claims of 340 on fresh
    stores, a different claim each time), so the re-probe is checked from k = 1, where the same
    index misses more than ten of them."""
    from belief_graph.repositories import AdminRepository
    from belief_graph.services.doctor import _self_probe

    n = _load_inference_suite(bg)
    report = bg.admin.doctor(sample=5000)
    check = next(c for c in report.checks if c.name == "index_coverage")
    assert check.ok, check.detail
    assert check.data["missing"] == 0 and check.data["sampled"] >= n

    admin = AdminRepository(bg.graph, bg.space)
    sampled = admin.sample_embedded(bg.space, 10 * n, bg.settings.embedding.dimension)
    assert len(sampled) == n
    missed = [r for r in admin.index_self_probe(sampled, k=1) if not r["found"]]
    assert missed, "the index found every claim's own vector at k = 1: the re-probe below is not exercised"
    assert all(r["indexable"] and r["returned"] == 1 for r in missed)
    cov = _self_probe(admin, sampled, k=1)
    assert cov.ok, cov.detail()
    assert cov.found == n and cov.tied == 0
    # each miss at k = 1 was asked again with a larger k and found (the suite's texts are unique:
    # an exact twin could only be a copy in another space)
    assert sum(cov.found_at.values()) + cov.reprobed_twins == len(missed)
    if cov.found_at:
        assert "the HNSW index is approximate" in cov.detail()


def test_doctor_index_coverage_still_fails_for_claims_missing_from_the_index(bg: BeliefGraph) -> None:
    """Re-probing must not hide a claim that is really not in the index. A claim stored with a zero
    vector of the right dimension is counted as embedded but Neo4j does not index it (and refuses it
    as a query: doctor raised ``ProcedureCallFailed`` instead of reporting); a vector that is in no
    claim's index entry is not found however wide the search."""
    from belief_graph.repositories import AdminRepository
    from belief_graph.services.doctor import _self_probe

    dim = bg.settings.embedding.dimension
    for i in range(12):
        bg.assert_claim(f"user.fact_{i}", str(i), f"The user keeps fact number {i} about gardening", agent="u")
    zero = bg.assert_claim("user.broken", "x", "A claim whose embedder returned zeros", agent="u").claim
    bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s, id: $id}) SET c.embedding = $v", s=bg.space, id=zero.id, v=[0.0] * dim
    )
    report = bg.admin.doctor(sample=5000)
    check = next(c for c in report.checks if c.name == "index_coverage")
    assert check.ok is False
    assert "zero or non-finite vector" in check.detail, check.detail
    assert {"space": bg.space, "id": zero.id} in check.data["unindexable"]
    assert next(c for c in report.checks if c.name == "vector_population").ok is False

    # a vector of the store that the index does not hold: a real claim's vector, moved off it (no
    # exact twin), under an id no index entry has
    admin = AdminRepository(bg.graph, bg.space)
    real = next(p for p in admin.sample_embedded(bg.space, 100, dim) if p["id"] != zero.id)
    ghost = {**real, "id": "not-indexed", "embedding": [x + 0.01 for x in real["embedding"]]}
    cov = _self_probe(admin, [ghost, real])
    assert not cov.ok and cov.found == 1
    gone = cov.absent + cov.unreached
    assert [g["id"] for g in gone] == ["not-indexed"]
    assert gone[0]["k"] > 10  # asked again before it was declared missing
    assert "NOT" in cov.detail()


# --- tenancy: a small space beside a large one --------------------------------------------------------


def test_small_space_recall_is_exact_and_reads_only_its_space(bg: BeliefGraph, graph) -> None:  # type: ignore[no-untyped-def]
    """recall took the global top-``fetch`` of the shared vector index and filtered by space after:
    a 20-claim space beside a 5,000-claim space read thousands of other spaces' index entries (the
    fetch grew x4 until 10 hits of the space were among them) and depended on the approximate index
    for its own top 10. Now a space with at most EXACT_SCAN_MAX candidates is scanned exactly: the
    top 10 are the exact top 10 and only the space's own claims are read."""
    import numpy as np

    from belief_graph.repositories.retrieval import RetrievalRepository
    from belief_graph_lab.benchmarks.recall import clustered_vectors

    dim = bg.settings.embedding.dimension
    rng = np.random.default_rng(3)
    x = clustered_vectors(5_020, dim, rng)
    at = datetime.now(UTC).isoformat()
    big = RetrievalRepository(graph, bg.space + "-big")
    small = RetrievalRepository(graph, bg.space)
    try:
        for start in range(0, 5_000, 1_000):
            big.bench_load(
                [
                    {"id": f"b{i}", "text": f"other tenant {i}", "embedding": x[i].tolist()}
                    for i in range(start, start + 1_000)
                ],
                at,
            )
        small.bench_load(
            [{"id": f"s{i}", "text": f"this tenant {i}", "embedding": x[5_000 + i].tolist()} for i in range(20)], at
        )
        mine = x[5_000:]
        for j in range(5):
            q = mine[j] + rng.standard_normal(dim).astype(np.float32) * 0.02
            q = q / np.linalg.norm(q)
            truth = [f"s{i}" for i in np.argsort(-(mine @ q))[:10]]
            hits = bg.retrieval.recall("what does this tenant know", 10, embedding=q.tolist(), fulltext=False)
            stats = bg.retrieval.last_stats
            assert stats is not None
            assert [h.claim.id for h in hits] == truth
            assert stats.vector_fetched <= 20, stats  # the space's own claims, not the store's
    finally:
        big.delete_space_batched()


# --- found by the stateful test: revision order after restoring a claim --------------------------------


def test_a_restored_claim_is_what_as_of_now_says(bg: BeliefGraph) -> None:
    """Restoring a retracted claim wrote a provisional 'withdrawn' revision and the verdict 'active'
    at the same time; revisions are ordered by time then id, and the id order picked 'withdrawn':
    belief(k) was the claim while as_of(k, now) was nothing (found by test_write_api_stateful)."""
    c = bg.assert_claim("user.city", "b", "lives in b", agent="agent:hr").claim.id
    bg.retract([c], "wrong")
    bg.restore([c], "right after all")
    now = bg.beliefs.as_of("user.city", datetime.now(UTC))
    assert bg.belief("user.city").id == c  # type: ignore[union-attr]
    assert now is not None and now.id == c
    assert bg.admin.check().ok
