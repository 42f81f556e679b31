"""Grounded answers (DESIGN.md §2 "Grounding"; docs/retrieval.md).

:meth:`AnswerService.answer`:

1. recalls the question (hybrid, active beliefs only); when no recalled belief's vector score
   reaches the calibrated ``threshold`` the answer is ``unknown`` **without any LLM call**;
2. compiles the working context for the question (:meth:`SupportService.context`: active beliefs
   with support certificates, cut to a token budget), the recalled keys first;
3. asks the LLM's ``answer`` job for an answer restricted to the context's beliefs, citing them;
4. checks the answer programmatically (:func:`~belief_graph.services.grounding.check_grounding`:
   every citation is a context belief, every figure/date/named value is in a cited belief); a
   failed check is sent back to the model once (one repair), then the answer is ``unknown``
   with the reason;
5. re-reads the cited claims: each must still be active in this space, else ``unknown``.

Two steps keep ``unknown`` for when memory really does not hold the answer:

* **the user by name**: questions name the user ("Which gym is Amara a member of?") where memories
  say "the user"; the names of the space's user agents (``user:amara``) are read as "the user"
  for the similarity threshold and the context's ranking (the question shown to the model is the
  one asked);
* **extractive answer**: when the model answers ``unknown`` (or fails the grounding check) but a
  belief of the context says what the question asks (its statement at least
  :data:`EXTRACTIVE_THRESHOLD` alike to the question, the closest of the context), that belief's
  own statement is the answer, cited: it is grounded by construction. ``checks`` says so. Only a
  belief about whom the question asks is taken: by its key's parties, and by its statement when it
  opens with "the user's <someone>" (a model may store "The user's uncle is vegetarian" under a key
  of the user's own), and only a statement of the kind asked (an amount for "how many", a time
  for "when", not a bare date for "where"), and, for a question that names the thing it asks for
  ("which company", "what breed"), a belief whose key or statement names it.

What the model reads is the context **about whom the question asks** (:func:`about_whom_asked`): a
question about the user themselves ("Is Nadia vegetarian?") is not shown the beliefs about other
people of the user's life ("The user's uncle is vegetarian"), which a reader takes for the user's
own; when nothing else is left the answer is ``unknown`` without a call, and says so.
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..errors import EncodingError, ValidationError
from ..llm import LLMClient
from ..llm.jobs import Answer, AnswerInput, BeliefView
from ..models.retrieval import AnswerResult, GroundingCheck
from ..models.support import ContextItem, WorkingContext
from .grounding import check_grounding, extract_figures, is_unknown
from .identity import shape
from .retrieval import RetrievalService
from .support import SupportService
from .temporal import find_times
from .turns.clause_words import AUXILIARIES, FUNCTION_CAPS, PARTY_GROUPS, QUESTION_WORDS
from .turns.clauses import tokens
from .turns.stems import content_stems
from .turns.value_forms import NUMBER_WORDS

__all__ = [
    "DEFAULT_THRESHOLD",
    "EXTRACTIVE_THRESHOLD",
    "AnswerService",
    "about_whom_asked",
    "as_user",
    "grounding_check",
]

DEFAULT_THRESHOLD = 0.61
"""Minimum Neo4j cosine score (``(1 + cos) / 2``; 0.61 = cosine 0.22) of the best recalled
belief for ``answer`` to consult the LLM. Calibrated with all-MiniLM-L6-v2 on
tests/data/paraphrase_suite.json: the lowest best-match of the 45 suite questions is cosine 0.242
(score 0.621), so no answerable question is refused; 15 of the 20 off-topic questions fall below
(docs/retrieval.md has the numbers). Other embedders need their own calibration (``threshold=``)."""


EXTRACTIVE_THRESHOLD = 0.45
"""Cosine of a question and a belief's statement (all-MiniLM-L6-v2) from which the belief answers
the question when the model said ``unknown``. Calibrated on tests/data/paraphrase_suite.json (not the
conversation suite): at 0.45 no off-topic question (0 of 20) finds a belief, 27 of 45 questions find
their own belief first (docs/memory.md). Other embedders need their own calibration."""


def as_user(query: str, names: Sequence[str]) -> str:
    """``query`` with the user's names read as "the user" ("Amara's gym" -> "the user's gym")."""
    out = query
    for name in sorted({n for n in names if len(n) >= 2}, key=len, reverse=True):
        out = re.sub(rf"\b{re.escape(name)}\b", "the user", out, flags=re.IGNORECASE)
    return out


