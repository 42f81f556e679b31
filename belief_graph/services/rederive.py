"""Re-deriving a stale free-text conclusion with the LLM (DESIGN.md, "Currency of derived claims").

A conclusion without a rule (``derive`` with free text) goes stale like any other when a premise
changes, but no rule can compute its new form. :meth:`Rederiver.rederive` asks the ``rederive``
LLM job, given the stale conclusion, the premises it rested on that are no longer current, and the
current premises (the current versions of the same facts, and the premises that are still
current), and records the answer as a derived claim justified by the premises the model cited,
with the rule ``llm:rederive`` and the prompt/model provenance. Never run implicitly: a model call
is a decision somebody makes.

* ``rederived``: a new claim (a new version of the key, or a keyless claim that supersedes the
  stale one), in one transaction;
* ``unchanged``: the same statement is justified again by the current premises, so it is current
  again;
* ``unsupported``: nothing is written; the conclusion stays stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel

from ..errors import ValidationError
from ..llm import LLMClient
from ..llm.jobs import BeliefView, ClaimView
from ..models import Claim
from ..models.support import ClaimSupport
from ..repositories.claims import ClaimRepository

__all__ = ["RULE", "RederiveResult", "Rederiver"]

RULE = "llm:rederive"


class RederiveResult(BaseModel):
    """What one ``rederive`` did."""

    status: Literal["rederived", "unchanged", "unsupported"]
    stale: Claim
    """The stale conclusion it started from (as it was)."""
    claim: Claim | None = None
    """The new or refreshed conclusion (``None`` when unsupported)."""
    rationale: str
    llm_model: str
    llm_prompt: str
    calls: int


class Rederiver:
    def __init__(
        self,
        supports: Callable[[str, int], ClaimSupport],
        derive: Callable[..., Claim],
        claims: ClaimRepository,
        llm: Callable[[], LLMClient],
    ) -> None:
        """``supports(claim_id, dependents)`` and ``derive(...)``: the support service's own
        (:class:`~belief_graph.services.support.SupportService` builds this, so it is handed its
        operations rather than imported)."""
        self.supports = supports
        self.derive = derive
        self.claims = claims
        self.llm = llm

    def rederive(self, claim_id: str, *, agent: str) -> RederiveResult:
        """Propose the new form of a stale conclusion from its current premises and record it."""
        if not isinstance(agent, str) or not agent.strip():
            raise ValidationError("agent must not be empty (who asked for the re-derivation)")
        sup = self.supports(claim_id, 0)
        stale = sup.claim
        if stale.status.value != "stale":
            raise ValidationError(f"claim {claim_id} is {stale.status.value}: only a stale conclusion is re-derived")
        was: dict[str, BeliefView] = {}
        now: dict[str, BeliefView] = {}
        for family in sup.families:
            for p in family.premises:
                view = BeliefView(id=p.id, text=p.text or p.id, key=p.key, value=p.value)
                if p.current:
                    now[p.id] = view
                    continue
                was[p.id] = view
                current = self.claims.belief(p.key) if p.key else None
                if current is not None:
                    now[current.id] = BeliefView(id=current.id, text=current.text, key=current.key, value=current.value)
        if not now:
            raise ValidationError(f"no premise of {claim_id} has a current version to re-derive it from")
        result = self.llm().rederive(
            ClaimView(key=stale.key, value=stale.value, text=stale.text, agent=stale.agent),
            list(was.values()),
            list(now.values()),
        )
        out, prov = result.output, result.provenance
        done = RederiveResult(
            status=out.status,
            stale=stale,
            rationale=out.rationale,
            llm_model=prov.model,
            llm_prompt=prov.prompt_ref,
            calls=prov.calls,
        )
        if out.status == "unsupported":
            return done
        text = out.text if out.status == "rederived" else stale.text
        assert text is not None  # the job's check: a conclusion has a text
        claim = self.derive(
            text,
            out.citations,
            stale.key,
            agent=agent,
            rule=RULE,
            value=out.value if stale.key else None,
            props={**prov.as_properties(), "llm_rationale": out.rationale},
            supersedes=stale.id if stale.key is None and text != stale.text else None,
        )
        return done.model_copy(update={"claim": claim})
