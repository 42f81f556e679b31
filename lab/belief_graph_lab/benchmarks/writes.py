"""``belief-graph bench writes``: the write path against the commit floor as the store grows, and
bulk import throughput against per-claim writes and the embedder, in one run.

**Write latency** (``--sizes``, ``--full`` for 10^3 -> 10^6 claims in the space). The store is grown
with batched statements (``bench.load_claims``: what ``assert_claim`` writes for a first version,
embedding and writer edge included, so the vector and fulltext indexes grow with it; embeddings from
the hashing embedder over varied texts). At each size, ``--repeats`` rounds of four transactions,
each round in this order: the **commit floor** (``bench.write_probe``: a write transaction that
creates one node), ``assert_claim`` **ADD** (a key the space has never seen), the floor again,
``assert_claim`` **UPDATE** (a loaded key never written since, drawn at random over the whole store,
by its writer). So every size measures first writes of fresh keys, side by side with the floor on
the same machine at the same moment; p50 and p95 of each, the ratios to the floor, and the db hits
of one profiled ADD and UPDATE (every statement under ``PROFILE``). Goal: largest / smallest store
p50 <= 1.5 for both writes. Where the time goes: each timed write's registry statements are timed
(server, Bolt round trip and driver), the rest is begin, commit and Python between them, and the
client's CPU is taken apart; two more one-node transactions in each round, a ``Claim`` node with a
text (``bench.write_claim_probe``: range and fulltext index updates at commit) and the same with an
embedding (plus the HNSW insertion into the vector index), show what a claim's commit costs by itself.
When the bench talks to the local server (``belief-graph server``), the CPU its process used per
transaction is read from ``/proc`` around each one (mean over the rounds: the clock ticks in 10 ms).

**Bulk import** (``--import-n`` claims, 80 % new keys, 20 % updates of them by the same writer):
``bg.importer.import_items`` with the hashing embedder (the engine's cost: embeddings that cost nothing)
and with the configured embedder (the cost a user pays), ``assert_claim`` one transaction per claim
(the baseline), and the configured embedder alone on the same texts in the same batches. The four
run interleaved in chunks (the imports resume chunk after chunk under one name each), so machine
noise falls on all of them alike; claims (or texts) per second of each, and the ratios.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from belief_graph.db.driver import Graph, Tx
from belief_graph.embeddings import Embedder, HashingEmbedder
from belief_graph.errors import BeliefGraphError
from belief_graph.facade import BeliefGraph
from belief_graph.models import new_id, utcnow
from belief_graph.repositories.admin import AdminRepository

from .timing import percentile, under_profile

__all__ = ["run_import_bench", "run_write_latency"]

_LOAD_BATCH = 2_000
_AGENT = "bench:loader"
_SUBJECTS = ("user", "account", "project", "device", "team", "order", "city", "book", "patient", "vendor")
_ATTRIBUTES = (
    "timezone",
    "owner",
    "status",
    "budget",
    "colour",
    "language",
    "deadline",
    "manager",
    "plan",
    "location",
    "priority",
    "rating",
    "currency",
    "diet",
    "schedule",
    "supplier",
    "tier",
    "size",
)
_VALUES = (
    "red",
    "blue",
    "green",
    "berlin",
    "paris",
    "tokyo",
    "high",
    "low",
    "open",
    "closed",
    "gold",
    "silver",
    "monday",
    "friday",
    "vegan",
    "spanish",
    "german",
    "euro",
    "dollar",
    "alice",
    "bob",
    "carol",
    "dana",
)


def _text(i: int, value: str) -> str:
    subject = _SUBJECTS[i % len(_SUBJECTS)]
    return f"The {_ATTRIBUTES[(i // 7) % len(_ATTRIBUTES)]} of {subject} {i} is {value}"


def _value(i: int) -> str:
    return _VALUES[(i * 31) % len(_VALUES)]


def _ms(x: float) -> float:
    return round(x * 1000, 2)


class _Timer:
    """Times every registry statement a write runs (wall clock: server, Bolt round trip and the driver)."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.by_name: dict[str, float] = defaultdict(float)

    def __call__(self, tx: Tx, name: str, /, **params: Any) -> list[dict[str, Any]]:
        t = time.perf_counter()
        try:
            return Graph.run(self.graph, tx, name, **params)
        finally:
            self.by_name[name] += time.perf_counter() - t


