"""``remember``: free text in, typed self-contained facts out, through the same write path.

The flow for one call (``docs/policies.md`` has the rationale):

1. candidate keys for the prompt (:mod:`.key_candidates`): the fixed premise keys of the active
   rules, then the registry keys closest to the latest turn (vector index on ``Fact.embedding``)
   and the keys of the closest active claims, no rule's lookup table, capped at
   ``policy.key_candidates`` — never the whole registry; with a key schema, the schema's keys;
2. **extract** (one LLM call): facts of the latest turn (earlier turns are context only);
   **grounding** (``policy.ground_extraction``, on by default): a turn of small talk only makes no
   call and stores no fact; every other turn (questions and requests too: they state facts in
   their clauses) is extracted, and an extracted fact that the turn's asserting clauses do not
   state is refused (``services/turns/extraction_grounding.py``) — each refusal, with its reason, is
   returned in ``RememberResult.rejected`` and kept on the episode (``Episode.rejections``); so is a
   fact the model still writes invalid after its repairs (a key that is no dotted name): the
   reply's other facts are kept (``JobSpec.keeps_valid_items``), not lost with it;
3. **fact identity** for keys the space does not hold yet (``services/identity.py``): each proposed
   fact is matched to the space's facts of the same subject by attribute (key words, and the
   statement with its value masked out); where the engine is sure it aligns without a call, where
   it is not, **disambiguate** (one batched LLM call) chooses among the candidates shown; else the
   key is new. A statement under another key of the same fact thus meets the belief it updates or
   contradicts;
   **revisit** (``policy.revisit``, on by default; ``services/revisit.py``): the held beliefs the
   turn names (a word of their value or attribute) that no extracted fact landed on are shown to
   the model in one more call, which says whether the turn changes them and to what; what it says
   changed is grounded and classified like an extracted fact (an extractor that missed "the
   amlodipine my doctor switched me to from lisinopril" no longer leaves lisinopril current);
4. **classify** (one batched call): facts whose value differs from the fact's current belief
   (or, without a key, that are close to one of the writer's active claims) are classified NOOP /
   UPDATE / REPLACE / ADD; a NOOP between values that share no word is not trusted (the write
   path decides); a REPLACE ("the two cannot both hold, nothing says which is right") keeps the
   newer value current and records the contradiction as an open dispute, whoever wrote the
   belief it contradicts. The engine calls a change a contradiction whatever the model says when
   the fact cannot change (a birthday), when a past event is given another year, and when
   **another source** gives another value without the turn saying anything changed
   (:func:`~belief_graph.services.turns.clauses.says_change`): a booking record and an email digest,
   a scraper and the user, disagree — they do not update each other;
5. one write transaction: the episode, then every surviving fact through
   :meth:`ClaimWriter.write <belief_graph.services.writes.ClaimWriter.write>` (pass 2 against other agents by the key's strategy), each
   claim carrying the provenance of the prompts and model that produced it.

Every LLM call happens before the transaction; an invalid model output raises ``EncodingError``
and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field

from ..db.driver import Tx
from ..errors import EncodingError, ValidationError
from ..llm import LLMClient
from ..llm.jobs import ExtractedFact
from ..models import KEY_RE, Claim, ClaimInput, Episode, WriteOp, WriteResult, new_id, parse_time
from ..models.keys import KeySchema
from ..models.rules import RuleSpec
from ..policies import Decision, judge, same_value
from .beliefs import BeliefService, _iso
from .conflicts import ConflictService, PreJudge
from .grounding import extract_figures
from .identity import (
    CANDIDATE_LIMIT,
    Candidate,
    FactIdentity,
    Proposal,
    age_went_back,
    fit_value,
    fixed_attribute,
    past_event_redated,
    type_of,
)
from .key_candidates import RuleKeys, candidate_keys, rule_keys
from .revisit import as_facts, touched
from .temporal import fact_time
from .turns.clauses import says_change, tokens
from .turns.extraction_grounding import turn_kind
from .turns.fact_grounding import ground_fact
from .turns.value_forms import as_value, says_none

__all__ = ["RememberResult", "RememberService", "llm_prejudge"]


class ResolvedKey(BaseModel):
    """Where an extracted fact's key went (``services/identity.py``)."""

    proposed: str | None
    key: str | None
    how: str  # known | new | aligned | asked | kept | none | dropped | other | refused | revisited
    score: float | None = None
    relation: str | None = None
    """The evidence: same_attribute / same_statement / restated (aligned), related (asked)."""


