"""The working context (DESIGN.md, "Working context"): active beliefs ranked for a question or
a list of keys, each rendered with its support certificate, cut to a token budget.

A read over the support graph: the candidates and certificates come from
:class:`~belief_graph.repositories.support.SupportRepository` and, for a question, the vector
search of :class:`~belief_graph.repositories.retrieval.RetrievalRepository`; a claim whose justifications are all
broken has no certificate and is never used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import ValidationError
from ..limits import check_limit
from ..models import Claim
from ..models.support import ContextItem, SupportFamily, WorkingContext, estimate_tokens
from ..repositories.retrieval import RetrievalRepository
from ..repositories.support import SupportRepository
from .conflicts import checked_key

__all__ = ["ContextCompiler"]


class ContextCompiler:
    """Compiles working contexts of one space; ``embed(text, query_mode)`` embeds the question."""

    def __init__(self, repo: SupportRepository, embed: Callable[..., list[float]]) -> None:
        self.repo = repo
        self.search = RetrievalRepository(repo.graph, repo.space)
        self.embed = embed

    def compile(
        self,
        query: str | None = None,
        keys: Sequence[str] | None = None,
        budget_tokens: int = 1000,
        limit: int = 50,
    ) -> WorkingContext:
        """Compile the working context from active beliefs, each with its support certificate.

        Candidates: the current beliefs of ``keys`` (exact match, in the given order) first, then
        the claims nearest to ``query`` (vector index); with neither, the newest active claims.
        Each item is rendered with its certificate (the intact justification and its premises) and
        items are taken in rank order while they fit ``budget_tokens`` (see :func:`estimate_tokens`).
        A claim whose justifications are all broken has no certificate and is never used.
        """
        if budget_tokens < 1:
            raise ValidationError("budget_tokens must be positive")
        check_limit(limit, 1000)
        key_list = list(keys or [])
        for k in key_list:
            checked_key(k)
        if query is not None and not query.strip():
            raise ValidationError("query must not be blank")
        ranked: list[tuple[str, float | None]] = [(cid, None) for cid in self.repo.belief_ids(key_list)]
        if query is not None:
            vector = self.embed(query, query_mode=True)
            ranked += self.search.vector_search(vector, k=limit, fetch=max(100, 10 * limit))
        if query is None and not key_list:
            ranked = [(cid, None) for cid in self.repo.active_claim_ids(limit)]
        seen: set[str] = set()
        order = [(c, s) for c, s in ranked if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]
        certs = self.repo.certificates([c for c, _ in order])
        items: list[ContextItem] = []
        used = 0
        omitted = 0
        usable = [
            (cid, score) for cid, score in order if cid in certs and (certs[cid][2] is not None or certs[cid][1] == 0)
        ]
        # (not in certs: no longer active; families but no certificate: every justification broken)
        for n, (cid, score) in enumerate(usable):
            claim, _, cert = certs[cid]
            text = _render(len(items) + 1, claim, cert)
            cost = estimate_tokens(text)
            if used + cost > budget_tokens:
                omitted = len(usable) - n
                break
            items.append(
                ContextItem(rank=len(items) + 1, claim=claim, score=score, certificate=cert, tokens=cost, text=text)
            )
            used += cost
        return WorkingContext(
            query=query,
            keys=key_list,
            budget_tokens=budget_tokens,
            used_tokens=used,
            items=items,
            omitted=omitted,
            text="\n".join(i.text for i in items),
        )


def _render(rank: int, claim: Claim, cert: SupportFamily | None) -> str:
    head = f"[{rank}] {claim.text}"
    if claim.key is not None:
        head += f" (fact {claim.key}" + (f" = {claim.value!r}" if claim.value is not None else "") + ")"
    head += f" {{claim {claim.id}}}"
    if cert is None:
        return head + "\n    because: asserted by " + claim.agent + " (base claim)"
    rule = f" [{cert.rule}]" if cert.rule else ""
    if not cert.premises:  # an empty family: an agent's own assertion (e.g. a corroboration)
        return head + f"\n    because{rule}: asserted by {cert.agent or claim.agent}"
    prem = "; ".join(f"{p.kind} {p.id}: {p.text}" for p in cert.premises)
    return head + f"\n    because{rule}: {prem}"
