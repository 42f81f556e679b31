"""``belief-graph bench grounded``: the grounded extension solved in Neo4j vs exported and solved in Python.

For every instance (the ICCMA corpus and generated long chains), measured side by side in one run:

* ``db_s``: :meth:`ArgumentationService.ground` — counters, all waves and the UNDEC pass in Cypher,
  labels written back to the graph, and the IN/OUT/UNDEC names read back (best of ``--repeat``);
  ``stmts`` (``round_trips``) the statements that ran waves (1 when the first statement's waves
  suffice, or ``ground_small`` for at most 32 arguments: then it is the whole solve);
* ``export_s``: reading the attack graph out of Neo4j (one read statement, one record), ``build_s``:
  building ``formal-argumentation``'s ``ArgumentationFramework``, ``solve_s``: its
  ``grounded_extension`` (a queue/counter labelling), ``write_s``: OUT and UNDEC derived from the
  IN set and the three lists written back into the graph in one batched statement
  (``argumentation.write_labels``), so both sides end with the labels IN THE GRAPH; ``ext_s`` =
  the four together (best of ``--repeat``); ``db_us_per_argument``/``ext_us_per_argument``;
* ``ratio`` = ``db_s / ext_s`` (below 1: the database is faster); the two paths alternate
  (db, ext, db, ext, ...), and ``ratio_pairs`` (the ``pairs`` column: lowest..highest) gives the
  ratio of each db run to the ext run right after it, which shows how much the machine's load
  moved the numbers;
* ``hits_per_unit``: db hits of the solver statements (one extra ``PROFILE`` run, not timed) per
  argument + attack — roughly constant across sizes when the work is linear;
* ``ok``: the database's IN set equals formal-argumentation's, and the graph holds the
  database's labelling after the write-back;
* ``small`` (``--small``): the latency a deliberation sees, one solve of a 3-12 argument
  framework (db and ext alternating, each round after a commit-floor probe in a space of its own).

Before the first row both paths run once, untimed, on a 100-argument chain, so that neither side's
first row pays the compilation of its queries.

Generated families (names ``a0..``): ``chain`` (a0 -> a1 -> ... ; n/2 waves) and ``dchain``, an
admbuster-like double chain (a_i -> a_i+1, b_i -> b_i+1, a_i -> b_i+1, b_i -> a_i+1; n/4 waves).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from belief_graph.argumentation import iccma
from belief_graph.errors import ConfigurationError, ValidationError
from belief_graph.models import new_id
from belief_graph.models.argumentation import AttackGraph
from belief_graph.repositories.admin import AdminRepository
from belief_graph.services.argumentation import SMALL_MAX, ArgumentationService

from ..scenarios.frameworks import FAMILIES, chain_graph, double_chain_graph, small_graph

__all__ = ["FAMILIES", "default_corpus", "measure", "measure_small"]


def default_corpus() -> Path | None:
    """The corpus subset in the source tree (tests/data/corpus), from the checkout or the current folder."""
    for base in (Path.cwd(), Path(__file__).resolve().parents[3]):
        p = base / "tests" / "data" / "corpus" / "argumentation"
        if (p / "EXPECTED.tsv").is_file():
            return p
    return None


def _external() -> tuple[Any, Any]:
    try:
        from argumentation.core.dung import ArgumentationFramework, grounded_extension
    except ImportError as exc:
        raise ConfigurationError(
            "bench grounded compares with the formal-argumentation package, which is not installed: "
            "pip install 'belief-graph[bench]' (or pip install formal-argumentation)"
        ) from exc
    return ArgumentationFramework, grounded_extension


def _write_back(svc: ArgumentationService, ns: str, exported: AttackGraph, ext_in: Any) -> None:
    """The rest of the export path: OUT = attacked by an IN argument, UNDEC = the others, and the
    labels written back into the graph in one batched statement (its own write transaction)."""
    inn = set(ext_in)
    out = {b for a, b in exported.attacks if a in inn}
    undec = [x for x in exported.arguments if x not in inn and x not in out]
    svc.repo.write_labels(ns, sorted(inn), sorted(out), undec)


def _measure_one(svc: ArgumentationService, label: str, af: AttackGraph, repeat: int, profile: bool) -> dict[str, Any]:
    AF, grounded_extension = _external()
    ns = f"bench:{new_id()}"
    t0 = time.perf_counter()
    svc.store_graph(ns, af)
    import_s = time.perf_counter() - t0
    try:
        # the two paths alternate (db, ext, db, ext, ...) so that a change of the machine's load
        # during the row hits both sides alike; the best run of each side is reported
        db_runs = []
        ext: list[tuple[float, float, float, float]] = []
        ext_in: frozenset[str] = frozenset()
        for _ in range(repeat):
            db_runs.append(svc.ground(ns))
            t0 = time.perf_counter()
            exported = svc.export_framework(ns)
            t1 = time.perf_counter()
            framework = AF(arguments=frozenset(exported.arguments), defeats=frozenset(exported.attacks))
            t2 = time.perf_counter()
            ext_in = grounded_extension(framework)
            t3 = time.perf_counter()
            _write_back(svc, ns, exported, ext_in)
            t4 = time.perf_counter()
            ext.append((t1 - t0, t2 - t1, t3 - t2, t4 - t3))
        res = db_runs[-1]
        stored = svc.labels(ns)  # what the graph holds after the last write-back: the db's labelling
        same_in_graph = (stored.in_, stored.out, stored.undec) == (res.in_, res.out, res.undec)
        hits: dict[str, int] = {}
        if profile:
            _, hits = svc.profile_ground(ns)
    finally:
        svc.delete_namespace(ns)
    db_s = min(r.seconds for r in db_runs)
    best = min(ext, key=sum)
    units = len(af.arguments) + len(af.attacks)
    total_hits = hits.get("init", 0) + hits.get("waves", 0) + hits.get("finish", 0)
    return {
        "case": label,
        "arguments": len(af.arguments),
        "attacks": len(af.attacks),
        "waves": res.waves,
        "in": len(res.in_),
        "out": len(res.out),
        "undec": len(res.undec),
        "round_trips": res.round_trips,
        "import_s": import_s,
        "db_s": db_s,
        "db_runs_s": [r.seconds for r in db_runs],
        "export_s": best[0],
        "build_s": best[1],
        "solve_s": best[2],
        "write_s": best[3],
        "ext_s": sum(best),
        "db_us_per_argument": db_s / len(af.arguments) * 1e6,
        "ext_us_per_argument": sum(best) / len(af.arguments) * 1e6,
        "ext_runs_s": [sum(e) for e in ext],
        "ratio": db_s / sum(best) if sum(best) > 0 else None,
        "ratio_pairs": [r.seconds / sum(e) for r, e in zip(db_runs, ext, strict=True) if sum(e) > 0],
        "db_hits": total_hits if profile else None,
        "db_hits_by_step": hits if profile else None,
        "hits_per_unit": (total_hits / units) if profile and units else None,
        "ok": sorted(ext_in) == res.in_ and same_in_graph,
    }


def measure_small(svc: ArgumentationService, sizes: list[int], repeat: int) -> dict[str, Any]:
    """The latency a deliberation sees: one solve of a 3-12 argument framework, ``repeat`` times per
    size, db and ext alternating; medians in ms."""
    AF, grounded_extension = _external()
    rows: list[dict[str, Any]] = []
    all_db: list[float] = []
    all_ext: list[float] = []
    floors: list[float] = []
    probes = f"bench-floor-{new_id()[-8:]}"  # the commit floor's nodes live in a space of their own

    def floor() -> float:
        t = time.perf_counter()
        svc.graph.write("bench.write_probe", space=probes, id=new_id())
        return time.perf_counter() - t

    try:
        _small_rows(svc, sizes, repeat, AF, grounded_extension, floor, rows, all_db, all_ext, floors)
    finally:
        AdminRepository(svc.graph, probes).delete_space_batched(probes)
    f50 = statistics.median(floors) if floors else None
    return {
        "repeat": repeat,
        "rows": rows,
        "db_ms_median": statistics.median(all_db) * 1000 if all_db else None,
        "ext_ms_median": statistics.median(all_ext) * 1000 if all_ext else None,
        "floor_ms_median": f50 * 1000 if f50 else None,
        "db_over_floor": statistics.median(all_db) / f50 if f50 and all_db else None,
    }


def _small_rows(
    svc: ArgumentationService,
    sizes: list[int],
    repeat: int,
    AF: Any,
    grounded_extension: Any,
    floor: Callable[[], float],
    rows: list[dict[str, Any]],
    all_db: list[float],
    all_ext: list[float],
    floors: list[float],
) -> None:
    for n in sizes:
        af = small_graph(n)
        ns = f"bench:{new_id()}"
        svc.store_graph(ns, af)
        try:
            db, ext = [], []
            for _ in range(repeat):
                floors.append(floor())
                db.append(svc.ground(ns).seconds)
                t0 = time.perf_counter()
                exported = svc.export_framework(ns)
                ext_in = grounded_extension(
                    AF(arguments=frozenset(exported.arguments), defeats=frozenset(exported.attacks))
                )
                _write_back(svc, ns, exported, ext_in)
                ext.append(time.perf_counter() - t0)
        finally:
            svc.delete_namespace(ns)
        all_db += db
        all_ext += ext
        rows.append(
            {
                "arguments": n,
                "attacks": len(af.attacks),
                "db_ms_median": statistics.median(db) * 1000,
                "ext_ms_median": statistics.median(ext) * 1000,
                "ratio": statistics.median(db) / statistics.median(ext),
            }
        )


def measure(
    svc: ArgumentationService,
    *,
    corpus: Path | None,
    corpus_limit: int = 0,
    sizes: list[int],
    families: list[str],
    repeat: int = 3,
    corpus_repeat: int = 1,
    profile: bool = True,
    progress: Callable[[str], None] | None = None,
    small: list[int] | None = None,
    small_repeat: int = 21,
) -> dict[str, Any]:
    """Run the benchmark and return every number (what ``--json`` prints)."""
    AF, grounded_extension = _external()
    say = progress or (lambda _m: None)
    # Warm-up, untimed: compile the plans of both paths (the solver's start / propagate / finish
    # statements and the two export queries) so that the first measured row does not pay the
    # query compilation of either side.
    # A namespace of at most SMALL_MAX arguments is solved by ground_small; a longer chain by
    # start_grounded alone; a longer double chain also needs propagate_waves. Each is compiled here:
    # without it the first row to use a statement paid its compilation (the first dchain row once
    # measured 15x the others; the dense AFGen files, the first start_grounded of a run once the
    # smaller files went to ground_small, 0.9 s against 5 ms).
    for warm_graph in (chain_graph(12), chain_graph(2 * SMALL_MAX), double_chain_graph(2 * SMALL_MAX)):
        warm = f"bench:{new_id()}"
        try:
            svc.store_graph(warm, warm_graph)
            svc.ground(warm)
            exported = svc.export_framework(warm)
            _write_back(
                svc,
                warm,
                exported,
                grounded_extension(AF(arguments=frozenset(exported.arguments), defeats=frozenset(exported.attacks))),
            )
        finally:
            svc.delete_namespace(warm)
    out: dict[str, Any] = {
        "space": svc.space,
        "repeat": repeat,
        "corpus_repeat": corpus_repeat,
        "cases": [],
        "corpus": [],
        "corpus_instances": [],
    }
    if corpus is not None:
        files = sorted(p for p in corpus.rglob("*") if p.suffix in (".apx", ".tgf", ".af"))
        if corpus_limit:
            files = files[:corpus_limit]
        say(f"corpus: {len(files)} file(s) from {corpus}")
        for f in files:
            af = iccma.read_framework(f)
            row = _measure_one(svc, str(f.relative_to(corpus)), af, corpus_repeat, profile)
            out["corpus_instances"].append(row)
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in out["corpus_instances"]:
            groups.setdefault("corpus/" + row["case"].split("/")[0], []).append(row)
        for name, rows in sorted(groups.items()):
            out["corpus"].append(_aggregate(name, rows))
    for fam in families:
        if fam not in FAMILIES:
            raise ValidationError(f"unknown family {fam!r} (known: {', '.join(FAMILIES)})")
        for n in sizes:
            say(f"{fam}({n})")
            out["cases"].append(_measure_one(svc, f"{fam}({n})", FAMILIES[fam](n), repeat, profile))
    if small:
        say(f"small frameworks ({min(small)}-{max(small)} arguments)")
        out["small"] = measure_small(svc, small, small_repeat)
    per_unit = [r["hits_per_unit"] for r in out["cases"] if r["hits_per_unit"] is not None]
    out["summary"] = {
        "db_faster_cases": sum(1 for r in out["cases"] + out["corpus"] if r["ratio"] is not None and r["ratio"] < 1),
        "cases": len(out["cases"]) + len(out["corpus"]),
        "all_ok": all(r["ok"] for r in out["cases"] + out["corpus_instances"]),
        "hits_per_unit_min": min(per_unit) if per_unit else None,
        "hits_per_unit_max": max(per_unit) if per_unit else None,
    }
    return out


def _aggregate(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    db_s = sum(r["db_s"] for r in rows)
    ext_s = sum(r["ext_s"] for r in rows)
    hits = [r["hits_per_unit"] for r in rows if r["hits_per_unit"] is not None]
    passes = min(len(r["db_runs_s"]) for r in rows)
    pairs = [sum(r["db_runs_s"][j] for r in rows) / sum(r["ext_runs_s"][j] for r in rows) for j in range(passes)]
    return {
        "case": f"{name} ({len(rows)} files)",
        "arguments": sum(r["arguments"] for r in rows),
        "attacks": sum(r["attacks"] for r in rows),
        "waves": max(r["waves"] for r in rows),
        "round_trips": sum(r["round_trips"] for r in rows),
        "import_s": sum(r["import_s"] for r in rows),
        "db_s": db_s,
        "export_s": sum(r["export_s"] for r in rows),
        "build_s": sum(r["build_s"] for r in rows),
        "solve_s": sum(r["solve_s"] for r in rows),
        "write_s": sum(r["write_s"] for r in rows),
        "ext_s": ext_s,
        "db_us_per_argument": db_s / max(1, sum(r["arguments"] for r in rows)) * 1e6,
        "ext_us_per_argument": ext_s / max(1, sum(r["arguments"] for r in rows)) * 1e6,
        "ratio": db_s / ext_s if ext_s else None,
        "ratio_pairs": pairs,
        "hits_per_unit": statistics.mean(hits) if hits else None,
        "ok": all(r["ok"] for r in rows),
    }