class RememberResult(BaseModel):
    """What ``remember`` did: the stored episode and one write result per extracted fact."""

    episode: Episode
    results: list[WriteResult] = Field(default_factory=list)
    keys: list[ResolvedKey] = Field(default_factory=list)
    skipped: list[dict[str, Any]] = Field(default_factory=list)
    """Facts not written (NOOP by classification), with the rationale."""
    rejected: list[dict[str, Any]] = Field(default_factory=list)
    """Facts refused (text, key, value, reason): by grounding (the turn does not state them), by a
    rule or the key schema, or written invalid by the model after its repairs."""
    warnings: list[str] = Field(default_factory=list)
    extracted: bool = True
    """Whether the turn reached extraction (False only for a turn of small talk)."""


Message = str | Mapping[str, Any]


def _when(claim: Claim) -> datetime | None:
    """When a belief was said to hold (its valid_from, else when it was recorded)."""
    at = claim.valid_from or claim.created_at
    if not at:
        return None
    try:
        return parse_time(at)
    except ValueError:
        return None


def _props(prov: dict[str, Any], kept: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance a fact's claim carries: the prompts and model, and an inference's evidence."""
    evidence = kept.get("inferred_from")
    return prov if evidence is None else {**prov, "inferred_from": evidence}


def _turns(messages_or_text: str | Sequence[Message], agent: str) -> list[dict[str, str]]:
    if isinstance(messages_or_text, str):
        items: list[Message] = [messages_or_text]
    else:
        items = list(messages_or_text)
    if not items:
        raise ValidationError("remember needs a text or a non-empty list of messages")
    turns = []
    for i, m in enumerate(items):
        if isinstance(m, str):
            speaker, text = agent, m
        elif isinstance(m, Mapping):
            text = m.get("content", m.get("text"))
            speaker = str(m.get("agent") or m.get("name") or m.get("role") or agent)
        else:
            raise ValidationError(f"message {i} is neither text nor a mapping with 'content'")
        if not isinstance(text, str) or not text.strip():
            raise ValidationError(f"message {i} has no text")
        turns.append({"id": f"turn-{i}", "agent": speaker, "text": text})
    return turns


def _not_derived(kept: list[dict[str, Any]], rules: RuleKeys, rejected: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``kept`` without the facts under a key a rule derives and refuses direct writes to; each is
    recorded in ``rejected`` with the rule (services/key_candidates.py)."""
    out = []
    for k in kept:
        rule = rules.derived_by(k["key"]) if k["key"] is not None else None
        if rule is None:
            out.append(k)
            continue
        reason = f"fact {k['key']!r} is derived by rule {rule!r}: its premises decide it, a turn does not"
        rejected.append({"text": k["fact"].text, "key": k["key"], "value": k["value"], "reason": reason})
    return out


class RememberService:
    def __init__(
        self,
        beliefs: BeliefService,
        llm: Callable[[], LLMClient],
        schema: Callable[[], KeySchema | None] | None = None,
        rules: Callable[[], Sequence[RuleSpec]] | None = None,
    ) -> None:
        self.beliefs = beliefs
        self.llm = llm
        self.schema = schema
        """The space's key schema, read once per call (``bg.keys.schema``); None: no schema."""
        self.rules = rules
        """The specs of the space's active rules (``bg.rules.specs``), read once per call for the keys they read."""

    def remember(
        self,
        messages_or_text: str | Sequence[Message],
        agent: str,
        conversation: str | None = None,
        at: datetime | None = None,
    ) -> RememberResult:
        if not isinstance(agent, str) or not agent.strip():
            raise ValidationError("agent must not be empty")
        b = self.beliefs
        policy = b.policy
        turns = _turns(messages_or_text, agent)
        latest = turns[-1]
        latest["agent"] = agent
        grounding = policy.ground_extraction
        said_at = at if at is not None and at.tzinfo is not None else datetime.now(UTC)
        rejected: list[dict[str, Any]] = []
        if grounding and turn_kind(latest["text"]) == "small_talk":  # greetings and thanks only: no call
            reason = "the turn is small talk: it states no fact"
            rejected.append({"text": latest["text"], "key": None, "value": None, "reason": reason})
            return self._store_only(latest["text"], agent, conversation, at, rejected)
        llm = self.llm()
        schema = self.schema() if self.schema is not None else None
        declared = {k.key for k in schema.keys} if schema is not None else None

        # 1. candidate keys for the prompt (services/key_candidates.py): the keys stored rules read,
        # the registry's closest keys and the keys of the closest active claims (by the turn's text),
        # no rule's lookup table, capped; with a key schema, its keys only
        turn_vec = b.embed_many([latest["text"]])[0]
        registry = [k for k, _, _ in b.similar_keys(latest["text"], k=policy.key_candidates)]
        rules = rule_keys(self.rules()) if self.rules is not None else RuleKeys()
        if declared is not None:
            ranked = [k for k in registry if k in declared] + sorted(declared)
            candidates = list(dict.fromkeys(ranked))[: policy.key_candidates]
        else:
            claimed = [c.key for c, _ in b.facts.similar_claims(turn_vec, k=policy.key_candidates) if c.key]
            candidates = candidate_keys(rules, registry, claimed, cap=policy.key_candidates)
        # 2. extract, then refuse what the turn does not assert
        extraction = llm.extract(turns, known_keys=candidates)
        prov: dict[str, Any] = extraction.provenance.as_properties()
        facts: list[tuple[ExtractedFact, str | None]] = []
        notes: list[str] = []
        for aside in extraction.set_aside:  # facts the model still wrote invalid after its repairs
            item = aside.item
            if item.get("source") == latest["id"]:
                reason = "the model wrote this fact invalid after its repairs: " + "; ".join(aside.problems)
                rejected.append(
                    {"text": item.get("text"), "key": item.get("key"), "value": item.get("value"), "reason": reason}
                )
        for f in extraction.output.facts:
            if f.source != latest["id"]:
                continue
            if not grounding:
                facts.append((f, None))
                continue
            g = ground_fact(f, latest["text"], user=agent.lower().startswith("user"), at=said_at, held=self._held)
            if not g.check.grounded:
                rejected.append({"text": f.text, "key": f.key, "value": f.value, "reason": g.check.reason})
            else:
                facts.append((g.fact, g.inferred_from))
                notes += [g.note] if g.note else []
        warnings: list[str] = list(notes)
        kept: list[dict[str, Any]] = []
        dropped: list[ResolvedKey] = []
        for f, inferred_from in facts:
            key = f.key
            if key is not None and (len(key) > 256 or not KEY_RE.match(key)):
                warnings.append(f"extracted key {key!r} is malformed; stored as a statement without a key")
                dropped.append(ResolvedKey(proposed=key, key=None, how="dropped"))
                key = None
            value = as_value(f.value) if key is not None else None
            kept.append(
                {
                    "fact": f,
                    "key": key,
                    "value": value,
                    "text": self_contained(f.text, key, value),
                    "inferred_from": inferred_from,
                }
            )
        vectors = b.embed_many([k["text"] for k in kept]) if kept else []
        for k, vec in zip(kept, vectors, strict=True):
            k["vector"] = vec
        # 3. fact identity: which fact each proposed key is about (services/identity.py)
        proposals = [Proposal(k["key"], k["value"], k["text"]) for k in kept]
        proposed = [p.key for p in proposals if p.key is not None]
        known = b.facts.existing(proposed) if proposed else set()
        if declared is not None:  # with a schema, only its keys are known facts and candidates
            known = {k for k in proposed if k in declared}
        by_text = {k["text"]: k["vector"] for k in kept}

        def near(p: Proposal) -> set[str]:
            return {c.key for c, _ in b.facts.similar_claims(by_text[p.text], k=10) if c.key}

        def candidate_rows(prefixes: Sequence[str]) -> list[dict[str, Any]]:
            rows = b.facts.identity_candidates(prefixes, CANDIDATE_LIMIT)
            return rows if declared is None else [r for r in rows if r["key"] in declared]

        identity = FactIdentity(
            candidate_rows,
            b.embed_many,
            policy,
            near,
            embedder=f"{b.embedder.name}/{b.dimension}",
        )
        resolutions = identity.resolve(proposals, known, choose=lambda unsure: _choose(llm, unsure))
        resolved = dropped + [
            ResolvedKey(proposed=r.proposed, key=r.key, how=r.how, score=r.score, relation=r.relation)
            for r in resolutions
        ]
        for k, r in zip(kept, resolutions, strict=True):
            k["key"] = r.key
        if schema is not None and declared is not None:
            kept = self._outside_schema(kept, resolved, schema, declared, rejected)
        # 3b. revisit the held beliefs the turn names that no extracted fact landed on
        if policy.revisit:
            kept += self._revisited(llm, turns, turn_vec, kept, resolved, rejected, prov, warnings, agent, said_at)
        # inferences by the policy: "held" takes one only for a fact memory holds (services/turns/inference.py)
        kept = self._inferences_by_policy(kept, rejected)
        # a key a rule derives and lets nobody write is refused as this fact's, not the turn's failure
        kept = _not_derived(kept, rules, rejected)
        # value types follow the (possibly re-aligned) key: a value of another type than the key
        # holds is converted when it says the same ("1,350" for a number key), else refused
        typed = b.facts.value_types([k["key"] for k in kept if k["key"] is not None and k["value"] is not None])
        fitting = []
        for k in kept:
            held = typed.get(k["key"]) if k["key"] is not None else None
            if held is not None and k["value"] is not None and type_of(k["value"]) != held:
                if says_none(k["value"]):  # "no more 20-hour cap": the fact holds no value now
                    k["value"] = None
                    fitting.append(k)
                    continue
                fitted = fit_value(k["value"], held)
                if fitted is None:
                    f = k["fact"]
                    rejected.append(
                        {
                            "text": f.text,
                            "key": k["key"],
                            "value": k["value"],
                            "reason": f"value {k['value']!r} does not fit {k['key']!r}, which holds {held} values",
                        }
                    )
                    continue
                k["value"] = fitted
            fitting.append(k)
        kept = fitting
        # 4. classify against the current belief (the writer's own, or another agent's: a REPLACE,
        # "the two cannot both hold", is recorded as a contradiction whoever wrote the belief)
        items: list[dict[str, Any]] = []
        own_of: dict[int, list[Claim]] = {}
        for i, k in enumerate(kept):
            f = k["fact"]
            own: list[Claim] = []
            if k["key"] is not None:
                cur = b.belief(k["key"])
                if cur is not None and not same_value(cur.value, k["value"]):
                    own = [cur]
            else:
                own = [
                    c for c, s in b.facts.similar_claims(k["vector"], k=3, agent=agent) if s >= policy.key_ask_threshold
                ]
            if own:
                own_of[i] = own
                items.append(
                    {
                        "id": f"n{i}",
                        "claim": {"key": k["key"], "value": k["value"], "text": k["text"], "agent": agent},
                        "candidates": [
                            {"id": c.id, "key": c.key, "value": c.value, "text": c.text, "agent": c.agent} for c in own
                        ],
                    }
                )
        hints: dict[int, WriteOp] = {}
        skipped: list[dict[str, Any]] = []
        if items:
            classified = llm.classify(items)
            prov["llm_classify_prompt"] = classified.provenance.prompt_ref
            for cl in classified.output.items:
                i = int(cl.item[1:]) if cl.item.startswith("n") and cl.item[1:].isdigit() else -1
                if not 0 <= i < len(kept):
                    continue
                target = next((c for c in own_of.get(i, []) if c.id == cl.target_id), None)
                if cl.action == "NOOP" and target is not None and not _may_say_the_same(target.value, kept[i]["value"]):
                    # a model that calls "Porto" the same as "Lisbon" would lose an update: the values
                    # share no word or number, so the write path decides (an update, by the same agent)
                    warnings.append(
                        f"classify called {kept[i]['value']!r} the same as {target.value!r}; written as a change"
                    )
                elif cl.action == "NOOP":
                    kept[i]["skip"] = cl
                    skipped.append({"text": kept[i]["fact"].text, "target": cl.target_id, "rationale": cl.rationale})
                elif cl.action == "REPLACE":
                    hints[i] = WriteOp.REPLACE
        for i in own_of:  # a fact that cannot change (a birthday, a blood type) changed: a contradiction
            k = kept[i]
            if i in hints or "skip" in k or k["key"] is None:
                continue
            if fixed_attribute(k["key"]):
                hints[i] = WriteOp.REPLACE
                warnings.append(
                    f"{k['key']!r} cannot change, so a new value contradicts the belief: a dispute records it"
                )
            elif any(past_event_redated(k["key"], c.value, k["value"], said_at) for c in own_of[i]):
                hints[i] = WriteOp.REPLACE
                warnings.append(
                    f"{k['key']!r} dates an event that had already happened, so a new year contradicts the belief: "
                    "a dispute records it"
                )
            elif any(age_went_back(k["key"], c.value, k["value"], _when(c), said_at) for c in own_of[i]):
                hints[i] = WriteOp.REPLACE
                warnings.append(
                    f"{k['key']!r} is an age that went back, or grew more than the time between allows: "
                    "a dispute records the contradiction"
                )
            elif any(c.agent != agent for c in own_of[i]) and not says_change(latest["text"]):
                # another source gives another value and says nothing changed: two sources disagree
                # (a record and a form, a scraper and the user), which a model may call an update
                hints[i] = WriteOp.REPLACE
                warnings.append(
                    f"{agent} gives {k['key']!r} another value than {own_of[i][0].agent} without saying it changed: "
                    "a dispute records the disagreement"
                )
        # 5. one transaction: the episode and every fact
        episode_id = new_id()
        prepared: list[tuple[int, dict[str, Any]]] = []
        for i, k in enumerate(kept):
            if "skip" in k:
                continue
            f = k["fact"]
            data = ClaimInput(
                key=k["key"],
                value=k["value"] if k["key"] is not None else None,
                text=k["text"],
                agent=agent,
                kind=f.kind,
                evidence=[episode_id],
                confidence=f.confidence,
                valid_from=fact_time(latest["text"], f.value, at),
            )
            prepared.append((i, b.prepare(data)))
        verdicts: dict[str, Decision] = {}
        for _, p in prepared:
            verdicts.update(b.conflicts.pre_verdicts(p["data"]))

        def work(tx: Tx) -> RememberResult:
            ep = self._episode(tx, episode_id, latest["text"], agent, conversation, at, rejected)
            results = [
                b.writer.write(tx, p, props=_props(prov, kept[i]), op_hint=hints.get(i), verdicts=verdicts)
                for i, p in prepared
            ]
            return RememberResult(
                episode=ep, results=results, keys=resolved, skipped=skipped, rejected=rejected, warnings=warnings
            )

        return b.graph.write_tx(work, name="beliefs.remember")

    def _revisited(
        self,
        llm: LLMClient,
        turns: list[dict[str, str]],
        turn_vec: Sequence[float],
        kept: list[dict[str, Any]],
        resolved: list[ResolvedKey],
        rejected: list[dict[str, Any]],
        prov: dict[str, Any],
        warnings: list[str],
        agent: str,
        said_at: datetime,
    ) -> list[dict[str, Any]]:
        """The facts a ``revisit`` call finds the latest turn changes (services/revisit.py), grounded
        like extracted ones; no call when the turn names no held belief extraction left alone. A
        fact extraction kept under a new key with the value a held belief changed to is that
        belief's change (one fact, the held key): it is taken out of ``kept``."""
        b, latest = self.beliefs, turns[-1]
        covered = {k["key"] for k in kept if k["key"] is not None}
        near = b.facts.similar_claims(turn_vec, k=b.policy.key_candidates)
        explained = any(r.how in ("known", "aligned", "asked") for r in resolved)
        beliefs = touched(latest["text"], near, covered, b.policy.revisit_limit, explained=explained)
        if not beliefs:
            return []
        shown = [{"key": c.key, "value": c.value, "text": c.text, "agent": c.agent} for c in beliefs]
        try:
            answer = llm.revisit(turns, shown)
        except EncodingError as exc:  # a second look that failed loses no extracted fact
            warnings.append(f"revisit of {[c.key for c in beliefs]} gave no valid answer: {exc.reason}")
            return []
        prov["llm_revisit_prompt"] = answer.provenance.prompt_ref
        out = []
        held = {c.key: c.value for c in beliefs}
        for f in as_facts(answer.output, beliefs, latest["id"]):
            if b.policy.ground_extraction:  # the one grounding path of extracted facts
                user = agent.lower().startswith("user")
                g = ground_fact(f, latest["text"], user=user, at=said_at, held=lambda k: held.get(k or ""))
                if not g.check.grounded:
                    rejected.append({"text": f.text, "key": f.key, "value": f.value, "reason": g.check.reason})
                    continue
                f, inferred_from = g.fact, g.inferred_from
            else:
                inferred_from = None
            value = as_value(f.value)
            text = self_contained(f.text, f.key, value)
            vector = b.embed_many([text])[0]
            out.append(
                {
                    "fact": f,
                    "key": f.key,
                    "value": value,
                    "text": text,
                    "vector": vector,
                    "inferred_from": inferred_from,
                }
            )
            resolved.append(ResolvedKey(proposed=f.key, key=f.key, how="revisited"))
        new_keys = {r.key for r in resolved if r.how in ("new", "kept")}
        for v in out:
            for twin in [k for k in kept if k["key"] in new_keys and same_value(k["value"], v["value"])]:
                kept.remove(twin)
                resolved[:] = [
                    ResolvedKey(proposed=r.proposed, key=v["key"], how="aligned", relation="revisited")
                    if r.key == twin["key"]
                    else r
                    for r in resolved
                ]
        return out

    def _inferences_by_policy(self, kept: list[dict[str, Any]], rejected: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The facts to keep: every stated one, and an inferred one as ``policy.inferences`` says
        (``any``; ``held``: only under a key, resolved by identity, that holds a current belief;
        ``off``: none)."""
        mode = self.beliefs.policy.inferences
        out = []
        for k in kept:
            evidence = k.get("inferred_from")
            if evidence is None or (
                mode == "any" or (mode == "held" and k["key"] is not None and self.beliefs.belief(k["key"]) is not None)
            ):
                out.append(k)
                continue
            f = k["fact"]
            where = f"{k['key']!r} holds no belief" if k["key"] is not None else "it has no key"
            why = (
                "inferences are off (policy.inferences)"
                if mode == "off"
                else (f"an inference only changes a fact memory holds (policy.inferences = held), and {where}")
            )
            reason = f"value {f.value!r} is not stated in the turn; inferred from {evidence!r}, but {why}"
            rejected.append({"text": f.text, "key": k["key"], "value": f.value, "reason": reason})
        return out

    def _held(self, key: str | None) -> Any:
        """The value of the current belief under ``key`` (None for no key, a malformed one, no belief)."""
        if key is None or len(key) > 256 or not KEY_RE.match(key):
            return None
        cur = self.beliefs.belief(key)
        return cur.value if cur is not None else None

    @staticmethod
    def _outside_schema(
        kept: list[dict[str, Any]],
        resolved: list[ResolvedKey],
        schema: KeySchema,
        declared: set[str],
        rejected: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """A fact no declared key holds goes under a reviewed ``other.`` key (``unknown: other``) or
        is refused (``unknown: refuse``)."""
        out = []
        for k in kept:
            key = k["key"]
            if key is None or key in declared:
                out.append(k)
                continue
            f = k["fact"]
            where = next((r for r in resolved if r.key == key), None)
            if schema.unknown == "refuse":
                reason = (
                    f"key {key!r} is not in the space's key schema (version {schema.version}), which refuses others"
                )
                rejected.append({"text": f.text, "key": key, "value": k["value"], "reason": reason})
                if where is not None:
                    where.how, where.key = "refused", None
                continue
            other = key if key.startswith("other.") else f"other.{key}"
            if len(other) > 256:
                other = other[:256].rstrip(".")
            k["key"] = other
            if where is not None:
                where.how, where.key = "other", other
            out.append(k)
        return out

    def _store_only(
        self, text: str, agent: str, conversation: str | None, at: datetime | None, rejected: list[dict[str, Any]]
    ) -> RememberResult:
        """The episode alone (it was said), with why nothing was extracted from it."""
        b = self.beliefs

        def work(tx: Tx) -> RememberResult:
            ep = self._episode(tx, new_id(), text, agent, conversation, at, rejected)
            return RememberResult(episode=ep, rejected=rejected, extracted=False)

        return b.graph.write_tx(work, name="beliefs.remember")

    def _episode(
        self,
        tx: Tx,
        episode_id: str,
        text: str,
        agent: str,
        conversation: str | None,
        at: datetime | None,
        rejected: list[dict[str, Any]],
    ) -> Episode:
        """The episode of what was said, with the facts refused from it."""
        return self.beliefs.episodes.create(
            id=episode_id,
            text=text,
            agent=agent,
            agent_kind="user" if agent.startswith("user") else "agent",
            conversation=conversation,
            at=_iso(at),
            tx=tx,
            rejections=[_rejection_json(r) for r in rejected],
        )


def _choose(llm: LLMClient, unsure: list[tuple[Proposal, list[Candidate]]]) -> dict[int, str | None]:
    """One batched ``disambiguate`` call: the model picks, for each fact, one of the candidates it is
    shown or keeps its own key."""
    known = list(dict.fromkeys(c.key for _, cands in unsure for c in cands))
    items = [{"id": f"f{i}", "text": p.text, "proposed_key": p.key} for i, (p, _) in enumerate(unsure)]
    choice = llm.disambiguate(items, known_keys=known)
    picks: dict[int, str | None] = {}
    for ch in choice.output.items:
        if ch.item.startswith("f") and ch.item[1:].isdigit():
            i = int(ch.item[1:])
            if 0 <= i < len(unsure):
                shown = {c.key for c in unsure[i][1]}
                picks[i] = ch.key if ch.key in shown else None
    return picks


_FIRST_PERSON = frozenset("i i'm i've i'd i'll me my mine myself we we're we've our ours us".split())


def self_contained(text: str, key: str | None, value: Any) -> str:
    """The statement a claim keeps: the model's, unless it is not self-contained — in the first
    person ("I moved to Porto") or a question (a small model copies the turn) —, then one made from
    the key and the value ("The user's city is Porto."), which a reader understands without the
    conversation and the answer grounding can cite."""
    words = set(tokens(text))
    if key is None or value is None or (not words & _FIRST_PERSON and "?" not in text):
        return text
    segs = key.split(".")
    subject = "The user" if segs[0].lower() in ("user", "me", "my", "i", "self") else f"The {segs[0].replace('_', ' ')}"
    attribute = " ".join(w.replace("_", " ") for w in segs[1:]) or "value"
    if isinstance(value, bool):
        return f"{subject}: {attribute}, {'yes' if value else 'no'}."
    return f"{subject}'s {attribute} is {value}."


def _may_say_the_same(a: Any, b: Any) -> bool:
    """Could two values be one value said twice ("NYC" / "New York" cannot be told without a model;
    "Lisbon" / "Porto" can): the same, the same figures in any form when both have figures, else
    sharing a word or a number."""
    if a is None or b is None or same_value(a, b):
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    fa, fb = _figures(a), _figures(b)
    if fa and fb:  # "2026-06-04" / "June 4" may be one; "2026-06-04" / "2026-06-05", "10 mg" / "20 mg" not
        return _covers(fa, fb) and _covers(fb, fa)
    ta, tb = set(tokens(str(a))), set(tokens(str(b)))
    sa = {w[:5] for w in ta if len(w) > 2 or any(c.isdigit() for c in w)}
    sb = {w[:5] for w in tb if len(w) > 2 or any(c.isdigit() for c in w)}
    return bool(sa & sb) or not sa or not sb


def _figures(value: Any) -> frozenset[frozenset[str]]:
    """The figures of a value, each as its normal forms (so "€8,000" and 8000 are one figure)."""
    return frozenset(frozenset(forms) for _, forms in extract_figures(str(value)))


def _covers(a: frozenset[frozenset[str]], b: frozenset[frozenset[str]]) -> bool:
    """Every figure of ``a`` is one of ``b`` in some form ("June 4" is "2026-06-04")."""
    return all(any(x & y for y in b) for x in a)


def _rejection_json(r: Mapping[str, Any]) -> str:
    return json.dumps({k: r.get(k) for k in ("text", "key", "value", "reason")}, ensure_ascii=False, sort_keys=True)


def llm_prejudge(llm: Callable[[], LLMClient]) -> PreJudge:
    """The verdict of the ``llm_judge`` strategy, asked before the write transaction with the two
    agents' authority (:func:`belief_graph.policies.llm_judge.judge`)."""

    def decide(c: ConflictService, key: str, incumbent: Claim, data: ClaimInput) -> Decision:
        client = llm()
        weights = c.policy_repo.match_authority(key, [incumbent.agent, data.agent])
        return judge(client, key, incumbent, data, weights)

    return decide
