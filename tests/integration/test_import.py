"""Bulk import against the real server: the same policies as assert_claim, batched transactions,
resumable without writing a line twice (an interrupted iterable and a SIGKILLed CLI process), typed
errors for bad lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import ImportLineError, ImportStateError, ValidationError
from belief_graph.settings import Settings

CITY_COUNTRY: dict[str, Any] = {
    "name": "home_country",
    "premises": [{"key": "person.{p}.city", "as": "city"}, {"key": "city.{city}.country", "as": "country"}],
    "conclusion": {"key": "person.{p}.country", "value": "{country}", "text": "{p} lives in {country}"},
}


@pytest.fixture()
def hbg(base_settings: Settings, graph, space: str) -> Iterator[BeliefGraph]:  # type: ignore[no-untyped-def]
    """An engine on the test space with the hashing embedder (the import's cost is not the model's)."""
    with BeliefGraph.connect(
        space=space, settings=base_settings, embedder=HashingEmbedder(base_settings.embedding.dimension)
    ) as b:
        yield b


@pytest.fixture()
def other(base_settings: Settings, graph) -> Iterator[BeliefGraph]:  # type: ignore[no-untyped-def]
    """A second space, removed afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    with BeliefGraph.connect(
        space=name, settings=base_settings, embedder=HashingEmbedder(base_settings.embedding.dimension)
    ) as b:
        yield b
    graph.write("admin.delete_space", space=name)


def _claims_by_line(bg: BeliefGraph, name: str) -> Counter[int]:
    """How many claims each line of import ``name`` created (a line written twice shows as 2)."""
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) WHERE c.import_name = $n RETURN c.import_line AS line, count(*) AS n",
        s=bg.space,
        n=name,
    ).records
    return Counter({int(r["line"]): int(r["n"]) for r in rows})


def _claim_count(bg: BeliefGraph) -> int:
    rows = bg.graph.driver.execute_query("MATCH (c:Claim {space: $s}) RETURN count(c) AS n", s=bg.space).records
    return int(rows[0]["n"])


def _items(n: int, *, keyless_every: int = 10, update_every: int = 4) -> list[dict[str, Any]]:
    """New keys, same-agent updates of earlier keys, keyless statements (a duplicate of those would show)."""
    out: list[dict[str, Any]] = []
    keys = 0
    for j in range(n):
        if j % keyless_every == keyless_every - 1:
            out.append({"text": f"free statement number {j}", "agent": "user:b"})
        elif j % update_every == update_every - 1 and keys:
            k = (j * 13) % keys
            out.append({"key": f"imp.k{k}", "value": f"v{j}", "text": f"key {k} is now v{j}", "agent": "user:a"})
        else:
            out.append({"key": f"imp.k{keys}", "value": f"v{j}", "text": f"key {keys} is v{j}", "agent": "user:a"})
            keys += 1
    return out


def _expected_versions(items: list[dict[str, Any]]) -> Counter[str]:
    return Counter(it["key"] for it in items if "key" in it)


def _versions(bg: BeliefGraph, prefix: str = "imp.") -> Counter[str]:
    rows = bg.graph.driver.execute_query(
        "MATCH (c:Claim {space: $s}) WHERE c.key STARTS WITH $p RETURN c.key AS key, count(*) AS n",
        s=bg.space,
        p=prefix,
    ).records
    return Counter({r["key"]: int(r["n"]) for r in rows})


# --- same policies ------------------------------------------------------------------------------


def _setup(bg: BeliefGraph) -> None:
    """Facts, a rule, a free-text conclusion and conflict policy, written the ordinary way."""
    bg.assert_claim("person.ann.city", "paris", "ann lives in paris", agent="user:ann")
    bg.assert_claim("city.paris.country", "france", "paris is in france", agent="agent:geo")
    bg.assert_claim("city.rome.country", "italy", "rome is in italy", agent="agent:geo")
    bg.assert_claim("user.diet", "vegetarian", "the user is vegetarian", agent="user:ann")
    diet = bg.belief("user.diet")
    assert diet is not None
    bg.derive("Suggest the vegetarian menu", [diet.id], key="advice.menu", agent="agent:chef")
    bg.rules.add(CITY_COUNTRY, agent="user:admin")
    bg.conflicts.set_policy("team.*", "authority")
    bg.conflicts.set_authority("agent:boss", "team.*", 0.9)
    bg.conflicts.set_authority("agent:intern", "team.*", 0.2)