def grounding_check(inp: AnswerInput, out: Answer) -> list[str]:
    """The ``answer`` job's check, replaced by the full grounding check (figures incl. dates in
    any common format, named values, citations); problems are fed back to the model."""
    return [str(p) for p in check_grounding(inp.question, inp.beliefs, out.text, out.citations)]


class AnswerService:
    """``answer(query)`` for one space; ``llm`` is called lazily (never for a threshold ``unknown``)."""

    def __init__(
        self,
        retrieval: RetrievalService,
        support: SupportService,
        llm: Callable[[], LLMClient],
        threshold: float = DEFAULT_THRESHOLD,
    ) -> None:
        self.retrieval = retrieval
        self.support = support
        self._llm = llm
        self.threshold = threshold

    def answer(
        self,
        query: str,
        *,
        k: int = 8,
        budget_tokens: int = 1000,
        threshold: float | None = None,
        include_context: bool = True,
    ) -> AnswerResult:
        """A grounded answer to ``query`` or ``unknown`` with the reason (see the module docstring).

        Raises:
            ValidationError: blank query, ``k`` outside 1..50, threshold outside 0..1.
            LLMUnavailable: no model to ask (a threshold ``unknown`` never needs one).
        """
        if not isinstance(query, str) or not query.strip():
            raise ValidationError("query must not be blank")
        if not 1 <= k <= 50:
            raise ValidationError("k must be between 1 and 50")
        thr = self.threshold if threshold is None else threshold
        if not 0.0 <= thr <= 1.0:
            raise ValidationError("threshold is a Neo4j cosine score between 0 and 1")
        checks: list[GroundingCheck] = []
        asked = as_user(query, self.retrieval.user_names())
        vector = self.retrieval._embed(asked)
        hits = self.retrieval.recall(asked, k=k, embedding=vector)
        best = max((h.similarity for h in hits if h.similarity is not None), default=None)
        qualifying = [h for h in hits if h.similarity is not None and h.similarity >= thr]
        base: dict[str, Any] = {"query": query, "best_similarity": best, "threshold": thr}
        if not qualifying:
            top = max(hits, key=lambda h: h.similarity or 0.0) if hits else None
            why = (
                f"no active belief is similar enough to the question (best score {best:.3f} for "
                f"{top.claim.text!r} < threshold {thr:.3f})"
                if top is not None and best is not None
                else "memory holds no active belief to answer from"
            )
            checks.append(GroundingCheck(name="similarity_threshold", ok=False, detail=why))
            return _unknown(why, checks, 0, base)
        checks.append(
            GroundingCheck(
                name="similarity_threshold",
                ok=True,
                detail=f"{len(qualifying)} recalled belief(s) reach {thr:.3f} (best {best:.3f})",
            )
        )
        keys = list(dict.fromkeys(h.claim.key for h in qualifying if h.claim.key))
        ctx = self.support.context(query=asked, keys=keys, budget_tokens=budget_tokens, limit=max(k, 10))
        ctx, others = about_whom_asked(asked, ctx)
        if others and not ctx.items:
            why = f"the question asks about the user; the working context's {others} belief(s) are about other people"
            checks.append(GroundingCheck(name="context", ok=False, detail=why))
            return _unknown(why, checks, 0, {**base, "context": ctx if include_context else None})
        checks.append(
            GroundingCheck(
                name="context",
                ok=bool(ctx.items),
                detail=f"{len(ctx.items)} active belief(s), {ctx.used_tokens} tokens",
            )
        )
        if not ctx.items:
            why = "the working context is empty (no active belief with an intact support)"
            return _unknown(why, checks, 0, {**base, "context": ctx if include_context else None})
        llm = self._llm()
        before = llm.usage().calls
        beliefs = [
            BeliefView(
                id=i.claim.id,
                text=i.claim.text,
                key=i.claim.key,
                value=i.claim.value,
                since=i.claim.valid_from[:10] if i.claim.valid_from else None,
            )
            for i in ctx.items
        ]
        base.update(model=llm.model_name, replayed=llm.is_replay, context=ctx if include_context else None)
        try:
            out = self._ask(llm, query, beliefs)
        except EncodingError as exc:
            calls = llm.usage().calls - before
            why = f"the answer failed the grounding check after one repair: {exc.reason}"
            checks.append(GroundingCheck(name="grounding", ok=False, detail="; ".join(exc.errors)))
            found = self._extractive(asked, vector, ctx, checks, calls, base, why)
            if found is not None:
                return found
            return _unknown(why, checks, calls, base)
        calls = llm.usage().calls - before
        checks.append(
            GroundingCheck(
                name="grounding",
                ok=True,
                detail="every citation is a context belief; every figure and named value is in a cited belief",
            )
        )
        if is_unknown(out.text):
            why = f"the model found no answer in the {len(ctx.items)} context belief(s)"
            found = self._extractive(asked, vector, ctx, checks, calls, base, why)
            if found is not None:
                return found
            return _unknown(why, checks, calls, base)
        return self._final(out, ctx, checks, calls, base)

    def _extractive(
        self,
        question: str,
        vector: Sequence[float],
        ctx: WorkingContext,
        checks: list[GroundingCheck],
        calls: int,
        base: dict[str, Any],
        why_not: str,
    ) -> AnswerResult | None:
        """The context's belief that says what the question asks, as the answer (module docstring)."""
        asked = _parties(tokens(question))
        # only a belief about whom the question asks about: not the brother's city for "where does
        # she live?", not the user's birthday for "when is my sister's birthday?"
        items = [
            i
            for i in ctx.items
            if (i.claim.key is None or shape(i.claim.key).parties == asked)
            and _subject_parties(i.claim.text) in (asked, None)
            and _of_the_kind_asked(question, i.claim.text, i.claim.value)
            and _names_the_thing_asked(question, i.claim.key, i.claim.text)
        ]
        if not items:
            return None
        vecs = self.retrieval.embedder.embed_documents([i.claim.text for i in items])
        sims = [_cos(vector, v) for v in vecs]
        best = max(range(len(sims)), key=lambda i: sims[i])
        if sims[best] < EXTRACTIVE_THRESHOLD:
            return None
        item = items[best]
        checks.append(
            GroundingCheck(
                name="extractive",
                ok=True,
                detail=(
                    f"{why_not}; the context's belief {item.claim.id} says what the question asks "
                    f"(similarity {sims[best]:.3f} >= {EXTRACTIVE_THRESHOLD}): its statement is the answer"
                ),
            )
        )
        out = Answer(text=item.claim.text, citations=[item.claim.id])
        return self._final(out, ctx, checks, calls, base)

    def _ask(self, llm: LLMClient, query: str, beliefs: list[BeliefView]) -> Answer:
        """One ``answer`` call checked by :func:`grounding_check`, with exactly one repair."""
        inp = AnswerInput(question=query, beliefs=beliefs)
        out = llm.run("answer", inp, check=grounding_check, repair_attempts=1).output
        assert isinstance(out, Answer)
        return out

    def _final(
        self, out: Answer, ctx: WorkingContext, checks: list[GroundingCheck], calls: int, base: dict[str, Any]
    ) -> AnswerResult:
        cited_ids = list(dict.fromkeys(out.citations))
        now = self.retrieval.repo.hit_details(cited_ids, None)
        in_ctx = set(ctx.claim_ids)
        bad = [c for c in cited_ids if c not in in_ctx or c not in now or now[c].claim.status != "active"]
        if bad:
            why = f"cited belief(s) {bad} are not active beliefs of the working context (any more)"
            checks.append(GroundingCheck(name="citations_active", ok=False, detail=why))
            return _unknown(why, checks, calls, base)
        checks.append(
            GroundingCheck(
                name="citations_active",
                ok=True,
                detail=f"{len(cited_ids)} cited belief(s) active in space {self.retrieval.space!r}",
            )
        )
        return AnswerResult(
            status="answered",
            text=out.text,
            citations=cited_ids,
            cited=[now[c].claim for c in cited_ids],
            checks=checks,
            llm_calls=calls,
            **base,
        )


