"""``belief-graph bench memory``: the path from conversation to beliefs, measured end to end.

Each item of the suite (``memory_suite.py``, ``lab/belief_graph_lab/data/memory/``) is played into a fresh
memory space the way an agent uses the engine: the setup (agents, authority, policies, rules, world
facts), then every turn in order through ``remember`` (the session's earlier turns as context, the
turn's time as ``at``; an agent's ``derive`` step through ``derive`` on the current beliefs of its
premises), then the questions through ``answer``, ``context``, ``belief`` or ``as_of``. The same
items run on up to three models, side by side: ``scripted`` (the gold facts: plumbing),
``noisy`` (the gold facts perturbed at stated rates: the engine's own robustness) and ``live``
(the configured chat model). Scores per category and model (rates as fractions, ``None`` where a
figure does not apply):

* ``correct``: questions answered right (the expected value given and no stale one; ``unknown``
  when memory does not hold the answer; either side of a conflict);
* ``keys_per_fact``: distinct keys the claims of one gold fact were stored under (1 is the goal;
  a claim without a key counts as a key of its own), over the gold facts stored at all;
* ``surfaced``: of the items whose question needs a conflict surfaced, those where an open dispute
  holds the fact or the answer gives both sides;
* ``stale_in_context``: questions whose working context holds a stale value (an earlier version,
  a hypothetical, a losing side);
* ``false_stored``: written claims that state nothing the turn asserts (of all written claims);
* ``dropped_turns``: turns that state a gold fact and reached no extraction (the engine did not
  pass them to the model);
* ``unreadable_turns``: turns that state a gold fact, reached the model and got no usable reply
  (invalid after the repair retries, or timed out): the model's loss, not the engine's; ``remember``
  raises and writes nothing for them;
* ``unknown_with_gold``: ``answer`` said unknown although its context held the expected value;
* ``conflated``: gold facts stored under a key that also holds another gold fact;
* ``correct_when_said``: ``correct`` over the questions whose expected value the model said at
  least once (written or refused): what the engine made of what the model gave it.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from belief_graph.embeddings import Embedder
from belief_graph.errors import BeliefGraphError, EncodingError, LLMUnavailable
from belief_graph.facade import BeliefGraph
from belief_graph.llm import ChatModel
from belief_graph.llm.jobs import ExtractedFact
from belief_graph.models import WriteOp
from belief_graph.models.support import WorkingContext
from belief_graph.repositories import AdminRepository
from belief_graph.services.identity import compatible, shape
from belief_graph.services.turns.extraction_grounding import check_fact
from belief_graph.services.turns.fact_grounding import ground_fact
from belief_graph.settings import Settings

from .llm_quality import value_matches
from .memory_models import Noise, cite, gold_model, matches_any
from .memory_suite import CATEGORIES, Item, Question, Statement

__all__ = ["GOALS", "MODELS", "ItemResult", "grounding_on_suite", "read_journal", "run_item", "run_memory", "summarize"]

MODELS = ("scripted", "noisy", "live")
GOALS: dict[str, tuple[str, float, str]] = {
    "dropped_turns": ("<=", 0.0, "dropped turns 0"),
    "keys_per_fact": ("<=", 1.05, "keys per gold fact <= 1.05"),
    "update_correct": (">=", 0.95, "updates answered with the new value >= 0.95"),
    "surfaced": (">=", 0.9, "contradictions surfaced >= 0.9"),
    "stale_in_context": ("<=", 0.0, "stale values in context 0"),
    "false_stored": ("<=", 0.02, "false-stored facts <= 2%"),
}
"""The goals of the noisy extractor at its default rates (figure -> (comparison, bound, wording))."""


@dataclass
class ItemResult:
    """One item played on one model: the counts its category's scores are made of."""

    item: str
    category: str
    model: str
    questions: int = 0
    correct: int = 0
    fact_turns: int = 0
    dropped: int = 0
    unreadable: int = 0
    written: int = 0
    false_stored: int = 0
    facts_stored: int = 0
    keys: int = 0
    conflated: int = 0
    conflict_items: int = 0
    surfaced: int = 0
    context_questions: int = 0
    stale_in_context: int = 0
    answer_questions: int = 0
    unknown_with_gold: int = 0
    said_questions: int = 0
    """Questions whose expected value the model said at least once (written or refused)."""
    said_correct: int = 0
    calls: int = 0
    seconds: float = 0.0
    chat_model: str = ""
    """The name of the model the item was played on (empty in journals written before it was kept)."""
    errors: list[str] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    """Per question: what was asked, what came back, and the verdict (for reading a run)."""
    trace: list[dict[str, Any]] = field(default_factory=list)
    """Per turn: the facts written (key, value, op, gold fact), refused (with the reason) and how
    their keys were resolved (for reading a run)."""

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# -- playing one item ---------------------------------------------------------------------------


