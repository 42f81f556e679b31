"""``belief-graph doctor``: is this store really semantic?

Checks, in order (later checks are skipped, and say so, when the database cannot be reached):

1. ``connectivity`` — the server answers and authenticates; product, version, edition.
2. ``schema`` — every migration applied, every expected constraint and index present and ONLINE.
3. ``vector_index`` — ``claim_embedding`` exists, is ONLINE, cosine, with the settings' dimension.
4. ``embeddings`` — every claim with text has an embedding of the right dimension (counts).
5. ``index_coverage`` — sampled embedded claims are found through the vector index by their own
   vector (counts): a vector that was stored but never indexed is a silent "semantic" failure.
6. ``paraphrase_probe`` — in a scratch space (removed afterwards) a paraphrased question retrieves
   the right sentence through the index, with the configured embedder.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..driver import Graph
from ..embeddings import Embedder
from ..errors import BeliefGraphError
from ..models import ClaimInput, new_id
from ..repositories import AdminRepository
from ..schema import verify_schema
from .beliefs import BeliefService

__all__ = ["Check", "DoctorReport", "run_doctor", "PROBE_SENTENCES", "PROBE_QUERY"]

PROBE_SENTENCES = [
    "The user is cautious with money and dislikes individual stocks",
    "The user's favourite programming language is Rust",
    "The team meeting moved to Thursday afternoons",
    "The user lives in Lisbon and works remotely",
]
PROBE_QUERY = "what is her appetite for investment risk?"
PROBE_EXPECTED = 0


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
    graph: Graph, embedder: Embedder, *, dimension: int, sample: int = 200, wait_seconds: float = 30.0
) -> DoctorReport:
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
        for name in ("schema", "vector_index", "embeddings", "index_coverage", "paraphrase_probe"):
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
        Check("schema", rep.ok, "all migrations applied, all constraints/indexes ONLINE" if rep.ok else "; ".join(problems), rep.to_dict())
    )

    vec = next((o for o in rep.objects if o["name"] == "claim_embedding"), None)
    vec_ok = vec is not None and vec["type"] == "VECTOR" and vec["state"] == "ONLINE" and not any(
        p.startswith("claim_embedding") for p in rep.problems
    )
    checks.append(
        Check(
            "vector_index",
            vec_ok,
            f"claim_embedding {vec['state']}, cosine, dimension {dimension}" if vec_ok and vec else
            ("claim_embedding vector index is missing (run `belief-graph db init`)" if vec is None else
             f"claim_embedding is not usable: {vec['state']}; {[p for p in rep.problems if p.startswith('claim_embedding')]}"),
            vec or {},
        )
    )

    cov = admin.embedding_coverage(None, dimension)
    emb_ok = cov["missing"] == 0 and cov["wrong_dimension"] == 0
    checks.append(
        Check(
            "embeddings",
            emb_ok,
            f"{cov['embedded']}/{cov['claims']} claims embedded"
            + ("" if emb_ok else f"; {cov['missing']} never embedded, {cov['wrong_dimension']} with a dimension other than {dimension}"),
            cov,
        )
    )

    if not vec_ok:
        checks.append(Check("index_coverage", False, "no usable claim_embedding index: nothing is found through it"))
        checks.append(Check("paraphrase_probe", False, "no usable claim_embedding index"))
        return DoctorReport(checks)

    sampled = admin.sample_embedded(None, sample, dimension)
    if sampled:
        res = admin.index_self_probe(sampled, k=10)
        found = sum(1 for r in res if r["found"])
        checks.append(
            Check(
                "index_coverage",
                found == len(sampled),
                f"{found}/{len(sampled)} sampled embedded claims found through the vector index",
                {"sampled": len(sampled), "found": found},
            )
        )
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
            hits = svc.recall(PROBE_QUERY, k=3)
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
                {"embedder": embedder.name, "hits": [(h.claim.text, round(h.score, 4)) for h in hits],
                 "seconds": round(time.perf_counter() - t0, 3)},
            )
        )
    except BeliefGraphError as exc:
        checks.append(Check("paraphrase_probe", False, f"probe failed: {exc}"))
    finally:
        AdminRepository(graph, scratch).delete_space(scratch)
    return DoctorReport(checks)