def _unknown(why: str, checks: list[GroundingCheck], calls: int, base: dict[str, Any]) -> AnswerResult:
    """The answer ``unknown``, with why, the checks so far and the LLM calls it took."""
    return AnswerResult(status="unknown", text="unknown", reason=why, checks=checks, llm_calls=calls, **base)


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    num = sum(x * y for x, y in zip(a, b, strict=True))
    den = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return num / den if den else 0.0


_ASKS_AMOUNT = ("how many", "how much", "how old", "how long", "how far", "how often", "how tall", "how big")
_ASKS_TIME = ("when", "since when", "what time", "what date", "which day", "what day", "which date")


def _of_the_kind_asked(question: str, statement: str, value: Any) -> bool:
    """Whether a statement can answer the kind of question asked: an amount for "how many / much /
    old", a time for "when / what date", a place or thing (not only a date or number) for "where".
    Any other question takes any statement."""
    words = tokens(question)
    asked = next((" ".join(words[i : i + 2]) for i, w in enumerate(words[:4]) if w in _WH), "")
    figures = extract_figures(statement)
    timed = bool(find_times(statement, datetime.now(UTC))) or any(
        any("-" in f or ":" in f for f in forms) for _, forms in figures
    )
    if asked.startswith(_ASKS_AMOUNT):
        return bool(figures) or any(w in NUMBER_WORDS for w in tokens(statement))
    if asked.startswith(_ASKS_TIME) or asked.split(" ")[0] == "when":
        return timed
    if asked.split(" ")[0] == "where":
        only_figures = value is not None and bool(extract_figures(str(value))) and not _letters_beyond_dates(str(value))
        return not only_figures
    return True


