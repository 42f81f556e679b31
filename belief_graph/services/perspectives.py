"""Perspectives ("Rashomon memory"): goal-parameterized encoding and retrieval by perspective.

A perspective is a strategic viewpoint with a goal and its own ontology: ``(:Perspective)`` with
``(:Concept)`` nodes (each with an embedding) — its own small knowledge graph. The same episode
is read independently by every perspective:

1. **pre-filter** (no LLM): the episode text is embedded and compared, in Cypher
   (``perspective.prefilter_scores``), with the perspective's concept embeddings and its goal;
   a pair below the perspective's ``relevance`` threshold (raw cosine) is never sent;
2. **LLM decision**: ONE ``encode`` call per perspective per batch (``LLMClient.max_batch``
   observations) with only the pre-filtered observations; the model says relevant or not and
   writes the interpretation in the perspective's vocabulary with its concept names (the job's
   check enforces observation ids and concept names, with repair turns; a perspective whose
   answer is still invalid is recorded as rejected in the result matrix, the others proceed);
3. **write**: every interpretation of one :meth:`PerspectiveService.encode` call is written in
   ONE transaction, after all LLM calls returned (no transaction is held open across LLM calls;
   an LLM outage leaves the graph unchanged; the returned matrix describes exactly what was
   stored). An interpretation is ``(:Claim:Interpretation {kind: 'interpretation', perspective,
   status, text, embedding, agent: 'perspective:<name>', ...})`` without a key, justified by its
   episode (a ``Justification`` with the ``Episode`` as premise — so ``retract([episode])``
   withdraws every perspective's interpretation of it and ``restore`` reinstates them) and linked
   ``INSTANCE_OF`` to its concepts. Its id is derived from (space, perspective, episode), so
   re-encoding never duplicates; a "not relevant" decision is recorded as
   ``(Perspective)-[:JUDGED_IRRELEVANT {at, llm_prompt, llm_model}]->(Episode)``. Pairs decided
   before (either way) are reported as ``cached`` and never sent again; pre-filter drops are
   recomputed (no LLM involved).

Retrieval by perspective (:meth:`PerspectiveService.search`) searches only that perspective's
active interpretations through the ``claim_embedding`` vector index.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError as PydanticValidationError

from ..db.driver import Graph, Tx
from ..embeddings import Embedder
from ..errors import (
    MAX_PROBLEM,
    ConstraintViolation,
    EmbeddingDimensionError,
    EncodingError,
    EpisodeNotFound,
    FormatError,
    NotFoundError,
    ValidationError,
    listed,
)
from ..llm import LLMClient
from ..llm.jobs import ConceptView, Observation, PerspectiveView
from ..models import utcnow
from ..models.perspectives import (
    EncodeCell,
    EncodeResult,
    InterpretationHit,
    Perspective,
    PerspectiveSpec,
)
from ..repositories.perspectives import PerspectiveRepository

__all__ = [
    "PerspectiveService",
    "example_perspectives_path",
    "interpretation_id",
    "make_spec",
    "parse_perspectives",
    "perspective_view",
    "read_perspectives",
]

_ID_NAMESPACE = uuid.UUID("6f1c1f5e-3a57-4d0e-9a43-7e2b1f0c9d11")
_MAX_FETCH = 10_000


def example_perspectives_path() -> Traversable:
    """The example perspective set shipped in the package (relationship, risk, finance)."""
    return files("belief_graph") / "data" / "perspectives.yaml"


def interpretation_id(space: str, perspective: str, episode: str) -> str:
    """The deterministic id of a perspective's interpretation of an episode (idempotent encode)."""
    return str(uuid.uuid5(_ID_NAMESPACE, f"{space}\x1f{perspective}\x1f{episode}"))


def _distinct(values: Sequence[str], what: str, empty: str) -> list[str]:
    """``values`` as a list; ValidationError when it is empty or names something twice."""
    given = list(values)
    if not given:
        raise ValidationError(empty)
    dup = sorted({v for v in given if given.count(v) > 1})
    if dup:
        raise ValidationError(f"{what} given twice: {dup}")
    return given


