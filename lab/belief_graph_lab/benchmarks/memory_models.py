"""The stand-in models of ``belief-graph bench memory``: a scripted one that answers with the gold
facts (plumbing: every miss is the engine's), and a **noisy extractor** that answers with the gold
facts perturbed the way models drift — so the engine's own robustness is measured apart from any
model. Both are deterministic (seeded per item and turn) and play every job ``remember`` and
``answer`` call:

* ``extract``: the gold statements of the latest turn; the noisy one renames keys (a synonym the
  item lists, a nesting ``user.profile.city``, a flattening ``user.sister_age``, a plural or
  singular last segment), says a value in another of its forms (an alias), drops facts and adds
  facts the turn does not assert (a trap of the turn, the assistant's suggestion before it, an
  earlier statement carried over from the conversation), each at a stated rate (:class:`Noise`);
* every fact they give (gold, trap or carried over) cites as ``evidence`` the piece of the turn
  (a sentence, or a part of it between commas and dashes) that shares most content words with the
  fact's statement, or the statement's own ``evidence`` where the suite gives one; none when no
  piece shares a word — as a model cites what it concluded from, right or wrong;
* ``revisit``: a held belief changed when the turn has a gold statement of its fact with another
  value (the noisy one drops it and says another form at the extraction's rates, drawn anew);
* ``disambiguate``: the candidate key that holds the same gold fact when one is shown (the noisy
  one keeps its own key instead at ``choose_error``);
* ``classify``: from the gold relation of the statement (restate -> NOOP, update/correction ->
  UPDATE, contradiction -> REPLACE, new -> ADD); the noisy one swaps UPDATE and REPLACE and
  answers NOOP for a change at ``classify_error``;
* ``answer``: a reader that trusts the engine's order: the first belief of the working context
  that gives any value of the asked fact (current or stale), cited; both sides when the context
  shows a conflict; ``unknown`` when none does. So an answer is right exactly when the context
  puts the current value before any stale one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from belief_graph.llm import ScriptedModel
from belief_graph.services.turns.stems import content_stems

from .llm_quality import value_matches
from .memory_suite import FactDef, GoldValue, Item, Question, Statement, Turn

__all__ = ["Noise", "cite", "drift_variants", "gold_model", "matches_any"]


@dataclass(frozen=True)
class Noise:
    """Rates of the noisy extractor (per gold fact unless said otherwise)."""

    key_drift: float = 0.35
    """A fact's key is renamed (synonym, nesting, flattening, plural/singular)."""
    value_alias: float = 0.25
    """A value is given in another of its forms, when the item lists one."""
    drop: float = 0.05
    """A stated fact is left out."""
    extra: float = 0.25
    """Per turn: one fact the turn does not assert is added (a trap, the assistant's suggestion, an
    earlier statement carried over)."""
    choose_error: float = 0.2
    """``disambiguate`` keeps the model's own key although a shown candidate holds the fact."""
    classify_error: float = 0.15
    """``classify`` swaps UPDATE and REPLACE, or calls a change a NOOP (a third of these)."""
    seed: int = 7

    def as_dict(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}


_CONTAINERS = ("profile", "info", "details", "personal", "about", "basic")
"""What a model nests a key under; the engine reads only the first three as words that carry no
meaning (services/identity.py), so the others must be told by the statement or asked."""