def _timed(bg: BeliefGraph) -> tuple[BeliefGraph, _Timer]:
    g = Graph(bg.graph.driver, bg.graph.settings)
    timer = _Timer(g)
    g.run = timer  # type: ignore[method-assign]
    return BeliefGraph(g, bg.settings, bg.space, bg.embedder), timer


class _Write:
    """One timed write: wall clock, the statements' share, the client's CPU."""

    def __init__(self, wall: float, statements: dict[str, float], cpu: float) -> None:
        self.wall = wall
        self.statements = statements
        self.cpu = cpu


def _timing(ws: Sequence[_Write], f50: float) -> dict[str, Any]:
    """p50/p95 and the median split of one kind of write: statements, the rest (begin, commit, session,
    Python between statements), the client's CPU."""
    walls = [w.wall for w in ws]
    names = sorted({n for w in ws for n in w.statements})
    return {
        "ms_p50": _ms(statistics.median(walls)),
        "ms_p95": _ms(percentile(walls, 0.95)),
        "over_floor": round(statistics.median(walls) / f50, 2),
        "statements_ms_p50": _ms(statistics.median([sum(w.statements.values()) for w in ws])),
        "rest_ms_p50": _ms(statistics.median([w.wall - sum(w.statements.values()) for w in ws])),
        "client_cpu_ms_p50": _ms(statistics.median([w.cpu for w in ws])),
        "statements": len(names),
        "ms_p50_by_statement": {n: _ms(statistics.median([w.statements.get(n, 0.0) for w in ws])) for n in names},
    }


class _ServerCPU:
    """CPU seconds used so far by the local Neo4j server (``/proc/<pid>/stat``), when the bench talks
    to the server that ``belief-graph server`` runs on this machine; otherwise ``read()`` is None."""

    def __init__(self, bg: BeliefGraph) -> None:
        self.pid: int | None = None
        uri = bg.settings.neo4j.uri
        local = any(f"{h}:{bg.settings.server.bolt_port}" in uri for h in ("127.0.0.1", "localhost"))
        if not local or not Path("/proc").is_dir():
            return
        from belief_graph.localserver import LocalServer

        try:
            st = LocalServer(bg.settings.server, bg.settings.neo4j).status()
        except BeliefGraphError:
            return
        self.pid = st.pid if st.running else None
        self._tick = os.sysconf("SC_CLK_TCK") if self.pid else 100

    def read(self) -> float | None:
        if self.pid is None:
            return None
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / self._tick


def _drop(graph: Graph, space: str, say: Callable[[str], None] | None = None) -> None:
    """Remove a bench space, 5,000 nodes per transaction, the writers last
    (:meth:`AdminRepository.delete_space_batched`). A failure is reported, never raised over the results."""
    try:
        AdminRepository(graph, space).delete_space_batched(space)
    except BeliefGraphError as exc:
        (say or (lambda _m: None))(f"could not remove the bench space {space} (remove it with `db` tools): {exc}")


class _Store:
    """The bench space, grown in steps with ``bench.load_claims``."""

    def __init__(self, graph: Graph, space: str, embedder: Embedder, vectors: bool, offset: int = 0) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.vectors = vectors
        self.offset = offset
        """Added to the number in each text (spaces loaded side by side get different texts)."""
        self.loaded = 0

    def grow(self, to: int) -> float:
        t0 = time.perf_counter()
        at = utcnow().isoformat()
        while self.loaded < to:
            ids = range(self.loaded, min(to, self.loaded + _LOAD_BATCH))
            texts = [_text(self.offset + i, _value(i)) for i in ids]
            vecs = self.embedder.embed_documents(texts) if self.vectors else [None] * len(texts)
            rows = [
                {"id": new_id(), "key": f"load.k{i}", "value": _value(i), "text": t, "embedding": v}
                for i, t, v in zip(ids, texts, vecs, strict=True)
            ]
            self.graph.write("bench.load_claims", space=self.space, agent=_AGENT, at=at, rows=rows)
            self.loaded += len(rows)
        return time.perf_counter() - t0