def perspective_view(p: Perspective) -> PerspectiveView:
    """How the LLM sees a perspective: id, name, goal and its concepts."""
    return PerspectiveView(
        id=p.id,
        name=p.name,
        goal=p.goal,
        concepts=[ConceptView(name=c.name, description=c.description) for c in p.concepts],
    )


def _spec_errors(exc: PydanticValidationError) -> str:
    return listed(
        [f"{'.'.join(str(x) for x in e['loc']) or '(root)'}: {e['msg']}" for e in exc.errors()],
        sep="; ",
        width=MAX_PROBLEM,
    )


def _ontology(ontology: Any) -> Any:
    """Accept ``[{name, description}]``, ``[ConceptSpec]``, ``["Name"]`` or ``{name: description}``."""
    if isinstance(ontology, Mapping):
        return [{"name": k, "description": v or ""} for k, v in ontology.items()]
    if isinstance(ontology, list | tuple):
        return [{"name": c} if isinstance(c, str) else c for c in ontology]
    return ontology


def make_spec(name: Any, goal: Any, ontology: Any, relevance: Any = None) -> PerspectiveSpec:
    """A validated :class:`PerspectiveSpec`; ``ValidationError`` naming what is wrong."""
    data: dict[str, Any] = {"name": name, "goal": goal, "ontology": _ontology(ontology)}
    if relevance is not None:
        data["relevance"] = relevance
    try:
        return PerspectiveSpec.model_validate(data)
    except PydanticValidationError as exc:
        raise ValidationError(f"invalid perspective {name!r}: {_spec_errors(exc)}") from exc


def _item_lines(text: str) -> list[int]:
    """1-based start line of each perspective entry of a YAML/JSON document (best effort)."""
    import yaml

    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return []
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if getattr(k, "value", None) == "perspectives":
                node = v
                break
    if isinstance(node, yaml.SequenceNode):
        return [n.start_mark.line + 1 for n in node.value]
    return []


def parse_perspectives(text: str, path: str = "<string>") -> list[PerspectiveSpec]:
    """Parse a perspective set: YAML or JSON, a list of perspectives or ``{perspectives: [...]}``,
    each ``{name, goal, ontology: [{name, description}] | {name: description}, relevance?}``.

    Raises:
        FormatError: malformed file, a perspective without goal or ontology, bad names, or a name
            given twice (path and line of the offending entry).
    """
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise FormatError(
            f"malformed YAML/JSON: {getattr(exc, 'problem', exc)}",
            path,
            mark.line + 1 if mark is not None else None,
            "a YAML or JSON document",
        ) from exc
    if isinstance(data, dict) and "perspectives" in data:
        data = data["perspectives"]
    if not isinstance(data, list) or not data:
        raise FormatError(
            "expected a non-empty list of perspectives (or {perspectives: [...]})",
            path,
            1,
            "perspectives: [{name, goal, ontology}]",
        )
    lines = _item_lines(text)
    specs: list[PerspectiveSpec] = []
    seen: dict[str, int] = {}
    for n, item in enumerate(data):
        line = lines[n] if n < len(lines) else None
        if not isinstance(item, dict):
            raise FormatError(f"perspectives[{n}] is not a mapping", path, line, "{name, goal, ontology}")
        unknown = sorted(set(item) - {"name", "goal", "ontology", "relevance"})
        if unknown:
            raise FormatError(
                f"perspectives[{n}]: unknown keys {unknown}", path, line, "name, goal, ontology, relevance"
            )
        try:
            spec = make_spec(item.get("name"), item.get("goal"), item.get("ontology"), item.get("relevance"))
        except ValidationError as exc:
            raise FormatError(f"perspectives[{n}]: {exc}", path, line, "{name, goal, ontology: [...]}") from exc
        if spec.name in seen:
            raise FormatError(
                f"perspectives[{n}]: duplicate name {spec.name!r} (also perspectives[{seen[spec.name]}])",
                path,
                line,
                "unique perspective names",
            )
        seen[spec.name] = n
        specs.append(spec)
    return specs


def read_perspectives(path: str | Path | Traversable) -> list[PerspectiveSpec]:
    """:func:`parse_perspectives` on a file (``FormatError`` when it cannot be read)."""
    p = Path(path) if isinstance(path, str) else path
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"cannot read perspectives file: {exc.strerror}", str(p), None) from exc
    return parse_perspectives(text, str(p))


