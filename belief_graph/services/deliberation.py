"""Deliberation by argument: perspectives propose, critique each other, and the grounded extension
of the attack graph — computed in Cypher by the argumentation engine — decides the retrieval mode.

:meth:`DeliberationService.deliberate` runs in three phases:

1. **retrieve** (no LLM): each perspective's top-``k`` active interpretations for the query
   (:meth:`~belief_graph.services.perspectives.PerspectiveService.search`). A perspective with
   none **abstains** (recorded on the deliberation, no LLM input);
2. **debate** (LLM only, :func:`debate`, no database): batched mode makes ONE ``propose_all``
   call (every perspective answers, citing its own interpretations) and ONE ``critique_all`` call
   (every perspective attacks the others' proposals, with reasons) — at most 2 calls; with fewer
   than two proposals there is nothing to critique and no critique call. Per-perspective mode
   makes one ``propose`` and one ``critique`` call per perspective. Every item is validated and
   a bad one is **rejected and recorded** (never written as data, never silently dropped):
   citations outside the proposer's retrieved interpretations, a proposal left without a valid
   citation, attacks on unknown proposals, a perspective attacking its own proposal, duplicate
   attacks, blank reasons. In per-perspective mode a perspective whose answer stays invalid
   after the repair turns is recorded as rejected; in batched mode that is an ``EncodingError``
   (one answer covers everyone) and nothing is written;
3. **write** (ONE transaction): the ``Deliberation``, its ``Proposal``\\ s (``PROPOSED``,
   ``ANSWERS``, ``CITES``), the ``ATTACKS {reason, by}`` edges; the proposals are enlisted as
   arguments of namespace ``deliberation:<id>`` and the grounded labelling is computed in the same
   transaction (``ArgumentationService.ground_tx``), which writes ``label`` on each proposal.
   Mode from the topology: one proposal IN → ``select``; several → ``compose`` (built here, no
   extra LLM call: each part keeps its own citations); none → ``conflict`` (every proposal with
   the attacks between them, no forced resolution); no proposal at all → ``none``.

**Staleness is computed on read**: a deliberation is stale while one of the claims its proposals
cite is not active (e.g. its episode was retracted and the interpretation withdrawn); restoring
the episode reinstates the interpretation and the deliberation is fresh again. Nothing has to
hook into the reconsolidation transaction, and the answer can never disagree with the graph.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..db.driver import Graph, Tx
from ..errors import EncodingError, NotFoundError, ValidationError
from ..limits import check_limit
from ..llm import LLMClient
from ..llm.jobs import BeliefView, ProposalView
from ..models import utcnow
from ..models.argumentation import Attack
from ..models.perspectives import (
    AttackRecord,
    ComposedPart,
    DeliberationRecord,
    DeliberationSummary,
    InterpretationHit,
    Perspective,
    ProposalRecord,
    Rejection,
)
from ..repositories.deliberations import DeliberationRepository
from .argumentation import ArgumentationService
from .perspectives import PerspectiveService, perspective_view

__all__ = ["Debate", "DeliberationService", "Slate", "compose", "debate", "deliberation_ns", "mode_of"]


def deliberation_ns(deliberation_id: str) -> str:
    """The argumentation namespace of a deliberation's attack graph."""
    return f"deliberation:{deliberation_id}"


@dataclass
class Slate:
    """One perspective and the interpretations it retrieved for the question."""

    perspective: Perspective
    beliefs: list[InterpretationHit]


@dataclass
class Debate:
    """What the LLM phase produced, validated: proposals, attacks, rejections, calls made."""

    proposals: list[ProposalRecord] = field(default_factory=list)
    attacks: list[AttackRecord] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    calls: int = 0

    def reject(self, stage: Literal["propose", "critique"], perspective: str, item: str, reason: str) -> None:
        """Record an output item that is refused (never written as data)."""
        self.rejections.append(Rejection(stage=stage, perspective=perspective, item=item, reason=reason))


def _invalid(exc: EncodingError) -> str:
    return f"output invalid after {exc.attempts} attempt(s): {exc.reason}"


def _belief(h: InterpretationHit) -> BeliefView:
    return BeliefView(id=h.claim.id, text=h.claim.text)