SEQUENCE: list[dict[str, Any]] = [
    {"key": "team.lead", "value": "carol", "text": "carol leads the team", "agent": "agent:boss"},
    {"key": "team.lead", "value": "dave", "text": "dave leads the team", "agent": "agent:intern"},  # disputed
    {"key": "team.lead", "value": "carol", "text": "carol leads the team", "agent": "agent:intern"},  # corroborates
    {"key": "person.ann.city", "value": "rome", "text": "ann moved to rome", "agent": "user:ann"},  # re-derives
    {"key": "user.diet", "value": "vegan", "text": "the user is vegan now", "agent": "user:ann"},  # advice stale
    {"key": "user.diet", "value": "vegan", "text": "the user is vegan now", "agent": "user:ann"},  # NOOP
    {"key": "user.city_size", "value": 3, "text": "the user's city has 3 million people", "agent": "agent:geo"},
    {"key": "user.city_size", "value": 2.8, "text": "2.8 million people", "agent": "agent:census"},  # recency
    {"text": "a statement without a key", "agent": "user:ann"},
    {"key": "team.size", "value": 7, "text": "the team has 7 people", "agent": "agent:intern"},
    {"key": "team.size", "value": 8, "text": "the team has 8 people", "agent": "agent:boss"},  # authority wins
    {"key": "city.rome.country", "value": "italia", "text": "rome is in italia", "agent": "agent:geo"},  # re-derives
]


def _snapshot(bg: BeliefGraph) -> dict[str, Any]:
    keys = [
        "team.lead",
        "team.size",
        "person.ann.city",
        "person.ann.country",
        "user.diet",
        "user.city_size",
        "city.rome.country",
        "advice.menu",
    ]
    hist = {
        k: [(v.claim.value, v.claim.agent, v.claim.status.value, v.current) for v in bg.beliefs.history(k)]
        for k in keys
    }
    disputes = sorted(
        (d.key, d.status, d.incumbent.value, d.challenger.value) for d in bg.conflicts.disputes(status=None)
    )
    stale = sorted(s.claim.text for s in bg.support.stale())
    keyless = sorted(
        c["text"]
        for c in (
            r.data()
            for r in bg.graph.driver.execute_query(
                "MATCH (c:Claim {space: $s}) WHERE c.key IS NULL AND c.kind <> 'derived' RETURN c.text AS text",
                s=bg.space,
            ).records
        )
    )
    return {"history": hist, "disputes": disputes, "stale": stale, "keyless": keyless}


def test_import_follows_the_same_policies_as_assert_claim(hbg: BeliefGraph, other: BeliefGraph) -> None:
    _setup(hbg)
    _setup(other)
    ops = Counter(hbg.assert_claim(**{"key": None, "value": None, **it}).op.value.lower() for it in SEQUENCE)
    r = other.importer.import_items(SEQUENCE, name="policies", batch_size=5)
    assert r.batches == 3 and r.done == len(SEQUENCE) and not r.rejected
    assert Counter({k: v for k, v in r.ops.items() if v}) == ops
    assert ops["disputed"] == 1 and ops["noop"] == 2 and ops["superseded"] >= 2
    assert r.rederived == 2 and r.staled >= 1
    want, got = _snapshot(hbg), _snapshot(other)
    assert got == want
    assert [v[0] for v in got["history"]["person.ann.country"]] == ["france", "italy", "italia"]
    assert "Suggest the vegetarian menu" in got["stale"]
    info = other.importer.all()[0]
    assert info.name == "policies" and info.status == "complete" and info.done == len(SEQUENCE)
    assert info.counts["disputed"] == 1 and info.counts["rederived"] == 2


def test_a_later_line_sees_what_an_earlier_line_of_its_batch_wrote(hbg: BeliefGraph) -> None:
    items = [{"key": "x.k", "value": f"v{i}", "text": f"x is v{i}", "agent": "user:a"} for i in range(6)]
    r = hbg.importer.import_items(items, name="chain", batch_size=100)
    assert r.batches == 1 and r.ops["add"] == 1 and r.ops["update"] == 5
    history = hbg.beliefs.history("x.k")
    assert [v.claim.value for v in history] == [f"v{i}" for i in range(6)]
    assert [v.current for v in history] == [False] * 5 + [True]