_WH = QUESTION_WORDS | {"since"}  # "since when"
_NOT_A_THING = frozenset("kind sort type time day date year month".split())


def _names_the_thing_asked(question: str, key: str | None, statement: str) -> bool:
    """ "Which company hired Ines?", "what breed is her dog?": a question that names the thing it
    asks for is answered by a belief whose key or statement names it too (not by her German level)."""
    words = tokens(question)
    at = next((i for i, w in enumerate(words[:3]) if w in ("which", "what")), None)
    thing = words[at + 1] if at is not None and at + 1 < len(words) else ""
    asked = content_stems(thing) if thing not in _NOT_A_THING and thing not in AUXILIARIES else set()
    if not asked or "'" in thing:
        return True
    return bool(asked & (content_stems(statement) | content_stems(re.sub(r"[._]", " ", key or ""))))


def _letters_beyond_dates(value: str) -> bool:
    """Whether a value says more than a date or a number ("May 23" does not; "Lisbon in May" does)."""
    rest = value
    for written, _ in extract_figures(value):
        rest = rest.replace(written, " ")
    return any(len(w) > 2 for w in tokens(rest))


def about_whom_asked(question: str, ctx: WorkingContext) -> tuple[WorkingContext, int]:
    """The context a reader is shown for a question about the user themselves ("Is Nadia
    vegetarian?" read as "Is the user vegetarian?"): without the beliefs about another person of
    the user's life ("The user's uncle is vegetarian"), by key or by statement, and how many were
    left out. A question that names a person ("my sister's birthday", "the user and Alex"), asks
    "who", or does not say it is about the user ("When is Anjali's birthday?") is shown the whole
    context."""
    words = tokens(question)
    about_user = "user" in words or "user's" in words or any(w in _FIRST_PERSON for w in words)
    if not about_user or _parties(words) or any(w in ("who", "whom", "whose") for w in words):
        return ctx, 0
    if any(w.lower() not in _NOT_NAMES for w in _CAPITALISED.findall(question)):
        return ctx, 0  # "How long have Sam and Alex been together?": Alex is somebody else

    def of_the_user(i: ContextItem) -> bool:
        by_key = i.claim.key is None or not shape(i.claim.key).parties - _NOT_PEOPLE
        return by_key and not (_subject_parties(i.claim.text) or frozenset()) - _NOT_PEOPLE

    kept = [i for i in ctx.items if of_the_user(i)]
    if len(kept) == len(ctx.items):
        return ctx, 0
    shown = {"items": kept, "used_tokens": sum(i.tokens for i in kept), "text": "\n".join(i.text for i in kept)}
    return ctx.model_copy(update=shown), len(ctx.items) - len(kept)


_NOT_PEOPLE = frozenset(i for i, g in enumerate(PARTY_GROUPS) if g & {"team", "dog", "cat", "pet"})
"""The parties that are not another person: the user's team (its size is the user's), their pets."""
_CAPITALISED = re.compile(r"(?<!^)(?<![.!?] )\b[A-Z][a-z]+\b")
"""A capitalised word inside a question: a name, unless it is a month, a weekday or a function word."""
_NOT_NAMES = FUNCTION_CAPS | {n.lower() for n in (*calendar.month_name[1:], *calendar.day_name)}
_FIRST_PERSON = frozenset("i i'm i've i'd i'll me my mine myself".split())


def _subject_parties(statement: str) -> frozenset[int] | None:
    """Whom a statement opening with "the user's ..." is about ("The user's father has been
    diagnosed with ...": the father), whatever key it was stored under; None when it opens
    otherwise."""
    words = tokens(statement)
    if words[:2] == ["the", "user's"]:
        words = words[2:]
    elif words[:1] == ["user's"]:
        words = words[1:]
    else:
        return None
    return _parties(words[:2])


def _parties(words: Sequence[str]) -> frozenset[int]:
    """The parties a question names (the same reading as a key's: services/identity.py)."""
    plain = [w.removesuffix("'s") for w in words]
    return shape("user." + "_".join(w for w in plain if w.isalpha()) if plain else "user.x").parties