def run_write_latency(
    bg: BeliefGraph,
    sizes: Sequence[int],
    repeats: int = 40,
    *,
    store_vectors: bool = True,
    keep: bool = False,
    progress: Callable[[str], None] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """``assert_claim`` ADD and UPDATE on fresh keys next to the commit floor at each store size."""
    say = progress or (lambda _m: None)
    graph = bg.graph
    space = f"bench-writes-{new_id()[-8:]}"
    engine, timer = _timed(BeliefGraph(graph, bg.settings, space, bg.embedder))
    loader = HashingEmbedder(bg.settings.embedding.dimension)
    store = _Store(graph, space, loader, store_vectors)
    rng = random.Random(seed)
    server = _ServerCPU(bg)
    touched: set[int] = set()
    written = 0
    adds = 0

    def floor() -> float:
        t = time.perf_counter()
        graph.write("bench.write_probe", space=space, id=new_id())
        return time.perf_counter() - t

    probes = 0

    def claim_node(vector: bool) -> float:
        """One Claim node alone (text; with ``vector`` its embedding too) in its own transaction."""
        nonlocal probes
        probes += 1
        text = _text(2 * 10**9 + probes, _value(probes))
        emb = loader.embed_documents([text])[0] if vector else None
        t = time.perf_counter()
        graph.write("bench.write_claim_probe", space=space, id=new_id(), text=text, embedding=emb)
        return time.perf_counter() - t

    def timed(b: BeliefGraph, key: str, value: str, text: str, agent: str, op: str) -> _Write:
        nonlocal written
        timer.by_name.clear()
        c, t = time.process_time(), time.perf_counter()
        r = b.assert_claim(key, value, text, agent=agent)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        if r.op.value != op:
            raise RuntimeError(f"the write of {key} did {r.op.value}, expected {op}")
        written += 1
        return _Write(wall, dict(timer.by_name), cpu)

    def add(b: BeliefGraph) -> _Write:
        nonlocal adds
        i, adds = adds, adds + 1
        return timed(b, f"new.k{i}", _value(i), _text(10**9 + i, _value(i)), "bench:writer", "ADD")

    def update(b: BeliefGraph) -> _Write:
        while True:
            i = rng.randrange(store.loaded)
            if i not in touched:
                touched.add(i)
                break
        v = _value(i + 1)
        return timed(b, f"load.k{i}", v, _text(i, v), _AGENT, "UPDATE")

    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        store.grow(min(sizes))
        profiled, prof = under_profile(engine)
        for _ in range(10):  # warm-up: plans compiled, pools open (never measured)
            floor(), add(engine), update(engine), claim_node(False), claim_node(True)
        for size in sorted(sizes):
            load_s = store.grow(size)
            say(f"{store.loaded + written} claims in the space (grown in {load_s:.0f} s); measuring")
            fl, ad, up, ct, cv = [], [], [], [], []
            cpu: dict[str, list[float]] = {k: [] for k in ("floor", "claim_node", "claim_node_vector", "add", "update")}

            def on_server(kind: str, fn: Callable[[], Any]) -> Any:
                c0 = server.read()
                out = fn()
                c1 = server.read()
                if c0 is not None and c1 is not None:
                    cpu[kind].append(c1 - c0)  # noqa: B023 (called within this iteration)
                return out

            for _ in range(repeats):
                fl.append(on_server("floor", floor))
                ad.append(on_server("add", lambda: add(engine)))
                ct.append(on_server("claim_node", lambda: claim_node(False)))
                fl.append(on_server("floor", floor))
                up.append(on_server("update", lambda: update(engine)))
                cv.append(on_server("claim_node_vector", lambda: claim_node(True)))
            prof.reset()
            add(profiled)
            hits_add, by_add = prof.total, dict(prof.hits)
            prof.reset()
            update(profiled)
            hits_update, by_update = prof.total, dict(prof.hits)
            f50 = statistics.median(fl)
            t_add, t_up = _timing(ad, f50), _timing(up, f50)
            row = {
                "claims": store.loaded + written,
                "floor_ms_p50": _ms(f50),
                "floor_ms_p95": _ms(percentile(fl, 0.95)),
                "claim_node_ms_p50": _ms(statistics.median(ct)),
                "claim_node_vector_ms_p50": _ms(statistics.median(cv)),
                # mean CPU of the server process per transaction (the clock ticks in 10 ms steps: a mean of many)
                "server_cpu_ms_mean": {k: _ms(statistics.mean(v)) for k, v in cpu.items() if v} or None,
                "add_ms_p50": t_add["ms_p50"],
                "add_ms_p95": t_add["ms_p95"],
                "update_ms_p50": t_up["ms_p50"],
                "update_ms_p95": t_up["ms_p95"],
                "add_over_floor": t_add["over_floor"],
                "update_over_floor": t_up["over_floor"],
                "add_timing": t_add,
                "update_timing": t_up,
                "db_hits_add": hits_add,
                "db_hits_update": hits_update,
                "db_hits_add_by_statement": by_add,
                "db_hits_update_by_statement": by_update,
                "grow_s": round(load_s, 1),
            }
            rows.append(row)
            say(
                f"  floor {row['floor_ms_p50']} ms, ADD {row['add_ms_p50']} ms (x{row['add_over_floor']}), "
                f"UPDATE {row['update_ms_p50']} ms (x{row['update_over_floor']}), db hits {hits_add} / {hits_update}"
            )
    finally:
        elapsed = time.perf_counter() - started
        if not keep:
            _drop(graph, space, say)
        else:  # the probes are no claims of the engine's: a kept space passes `db check`
            graph.write("bench.delete_claim_probes", space=space)
    first, last = rows[0], rows[-1]
    summary = {
        "add_p50_largest_over_smallest": round(last["add_ms_p50"] / first["add_ms_p50"], 2),
        "update_p50_largest_over_smallest": round(last["update_ms_p50"] / first["update_ms_p50"], 2),
        "floor_p50_largest_over_smallest": round(last["floor_ms_p50"] / first["floor_ms_p50"], 2),
        "db_hits_add": sorted({r["db_hits_add"] for r in rows}),
        "db_hits_update": sorted({r["db_hits_update"] for r in rows}),
        "seconds": round(elapsed, 1),
    }
    return {
        "space": space if keep else None,
        "embedder": engine.embedder.name,
        "store_vectors": store_vectors,
        "repeats": repeats,
        "rows": rows,
        "summary": summary,
    }


def _import_items(n: int, tag: str) -> list[dict[str, Any]]:
    """``n`` claims: 80 % first writes of new keys, 20 % updates of earlier ones by the same writer."""
    items: list[dict[str, Any]] = []
    new = 0
    for j in range(n):
        if j % 5 == 4 and new > 0:
            i = (j * 7919) % new
            v = f"{_value(i + j)}-{j}"
        else:
            i, new = new, new + 1
            v = _value(i)
        items.append({"key": f"imp.{tag}.k{i}", "value": v, "text": _text(i, v), "agent": "bench:importer"})
    return items


def run_import_bench(
    bg: BeliefGraph,
    n: int = 2000,
    *,
    chunk: int = 250,
    batch_size: int = 250,
    baseline_every: int = 5,
    keep: bool = False,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Claims per second of ``import_claims`` (hashing and configured embedder) against ``assert_claim``
    per claim and the embedder alone, interleaved chunk by chunk (see the module docstring)."""
    say = progress or (lambda _m: None)
    graph = bg.graph
    model = bg.embedder
    hashing = HashingEmbedder(bg.settings.embedding.dimension)
    tag = new_id()[-8:]
    spaces = {k: f"bench-import-{k}-{tag}" for k in ("hashing", "model", "assert")}
    engines = {
        "hashing": BeliefGraph(graph, bg.settings, spaces["hashing"], hashing),
        "model": BeliefGraph(graph, bg.settings, spaces["model"], model),
        "assert": BeliefGraph(graph, bg.settings, spaces["assert"], hashing),
    }
    items = {k: _import_items(n, k) for k in ("hashing", "model")}
    base_items = _import_items(max(1, n // baseline_every), "assert")
    secs = dict.fromkeys(("hashing", "model", "assert", "embedder"), 0.0)
    embed_secs = dict.fromkeys(("hashing", "model"), 0.0)
    counts = dict.fromkeys(("hashing", "model", "assert", "embedder"), 0)
    base_chunk = max(1, chunk // baseline_every)
    started = time.perf_counter()
    try:
        # warm-up: the model loaded, plans compiled (its own space, dropped below)
        warm = BeliefGraph(graph, bg.settings, f"bench-import-warm-{tag}", model)
        warm.importer.import_items(_import_items(20, "warm"), batch_size=10)
        model.embed_documents(["warm up"])
        _drop(graph, warm.space, say)
        done = 0
        while done < n:
            upto = min(n, done + chunk)
            for k in ("hashing", "model"):
                r = engines[k].importer.import_items(items[k][:upto], name=f"bench-{k}", batch_size=batch_size)
                if r.resumed_from != done or r.done != upto or r.rejected:
                    raise RuntimeError(f"bench import {k} did lines {r.resumed_from}-{r.done}, expected {done}-{upto}")
                secs[k] += r.seconds
                embed_secs[k] += r.embed_seconds
                counts[k] += r.lines
            texts = [it["text"] for it in items["model"][done:upto]]
            t = time.perf_counter()
            for start in range(0, len(texts), batch_size):
                model.embed_documents(texts[start : start + batch_size])
            secs["embedder"] += time.perf_counter() - t
            counts["embedder"] += len(texts)
            b0 = done // baseline_every
            for it in base_items[b0 : b0 + base_chunk]:
                t = time.perf_counter()
                engines["assert"].assert_claim(it["key"], it["value"], it["text"], it["agent"])
                secs["assert"] += time.perf_counter() - t
                counts["assert"] += 1
            done = upto
            say(f"  {done}/{n} lines imported by each variant")
    finally:
        elapsed = time.perf_counter() - started
        if not keep:
            for s in spaces.values():
                _drop(graph, s, say)
    rate = {k: round(counts[k] / secs[k], 1) if secs[k] > 0 else 0.0 for k in secs}
    rows = [
        {
            "variant": "import_claims, hashing embedder (engine only)",
            "items": counts["hashing"],
            "seconds": round(secs["hashing"], 1),
            "per_second": rate["hashing"],
            "embedding_share": round(embed_secs["hashing"] / secs["hashing"], 3) if secs["hashing"] else None,
        },
        {
            "variant": f"import_claims, {model.name}",
            "items": counts["model"],
            "seconds": round(secs["model"], 1),
            "per_second": rate["model"],
            "embedding_share": round(embed_secs["model"] / secs["model"], 3) if secs["model"] else None,
        },
        {
            "variant": "assert_claim, one transaction per claim (hashing embedder)",
            "items": counts["assert"],
            "seconds": round(secs["assert"], 1),
            "per_second": rate["assert"],
            "embedding_share": None,
        },
        {
            "variant": f"embedder alone: {model.name}, batches of {batch_size}",
            "items": counts["embedder"],
            "seconds": round(secs["embedder"], 1),
            "per_second": rate["embedder"],
            "embedding_share": 1.0,
        },
    ]
    ratios = {
        "import_over_assert": round(rate["hashing"] / rate["assert"], 2) if rate["assert"] else None,
        "import_model_over_import_hashing": round(rate["model"] / rate["hashing"], 3) if rate["hashing"] else None,
        "import_model_over_embedder": round(rate["model"] / rate["embedder"], 3) if rate["embedder"] else None,
    }
    return {
        "n": n,
        "batch_size": batch_size,
        "chunk": chunk,
        "embedder": model.name,
        "rows": rows,
        "ratios": ratios,
        "seconds": round(elapsed, 1),
    }