def test_a_write_to_a_derived_key_stops_the_import_with_its_line(hbg: BeliefGraph) -> None:
    _setup(hbg)
    before = _claim_count(hbg)
    items = _items(7) + [{"key": "person.ann.country", "value": "spain", "text": "ann is in spain", "agent": "user:x"}]
    with pytest.raises(ImportLineError) as err:
        hbg.importer.import_items(items, name="derived", batch_size=5)
    e = err.value
    assert e.line == 8 and e.committed == 5 and "derived by rule" in str(e) and e.import_name == "derived"
    assert _claim_count(hbg) == before + sum(1 for it in items[:5])  # lines 6-8: nothing written
    assert hbg.importer.info("derived").done == 5  # type: ignore[union-attr]


# --- resumable --------------------------------------------------------------------------------------


class _Interrupted(Exception):
    pass


def _interrupt_after(items: list[dict[str, Any]], n: int) -> Iterator[dict[str, Any]]:
    for i, it in enumerate(items):
        if i == n:
            raise _Interrupted(f"stopped after {n} items")
        yield it


def test_an_interrupted_import_resumes_without_writing_a_line_twice(hbg: BeliefGraph) -> None:
    items = _items(130)
    with pytest.raises(_Interrupted):
        hbg.importer.import_items(_interrupt_after(items, 57), name="resume", batch_size=20)
    info = hbg.importer.info("resume")
    assert info is not None and info.done == 40 and info.status == "running"  # two batches; the third never committed
    assert set(_claims_by_line(hbg, "resume")) == {n for n in range(1, 41)}
    seen: list[tuple[int, int]] = []
    r = hbg.importer.import_items(items, name="resume", batch_size=20, progress=lambda d, w: seen.append((d, w)))
    assert r.resumed_from == 40 and r.lines == 90 and r.done == 130 and r.batches == 5
    assert seen[0] == (40, 0) and seen[-1] == (130, 90) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    per_line = _claims_by_line(hbg, "resume")
    assert set(per_line) == set(range(1, 131)) and set(per_line.values()) == {1}
    assert _versions(hbg) == _expected_versions(items)
    assert _claim_count(hbg) == 130
    # the same import again: everything is committed, nothing is written
    again = hbg.importer.import_items(items, name="resume", batch_size=20)
    assert again.resumed_from == 130 and again.lines == 0 and again.written == 0 and _claim_count(hbg) == 130
    # appended lines continue the import
    more = items + [{"key": "imp.more", "value": 1, "text": "one more", "agent": "user:a"}]
    tail = hbg.importer.import_items(more, name="resume", batch_size=20)
    assert tail.resumed_from == 130 and tail.written == 1 and hbg.importer.info("resume").done == 131  # type: ignore[union-attr]


def test_resuming_with_another_source_is_refused_and_writes_nothing(hbg: BeliefGraph) -> None:
    items = _items(50)
    with pytest.raises(_Interrupted):
        hbg.importer.import_items(_interrupt_after(items, 30), name="src", batch_size=10)
    count = _claim_count(hbg)
    changed = [dict(it) for it in items]
    changed[3]["text"] = "an edited line before the committed end"
    with pytest.raises(ImportStateError, match="differs from the lines already committed"):
        hbg.importer.import_items(changed, name="src", batch_size=10)
    with pytest.raises(ImportStateError, match="fewer than were committed"):
        hbg.importer.import_items(items[:12], name="src", batch_size=10)
    assert _claim_count(hbg) == count and hbg.importer.info("src").done == 30  # type: ignore[union-attr]
    # restart: from the first line again, through the write path (same-agent same-value lines are NOOPs)
    r = hbg.importer.import_items(changed, name="src", batch_size=10, restart=True)
    assert r.resumed_from == 0 and r.lines == 50 and r.done == 50
    assert hbg.importer.info("src").runs == 4 and hbg.importer.info("src").done == 50  # type: ignore[union-attr]


def test_two_processes_on_one_import_write_each_line_once(hbg: BeliefGraph, base_settings: Settings) -> None:
    items = _items(120)
    errors: list[BaseException] = []

    def worker() -> None:
        with BeliefGraph.connect(
            space=hbg.space, settings=base_settings, embedder=HashingEmbedder(base_settings.embedding.dimension)
        ) as b:
            try:
                b.importer.import_items(items, name="shared", batch_size=10)
            except BaseException as exc:  # noqa: BLE001 - collected and checked below
                errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(e, ImportStateError) for e in errors), errors
    per_line = _claims_by_line(hbg, "shared")
    if errors:  # the one that stopped left the rest to the other, or to a rerun
        hbg.importer.import_items(items, name="shared", batch_size=10)
        per_line = _claims_by_line(hbg, "shared")
    assert set(per_line) == set(range(1, 121)) and set(per_line.values()) == {1}
    assert _versions(hbg) == _expected_versions(items)


