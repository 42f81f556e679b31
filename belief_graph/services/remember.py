"""``remember``: free text in, typed self-contained facts out, through the same write path.

The flow for one call (``docs/policies.md`` has the rationale):

1. candidate keys for the prompt: the registry keys closest to the latest turn (vector index on
   ``Fact.embedding``), capped at ``policy.key_candidates`` — never the whole registry;
2. **extract** (one LLM call): facts of the latest turn (earlier turns are context only);
   **grounding** (``policy.ground_extraction``, on by default): a turn of small talk only makes no
   call and stores no fact; every other turn (questions and requests too: they state facts in
   their clauses) is extracted, and an extracted fact that the turn's asserting clauses do not
   state is refused (``services/extraction_grounding.py``) — each refusal, with its reason, is
   returned in ``RememberResult.rejected`` and kept on the episode (``Episode.rejections``);
3. **key resolution** for keys the space does not know yet: the closest active claim under another
   key aligns the fact to that key above ``policy.key_align_threshold``; between
   ``key_ask_threshold`` and that, **disambiguate** (one batched LLM call) decides; below, the new
   key is kept;
4. **pass 1** (one batched **classify** call): facts whose value differs from the writer's own
   current belief (or, without a key, that are close to one of the writer's active claims) are
   classified NOOP / UPDATE / REPLACE / ADD;
5. one write transaction: the episode, then every surviving fact through
   :meth:`BeliefService.write_prepared` (pass 2 against other agents by the key's strategy), each
   claim carrying the provenance of the prompts and model that produced it.

Every LLM call happens before the transaction; an invalid model output raises ``EncodingError``
and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from ..db.driver import Tx
from ..errors import ValidationError
from ..llm import LLMClient
from ..models import KEY_RE, Claim, ClaimInput, Episode, WriteOp, WriteResult, new_id
from ..policies import Decision, judge, same_value
from .beliefs import BeliefService, _iso
from .conflicts import ConflictService, PreJudge
from .extraction_grounding import as_value, check_fact, turn_kind

__all__ = ["RememberResult", "RememberService", "llm_prejudge"]


class ResolvedKey(BaseModel):
    proposed: str | None
    key: str | None
    how: str  # known | new | aligned | asked | kept | none | dropped
    score: float | None = None


class RememberResult(BaseModel):
    """What ``remember`` did: the stored episode and one write result per extracted fact."""

    episode: Episode
    results: list[WriteResult] = Field(default_factory=list)
    keys: list[ResolvedKey] = Field(default_factory=list)
    skipped: list[dict[str, Any]] = Field(default_factory=list)
    """Facts not written (NOOP by classification), with the rationale."""
    rejected: list[dict[str, Any]] = Field(default_factory=list)
    """Facts refused by grounding (text, key, value, reason): the turn does not state them."""
    warnings: list[str] = Field(default_factory=list)
    extracted: bool = True
    """Whether the turn reached extraction (False only for a turn of small talk)."""


Message = str | Mapping[str, Any]


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


class RememberService:
    def __init__(self, beliefs: BeliefService, llm: Callable[[], LLMClient]) -> None:
        self.beliefs = beliefs
        self.llm = llm

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
        rejected: list[dict[str, Any]] = []
        if grounding and turn_kind(latest["text"]) == "small_talk":  # greetings and thanks only: no call
            reason = "the turn is small talk: it states no fact"
            rejected.append({"text": latest["text"], "key": None, "value": None, "reason": reason})
            return self._store_only(latest["text"], agent, conversation, at, rejected)
        llm = self.llm()

        # 1. candidate keys by vector similarity, capped
        candidates = [k for k, _, _ in b.similar_keys(latest["text"], k=policy.key_candidates)]
        # 2. extract, then refuse what the turn does not state
        extraction = llm.extract(turns, known_keys=candidates)
        prov: dict[str, Any] = extraction.provenance.as_properties()
        facts = []
        for f in extraction.output.facts:
            if f.source != latest["id"]:
                continue
            check = check_fact(f.key, f.value, f.text, latest["text"]) if grounding else None
            if check is not None and not check.grounded:
                rejected.append({"text": f.text, "key": f.key, "value": f.value, "reason": check.reason})
            else:
                facts.append(f)
        warnings: list[str] = []
        resolved: list[ResolvedKey] = []
        kept: list[dict[str, Any]] = []
        for f in facts:
            key = f.key
            if key is not None and (len(key) > 256 or not KEY_RE.match(key)):
                warnings.append(f"extracted key {key!r} is malformed; stored as a statement without a key")
                resolved.append(ResolvedKey(proposed=key, key=None, how="dropped"))
                key = None
            value = as_value(f.value) if key is not None else None
            kept.append({"fact": f, "key": key, "value": value, "vector": b.embed_many([f.text])[0]})
        # 3. key resolution for new keys
        proposed = [k["key"] for k in kept if k["key"] is not None]
        known = b.facts.existing(proposed) if proposed else set()
        ask: list[tuple[dict[str, Any], list[str], float]] = []
        for k in kept:
            key = k["key"]
            if key is None:
                resolved.append(ResolvedKey(proposed=None, key=None, how="none"))
                continue
            if key in known:
                resolved.append(ResolvedKey(proposed=key, key=key, how="known"))
                continue
            near = [(c, s) for c, s in b.facts.similar_claims(k["vector"], k=3) if c.key and c.key != key]
            if not near:
                resolved.append(ResolvedKey(proposed=key, key=key, how="new"))
                continue
            top, score = near[0]
            if score >= policy.key_align_threshold:
                resolved.append(ResolvedKey(proposed=key, key=top.key, how="aligned", score=score))
                k["key"] = top.key
            elif score >= policy.key_ask_threshold:
                options = list(dict.fromkeys([c.key for c, _ in near if c.key] + candidates))[: policy.key_candidates]
                ask.append((k, options, score))
            else:
                resolved.append(ResolvedKey(proposed=key, key=key, how="kept", score=score))
        if ask:
            known_keys = list(dict.fromkeys(o for _, opts, _ in ask for o in opts))[: policy.key_candidates]
            choice = llm.disambiguate(
                [{"id": f"f{i}", "text": k["fact"].text, "proposed_key": k["key"]} for i, (k, _, _) in enumerate(ask)],
                known_keys=known_keys,
            )
            by_item = {ch.item: ch for ch in choice.output.items}
            for i, (k, _, score) in enumerate(ask):
                pick = by_item.get(f"f{i}")
                chosen = pick.key if pick is not None and KEY_RE.match(pick.key) else k["key"]
                resolved.append(ResolvedKey(proposed=k["key"], key=chosen, how="asked", score=score))
                k["key"] = chosen
        # value types follow the (possibly re-aligned) key: a value of another type than the key
        # holds is converted when it says the same ("1,350" for a number key), else refused
        typed = b.facts.value_types([k["key"] for k in kept if k["key"] is not None and k["value"] is not None])
        fitting = []
        for k in kept:
            held = typed.get(k["key"]) if k["key"] is not None else None
            if held is not None and k["value"] is not None and _type_of(k["value"]) != held:
                fitted = _fit(k["value"], held)
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
        # 4. pass 1: classify against the writer's own active claims
        items: list[dict[str, Any]] = []
        for i, k in enumerate(kept):
            f = k["fact"]
            own: list[Claim] = []
            if k["key"] is not None:
                cur = b.belief(k["key"])
                if cur is not None and cur.agent == agent and not same_value(cur.value, k["value"]):
                    own = [cur]
            else:
                own = [
                    c for c, s in b.facts.similar_claims(k["vector"], k=3, agent=agent) if s >= policy.key_ask_threshold
                ]
            if own:
                items.append(
                    {
                        "id": f"n{i}",
                        "claim": {"key": k["key"], "value": k["value"], "text": f.text, "agent": agent},
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
                if cl.action == "NOOP":
                    kept[i]["skip"] = cl
                    skipped.append({"text": kept[i]["fact"].text, "target": cl.target_id, "rationale": cl.rationale})
                elif cl.action == "REPLACE":
                    hints[i] = WriteOp.REPLACE
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
                text=f.text,
                agent=agent,
                kind=f.kind,
                evidence=[episode_id],
                confidence=f.confidence,
            )
            prepared.append((i, b.prepare(data)))
        verdicts: dict[str, Decision] = {}
        for _, p in prepared:
            verdicts.update(b.conflicts.pre_verdicts(p["data"]))

        def work(tx: Tx) -> RememberResult:
            ep = b.episodes.create(
                id=episode_id,
                text=latest["text"],
                agent=agent,
                agent_kind="user" if agent.startswith("user") else "agent",
                conversation=conversation,
                at=_iso(at),
                tx=tx,
                rejections=[_rejection_json(r) for r in rejected],
            )
            results = [
                b.write_prepared(tx, p, props=prov, op_hint=hints.get(i), verdicts=verdicts) for i, p in prepared
            ]
            return RememberResult(
                episode=ep, results=results, keys=resolved, skipped=skipped, rejected=rejected, warnings=warnings
            )

        return b.graph.write_tx(work, name="beliefs.remember")

    def _store_only(
        self, text: str, agent: str, conversation: str | None, at: datetime | None, rejected: list[dict[str, Any]]
    ) -> RememberResult:
        """The episode alone (it was said), with why nothing was extracted from it."""
        b = self.beliefs

        def work(tx: Tx) -> RememberResult:
            ep = b.episodes.create(
                id=new_id(),
                text=text,
                agent=agent,
                agent_kind="user" if agent.startswith("user") else "agent",
                conversation=conversation,
                at=_iso(at),
                tx=tx,
                rejections=[_rejection_json(r) for r in rejected],
            )
            return RememberResult(episode=ep, rejected=rejected, extracted=False)

        return b.graph.write_tx(work, name="beliefs.remember")


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else "string"


def _fit(value: Any, known: str) -> Any:
    """``value`` as the type a key holds, when it says exactly that ("1,350" -> 1350, "yes" -> True,
    7 -> "7"); ``None`` when it does not."""
    if known == "string":
        return str(value).lower() if isinstance(value, bool) else str(value)
    if known == "number" and isinstance(value, str):
        text = value.strip().replace(",", "").replace("_", "")
        try:
            n = float(text)
        except ValueError:
            return None
        return int(n) if n.is_integer() else n
    if known == "boolean" and isinstance(value, str):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.strip().lower())
    return None


def _rejection_json(r: Mapping[str, Any]) -> str:
    return json.dumps({k: r.get(k) for k in ("text", "key", "value", "reason")}, ensure_ascii=False, sort_keys=True)


def llm_prejudge(llm: Callable[[], LLMClient]) -> PreJudge:
    """The verdict of the ``llm_judge`` strategy, asked before the write transaction with the two
    agents' authority (:func:`belief_graph.policies.llm_judge.judge`)."""

    def decide(c: ConflictService, key: str, incumbent: Claim, data: ClaimInput) -> Decision:
        client = llm()
        weights = c.policies.match_authority(key, [incumbent.agent, data.agent])
        return judge(client, key, incumbent, data, weights)

    return decide