def _plural(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def drift_variants(fact: FactDef) -> list[str]:
    """Keys a model might name the fact with: the item's synonyms, then structural variants."""
    segs = fact.key.split(".")
    out = list(fact.drift)
    if len(segs) >= 2:
        out.append(".".join([*segs[:-1], _CONTAINERS[len(fact.key) % len(_CONTAINERS)], segs[-1]]))
        last = segs[-1].split("_")
        out.append(".".join([*segs[:-1], "_".join([*last[:-1], _plural(last[-1])])]))
    if len(segs) >= 3:
        out.append(".".join([*segs[:-2], f"{segs[-2]}_{segs[-1]}"]))
    return [k for k in dict.fromkeys(out) if k != fact.key]


def matches_any(value: Any, accepted: list[GoldValue]) -> bool:
    return any(value_matches(a, value) for a in accepted if a is not None)


def _text_mentions(text: str, value: GoldValue) -> bool:
    if isinstance(value, bool):
        return False
    return value_matches(value, text)


@dataclass
class _Emitted:
    """What the model said for one fact, so later jobs can recognise it."""

    fact: str | None
    statement: Statement | None
    key: str | None


@dataclass
class _State:
    item: Item
    noise: Noise | None
    by_turn: dict[tuple[str, str], tuple[int, int, Turn]] = field(default_factory=dict)
    emitted: dict[str, _Emitted] = field(default_factory=dict)
    """text -> what was emitted with it"""
    keys_of: dict[str, set[str]] = field(default_factory=dict)
    """gold fact -> every key the model used for it"""
    questions: dict[str, Question] = field(default_factory=dict)

    def rng(self, *parts: object) -> random.Random:
        seed = self.noise.seed if self.noise else 0
        return random.Random(":".join(str(p) for p in (seed, self.item.id, *parts)))

    def fact_of_key(self, key: str) -> str | None:
        for fid, keys in self.keys_of.items():
            if key in keys:
                return fid
        for fid, f in self.item.facts.items():
            if key == f.key or key in f.drift:
                return fid
        return None


def gold_model(item: Item, noise: Noise | None = None, name: str | None = None) -> ScriptedModel:
    """The scripted gold model of ``item`` (``noise`` None) or its noisy extractor."""
    st = _State(item, noise)
    for si, ti, _, t in item.turns():
        st.by_turn.setdefault((t.agent, t.text), (si, ti, t))
    st.questions = {q.ask: q for q in item.questions}
    model = ScriptedModel(name or ("noisy" if noise else "scripted"))
    model.respond("extract", lambda inputs: _extract(st, inputs))
    model.respond("revisit", lambda inputs: _revisit(st, inputs))
    model.respond("disambiguate", lambda inputs: _disambiguate(st, inputs))
    model.respond("classify", lambda inputs: _classify(st, inputs))
    model.respond("answer", lambda inputs: _answer(st, inputs))
    return model


# -- extract ------------------------------------------------------------------------------------


def _fact_json(source: str, key: str | None, value: Any, text: str, evidence: str | None) -> dict[str, Any]:
    return {
        "source": source,
        "key": key,
        "value": value,
        "text": text,
        "kind": "semantic",
        "confidence": 0.9,
        "evidence": evidence,
    }


_PIECES = re.compile(r"(?<=[.!?;])\s+|,\s+|\s+[-–—]\s+|\s*\(|\)\s*")


def cite(turn: str, statement: str, given: str | None = None) -> str | None:
    """The evidence a stand-in model cites for ``statement``: ``given``, else the piece of ``turn``
    sharing most content words with it (the first of equals), else None."""
    if given:
        return given
    want = content_stems(statement)
    best, hits = None, 0
    for piece in _PIECES.split(turn):
        piece = piece.strip().rstrip(".!?;:")
        n = len(content_stems(piece) & want)
        if n > hits:
            best, hits = piece, n
    return best


def _turn_of(st: _State, inputs: Mapping[str, Any]) -> tuple[int, int, Turn] | None:
    latest = inputs["turns"][-1]
    return st.by_turn.get((latest["agent"], latest["text"])) or next(
        (v for (a, txt), v in st.by_turn.items() if txt == latest["text"]), None
    )


def _extract(st: _State, inputs: Mapping[str, Any]) -> dict[str, Any]:
    latest = inputs["turns"][-1]
    found = _turn_of(st, inputs)
    if found is None:
        return {"facts": []}
    si, ti, turn = found
    facts: list[dict[str, Any]] = []
    n = st.noise
    for k, s in enumerate(turn.states):
        rng = st.rng(si, ti, k)
        if n is not None and rng.random() < n.drop:
            continue
        key = st.item.facts[s.fact].key
        if n is not None and rng.random() < n.key_drift:
            variants = drift_variants(st.item.facts[s.fact])
            if variants:
                key = rng.choice(variants)
        value: Any = s.value
        if n is not None and s.aliases and rng.random() < n.value_alias:
            value = rng.choice(s.aliases)
        st.emitted[s.text] = _Emitted(s.fact, s, key)
        st.keys_of.setdefault(s.fact, set()).add(key)
        facts.append(_fact_json(latest["id"], key, value, s.text, cite(turn.text, s.text, s.evidence)))
    if n is not None:
        rng = st.rng(si, ti, "extra")
        if rng.random() < n.extra:
            extra = _extra_fact(st, si, ti, turn, rng)
            if extra is not None:
                key, value, text = extra
                st.emitted.setdefault(text, _Emitted(None, None, key))
                facts.append(_fact_json(latest["id"], key, value, text, cite(turn.text, text)))
    return {"facts": facts}


def _extra_fact(st: _State, si: int, ti: int, turn: Turn, rng: random.Random) -> tuple[str, Any, str] | None:
    """A fact the turn does not assert: one of its traps, the assistant's suggestion just before
    it, or an earlier statement carried over from the conversation."""
    kinds: list[tuple[str, Any, str]] = [(t.key, t.value, t.text) for t in turn.traps]
    earlier = [(sj, tj, t) for sj, tj, _, t in st.item.turns() if (sj, tj) < (si, ti)]
    if earlier and earlier[-1][2].agent == "assistant":
        kinds += [(t.key, t.value, t.text) for t in earlier[-1][2].traps]
    said = {s.fact for s in turn.states}
    carried = [s for _, _, t in earlier for s in t.states if s.fact not in said]
    if carried:
        s = rng.choice(carried)
        kinds.append((st.item.facts[s.fact].key, s.value, s.text))
    return rng.choice(kinds) if kinds else None


def _revisit(st: _State, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """For each belief shown: changed when the turn has a gold statement of its fact with another
    value (the noisy model drops it and says a value in another form at the extraction's rates,
    drawn anew: a second question is a second chance, as with a real model)."""
    found = _turn_of(st, inputs)
    out = []
    for b in inputs["beliefs"]:
        fid = st.fact_of_key(b["key"])
        said = [(k, x) for k, x in enumerate(found[2].states) if x.fact == fid] if found and fid else []
        entry: dict[str, Any] = {"key": b["key"], "changed": False, "value": None, "text": "", "evidence": None}
        if said and found is not None and fid is not None:
            k, x = said[0]
            rng = st.rng(found[0], found[1], k, "revisit")
            n = st.noise
            value: Any = x.value
            if n is not None and x.aliases and rng.random() < n.value_alias:
                value = rng.choice(x.aliases)
            dropped = n is not None and rng.random() < n.drop
            if not dropped and not value_matches(value, b["value"]) and x.change != "restate":
                st.emitted[x.text] = _Emitted(fid, x, b["key"])
                st.keys_of.setdefault(fid, set()).add(b["key"])
                entry.update(changed=True, value=value, text=x.text, evidence=cite(found[2].text, x.text, x.evidence))
        out.append(entry)
    return {"items": out}


# -- disambiguate and classify -------------------------------------------------------------------


def _disambiguate(st: _State, inputs: Mapping[str, Any]) -> dict[str, Any]:
    known = list(inputs.get("known_keys") or [])
    out = []
    for it in inputs["items"]:
        em = st.emitted.get(it["text"])
        proposed = it.get("proposed_key") or (em.key if em else None) or "other.fact"
        choice = proposed
        if em is not None and em.fact is not None:
            holding = [k for k in known if st.fact_of_key(k) == em.fact]
            wrong = st.noise is not None and st.rng("choose", it["text"]).random() < st.noise.choose_error
            if holding and not wrong:
                choice = holding[0]
        out.append(
            {"item": it["id"], "key": choice, "is_new": choice not in known, "rationale": "the same fact as shown"}
        )
    return {"items": out}


_ACTION = {"restate": "NOOP", "update": "UPDATE", "correction": "UPDATE", "contradiction": "REPLACE", "new": "ADD"}


def _classify(st: _State, inputs: Mapping[str, Any]) -> dict[str, Any]:
    out = []
    for it in inputs["items"]:
        em = st.emitted.get(it["claim"]["text"])
        action = _ACTION[em.statement.change] if em is not None and em.statement is not None else "ADD"
        if st.noise is not None and action in ("UPDATE", "REPLACE"):
            rng = st.rng("classify", it["claim"]["text"])
            if rng.random() < st.noise.classify_error:
                action = "NOOP" if rng.random() < 1 / 3 else ("REPLACE" if action == "UPDATE" else "UPDATE")
        cands = it.get("candidates") or []
        if action != "ADD" and not cands:
            action = "ADD"
        target = cands[0]["id"] if action != "ADD" else None
        relation = {"NOOP": "same", "UPDATE": "conflict", "REPLACE": "conflict", "ADD": "unrelated"}[action]
        out.append({"item": it["id"], "action": action, "relation": relation, "target_id": target, "rationale": "gold"})
    return {"items": out}


# -- answer -----------------------------------------------------------------------------------------


def _answer(st: _State, inputs: Mapping[str, Any]) -> dict[str, Any]:
    q = st.questions.get(inputs["question"])
    beliefs = list(inputs.get("beliefs") or [])
    if q is None:
        return {"text": "unknown", "citations": []}
    wanted = [*q.expect, *q.stale]
    asks_when = re.search(r"\b(since when|when did|when was|how long)\b", q.ask, re.IGNORECASE) is not None

    def gives(b: Mapping[str, Any]) -> GoldValue | None:
        for v in wanted:
            if (b.get("value") is not None and value_matches(v, b["value"])) or _text_mentions(b["text"], v):
                return v
            if asks_when and b.get("since") and value_matches(v, b["since"]):  # the belief's own time
                return v
        return None

    def said(b: Mapping[str, Any], v: GoldValue) -> str:
        """The belief's statement, with its time when that is what answers."""
        if b.get("since") and value_matches(v, b["since"]) and not _text_mentions(b["text"], v):
            return f"{_sentence(b['text'])} Since {b['since']}."
        return str(b["text"])

    if q.fact is not None:  # a reader knows what the question is about: beliefs of that fact first
        own = set(st.keys_of.get(q.fact, set())) | {st.item.facts[q.fact].key, *st.item.facts[q.fact].drift}
        texts = {x.text for _, _, _, t in st.item.turns() for x in t.states if x.fact == q.fact}
        about = [b for b in beliefs if b.get("key") in own or b.get("text") in texts]
        beliefs = about or beliefs
    hits = [(b, v) for b in beliefs if (v := gives(b)) is not None]
    if not hits:
        return {"text": "unknown", "citations": []}
    first, value = hits[0]
    if q.conflict:
        other = next(((b, v) for b, v in hits[1:] if not value_matches(v, value) and not value_matches(value, v)), None)
        if other is not None:
            text = f"{_sentence(first['text'])} However, {_sentence(other[0]['text'])} These statements conflict."
            return {"text": text, "citations": [first["id"], other[0]["id"]]}
    return {"text": said(first, value), "citations": [first["id"]]}


def _sentence(text: str) -> str:
    t = text.strip()
    return t if re.search(r"[.!?]$", t) else t + "."