# --- bad lines ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad, message",
    [
        ("{not json", "not JSON"),
        ('["a", "list"]', "a line is a JSON object"),
        ('{"key": "x.y", "value": 1, "text": "t", "agent": "a", "colour": "red"}', "unknown field(s) colour"),
        ('{"key": "x.y", "value": [1, 2], "text": "t", "agent": "a"}', "a fact value is a string, number or boolean"),
        ('{"key": "bad key!", "value": 1, "text": "t", "agent": "a"}', "key"),
        ('{"key": "x.y", "value": 1, "text": "  ", "agent": "a"}', "text"),
        ('{"key": "x.y", "value": 1, "text": "t"}', "no agent"),
        ('{"key": "x.y", "value": 1, "text": "t", "agent": "a", "evidence": ["no-such-id"]}', "unknown evidence"),
    ],
)
def test_a_bad_line_is_a_typed_error_with_its_line_and_nothing_of_its_batch(
    hbg: BeliefGraph, tmp_path: Path, bad: str, message: str
) -> None:
    good = [json.dumps(it) for it in _items(9, keyless_every=100)]
    path = tmp_path / "claims.jsonl"
    path.write_text("\n".join(good[:6] + [bad] + good[6:]) + "\n", encoding="utf-8")
    with pytest.raises(ImportLineError) as err:
        hbg.importer.import_jsonl(path, batch_size=4)
    e = err.value
    assert e.line == 7 and e.committed == 4 and message in str(e) and str(e).startswith(f"{path}:7: ")
    assert set(_claims_by_line(hbg, f"file:{path.resolve()}")) == {1, 2, 3, 4}
    # fix the line, run again: it resumes at the failed batch
    path.write_text("\n".join(good) + "\n", encoding="utf-8")
    r = hbg.importer.import_jsonl(path, batch_size=4)
    assert r.resumed_from == 4 and r.done == 9
    assert set(_claims_by_line(hbg, f"file:{path.resolve()}").values()) == {1}


def test_skip_leaves_bad_lines_out_and_records_them(hbg: BeliefGraph, tmp_path: Path) -> None:
    lines = [json.dumps(it) for it in _items(10, keyless_every=100)]
    lines[2] = "{oops"
    lines[5] = json.dumps({"key": "imp.k0", "value": 5, "text": "a number where strings were", "agent": "user:a"})
    lines[8] = ""  # blank: not an error
    path = tmp_path / "claims.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe\n")
    r = hbg.importer.import_jsonl(path, batch_size=4, on_error="skip")
    assert [x.line for x in r.rejected] == [3, 6, 11]
    assert "not JSON" in r.rejected[0].error and "holds string values" in r.rejected[1].error
    assert "not UTF-8" in r.rejected[2].error
    assert r.done == 11 and sum(r.ops.values()) == 7
    info = hbg.importer.info(r.name)
    assert info is not None and info.counts["rejected"] == 3 and len(info.errors) == 3
    assert info.errors[1].startswith("line 6: ")
    assert set(_claims_by_line(hbg, r.name)) == {1, 2, 4, 5, 7, 8, 10}


def test_bad_arguments_write_nothing(hbg: BeliefGraph, tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="batch_size"):
        hbg.importer.import_items(_items(3), batch_size=0)
    with pytest.raises(ValidationError, match="on_error"):
        hbg.importer.import_items(_items(3), on_error="ignore")
    with pytest.raises(ValidationError, match="not a single value"):
        hbg.importer.import_items({"key": "a.b", "value": 1, "text": "t", "agent": "a"})  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="no such file"):
        hbg.importer.import_jsonl(tmp_path / "missing.jsonl")
    assert _claim_count(hbg) == 0 and hbg.importer.all() == []


# --- the CLI, killed mid-import -------------------------------------------------------------------


def _cli_env(settings: Settings, space: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    e.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_SPACE=space,
    )
    return e


