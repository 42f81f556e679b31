"""Hybrid retrieval over active beliefs (docs/retrieval.md).

:meth:`RetrievalService.recall` runs two searches in Neo4j — the ``claim_embedding`` vector index
(``db.index.vector.queryNodes``) and the ``claim_text`` fulltext index
(``db.index.fulltext.queryNodes``, on an escaped Lucene query) — filters both in Cypher to the
space, the status (active now, or active at time ``as_of`` from the immutable revisions), the
perspective and the keys, and fuses the two (by default: a semantic score + beta x Lucene score;
reciprocal rank fusion on request). The ranking steps of ``settings.retrieval`` (module
``recall_steps``: subject rewrite of the question, optional LLM hypothesis, key-aware fusion,
optional LLM re-rank) then re-order those filtered candidates. The indexes are
shared by every space and status, so the search over-fetches: the fetch size grows (x4) until
``k`` vector hits pass the filters, the index is exhausted, or every candidate of the space has
been found. A small space beside a large one would lose its hits in the global top-``fetch`` (an
approximate index, searched for the whole store): when the filters leave at most
:data:`EXACT_SCAN_MAX` claims (counted up to that, never further), the vector half is an exact
cosine scan of the space instead, which is both exact and cheap at that size
(``belief-graph bench tenancy`` measures both paths side by side; docs/retrieval.md). Each hit carries its score parts, its provenance and its support certificate.
Without ``as_of``/``include_inactive`` every hit is a claim that was active when its details were
read: the status that passes the filter is the status returned (one statement), so concurrent
writers never make recall return a superseded or withdrawn claim (a claim that changed after the
candidate search is dropped and the next candidate takes its place).

:meth:`RetrievalService.lookup` is the exact-key / key-prefix look-up (no embedding).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..db.driver import Graph
from ..embeddings import Embedder
from ..errors import ConfigurationError, EmbeddingDimensionError, ValidationError
from ..limits import MAX_QUERY_TEXT, check_limit, check_text
from ..models import KEY_RE
from ..models.retrieval import RecallStats, RetrievalHit
from ..repositories import AgentRepository
from ..repositories.retrieval import Filters, HitDetail, RetrievalRepository
from ..settings import RetrievalSettings
from .recall_steps import KeyVectors, key_phrase, llm_hypothesis, llm_rerank, mean_direction, rewrite_query

__all__ = ["EXACT_SCAN_MAX", "FULLTEXT_BETA", "FUSIONS", "RRF_K", "RetrievalService", "escape_lucene", "fulltext_query"]

RRF_K = 60
"""``fusion="rrf"``: ``fused = 1 / (RRF_K + vector_rank) + RRF_FULLTEXT_WEIGHT / (RRF_K + fulltext_rank)``."""
RRF_FULLTEXT_WEIGHT = 0.5
FULLTEXT_BETA = 0.02
"""The fulltext weight before the ranking steps (``settings.retrieval.fulltext_beta`` is the one in
use, default 0: on the inference suite every weight above 0 lowered recall@1, docs/retrieval.md).
``fusion="score"``: ``fused = semantic score + beta * Lucene score``. The
Lucene (BM25) score weighs rare words (names, codes) far above common ones, so a strong exact
match lifts a claim while a shared common word barely moves the semantic order. Measured on the
paraphrase suite (tests/data/paraphrase_suite.json, 45 questions, MiniLM): recall@1 0.956 with
beta 0.005-0.02 (= vector only), 0.933 at 0.03; reciprocal rank fusion gave 0.800 (fulltext weight
1 or 0.5), 0.822 (0.25), 0.844 (0.1) — any fulltext rank swaps ranks 1 and 2 of the vector list
(docs/retrieval.md)."""
FUSIONS = ("score", "rrf")
MIN_FETCH = 50
MAX_FETCH = 262_144
EXACT_SCAN_MAX = 2_000
"""Up to this many candidate claims (after the filters) the vector half scans the space exactly."""

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_STOP = frozenset(
    """a about above after again against all am an and any are as at be because been before being below between both but by
    can could did do does doing down during each few for from further had has have having he her here hers herself him himself
    his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them themselves then there these they this
    those through to too under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves tell know remember does did any much many""".split()
)


def escape_lucene(term: str) -> str:
    """Escape Lucene query syntax (``+ - && || ! ( ) { } [ ] ^ " ~ * ? : \\ /``) in one term."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def fulltext_query(text: str) -> str | None:
    """The Lucene query for a question: its content words (stop words dropped), escaped and
    lowercased (so ``AND``/``OR``/``NOT`` are words, not operators), OR-ed. ``None`` when no
    content word is left."""
    words = [w.lower() for w in re.findall(r"[^\W_]+(?:['’][^\W_]+)?", text)]
    terms: list[str] = []
    for w in words:
        w = w.replace("’", "'")
        base = w.split("'")[0]
        if base in _STOP or len(base) < 2 or base in terms:
            continue
        terms.append(escape_lucene(base))
    return " ".join(terms) if terms else None


def _at(as_of: datetime | None) -> str | None:
    if as_of is None:
        return None
    if not isinstance(as_of, datetime):
        raise ValidationError("as_of needs a datetime")
    if as_of.tzinfo is None:
        raise ValidationError("as_of needs a timezone-aware datetime (e.g. datetime.now(UTC))")
    return as_of.isoformat()


def _keys(keys: Sequence[str] | None) -> list[str] | None:
    if keys is None:
        return None
    if isinstance(keys, str):
        keys = [keys]
    out = list(keys)
    for k in out:
        if not isinstance(k, str) or not KEY_RE.match(k):
            raise ValidationError(f"malformed fact key {k!r}: dotted names like 'user.timezone'")
    return out


def _prefix(prefix: str | None) -> str | None:
    if prefix is None:
        return None
    if not isinstance(prefix, str) or not prefix or len(prefix) > 256:
        raise ValidationError("a key prefix is a non-empty string such as 'user.' or 'project.launch'")
    return prefix


def _filters(
    query: str,
    k: int,
    fusion: str,
    perspective: str | None,
    keys: Sequence[str] | None,
    key_prefix: str | None,
    include_interpretations: bool,
    include_inactive: bool,
    as_of: datetime | None,
) -> Filters:
    """Check recall's arguments; the filters every candidate statement applies in Cypher."""
    check_text(query, "query", MAX_QUERY_TEXT)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 1000:
        raise ValidationError("k must be between 1 and 1000")
    if fusion not in FUSIONS:
        raise ValidationError(f"fusion is one of {', '.join(FUSIONS)}, got {fusion!r}")
    if perspective is not None and (not isinstance(perspective, str) or not perspective.strip()):
        raise ValidationError("perspective must be a non-empty name")
    return {
        "perspective": perspective,
        "interpretations": bool(include_interpretations),
        "keys": _keys(keys),
        "prefix": _prefix(key_prefix),
        "include_inactive": bool(include_inactive),
        "at": _at(as_of),
    }


@dataclass
class _Candidates:
    """What the searches found (filtered in Cypher) and how the over-fetch loop ran."""

    fetch: int
    rounds: int = 0
    vector: list[dict[str, object]] = field(default_factory=list)
    fulltext: list[dict[str, object]] = field(default_factory=list)
    vector_fetched: int = 0
    fulltext_fetched: int = 0
    total: int | None = None
    """Claims that could pass the filters: counted only when the first round falls short of k."""
    stopped: str = "enough"


@dataclass
class _Fused:
    """The two searches fused: score parts per claim id and the first-stage order."""

    parts: dict[str, dict[str, float]]
    status_then: dict[str, str]
    facts: dict[str, tuple[Any, Any]]
    floor: float
    order: list[str]

    @classmethod
    def of(cls, found: _Candidates, fusion: str, beta: float) -> _Fused:
        """``score``: vector score + ``beta`` x Lucene score; ``rrf``: weighted reciprocal rank fusion."""
        parts: dict[str, dict[str, float]] = {}
        status_then: dict[str, str] = {}
        facts: dict[str, tuple[Any, Any]] = {}
        for half, rank_name, score_name in (
            (found.vector, "vector_rank", "vector_index"),
            (found.fulltext, "fulltext_rank", "fulltext"),
        ):
            for rank, h in enumerate(half, 1):
                cid = str(h["id"])
                parts.setdefault(cid, {})[rank_name] = rank
                parts[cid][score_name] = float(h["score"])  # type: ignore[arg-type]
                status_then[cid] = str(h["status_then"])
                facts[cid] = (h.get("key"), h.get("value"))
        # A claim found by fulltext only was not among the vector hits: its vector score is at most
        # the lowest vector hit's (the bound is used for ranking; the exact score is reported).
        floor = min((p["vector_index"] for p in parts.values() if "vector_index" in p), default=0.5)
        for p in parts.values():
            if fusion == "rrf":
                p["fused"] = 1.0 / (RRF_K + p["vector_rank"]) if "vector_rank" in p else 0.0
                if "fulltext_rank" in p:
                    p["fused"] += RRF_FULLTEXT_WEIGHT / (RRF_K + p["fulltext_rank"])
            else:
                p["fused"] = p.get("vector_index", floor) + beta * p.get("fulltext", 0.0)
        order = sorted(parts, key=lambda c: (-parts[c]["fused"], -parts[c].get("vector_index", 0.0), c))
        return cls(parts, status_then, facts, floor, order)


class RetrievalService:
    """Hybrid recall and key look-ups for one memory space."""

    def __init__(
        self,
        graph: Graph,
        space: str,
        embedder: Embedder,
        dimension: int,
        settings: RetrievalSettings | None = None,
        llm: Callable[[], Any] | None = None,
        exact_scan_max: int = EXACT_SCAN_MAX,
    ) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self.exact_scan_max = exact_scan_max
        """0 turns the exact scan off (the bench measures the index path alone with it)."""
        self.settings = settings if settings is not None else RetrievalSettings()
        self.llm = llm
        """Returns the LLM job runner; needed only by the optional ``llm_hypothesis`` and ``llm_rerank`` steps."""
        self.repo = RetrievalRepository(graph, space)
        self.key_vectors = KeyVectors(embedder, dimension)
        self.last_stats: RecallStats | None = None

    # -- recall ------------------------------------------------------------------------------------
    def recall(
        self,
        query: str,
        k: int = 5,
        perspective: str | None = None,
        keys: Sequence[str] | None = None,
        as_of: datetime | None = None,
        include_inactive: bool = False,
        *,
        key_prefix: str | None = None,
        include_interpretations: bool = False,
        fulltext: bool = True,
        embedding: Sequence[float] | None = None,
        fusion: str = "score",
        steps: RetrievalSettings | None = None,
    ) -> list[RetrievalHit]:
        """The ``k`` best claims for ``query`` (see the module docstring).

        Args:
            perspective: only the active interpretations (``:Claim:Interpretation``) of that
                perspective. Without it, interpretations are left out unless
                ``include_interpretations``.
            keys / key_prefix: only claims of these fact keys / of keys starting with the prefix.
            as_of: what memory believed at that time (timezone-aware): claims whose latest revision
                at that time is ``active`` (their status now is in ``claim.status``).
            include_inactive: also superseded, disputed, withdrawn and retracted claims (with
                ``as_of``: every claim that existed then), each with its status.
            fulltext: ``False`` = vector half only (for comparisons).
            fusion: ``score`` (vector score + beta x Lucene score, the default) or ``rrf``
                (weighted reciprocal rank fusion); see :data:`FULLTEXT_BETA`.
            embedding: the query's vector when the caller has it already (no query rewrite and
                no LLM hypothesis then).
            steps: the ranking steps for this call (default: the service's settings, i.e.
                ``settings.retrieval``): subject rewrite, key-aware fusion, fulltext weight,
                optional LLM hypothesis and re-rank (module ``recall_steps``). They only change
                the query vector or re-order candidates: the filters decide what can come back.

        Raises:
            ValidationError: blank query or longer than ``limits.MAX_QUERY_TEXT``, ``k`` outside 1..1000, malformed keys, naive ``as_of``.
        """
        filters = _filters(
            query, k, fusion, perspective, keys, key_prefix, include_interpretations, include_inactive, as_of
        )
        st = steps if steps is not None else self.settings
        applied: list[str] = []
        embedded_before = self.key_vectors.embedded
        vector, llm_calls = self._query_vector(query, embedding, st, applied)
        found = self._search(vector, fulltext_query(query) if fulltext else None, k, filters)
        fused = _Fused.of(found, fusion, st.fulltext_beta)
        order = fused.order
        if fusion == "score" and st.key_weight > 0:
            order = self._key_fusion(order, fused.parts, fused.facts, vector, fused.floor, st)
            applied.append("key_fusion")
        # The candidates were filtered by status in earlier statements; a writer may have superseded
        # or withdrawn some since. The details statement reads each status once and drops those no
        # longer active (with spares beyond k to fill in), so a hit is never an inactive claim.
        active_only = not include_inactive and as_of is None
        spare = 2 * k if active_only else k
        if st.llm_rerank:
            order, details, reranked = self._llm_rerank(query, order, fused.parts, vector, active_only, spare, st)
            if reranked:
                llm_calls += 1
                applied.append("llm_rerank")
        else:
            order = order[:spare]
            details = self.repo.hit_details(order, vector, active_only)
        self.last_stats = RecallStats(
            rounds=found.rounds,
            fetch=found.fetch,
            vector_fetched=found.vector_fetched,
            fulltext_fetched=found.fulltext_fetched,
            candidates=found.total,
            stopped=found.stopped,  # type: ignore[arg-type]
            steps=applied,
            key_phrases_embedded=self.key_vectors.embedded - embedded_before,
            llm_calls=llm_calls,
        )
        return self._hits(order, details, fused, k, then=as_of is not None)

    # -- the steps of recall, in the order they run --------------------------------------------
    def _query_vector(
        self, query: str, embedding: Sequence[float] | None, st: RetrievalSettings, applied: list[str]
    ) -> tuple[list[float], int]:
        """The vector the searches use, and the LLM calls made for it: the caller's ``embedding``, or
        the question (without its subject words with ``subject_rewrite``), moved towards an LLM
        hypothesis with ``llm_hypothesis``. The steps taken are appended to ``applied``."""
        if embedding is not None:
            vector = list(embedding)
        elif st.subject_rewrite and rewrite_query(query) != query:
            vector = self._embed(rewrite_query(query))
            applied.append("subject_rewrite")
        else:
            vector = self._embed(query)
        if len(vector) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(vector), where="recall query vector")
        if not (st.llm_hypothesis and embedding is None):
            return vector, 0
        hypothesis = llm_hypothesis(self._llm_run(), query)
        if hypothesis:
            vector = mean_direction(vector, self._embed(hypothesis))
            applied.append("llm_hypothesis")
        return vector, 1

    def _search(self, vector: Sequence[float], ft: str | None, k: int, filters: Filters) -> _Candidates:
        """The filtered candidates of both searches: an exact scan of a small space, else the index
        searches with a fetch that grows (x4) until ``k`` vector hits pass the filters."""
        found = _Candidates(fetch=max(MIN_FETCH, 4 * k))
        capped = self.exact_scan_max
        if capped > 0 and self.repo.count_candidates_capped(filters, capped) <= capped:
            found.rounds, found.stopped = 1, "exact_scan"  # the global index top-k could miss the space
            found.vector_fetched, found.vector = self.repo.exact_candidates(vector, found.fetch, filters)
            if ft is not None:
                found.fulltext_fetched, found.fulltext = self.repo.fulltext_candidates(ft, found.fetch, filters)
            return found
        while True:
            found.rounds += 1
            found.vector_fetched, found.vector = self.repo.vector_candidates(vector, found.fetch, filters)
            if ft is not None:
                found.fulltext_fetched, found.fulltext = self.repo.fulltext_candidates(ft, found.fetch, filters)
            if len(found.vector) >= k:
                found.stopped = "enough"
                return found
            if found.total is None:
                found.total = self.repo.count_candidates(filters)
            if len(found.vector) >= found.total:
                found.stopped = "all_candidates"
                return found
            if found.vector_fetched < found.fetch:
                found.stopped = "exhausted"
                return found
            if found.fetch >= MAX_FETCH:
                found.stopped = "cap"
                return found
            found.fetch = min(found.fetch * 4, MAX_FETCH)

    def _llm_rerank(
        self,
        query: str,
        order: list[str],
        parts: dict[str, dict[str, float]],
        vector: Sequence[float],
        active_only: bool,
        spare: int,
        st: RetrievalSettings,
    ) -> tuple[list[str], dict[str, HitDetail], bool]:
        """The LLM orders the best ``st.llm_rerank_top`` candidates (their ``llm_rank``); returns the
        new order cut to ``spare``, the details read for it, and whether the model was asked."""
        top = order[: max(spare, st.llm_rerank_top)]
        details = self.repo.hit_details(top, vector, active_only)
        cands = [
            {
                "id": cid,
                "text": details[cid].claim.text,
                "key": details[cid].claim.key,
                "value": details[cid].claim.value,
            }
            for cid in top[: st.llm_rerank_top]
            if cid in details
        ]
        if not cands:
            return order[:spare], details, False
        ranked = llm_rerank(self._llm_run(), query, cands)
        for pos, cid in enumerate(ranked, 1):
            parts[cid]["llm_rank"] = pos
        order = ranked + [c for c in order if c not in set(ranked)]
        return order[:spare], details, True

    def _hits(
        self, order: list[str], details: dict[str, HitDetail], fused: _Fused, k: int, *, then: bool
    ) -> list[RetrievalHit]:
        """The first ``k`` candidates in ``order`` that are still there, with their score parts."""
        hits: list[RetrievalHit] = []
        for cid in order:
            if len(hits) == k:
                break
            d = details.get(cid)
            if d is None:  # deleted, or no longer active, since the candidate search
                continue
            parts = fused.parts[cid]
            scores = dict(parts)
            if d.similarity is not None:
                scores["vector"] = d.similarity
            hits.append(self._hit(d, parts["fused"], scores, fused.status_then.get(cid) if then else None))
        return hits

    @staticmethod
    def _hit(
        d: HitDetail, score: float, scores: dict[str, float], then: str | None, match: str = "search"
    ) -> RetrievalHit:
        return RetrievalHit(
            claim=d.claim,
            score=score,
            scores=scores,
            similarity=d.similarity,
            vector_rank=int(scores["vector_rank"]) if "vector_rank" in scores else None,
            fulltext_rank=int(scores["fulltext_rank"]) if "fulltext_rank" in scores else None,
            provenance=d.provenance,
            certificate=d.certificate,
            families=d.families,
            status_then=then,
            match=match,  # type: ignore[arg-type]
        )

    def _key_fusion(
        self,
        order: list[str],
        fused: dict[str, dict[str, float]],
        facts: dict[str, tuple[Any, Any]],
        vector: Sequence[float],
        floor: float,
        st: RetrievalSettings,
    ) -> list[str]:
        """Re-score the best ``st.rerank_depth`` candidates: semantic part ``(1 - w) * text score + w *
        key score`` (a claim without a key keeps its text score), plus the same fulltext part. The
        other candidates follow in their first-stage order."""
        head, tail = order[: st.rerank_depth], order[st.rerank_depth :]
        phrases = {}
        for cid in head:
            key, value = facts.get(cid, (None, None))
            if key:
                phrases[cid] = key_phrase(str(key), value if st.key_text == "key_value" else None)
        scores = self.key_vectors.scores(vector, phrases)
        w = st.key_weight
        for cid in head:
            parts = fused[cid]
            text = parts.get("vector_index", floor)
            if cid in scores:
                parts["key"] = scores[cid]
                text = (1 - w) * text + w * scores[cid]
            parts["fused"] = text + st.fulltext_beta * parts.get("fulltext", 0.0)
        head.sort(key=lambda c: (-fused[c]["fused"], -fused[c].get("vector_index", 0.0), c))
        return head + tail

    def _llm_run(self) -> Callable[[str, dict[str, Any]], Any]:
        if self.llm is None:
            raise ConfigurationError(
                "the llm_hypothesis and llm_rerank steps need an LLM job runner (BeliefGraph provides one)"
            )
        return self.llm().run  # type: ignore[no-any-return]

    # -- look-ups ----------------------------------------------------------------------------------
    def lookup(
        self,
        keys: Sequence[str] | str | None = None,
        prefix: str | None = None,
        as_of: datetime | None = None,
        include_inactive: bool = False,
        limit: int = 100,
    ) -> list[RetrievalHit]:
        """Exact-key (``keys``) or key-prefix (``prefix``) look-up, ordered by key: the active
        belief of each matching fact (at ``as_of`` when given), or every version with
        ``include_inactive``. No embedding, no ranking: ``score`` is 1.0."""
        key_list = _keys(keys if not isinstance(keys, str) else [keys])
        pre = _prefix(prefix)
        if key_list is None and pre is None:
            raise ValidationError("lookup needs keys or a key prefix")
        check_limit(limit, 10_000)
        rows = self.repo.lookup(key_list, pre, bool(include_inactive), _at(as_of), limit)
        details = self.repo.hit_details([r["id"] for r in rows], None, not include_inactive and as_of is None)
        match = "key" if key_list is not None else "prefix"
        return [
            self._hit(details[r["id"]], 1.0, {}, r["status_then"] if as_of is not None else None, match)
            for r in rows
            if r["id"] in details
        ]

    # -- helpers -----------------------------------------------------------------------------------
    def user_names(self) -> list[str]:
        """The names of the space's users, from their agent ids (``user:amara`` -> ``amara``, and
        ``user:maya_lopez`` -> ``maya lopez``, ``maya``, ``lopez``): how questions name them."""
        names: list[str] = []
        for a in AgentRepository(self.graph, self.space).all():
            if not a.id.lower().startswith("user:"):
                continue
            parts = [w for w in re.split(r"[^A-Za-z]+", a.id[5:]) if len(w) >= 2]
            if parts:
                names += [" ".join(parts), *parts]
        return list(dict.fromkeys(names))

    def _embed(self, text: str) -> list[float]:
        vec = self.embedder.embed_query(text)
        if len(vec) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(vec), where=f"embedding from {self.embedder.name}")
        return list(vec)