def _setup(bg: BeliefGraph, item: Item) -> None:
    s = item.setup
    for a in s.agents:
        bg.beliefs.add_agent(a.id, kind=a.kind)
        if a.authority is not None:
            bg.conflicts.set_authority(a.id, "*", a.authority)
    for p in s.policies:
        bg.conflicts.set_policy(p.pattern, p.strategy)
    for w in s.world:
        bg.assert_claim(w.key, w.value, w.text, agent=w.agent)
    for spec in s.rules:
        bg.rules.add(spec)


@dataclass
class _Written:
    claim_id: str
    key: str | None
    value: Any
    text: str
    op: str
    turn: tuple[int, int]
    fact: str | None = None


def _match(item: Item, states: Sequence[Statement], w: _Written) -> str | None:
    """The gold fact of the turn a written claim states (by value; by key among equals)."""
    hits: list[Statement] = []
    for s in states:
        accepted = [s.value, *s.aliases]
        if w.value is not None:
            ok = matches_any(w.value, accepted) or any(value_matches(w.value, a) for a in accepted)
        else:
            ok = any(not isinstance(a, bool) and value_matches(a, w.text) for a in accepted)
        if ok:
            hits.append(s)
    if not hits:
        return None
    same = [s for s in hits if item.facts[s.fact].key == w.key]
    return (same or hits)[0].fact


def _premises(bg: BeliefGraph, written: list[_Written], facts: Sequence[str]) -> list[str] | None:
    """The current beliefs of the gold facts a derive step rests on (None when one is missing)."""
    ids = []
    for f in facts:
        cands = [w for w in reversed(written) if w.fact == f]
        found = None
        for w in cands:
            c = bg.beliefs.claim(w.claim_id)
            if c.status == "active":
                found = c.id
                break
        if found is None:
            return None
        ids.append(found)
    return ids


def _mentions(claim_value: Any, text: str, v: Any) -> bool:
    if claim_value is not None and value_matches(v, claim_value):
        return True
    return not isinstance(v, bool) and value_matches(v, text)


def _context_verdict(
    ctx: WorkingContext | None,
    q: Question,
    others: Collection[str],
    world: Collection[str] = (),
    seen: list[str] | None = None,
) -> tuple[bool, bool, bool]:
    """(first item giving a wanted value gives an expected one, a stale value is in the context,
    the expected value is in the context). ``others``: keys that hold other gold facts only (a
    sister's city "Lisbon" is not a stale value of the user's city); ``world``: the setup's world
    facts ("Lisbon is in Portugal" is not a stale conclusion about the user)."""
    if ctx is None:
        return False, False, False
    first_ok: bool | None = None
    stale = gold = False
    for it in ctx.items:
        c = it.claim
        if (c.key is not None and c.key in others) or (c.key is not None and c.key in world):
            continue
        has_exp = any(_mentions(c.value, c.text, v) for v in q.expect)
        has_stale = any(_mentions(c.value, c.text, v) for v in q.stale)
        if has_exp:
            gold = True
        if has_stale and not has_exp:
            stale = True
            if seen is not None:
                seen.append(f"{c.key} = {c.value!r}: {c.text}")
        if first_ok is None and (has_exp or has_stale):
            first_ok = has_exp and not has_stale
    return bool(first_ok), stale, gold


