"""``belief-graph bench perspectives``: the perspectives retrieval study.

For risk-, relationship- and finance-worded questions about the concession scenario
(``lab/belief_graph_lab/data/rashomon.yaml``, ``study``), the rank of the observation the question is
about when searching

* **raw**: the 8 raw episode texts (embedded with the same model, cosine ranking);
* **raw, same pool**: the raw texts of only the episodes that perspective interpreted (the same
  candidate set as the next column, so a smaller pool is not mistaken for better retrieval);
* **perspective**: that perspective's interpretations, through the Neo4j vector index
  (``PerspectiveService.search``, the query behind ``recall(perspective=...)``).

Embeddings: the real local all-MiniLM-L6-v2 (:class:`~belief_graph.embeddings.LocalMiniLMEmbedder`).
The interpretations come from the scenario's SCRIPTED (hand-written) encodings — the study
measures what encoding in a perspective's vocabulary does to retrieval, not a model's encodings.
Runs in a scratch space that is deleted afterwards.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from belief_graph.facade import BeliefGraph

from ..scenarios.rashomon import ScriptedRashomon, setup_scenario

__all__ = ["run_study"]


def _rank(order: list[str], target: str) -> int | None:
    return order.index(target) + 1 if target in order else None


def run_study(bg: BeliefGraph, script: ScriptedRashomon) -> dict[str, Any]:
    """Load the scenario into ``bg``'s (empty) space and measure; ``bg``'s chat model must be
    ``script.model()`` (the scripted encodings)."""
    scenario = script.scenario
    keys = setup_scenario(bg, scenario, script)
    key_of = {v: k for k, v in keys.items()}
    enc = bg.perspectives.encode()
    episodes = list(keys.values())
    texts = [next(o["text"].strip() for o in scenario.observations if o["key"] == key_of[e]) for e in episodes]
    doc = np.asarray(bg.embedder.embed_documents(texts), dtype=np.float64)
    doc /= np.linalg.norm(doc, axis=1, keepdims=True)
    rows: list[dict[str, Any]] = []
    for item in scenario.study:
        persp, question, relevant = item["perspective"], item["question"], keys[item["relevant"]]
        q = np.asarray(bg.embedder.embed_query(question), dtype=np.float64)
        q /= np.linalg.norm(q)
        sims = doc @ q
        raw_order = [episodes[i] for i in np.argsort(-sims, kind="stable")]
        pool = {h.episode for h in bg.perspectives.interpretations(persp, "active")}
        hits = bg.perspectives.search(question, persp, k=max(1, len(pool)))
        rows.append(
            {
                "perspective": persp,
                "question": question,
                "relevant": item["relevant"],
                "raw_rank": _rank(raw_order, relevant),
                "raw_pool": len(raw_order),
                "raw_same_pool_rank": _rank([e for e in raw_order if e in pool], relevant),
                "perspective_rank": _rank([h.episode or "" for h in hits], relevant),
                "perspective_pool": len(pool),
                "top_interpretation": hits[0].claim.text if hits else None,
            }
        )

    def summary(col: str) -> dict[str, Any]:
        ranks = [r[col] for r in rows]
        found = [x for x in ranks if x is not None]
        return {
            "hits_at_1": sum(1 for x in found if x == 1),
            "mrr": round(sum(1 / x for x in found) / len(rows), 3),
            "mean_rank": round(sum(found) / len(found), 2) if found else None,
            "not_found": len(ranks) - len(found),
        }

    return {
        "embedder": bg.embedder.name,
        "interpretations": "scripted (hand-written encodings in rashomon.yaml)",
        "questions": len(rows),
        "encodings_passed": enc.passed,
        "rows": rows,
        "summary": {c: summary(c) for c in ("raw_rank", "raw_same_pool_rank", "perspective_rank")},
    }