def debate(
    client: LLMClient,
    question: str,
    slates: Sequence[Slate],
    *,
    batched: bool = True,
    new_id: Callable[[], str] = lambda: str(uuid.uuid4()),
) -> Debate:
    """The LLM phase of a deliberation (no database): proposals, then critiques, validated.

    ``slates``: the perspectives that did not abstain, each with its retrieved interpretations.
    Batched: at most one ``propose_all`` and one ``critique_all`` call. Raises ``EncodingError``
    (batched mode) / ``LLMUnavailable`` from the LLM layer.
    """
    out = Debate()
    if not slates:
        return out
    before = client.usage().calls
    by_view = {s.perspective.id: s for s in slates}
    # -- propose ---------------------------------------------------------------------------------
    raw: list[tuple[Slate, str, list[str]]] = []
    if batched:
        res = client.run(
            "propose_all",
            {
                "question": question,
                "perspectives": [
                    {"perspective": perspective_view(s.perspective), "beliefs": [_belief(h) for h in s.beliefs]}
                    for s in slates
                ],
            },
        )
        for p in res.output.proposals:
            raw.append((by_view[p.perspective], p.text, list(p.citations)))
    else:
        for s in slates:
            try:
                r = client.propose(perspective_view(s.perspective), question, [_belief(h) for h in s.beliefs])
            except EncodingError as exc:
                out.reject("propose", s.perspective.name, "proposal", _invalid(exc))
                continue
            raw.append((s, r.output.text, list(r.output.citations)))
    for s, text, citations in raw:
        name = s.perspective.name
        own = {h.claim.id for h in s.beliefs}
        valid: list[str] = []
        for c in citations:
            if c not in own:
                out.reject("propose", name, c, f"citation {c!r} is not one of {name}'s retrieved interpretations")
            elif c not in valid:
                valid.append(c)
        if not text.strip():
            out.reject("propose", name, "proposal", "empty text")
            continue
        if not valid:
            out.reject("propose", name, "proposal", "no valid citation: a proposal must cite its own interpretations")
            continue
        out.proposals.append(ProposalRecord(id=new_id(), perspective=name, text=text.strip(), citations=valid))
    # -- critique --------------------------------------------------------------------------------
    if len(out.proposals) >= 2:
        name_of = {s.perspective.id: s.perspective.name for s in slates}
        views = [
            ProposalView(
                id=p.id,
                perspective=next(s.perspective.id for s in slates if s.perspective.name == p.perspective),
                text=p.text,
            )
            for p in out.proposals
        ]
        proposers = [s for s in slates if any(p.perspective == s.perspective.name for p in out.proposals)]
        raw_attacks: list[tuple[str, str, str]] = []  # (by perspective name, target, reason)
        if batched:
            res2 = client.run(
                "critique_all",
                {
                    "question": question,
                    "perspectives": [{"perspective": perspective_view(s.perspective)} for s in proposers],
                    "proposals": views,
                },
            )
            raw_attacks = [(name_of[a.by], a.target, a.reason) for a in res2.output.attacks]
        else:
            for s in proposers:
                try:
                    r2 = client.critique(perspective_view(s.perspective), question, views)
                except EncodingError as exc:
                    out.reject("critique", s.perspective.name, "critique", _invalid(exc))
                    continue
                raw_attacks += [(s.perspective.name, a.target, a.reason) for a in r2.output.attacks]
        owner = {p.id: p.perspective for p in out.proposals}
        seen: set[tuple[str, str]] = set()
        for by, target, reason in raw_attacks:
            if target not in owner:
                out.reject("critique", by, target, f"attack on unknown proposal {target!r}")
            elif owner[target] == by:
                out.reject("critique", by, target, "a perspective cannot attack its own proposal")
            elif (by, target) in seen:
                out.reject("critique", by, target, "duplicate attack on the same proposal")
            elif not reason.strip():
                out.reject("critique", by, target, "an attack needs a reason")
            else:
                seen.add((by, target))
                attacker = next(p.id for p in out.proposals if p.perspective == by)
                out.attacks.append(AttackRecord(attacker=attacker, target=target, by=by, reason=reason.strip()))
    out.calls = client.usage().calls - before
    return out


def mode_of(labels: dict[str, str], proposals: int) -> str:
    """The retrieval mode from the grounded labels: 1 IN → select, ≥2 → compose, 0 → conflict."""
    if proposals == 0:
        return "none"
    n_in = sum(1 for v in labels.values() if v == "IN")
    return "select" if n_in == 1 else "compose" if n_in >= 2 else "conflict"


