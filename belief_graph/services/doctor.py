"""``belief-graph doctor``: is this store really semantic?

Checks, in order (later checks are skipped, and say so, when the database cannot be reached):

1. ``connectivity`` — the server answers and authenticates; product, version, edition.
2. ``schema`` — every migration applied, every expected constraint and index present and ONLINE.
3. ``vector_index`` — ``claim_embedding`` exists, is ONLINE, and its ``vector.dimensions`` and
   ``vector.similarity_function`` (read from SHOW INDEXES options) equal the settings' dimension
   and ``cosine``; its HNSW settings (``vector.quantization.enabled``, ``vector.hnsw.m``,
   ``vector.hnsw.ef_construction``) equal what the migrations set (``schema.expected_vector_config``,
   parsed from ``schemas/``: an index re-created by hand with Neo4j's defaults loses recall).
4. ``fulltext_index`` — ``claim_text`` (the fulltext half of hybrid recall) exists and is ONLINE.
5. ``embeddings`` — every claim with text has an embedding of the right dimension (counts).
6. ``vector_population`` — the index is populated (``populationPercent`` = 100) and holds exactly
   the embedded claims: Neo4j Community's SHOW INDEXES reports no entry count, so the count is
   measured by asking the index for ``embedded + 16`` neighbours of one vector (it returns every
   entry it has when asked for more than it holds) and comparing with the number of claims with
   an embedding of the right dimension. Above ``COUNT_CAP`` embedded claims that query would be
   too heavy for a health check: the detail then says the count was not checked and the check
   relies on ``populationPercent`` and ``index_coverage``.
7. ``index_coverage`` — sampled embedded claims are found through the vector index by their own
   vector (counts): a vector that was stored but never indexed is a silent "semantic" failure.
   The index is HNSW, approximate: an indexed claim can be missing from the top k of its own
   vector. On healthy stores holding ``bench recall-quality``'s suites embedded with MiniLM, 1 to 5
   of 340-650 claims were not returned at k = 10 (ten other claims were, the lowest at about 0.6);
   they were returned at k = 15 to 160 (docs/retrieval.md, "doctor"). In Neo4j 5.26 a query's k
   is also the breadth of its search (``db.index.vector.queryNodes`` has no separate ``ef``), so a
   claim not returned while the index returned all k neighbours is asked again with ``4k``, up to
   ``K_CAP``. The same text stored in many spaces gives exact twins of one vector, which fill the
   k places at score 1.0: re-probed the same way, and a claim still tied at ``K_CAP`` is counted as
   ``tied`` (reported, not failed). A claim is missing, and the check fails, when the index answered
   exhaustively without it (it returned fewer than k entries: all it holds), when it is not among
   the ``K_CAP`` nearest neighbours of its own vector, or when its vector is zero or non-finite
   (Neo4j does not index such a vector and refuses it as a query, so it is not probed). The detail
   counts the claims found only at a larger k apart from the missing ones.
8. ``paraphrase_probe`` — in a scratch space (removed afterwards) a paraphrased question retrieves
   the right sentence through the index, with the configured embedder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..db.driver import Graph
from ..db.schema import expected_vector_config, vector_config_drift, verify_schema
from ..embeddings import Embedder
from ..errors import BeliefGraphError
from ..models import ClaimInput, new_id
from ..models.keys import DuplicateKeys
from ..repositories import AdminRepository
from ..repositories.retrieval import RetrievalRepository
from .beliefs import BeliefService
from .retrieval import RetrievalService

__all__ = ["Check", "DoctorReport", "run_doctor", "PROBE_SENTENCES", "PROBE_QUERY"]

PROBE_SENTENCES = [
    "The user is cautious with money and dislikes individual stocks",
    "The user's favourite programming language is Rust",
    "The team meeting moved to Thursday afternoons",
    "The user lives in Lisbon and works remotely",
]
PROBE_QUERY = "what is her appetite for investment risk?"
PROBE_EXPECTED = 0
COUNT_CAP = 200_000
PROBE_K = 10
K_CAP = 4096
"""index_coverage: the largest k a probe is repeated with (past an approximate miss or exact twins)."""
_TIE_SCORE = 1.0 - 1e-6
_LIST_MAX = 5


@dataclass
class Check:
    name: str
    ok: bool | None  # None = skipped
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "data": self.data}


@dataclass
class DoctorReport:
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.ok is True for c in self.checks)

    @property
    def failed(self) -> list[Check]:
        return [c for c in self.checks if c.ok is not True]

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [c.to_dict() for c in self.checks]}


def run_doctor(
    graph: Graph,
    embedder: Embedder,
    *,
    dimension: int,
    sample: int = 200,
    wait_seconds: float = 30.0,
    duplicates: tuple[str, Callable[[], list[DuplicateKeys]]] | None = None,
) -> DoctorReport:
    """The store's health; ``duplicates`` (a space and ``bg.keys.duplicates``): also list likely
    duplicate keys of that space (a warning: they never make the doctor fail)."""
    checks: list[Check] = []
    admin = AdminRepository(graph, "__doctor__")

    try:
        info = graph.verify()
        comp = admin.components()
        c0 = comp[0] if comp else {}
        checks.append(
            Check(
                "connectivity",
                True,
                f"{graph.settings.uri}: {c0.get('name', '?')} {c0.get('version', '?')} {c0.get('edition', '?')}",
                {**info, **c0},
            )
        )
    except BeliefGraphError as exc:
        checks.append(Check("connectivity", False, str(exc)))
        for name in (
            "schema",
            "vector_index",
            "fulltext_index",
            "embeddings",
            "vector_population",
            "index_coverage",
            "paraphrase_probe",
        ):
            checks.append(Check(name, None, "skipped: no database connection"))
        return DoctorReport(checks)

    rep = verify_schema(graph, dimension=dimension, wait_seconds=wait_seconds)
    problems = (
        [f"pending migrations {rep.pending}"] * bool(rep.pending)
        + [f"missing: {', '.join(rep.missing)}"] * bool(rep.missing)
        + [f"not ONLINE: {', '.join(rep.not_online)}"] * bool(rep.not_online)
        + rep.problems
    )
    checks.append(
        Check(
            "schema",
            rep.ok,
            "all migrations applied, all constraints/indexes ONLINE" if rep.ok else "; ".join(problems),
            rep.to_dict(),
        )
    )

    rrepo = RetrievalRepository(graph, "__doctor__")
    vec = rrepo.index_info("claim_embedding")
    cfg = ((vec or {}).get("options") or {}).get("indexConfig") or {}
    vdim = cfg.get("vector.dimensions")
    vsim = str(cfg.get("vector.similarity_function", "")).lower()
    want = expected_vector_config("claim_embedding")
    hnsw = {k: cfg.get(k) for k in want if k not in ("vector.dimensions", "vector.similarity_function")}
    vdata = {
        "state": (vec or {}).get("state"),
        "type": (vec or {}).get("type"),
        "dimension": vdim,
        "similarity": vsim or None,
        "population": (vec or {}).get("population"),
        "settings_dimension": dimension,
        "config": hnsw,
        "expected_config": want,
    }
    vec_problems = []
    if vec is None:
        vec_problems.append(
            "claim_embedding vector index is missing (`belief-graph db init` if migrations are pending; otherwise re-create it with its newest CREATE in schemas/, see docs/retrieval.md)"
        )
    else:
        if vec["type"] != "VECTOR":
            vec_problems.append(f"claim_embedding is a {vec['type']} index, not VECTOR")
        if vec["state"] != "ONLINE":
            vec_problems.append(f"claim_embedding is {vec['state']}, not ONLINE")
        if vdim is None or int(vdim) != dimension:
            vec_problems.append(f"dimension {vdim}, settings say {dimension}")
        if vsim != "cosine":
            vec_problems.append(f"similarity {vsim or '?'}, expected cosine")
    # an index with other HNSW settings still answers (the checks below run), it just loses recall
    vec_usable = not vec_problems
    if vec is not None:
        vec_problems.extend(vector_config_drift("claim_embedding", cfg, want))
    vec_ok = not vec_problems
    checks.append(
        Check(
            "vector_index",
            vec_ok,
            f"claim_embedding ONLINE, {vsim}, dimension {vdim} (settings: {dimension}), "
            + ", ".join(f"{k.removeprefix('vector.')} {str(v).lower()}" for k, v in hnsw.items())
            if vec_ok
            else "; ".join(vec_problems),
            vdata,
        )
    )
    ft = rrepo.index_info("claim_text")
    ft_ok = ft is not None and ft["type"] == "FULLTEXT" and ft["state"] == "ONLINE"
    checks.append(
        Check(
            "fulltext_index",
            ft_ok,
            "claim_text ONLINE"
            if ft_ok
            else (
                "claim_text fulltext index is missing (`belief-graph db init` if migrations are pending; otherwise re-create it with its CREATE in schemas/)"
                if ft is None
                else f"claim_text is {ft['type']} {ft['state']}"
            ),
            {"state": (ft or {}).get("state"), "type": (ft or {}).get("type")},
        )
    )

    cov = admin.embedding_coverage(None, dimension)
    emb_ok = cov["missing"] == 0 and cov["wrong_dimension"] == 0
    checks.append(
        Check(
            "embeddings",
            emb_ok,
            f"{cov['embedded']}/{cov['claims']} claims embedded"
            + (
                ""
                if emb_ok
                else f"; {cov['missing']} never embedded, {cov['wrong_dimension']} with a dimension other than {dimension}"
            ),
            cov,
        )
    )

    embedded = int(cov["embedded"]) - int(cov["wrong_dimension"])
    if not vec_usable:
        checks.append(
            Check(
                "vector_population",
                False,
                "no usable claim_embedding index: it holds no entries",
                {"embedded": embedded, "indexed": None},
            )
        )
        checks.append(Check("index_coverage", False, "no usable claim_embedding index: nothing is found through it"))
        checks.append(Check("paraphrase_probe", False, "no usable claim_embedding index"))
        return DoctorReport(checks)

    population = float((vec or {}).get("population") or 0.0)
    if embedded == 0:
        checks.append(
            Check(
                "vector_population",
                population >= 100.0,
                f"no embedded claims yet; index population {population:g}%",
                {"embedded": 0, "indexed": 0, "population": population},
            )
        )
    elif embedded > COUNT_CAP:
        checks.append(
            Check(
                "vector_population",
                population >= 100.0,
                f"index population {population:g}%; {embedded} embedded claims is above the count cap "
                f"({COUNT_CAP}): entry count not checked (see index_coverage)",
                {"embedded": embedded, "indexed": None, "population": population},
            )
        )
    else:
        probe_vec = [1.0 / dimension**0.5] * dimension
        indexed = rrepo.index_entry_count(embedded + 16, probe_vec)
        pop_ok = population >= 100.0 and indexed == embedded
        checks.append(
            Check(
                "vector_population",
                pop_ok,
                f"index population {population:g}%, {indexed} entries for {embedded} embedded claims"
                + ("" if pop_ok else " (they must be equal: run `belief-graph db verify`, or re-embed)"),
                {"embedded": embedded, "indexed": indexed, "population": population},
            )
        )

    sampled = admin.sample_embedded(None, sample, dimension)
    if sampled:
        try:
            cover = _self_probe(admin, sampled)
            checks.append(Check("index_coverage", cover.ok, cover.detail(), cover.to_dict()))
        except BeliefGraphError as exc:
            checks.append(Check("index_coverage", False, f"the vector index refused the probe: {exc}"))
    else:
        checks.append(Check("index_coverage", True, "no embedded claims stored yet", {"sampled": 0, "found": 0}))

    scratch = f"__doctor__{new_id()}"
    t0 = time.perf_counter()
    try:
        svc = BeliefService(graph, scratch, embedder, dimension)
        ids = []
        for s in PROBE_SENTENCES:
            r = svc.assert_claim(ClaimInput(text=s, agent="doctor", agent_kind="system"))
            ids.append(r.claim.id)
        # The index is eventually consistent: give it a moment to see the new vectors.
        hits = []
        for _ in range(20):
            hits = RetrievalService(graph, scratch, embedder, dimension).recall(PROBE_QUERY, k=3)  # hybrid path
            if len(hits) >= min(3, len(ids)):
                break
            time.sleep(0.25)
        top = hits[0].claim.text if hits else None
        ok = bool(hits) and hits[0].claim.id == ids[PROBE_EXPECTED]
        checks.append(
            Check(
                "paraphrase_probe",
                ok,
                f"{PROBE_QUERY!r} -> {top!r}" + ("" if ok else f" (expected {PROBE_SENTENCES[PROBE_EXPECTED]!r})"),
                {
                    "embedder": embedder.name,
                    "hits": [(h.claim.text, round(h.similarity or 0.0, 4)) for h in hits],
                    "seconds": round(time.perf_counter() - t0, 3),
                },
            )
        )
    except BeliefGraphError as exc:
        checks.append(Check("paraphrase_probe", False, f"probe failed: {exc}"))
    finally:
        AdminRepository(graph, scratch).delete_space(scratch)
    if duplicates is not None:
        checks.append(_duplicates_check(*duplicates))
    return DoctorReport(checks)


def _duplicates_check(space: str, find: Callable[[], list[DuplicateKeys]]) -> Check:
    try:
        found = find()
    except BeliefGraphError as exc:
        return Check("duplicate_keys", None, f"skipped: {exc}")
    if not found:
        return Check("duplicate_keys", True, f"space {space!r}: no likely duplicate keys")
    shown = "; ".join(f"{d.keys[0]} ~ {d.keys[1]} ({d.relation.replace('_', ' ')})" for d in found[:_LIST_MAX])
    more = f" and {len(found) - _LIST_MAX} more" if len(found) > _LIST_MAX else ""
    return Check(
        "duplicate_keys",
        True,
        f"space {space!r}: {len(found)} likely duplicate key pair(s): {shown}{more} "
        "(a warning: `belief-graph db check` lists them with the merge-keys command)",
        {"space": space, "pairs": [d.model_dump(mode="json") for d in found]},
    )


@dataclass
class _Coverage:
    """What :func:`_self_probe` found for the sampled claims."""

    sampled: int
    first_k: int = PROBE_K
    found: int = 0
    tied: int = 0
    reprobed_twins: int = 0
    found_at: dict[int, int] = field(default_factory=dict)
    """k -> how many claims were first found when asked for k neighbours (k > first_k; exact twins aside)."""
    absent: list[dict[str, Any]] = field(default_factory=list)
    """Not returned though the index answered exhaustively (it returned fewer than k entries)."""
    unreached: list[dict[str, Any]] = field(default_factory=list)
    """Not among the ``K_CAP`` nearest neighbours of their own vector (the index returned all K)."""
    unindexable: list[dict[str, Any]] = field(default_factory=list)
    """A zero or non-finite vector: Neo4j does not index it (and refuses it as a query)."""

    @property
    def missing(self) -> int:
        return len(self.absent) + len(self.unreached) + len(self.unindexable)

    @property
    def ok(self) -> bool:
        return self.missing == 0

    def detail(self) -> str:
        later = sum(self.found_at.values())
        text = f"{self.found}/{self.sampled} sampled embedded claims found through the vector index"
        notes = []
        if later:
            ks = ", ".join(f"{n} at k={k}" for k, n in sorted(self.found_at.items()))
            notes.append(
                f"{later} only when asked for more than {self.first_k} neighbours ({ks}): "
                "the HNSW index is approximate, a larger k searches wider"
            )
        if self.reprobed_twins:
            notes.append(f"{self.reprobed_twins} re-probed past exact twins")
        if self.tied:
            notes.append(f"{self.tied} with more than {K_CAP} exact twins (not decidable)")
        if notes:
            text += " (" + "; ".join(notes) + ")"
        if self.absent:
            text += (
                f"; {len(self.absent)} NOT in the index (asked for more neighbours than it could return, "
                "it returned every entry it reaches without them: stored but never indexed)"
            )
        if self.unreached:
            text += (
                f"; {len(self.unreached)} NOT among the {K_CAP} nearest neighbours of their own vector "
                "(not indexed, or unreachable in the index's graph)"
            )
        if self.unindexable:
            text += f"; {len(self.unindexable)} with a zero or non-finite vector, which Neo4j does not index (re-embed them)"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "sampled": self.sampled,
            "found": self.found,
            "first_k": self.first_k,
            "found_at": {str(k): n for k, n in sorted(self.found_at.items())},
            "tied": self.tied,
            "reprobed": sum(self.found_at.values()) + self.reprobed_twins,
            "absent": self.absent[:_LIST_MAX],
            "unreached": self.unreached[:_LIST_MAX],
            "unindexable": self.unindexable[:_LIST_MAX],
            "missing": self.missing,
        }


def _self_probe(admin: AdminRepository, sampled: list[dict[str, Any]], k: int = PROBE_K) -> _Coverage:
    """Probe the index with each sampled claim's own vector (see check 7 in the module docstring).

    A claim not returned among ``k`` neighbours while the index returned ``k`` of them is asked
    again with ``4k`` (up to ``K_CAP``): the index is approximate, and a query's k is also the
    breadth of its search. It is missing only when the index answered exhaustively without it
    (fewer than k entries returned) or it is not among the ``K_CAP`` nearest neighbours.
    """
    cov = _Coverage(len(sampled), first_k=k)
    twins: set[tuple[str, str]] = set()
    todo = sampled
    while todo:
        by_id = {(p["space"], p["id"]): p for p in todo}
        again = []
        for r in admin.index_self_probe(todo, k=k):
            key = (r["space"], r["id"])
            seen = {"space": r["space"], "id": r["id"], "k": k, "returned": r["returned"], "lowest": r["lowest"]}
            if not r["indexable"]:
                cov.unindexable.append({"space": r["space"], "id": r["id"]})
            elif r["found"]:
                cov.found += 1
                if k > cov.first_k and key not in twins:
                    cov.found_at[k] = cov.found_at.get(k, 0) + 1
            elif r["returned"] < k:
                cov.absent.append(seen)
            elif k < K_CAP:
                if r["lowest"] is not None and r["lowest"] >= _TIE_SCORE:
                    twins.add(key)
                again.append(by_id[key])
            elif r["lowest"] is not None and r["lowest"] >= _TIE_SCORE:
                cov.tied += 1
            else:
                cov.unreached.append(seen)
        todo, k = again, min(k * 4, K_CAP)
    cov.reprobed_twins = len(twins)
    return cov