def test_a_killed_cli_import_resumes_where_it_stopped(
    hbg: BeliefGraph, base_settings: Settings, tmp_path: Path
) -> None:
    items = _items(1200)
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(it) + "\n" for it in items), encoding="utf-8")
    name = f"file:{path.resolve()}"
    exe = str(Path(sys.executable).with_name("belief-graph"))
    cmd = [exe, "memory", "import", str(path), "--batch-size", "20", "--json"]
    proc = subprocess.Popen(cmd, env=_cli_env(base_settings, hbg.space), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        done = 0
        while time.monotonic() < deadline and proc.poll() is None:
            info = hbg.importer.info(name)
            done = info.done if info is not None else 0
            if done >= 100:
                break
            time.sleep(0.05)
        assert proc.poll() is None, f"the import ended before it could be killed: {proc.communicate()}"
        assert done >= 100, "the import made no progress in time"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    info = hbg.importer.info(name)
    assert info is not None and 100 <= info.done < 1200 and info.status == "running"
    killed_at = info.done
    per_line = _claims_by_line(hbg, name)
    assert set(per_line) == set(range(1, killed_at + 1)) and set(per_line.values()) == {
        1
    }  # nothing of the batch in flight
    rerun = subprocess.run(cmd, env=_cli_env(base_settings, hbg.space), capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    out = json.loads(rerun.stdout)
    assert out["resumed_from"] == killed_at and out["done"] == 1200 and out["lines"] == 1200 - killed_at
    assert rerun.stderr == ""  # no progress bar when stdout is not a terminal
    per_line = _claims_by_line(hbg, name)
    assert set(per_line) == set(range(1, 1201)) and set(per_line.values()) == {1}
    assert _versions(hbg) == _expected_versions(items)
    assert _claim_count(hbg) == 1200


def test_cli_import_reports_a_bad_line_in_one_line_with_exit_2(
    hbg: BeliefGraph, base_settings: Settings, tmp_path: Path, run_cli
) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "c.jsonl"
    path.write_text('{"key": "a.b", "value": 1, "text": "a is 1"}\n{"key": "a.c", "value": 2}\n', encoding="utf-8")
    r = run_cli(["--space", hbg.space, "memory", "import", str(path), "--agent", "user:cli"])
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"error: {path}:2: invalid claim: text: Field required")
    assert _claim_count(hbg) == 0
    r = run_cli(
        ["--space", hbg.space, "memory", "import", str(path), "--agent", "user:cli", "--on-error", "skip", "--json"]
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ops"]["add"] == 1 and out["rejected"][0]["line"] == 2 and out["done"] == 2
    r = run_cli(["--space", hbg.space, "memory", "imports", "--json"])
    listed = json.loads(r.stdout)
    assert [i["name"] for i in listed] == [f"file:{path.resolve()}"] and listed[0]["counts"]["rejected"] == 1
    assert hbg.belief("a.b").agent == "user:cli"  # type: ignore[union-attr]


def test_bench_writes_tiny(hbg: BeliefGraph) -> None:
    """The bench runs end to end and leaves nothing behind; the work of a write (db hits) does not grow
    with the store. No timing is asserted."""
    from typer.testing import CliRunner

    from belief_graph.cli import app

    r = CliRunner().invoke(
        app,
        ["bench", "writes", "--sizes", "200,400", "--repeats", "5", "--import-n", "40", "--batch-size", "20", "--json"],
    )
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    lat, imp = out["latency"], out["import"]
    # loaded + warm-up (10 ADD, 10 UPDATE) + measured (5 of each per size) + profiled (one of each per size)
    assert [row["claims"] for row in lat["rows"]] == [200 + 20 + 10 + 2, 400 + 20 + 20 + 4]
    assert all(row["floor_ms_p50"] > 0 and row["add_over_floor"] > 0 for row in lat["rows"])
    # the same work at both sizes, give or take an index page (a scan of the store would add hundreds)
    for hits in (lat["summary"]["db_hits_add"], lat["summary"]["db_hits_update"]):
        assert max(hits) - min(hits) <= 3, hits
    first = lat["rows"][0]
    assert set(first["db_hits_add_by_statement"]) >= {"claim.lock_facts", "claim.create_claims", "claim.set_current"}
    assert "claim.supersede_current" in first["db_hits_update_by_statement"]
    assert [row["items"] for row in imp["rows"]] == [40, 40, 8, 40]
    assert all(row["per_second"] > 0 for row in imp["rows"])
    left = hbg.graph.driver.execute_query(
        "MATCH (n) WHERE n.space STARTS WITH 'bench-writes-' OR n.space STARTS WITH 'bench-import-' "
        "RETURN count(n) AS n"
    ).records[0]["n"]
    assert left == 0
    bad = CliRunner().invoke(app, ["bench", "writes", "--sizes", "10"])
    assert bad.exit_code != 0 and isinstance(bad.exception, ValidationError)