class PerspectiveService:
    """Perspectives, encoding and retrieval by perspective for one memory space."""

    def __init__(
        self, graph: Graph, space: str, embedder: Embedder, dimension: int, llm: Callable[[], LLMClient]
    ) -> None:
        self.graph = graph
        self.space = space
        self.embedder = embedder
        self.dimension = dimension
        self._llm = llm
        self.repo = PerspectiveRepository(graph, space)

    # -- perspectives --------------------------------------------------------------------------
    def add_one(self, name: str, goal: str, ontology: Any, relevance: float | None = None) -> Perspective:
        """One perspective from its parts (:func:`make_spec`), as :meth:`add` writes it."""
        return self.add([make_spec(name, goal, ontology, relevance)])[0]

    def load(self, path: str | Path | Traversable) -> list[Perspective]:
        """The perspectives of a YAML file (:func:`read_perspectives`), all or nothing."""
        return self.add(read_perspectives(path))

    def add(self, specs: Sequence[PerspectiveSpec]) -> list[Perspective]:
        """Create perspectives with their ontologies, all in ONE transaction (all or nothing).

        Raises:
            ValidationError: no perspective, a name given twice, or a name that already exists.
        """
        if not specs:
            raise ValidationError("no perspective to add")
        names = [s.name for s in specs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValidationError(f"duplicate perspective names {dup}")
        existing = [p.name for p in self.repo.find(names)]
        if existing:
            raise ValidationError(f"perspective(s) {existing} already exist in space {self.space!r}")
        # one embedding call: every concept ("Name: description") and every goal
        texts: list[str] = []
        for s in specs:
            texts.append(s.goal)
            texts += [f"{c.name}: {c.description}" if c.description else c.name for c in s.ontology]
        vectors = iter(self._embed(texts))
        payload = []
        for s in specs:
            goal_vec = next(vectors)
            payload.append(
                {
                    "id": str(uuid.uuid4()),
                    "name": s.name,
                    "goal": s.goal,
                    "relevance": s.relevance,
                    "embedding": goal_vec,
                    "concepts": [
                        {"name": c.name, "description": c.description, "embedding": next(vectors)} for c in s.ontology
                    ],
                }
            )
        now = utcnow().isoformat()

        def work(tx: Tx) -> list[str]:
            return self.repo.create(tx, payload, now)

        try:
            self.graph.write_tx(work, name="perspective.add")
        except ConstraintViolation as exc:  # a concurrent writer took a name
            raise ValidationError(f"perspective name(s) {names} already exist in space {self.space!r}") from exc
        return self.repo.find(names)

    def all(self, names: Sequence[str] | None = None) -> list[Perspective]:
        """The perspectives of this space (by name)."""
        return self.repo.find(names)

    def get(self, name: str) -> Perspective:
        """One perspective. Raises NotFoundError."""
        found = self.repo.find([name])
        if not found:
            raise NotFoundError(f"no perspective {name!r} in space {self.space!r}")
        return found[0]

    def resolve(self, names: Sequence[str] | str | None) -> list[Perspective]:
        """The named perspectives (all of the space when None), in the given order.

        Raises:
            ValidationError: an empty list, a name given twice, or no perspective in the space;
            NotFoundError: an unknown name.
        """
        if isinstance(names, str):
            names = [names]
        if names is None:
            found = self.repo.find(None)
            if not found:
                raise ValidationError(
                    f"no perspectives in space {self.space!r}: add some first (add_perspective / load_perspectives)"
                )
            return found
        wanted = _distinct(
            names, "perspective names", "no perspectives given (pass None for all perspectives of the space)"
        )
        by_name = {p.name: p for p in self.repo.find(wanted)}
        missing = [n for n in wanted if n not in by_name]
        if missing:
            raise NotFoundError(f"no perspective(s) {missing} in space {self.space!r}")
        return [by_name[n] for n in wanted]

    # -- encode ----------------------------------------------------------------------------------
    def encode(
        self, episode_ids: Sequence[str] | None = None, perspectives: Sequence[str] | None = None
    ) -> EncodeResult:
        """Every perspective independently reads the episodes and interprets the relevant ones
        in its own vocabulary (see the module docstring). Returns the (episode x perspective)
        matrix: pre-filter score and decision, LLM decision, interpretation id, rejections.

        Raises:
            ValidationError: no perspectives, an empty or duplicated id list, a retracted episode;
            EpisodeNotFound / NotFoundError: unknown episode / perspective; LLMUnavailable: the
            model is unreachable (nothing written).
        """
        persp = self.resolve(perspectives)
        if episode_ids is not None:
            if isinstance(episode_ids, str):
                episode_ids = [episode_ids]
            _distinct(
                episode_ids, "episode ids", "no episode ids given (pass None to encode every episode of the space)"
            )
        rows = self.repo.episodes(episode_ids)
        if episode_ids is not None:
            found = {r["id"] for r in rows}
            for i in episode_ids:
                if i not in found:
                    raise EpisodeNotFound(i, self.space)
            retracted = [r["id"] for r in rows if r["status"] == "retracted"]
            if retracted:
                raise ValidationError(
                    f"episode(s) {retracted} are retracted: nothing to interpret (restore them first)"
                )
        rows = [r for r in rows if r["status"] != "retracted"]
        episodes = {r["id"]: r for r in rows}
        result = EncodeResult(episodes=list(episodes), perspectives=[p.name for p in persp], cells=[])
        if not episodes:
            return result
        cells: dict[tuple[str, str], EncodeCell] = {
            (e, p.name): EncodeCell(episode=e, perspective=p.name) for e in episodes for p in persp
        }
        ids = {key: interpretation_id(self.space, key[1], key[0]) for key in cells}
        existing = self.repo.existing(list(ids.values()))
        for key, cid in ids.items():
            if cid in existing:
                cells[key].already = cid
                cells[key].interpretation = cid
                cells[key].cached = True
        for key in self.repo.judgements(list(episodes), [p.name for p in persp]):
            if key in cells and not cells[key].cached:
                cells[key].cached = True
                cells[key].relevant = False
        todo = sorted({e for (e, p), c in cells.items() if not c.cached}, key=list(episodes).index)
        # 1. pre-filter: embed the episodes once, score them against every ontology in Cypher
        if todo:
            vectors = self._embed([episodes[e]["text"] for e in todo])
            scores = self.repo.prefilter(
                [p.name for p in persp], [{"id": e, "embedding": v} for e, v in zip(todo, vectors, strict=True)]
            )
            threshold = {p.name: p.relevance for p in persp}
            for s in scores:
                cell = cells.get((s["observation"], s["perspective"]))
                if cell is None or cell.cached:
                    continue
                best, concept = s["goal_score"], "(goal)"
                if s["concept_score"] is not None and (best is None or s["concept_score"] >= best):
                    best, concept = s["concept_score"], s["concept"]
                cell.score = round(float(best), 4) if best is not None else None
                cell.concept = concept
                cell.prefilter = best is not None and float(best) >= threshold[s["perspective"]]
        # 2. one LLM call per perspective (per max_batch chunk) with only its pre-filtered episodes
        client = self._llm() if any(c.prefilter and not c.cached for c in cells.values()) else None
        calls_before = client.usage().calls if client is not None else 0
        items: list[dict[str, Any]] = []
        irrelevant: list[dict[str, Any]] = []
        for p in persp:
            send = [e for e in todo if cells[(e, p.name)].prefilter]
            if not send or client is None:
                continue
            observations = [Observation(id=e, text=episodes[e]["text"]) for e in send]
            try:
                res = client.encode(perspective_view(p), observations)
            except EncodingError as exc:
                for e in send:
                    cells[(e, p.name)].rejected = f"encode output invalid after {exc.attempts} attempt(s): {exc.reason}"
                continue
            prov = res.provenance.as_properties()
            for it in res.output.items:
                cell = cells.get((it.observation, p.name))
                if cell is None or it.observation not in send:  # the job check makes this unreachable
                    continue
                cell.relevant = it.relevant
                if not it.relevant:
                    irrelevant.append(
                        {
                            "episode": it.observation,
                            "perspective": p.name,
                            "llm_prompt": prov["llm_prompt"],
                            "llm_model": prov["llm_model"],
                        }
                    )
                    continue
                text = (it.interpretation or "").strip()
                ontology = {c.name for c in p.concepts}
                foreign = sorted(set(it.concepts) - ontology)
                if foreign:
                    cell.rejected = f"concepts {foreign} are not in {p.name}'s ontology"
                    continue
                if not text or len(text) > 20_000:
                    cell.rejected = "interpretation is empty or longer than 20000 characters"
                    continue
                cell.text = text
                cell.concepts = sorted(set(it.concepts))
                items.append(
                    {
                        "id": ids[(it.observation, p.name)],
                        "episode": it.observation,
                        "perspective": p.name,
                        "agent": f"perspective:{p.name}",
                        "text": text,
                        "confidence": it.confidence,
                        "concepts": cell.concepts,
                        **prov,
                    }
                )
        if client is not None:
            result.llm_calls = client.usage().calls - calls_before
            result.model = client.model_name
        # 3. one write transaction for everything this call interprets (and judged irrelevant)
        if items or irrelevant:
            vectors = self._embed([row["text"] for row in items])
            for row, v in zip(items, vectors, strict=True):
                row["embedding"] = v
            now = utcnow().isoformat()

            def work(tx: Tx) -> list[str]:
                again = self.repo.existing([i["id"] for i in items], tx=tx)
                fresh = [dict(i, justification_id=str(uuid.uuid4())) for i in items if i["id"] not in again]
                self.repo.record_judgements(tx, irrelevant, now)
                rows = self.repo.create_interpretations(tx, fresh, now)
                gone = sorted({r["id"] for r in rows if r["episode_status"] == "retracted"})
                if gone:
                    raise ValidationError(f"an episode was retracted while encoding (interpretations {gone})")
                return [r["id"] for r in rows]

            try:
                written = self.graph.write_tx(work, name="perspective.encode")
            except ConstraintViolation:  # a concurrent encode wrote the same pair first
                written = self.graph.write_tx(work, name="perspective.encode")
            result.written = written
            written_set = set(written)
            for key, cid in ids.items():
                if cid in written_set:
                    cells[key].interpretation = cid
                elif cells[key].text is not None and cells[key].already is None:
                    cells[key].already = cid  # written concurrently by another encode
                    cells[key].interpretation = cid
                    cells[key].cached = True
        result.cells = [cells[(e, p.name)] for e in episodes for p in persp]
        return result

    # -- retrieval -------------------------------------------------------------------------------
    def search(self, query: str, perspective: str, k: int = 5) -> list[InterpretationHit]:
        """The ``k`` active interpretations of ``perspective`` nearest to ``query`` (vector index;
        the over-fetch widens until ``k`` are found or the index is exhausted).

        Raises:
            ValidationError: blank query or k outside 1..1000; NotFoundError: unknown perspective.
        """
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must not be blank")
        if not 1 <= k <= 1000:
            raise ValidationError("k must be between 1 and 1000")
        self.get(perspective)
        vector = self._embed_query(query)
        fetch = max(100, 20 * k)
        while True:
            seen, hits = self.repo.search(perspective, vector, k, fetch)
            if len(hits) >= k or seen < fetch or fetch >= _MAX_FETCH:
                return hits
            fetch = min(fetch * 4, _MAX_FETCH)

    def interpretations(self, perspective: str, status: str | None = None) -> list[InterpretationHit]:
        """Every interpretation of one perspective (``status`` filters), oldest first."""
        self.get(perspective)
        return self.repo.interpretations(perspective, status)

    # -- helpers ---------------------------------------------------------------------------------
    def _embed(self, texts: Iterable[str]) -> list[list[float]]:
        texts = list(texts)
        if not texts:
            return []
        vectors = self.embedder.embed_documents(texts)
        for v in vectors:
            if len(v) != self.dimension:
                raise EmbeddingDimensionError(self.dimension, len(v), where=f"embedding from {self.embedder.name}")
        return vectors

    def _embed_query(self, text: str) -> list[float]:
        v = self.embedder.embed_query(text)
        if len(v) != self.dimension:
            raise EmbeddingDimensionError(self.dimension, len(v), where=f"embedding from {self.embedder.name}")
        return v