def _says(text: str, values: Iterable[Any]) -> bool:
    return any(not isinstance(v, bool) and value_matches(v, text) for v in values)


def _resolve(bg: BeliefGraph, key: str) -> str:
    """The key the fact is stored under, as an agent naming facts its own way finds it
    (``bg.keys.identify``: an alias followed, else the fact whose key says the same attribute)."""
    return bg.keys.identify(key) or key


def _as_of(bg: BeliefGraph, key: str, at: datetime) -> Any:
    """What was true at ``at`` (valid time: when the turns said facts became true)."""
    return bg.beliefs.as_of(key, at, basis="valid")


def run_item(
    settings: Settings, item: Item, model_name: str, chat_model: ChatModel, embedder: Embedder, run: str
) -> ItemResult:
    """Play ``item`` into a fresh space with ``chat_model`` and score it (the space is deleted)."""
    res = ItemResult(item.id, item.category, model_name, chat_model=chat_model.name)
    space = f"bench-mem-{run}-{model_name}-{item.id}"
    t0 = time.perf_counter()
    with BeliefGraph.connect(space=space, settings=settings, embedder=embedder, chat_model=chat_model) as bg:
        try:
            _play(bg, item, res)
            res.calls = bg.llm_usage().llm.total.calls if bg.__dict__.get("llm") is not None else 0
        finally:
            AdminRepository(bg.graph, space).delete_space_batched(space)
    res.seconds = round(time.perf_counter() - t0, 3)
    return res


def _play(bg: BeliefGraph, item: Item, res: ItemResult) -> None:
    _setup(bg, item)
    written: list[_Written] = []
    history: list[dict[str, str]] = []
    session = -1
    for si, ti, at, turn in item.turns():
        if si != session:
            session, history = si, []
        if turn.derive is not None:
            ids = _premises(bg, written, turn.derive.premises)
            if ids is None:
                res.errors.append(f"s{si}t{ti}: derive skipped: a premise is not stored as an active belief")
                continue
            bg.derive(turn.derive.text, ids, turn.derive.key, agent=turn.agent, at=at)
            continue
        msg = {"role": "assistant" if turn.agent == "assistant" else "user", "name": turn.agent, "content": turn.text}
        if turn.agent == "assistant":
            history.append(msg)
            continue
        if turn.states:
            res.fact_turns += 1
        try:
            r = bg.remember([*history[-4:], msg], agent=turn.agent, conversation=f"{item.id}-s{si}", at=at)
        except LLMUnavailable:
            raise
        except BeliefGraphError as exc:
            res.errors.append(f"s{si}t{ti}: {type(exc).__name__}: {str(exc)[:200]}")
            if turn.states and isinstance(exc, EncodingError):
                res.unreadable += 1
            elif turn.states:
                res.dropped += 1
            history.append(msg)
            continue
        if turn.states and not r.extracted:
            res.dropped += 1
        step: dict[str, Any] = {"turn": f"s{si}t{ti}", "written": [], "refused": [], "keys": []}
        for wr in r.results:
            c = wr.claim
            w = _Written(c.id, c.key, c.value, c.text, wr.op.value, (si, ti))
            w.fact = _match(item, turn.states, w)
            written.append(w)
            step["written"].append([c.key, c.value, wr.op.value, w.fact])
            if wr.op is not WriteOp.NOOP:
                res.written += 1
                if w.fact is None:
                    res.false_stored += 1
        step["refused"] = [[x["key"], x["value"], x["reason"]] for x in r.rejected]
        step["keys"] = [[k.proposed, k.key, k.how, k.relation] for k in r.keys if k.how not in ("known", "new", "none")]
        res.trace.append(step)
        history.append(msg)
    _identity(item, written, res)
    _questions(bg, item, written, res)


def _identity(item: Item, written: list[_Written], res: ItemResult) -> None:
    keys_of: dict[str, set[str]] = {}
    facts_of_key: dict[str, set[str]] = {}
    for w in written:
        if w.fact is None:
            continue
        k = w.key if w.key is not None else f"<no key: {w.claim_id}>"
        keys_of.setdefault(w.fact, set()).add(k)
        facts_of_key.setdefault(k, set()).add(w.fact)
    res.facts_stored = len(keys_of)
    res.keys = sum(len(v) for v in keys_of.values())
    res.conflated = sum(1 for f, ks in keys_of.items() if any(len(facts_of_key[k]) > 1 for k in ks))