def compose(proposals: Sequence[ProposalRecord]) -> tuple[str, list[ComposedPart]]:
    """The composed answer of several surviving proposals (no LLM): one part per perspective,
    each with its own citations."""
    parts = [
        ComposedPart(perspective=p.perspective, proposal=p.id, text=p.text, citations=list(p.citations))
        for p in sorted(proposals, key=lambda p: p.perspective)
    ]
    text = "\n".join(f"[{p.perspective}] {p.text} (cites {', '.join(p.citations)})" for p in parts)
    return text, parts


class DeliberationService:
    """Deliberations of one memory space (see the module docstring)."""

    def __init__(
        self, graph: Graph, space: str, perspectives: PerspectiveService, llm: Callable[[], LLMClient]
    ) -> None:
        self.graph = graph
        self.space = space
        self.perspectives = perspectives
        self._llm = llm
        self.repo = DeliberationRepository(graph, space)
        self.argumentation = ArgumentationService(graph, space)

    def deliberate(
        self, query: str, perspectives: Sequence[str] | None = None, *, k: int = 5, batched: bool = True
    ) -> DeliberationRecord:
        """Deliberate ``query`` among ``perspectives`` (all of the space when None).

        Raises:
            ValidationError: blank query, k outside 1..50, no perspectives (empty list or none in
                the space), a name given twice; NotFoundError: unknown perspective; EncodingError /
                LLMUnavailable from the LLM layer (nothing written).
        """
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must not be blank")
        if len(query) > 2000:
            raise ValidationError("query is longer than 2000 characters")
        if not 1 <= k <= 50:
            raise ValidationError("k must be between 1 and 50")
        persp = self.perspectives.resolve(perspectives)
        slates: list[Slate] = []
        abstained: list[str] = []
        for p in persp:
            hits = self.perspectives.search(query, p.name, k)
            if hits:
                slates.append(Slate(p, hits))
            else:
                abstained.append(p.name)
        result = debate(self._llm(), query, slates, batched=batched) if slates else Debate()
        did = str(uuid.uuid4())
        ns = deliberation_ns(did)
        now = utcnow().isoformat()

        def work(tx: Tx) -> None:
            self.repo.create_deliberation(
                tx,
                id=did,
                query=query.strip(),
                at=now,
                batched=batched,
                k=k,
                perspectives=[p.name for p in persp],
                abstained=abstained,
                rejections=[r.to_json() for r in result.rejections],
                proposals=[
                    {"id": p.id, "perspective": p.perspective, "text": p.text, "citations": p.citations}
                    for p in result.proposals
                ],
            )
            labels: dict[str, str] = {}
            if result.proposals:
                ids = [p.id for p in result.proposals]
                self.argumentation.repo.enlist(tx, ns, ids)
                if result.attacks:
                    self.argumentation.repo.merge_attacks(
                        tx,
                        ns,
                        [
                            Attack(attacker=a.attacker, target=a.target, reason=a.reason, by=a.by)
                            for a in result.attacks
                        ],
                    )
                grounded = self.argumentation.ground_tx(tx, ns)
                labels = {i: grounded.label_of(i) or "UNDEC" for i in ids}
            mode = mode_of(labels, len(result.proposals))
            answer: str | None = None
            parts: list[str] = []
            survivors = [p for p in result.proposals if labels.get(p.id) == "IN"]
            if mode == "select":
                answer = survivors[0].text
            elif mode == "compose":
                answer, composed = compose(survivors)
                parts = [c.model_dump_json() for c in composed]
            elif mode == "none":
                answer = "unknown"
            self.repo.set_outcome(tx, id=did, mode=mode, answer=answer, parts=parts)

        self.graph.write_tx(work, name="deliberation.deliberate")
        record = self.get(did)
        return record.model_copy(update={"llm_calls": result.calls})

    def get(self, deliberation_id: str) -> DeliberationRecord:
        """One deliberation, with staleness computed now. Raises NotFoundError."""
        rec = self.repo.deliberation(deliberation_id)
        if rec is None:
            raise NotFoundError(f"no deliberation {deliberation_id!r} in space {self.space!r}")
        return rec

    def all(self, limit: int = 20) -> list[DeliberationSummary]:
        """The deliberations of this space, newest first."""
        check_limit(limit, 10_000)
        return self.repo.deliberations(limit)