def _questions(bg: BeliefGraph, item: Item, written: list[_Written], res: ItemResult) -> None:
    keys_of: dict[str, set[str]] = {}
    for w in written:
        if w.fact is not None and w.key is not None:
            keys_of.setdefault(w.fact, set()).add(w.key)
    facts_of: dict[str, set[str]] = {}
    for f, ks in keys_of.items():
        for k in ks:
            facts_of.setdefault(k, set()).add(f)
    surfaced_item: bool | None = None
    for q in item.questions:
        res.questions += 1
        note: dict[str, Any] = {"ask": q.ask, "via": q.via}
        ok = False
        try:
            if q.via in ("answer", "context"):
                others = {k for k, fs in facts_of.items() if q.fact is not None and q.fact not in fs}
                if q.fact is not None:  # another party's or another subject's fact is not a stale value of this one
                    gold = shape(item.facts[q.fact].key)
                    others |= {w.key for w in written if w.key and not compatible(shape(w.key), gold, None, None)}
                ok = _ask_text(bg, q, res, note, others, {w.key for w in item.setup.world})
            else:
                ok = _ask_key(bg, item, q, note)
        except LLMUnavailable:
            raise
        except BeliefGraphError as exc:
            note["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
            res.errors.append(f"question {q.ask!r}: {note['error']}")
        if q.conflict:
            fact_keys = keys_of.get(q.fact, set()) if q.fact else set()
            open_keys = {d.key for d in bg.conflicts.disputes("open")}
            both = bool(note.get("conflict_in_answer"))
            got = bool(open_keys & fact_keys) or (q.fact is None and bool(open_keys)) or both
            surfaced_item = got if surfaced_item is None else (surfaced_item or got)
            note["surfaced"] = got
        res.correct += int(ok)
        note["correct"] = ok
        if q.expect and not q.unknown and _said(res.trace, list(q.expect)):
            res.said_questions += 1
            res.said_correct += int(ok)
        res.notes.append(note)
    if surfaced_item is not None:
        res.conflict_items = 1
        res.surfaced = int(surfaced_item)


def _said(trace: Sequence[Mapping[str, Any]], expect: list[Any]) -> bool:
    """Did the model ever give one of the expected values (whatever became of it)?"""
    values = [w[1] for step in trace for w in step["written"]] + [x[1] for step in trace for x in step["refused"]]
    return any(v is not None and value_matches(e, v) for e in expect for v in values)


def _ask_text(
    bg: BeliefGraph, q: Question, res: ItemResult, note: dict[str, Any], others: Collection[str], world: Collection[str]
) -> bool:
    res.context_questions += 1
    if q.via == "context":
        ctx = bg.context(query=q.ask)
        seen: list[str] = []
        first_ok, stale, _ = _context_verdict(ctx, q, others, world, seen)
        note["stale_items"] = seen
        res.stale_in_context += int(stale)
        note["context"] = [i.claim.text for i in ctx.items[:5]]
        return (
            (not stale and not any(_mentions(i.claim.value, i.claim.text, v) for i in ctx.items for v in q.stale))
            if q.unknown
            else first_ok
        )
    res.answer_questions += 1
    a = bg.answer(q.ask)
    ctx = a.context if a.context is not None else bg.context(query=q.ask)
    seen = []
    _, stale, gold = _context_verdict(ctx, q, others, world, seen)
    note["stale_items"] = seen
    res.stale_in_context += int(stale)
    note.update(status=a.status, text=a.text, reason=a.reason)
    if a.status == "unknown":
        res.unknown_with_gold += int(gold and not q.unknown)
        return q.unknown
    if q.unknown:
        return False
    cited = [c.value for c in a.cited if c.value is not None]

    def gives(values: list[Any]) -> bool:  # said in the text, or the value of a cited belief (a boolean)
        return _says(a.text, values) or any(value_matches(v, c) for v in values for c in cited)

    if q.conflict:
        given = [v for v in q.expect if gives([v])]
        note["conflict_in_answer"] = len({str(v).lower() for v in given}) > 1 or len(a.citations) > 1
        return bool(given)
    earlier = [v for v in q.stale if not _says(str(v), q.expect)]  # not a part of an expected answer
    return gives(list(q.expect)) and not gives(earlier)


def _ask_key(bg: BeliefGraph, item: Item, q: Question, note: dict[str, Any]) -> bool:
    assert q.fact is not None
    key = _resolve(bg, item.facts[q.fact].key)
    note["key"] = key
    claim = bg.belief(key) if q.via == "belief" else _as_of(bg, key, q.at)  # type: ignore[arg-type]
    note["value"] = None if claim is None else claim.value
    if claim is None:
        return q.unknown
    if q.unknown:
        return not matches_any(claim.value, list(q.stale))
    return matches_any(claim.value, list(q.expect)) or any(value_matches(v, claim.value) for v in q.expect)


# -- the whole run --------------------------------------------------------------------------------


def read_journal(journal: Path | None) -> dict[tuple[str, str], ItemResult]:
    """The finished items of a journal by (model, item id); none when there is no journal yet."""
    done: dict[tuple[str, str], ItemResult] = {}
    if journal is not None and journal.exists():
        for line in journal.read_text(encoding="utf-8").splitlines():
            if line.strip():
                d = json.loads(line)
                done[(d["model"], d["item"])] = ItemResult(**d)
    return done


def run_memory(
    settings: Settings,
    items: Sequence[Item],
    models: Sequence[str],
    *,
    embedder: Embedder,
    live_model: Callable[[], ChatModel] | None = None,
    noise: Noise | None = None,
    journal: Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[ItemResult]:
    """Every item on every model; ``journal``: a JSON-lines file of finished items (an interrupted
    run picks up where it stopped)."""
    done = read_journal(journal)
    run = uuid.uuid4().hex[:8]
    out: list[ItemResult] = []
    live: ChatModel | None = None
    total = len(items) * len(models)
    n = 0
    for m in models:
        for item in items:
            n += 1
            if (m, item.id) in done:
                out.append(done[(m, item.id)])
                continue
            if progress is not None:
                progress(m, n, total)
            if m == "live":
                if live is None:
                    if live_model is None:
                        raise LLMUnavailable("bench memory --model live needs a configured chat model")
                    live = live_model()
                chat = live
            else:
                chat = gold_model(item, (noise or Noise()) if m == "noisy" else None)
            r = run_item(settings, item, m, chat, embedder, run)
            out.append(r)
            if journal is not None:
                with journal.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(r.as_dict(), default=str) + "\n")
    return out


def grounding_on_suite(items: Sequence[Item]) -> dict[str, dict[str, Any]]:
    """Extraction grounding alone, no model: of the suite's gold statements, how many it refuses
    (each checked against its own turn under its gold key); of its traps (and of the assistant's
    suggestions, offered as the next user turn's facts), how many it lets through. Split into the
    items with odd numbers (the half the clause rules were developed on) and even ones (held out).
    ``*_cited``: the same with the evidence the stand-in models cite (:func:`cite`) and inferences
    taken on it (``policy.inferences = any``; no memory held, so what an edit of a held value grounds
    is not counted): what inferences give back of the gold, and what they let through of the traps."""
    out: dict[str, dict[str, Any]] = {}

    def cited(key: str, value: Any, text: str, turn: str, evidence: str | None, user: bool, at: Any) -> bool:
        f = ExtractedFact(source="t", key=key, value=value, text=text, kind="semantic", confidence=0.9,
                          evidence=cite(turn, text, evidence))  # fmt: skip
        return ground_fact(f, turn, user=user, at=at, held=lambda _: None).check.grounded

    for half, odd in (("odd", 1), ("even", 0)):
        gold = refused = traps = accepted = refused_cited = accepted_cited = 0
        for item in items:
            if int(item.id[-3:]) % 2 != odd:
                continue
            said = list(item.turns())
            turns = [t for _, _, _, t in said]
            for i, t in enumerate(turns):
                if t.agent == "assistant" or t.derive is not None:
                    continue
                user, at = t.agent.startswith("user"), said[i][2]
                for st in t.states:
                    gold += 1
                    key = item.facts[st.fact].key
                    refused += not check_fact(key, st.value, st.text, t.text, speaker_is_user=user, at=at).grounded
                    refused_cited += not cited(key, st.value, st.text, t.text, st.evidence, user, at)
                offered = list(t.traps) + (list(turns[i - 1].traps) if i and turns[i - 1].agent == "assistant" else [])
                for tr in offered:
                    traps += 1
                    accepted += check_fact(tr.key, tr.value, tr.text, t.text, speaker_is_user=user, at=at).grounded
                    accepted_cited += cited(tr.key, tr.value, tr.text, t.text, None, user, at)
        out[half] = {
            "gold": gold,
            "gold_refused": _rate(refused, gold),
            "traps": traps,
            "traps_accepted": _rate(accepted, traps),
            "gold_refused_cited": _rate(refused_cited, gold),
            "traps_accepted_cited": _rate(accepted_cited, traps),
        }
    return out


def _rate(num: float, den: float) -> float | None:
    return round(num / den, 4) if den else None


def summarize(results: Sequence[ItemResult]) -> list[dict[str, Any]]:
    """One row per category and model (and an ``all`` row per model)."""
    rows = []
    models = list(dict.fromkeys(r.model for r in results))
    for m in models:
        for cat in (*CATEGORIES, "all"):
            rs = [r for r in results if r.model == m and (cat == "all" or r.category == cat)]
            if not rs:
                continue
            tot = {
                k: sum(getattr(r, k) for r in rs)
                for k in ItemResult.__dataclass_fields__
                if k not in ("item", "category", "model", "errors", "notes", "trace", "seconds", "chat_model")
            }
            rows.append(
                {
                    "category": cat,
                    "model": m,
                    "items": len(rs),
                    "questions": tot["questions"],
                    "correct": _rate(tot["correct"], tot["questions"]),
                    "correct_when_said": _rate(tot["said_correct"], tot["said_questions"]),
                    "keys_per_fact": _rate(tot["keys"], tot["facts_stored"]),
                    "surfaced": _rate(tot["surfaced"], tot["conflict_items"]),
                    "stale_in_context": _rate(tot["stale_in_context"], tot["context_questions"]),
                    "false_stored": _rate(tot["false_stored"], tot["written"]),
                    "dropped_turns": _rate(tot["dropped"], tot["fact_turns"]),
                    "unreadable_turns": _rate(tot["unreadable"], tot["fact_turns"]),
                    "unknown_with_gold": _rate(tot["unknown_with_gold"], tot["answer_questions"]),
                    "conflated": _rate(tot["conflated"], tot["facts_stored"]),
                    "written": tot["written"],
                    "calls": tot["calls"],
                    "errors": sum(len(r.errors) for r in rs),
                    "seconds": round(sum(r.seconds for r in rs), 1),
                }
            )
    return rows


def goals(rows: Sequence[Mapping[str, Any]], model: str = "noisy") -> list[dict[str, Any]]:
    """The issue's goals judged on ``model``'s rows (``all`` for every figure but updates)."""
    by_cat = {r["category"]: r for r in rows if r["model"] == model}
    if "all" not in by_cat:
        return []
    out = []
    for name, (cmp, bound, wording) in GOALS.items():
        if name == "update_correct":
            value = by_cat.get("update", {}).get("correct")
        elif name == "surfaced":
            vals = [by_cat[c]["surfaced"] for c in ("contradiction", "multi_agent") if c in by_cat]
            value = by_cat["all"]["surfaced"] if vals else None
        else:
            value = by_cat["all"].get(name)
        met = None if value is None else (value <= bound if cmp == "<=" else value >= bound)
        out.append({"goal": wording, "figure": name, "model": model, "value": value, "met": met})
    return out
