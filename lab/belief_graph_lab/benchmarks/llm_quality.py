"""``belief-graph bench llm-quality``: how well the configured chat model does the LLM jobs, on a
labelled set written for this project (``lab/belief_graph_lab/data/llm_quality.yaml``), scored per job and
category — accuracy, false-stored facts, calls, tokens, seconds — and what extraction grounding
changes, measured side by side in one run.

* **remember** (end to end, against the real Neo4j): each utterance is remembered in a fresh space
  (after its ``prior`` facts), twice — grounding off, then on. The grounded run gets the very same
  model answers (a prompt already answered in this run is answered from memory: same prompt, same
  answer), so the difference between the two columns is grounding alone. Scored: the expected facts
  are stored (under the prior fact's key where there is one, and then current), nothing else is
  (a stored fact matching neither ``expect`` nor ``allow`` is *false-stored*).
* **extract**: the model's raw extraction of each utterance (before grounding), values only.
* **classify**: the new fact against the prior claim — UPDATE / REPLACE as labelled (batched per
  category, like ``remember`` batches).
* **encode**: relevance of each observation for its perspective (one call per perspective).
* **critique**: whether the critic attacks the other perspective's proposal (one call each).

Calls, tokens and seconds are the model's own (live calls; answers given from this run's memory
are counted under ``replayed``). ``--scripted`` runs an oracle that answers the labels (a check of
the scoring and of how often grounding refuses a correct fact), not a model.
"""

from __future__ import annotations

import re
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from belief_graph.embeddings import LocalMiniLMEmbedder
from belief_graph.errors import BeliefGraphError, LLMError, LLMUnavailable
from belief_graph.facade import BeliefGraph
from belief_graph.llm import (
    ChatModel,
    ChatRequest,
    LLMClient,
    RawResponse,
    ScriptedModel,
    make_client,
)
from belief_graph.llm.jobs import Extraction
from belief_graph.models import WriteOp
from belief_graph.repositories import AdminRepository
from belief_graph.services.grounding import _figure_forms, extract_figures
from belief_graph.settings import Settings

__all__ = ["load_labels", "run_quality"]

CATEGORIES = ("new_fact", "update", "change", "contradiction", "several_facts", "question", "small_talk")
_DEFAULT_AGENT = "user:alice"
_TOKEN = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the of in at on to for and or is are my our".split())


def load_labels(path: Path | None = None) -> dict[str, Any]:
    """The labelled set (``lab/belief_graph_lab/data/llm_quality.yaml`` unless ``path``)."""
    src = (
        path.read_text(encoding="utf-8")
        if path
        else (files("belief_graph_lab") / "data" / "llm_quality.yaml").read_text(encoding="utf-8")
    )
    data: dict[str, Any] = yaml.safe_load(src)
    return data


# -- value matching ------------------------------------------------------------------------------


def _num(v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return float(v)
    if isinstance(v, str):
        forms = _figure_forms(v)
        nums = [float(f) for f in forms if re.fullmatch(r"-?\d+(\.\d+)?", f)]
        only_number = re.fullmatch(r"\s*[-+]?[\d,.]+[kKmM]?\s*", v)
        return nums[0] if only_number and nums else None
    return None


def _words(v: Any) -> set[str]:
    return {t for t in _TOKEN.findall(str(v).lower()) if t not in _STOP}


def value_matches(expected: Any, stored: Any) -> bool:
    """Does a stored value say the labelled one? Numbers numerically; dates and figures by their
    normal forms; text by words (the stored value may add detail or drop a word of a longer one)."""
    if isinstance(expected, bool) or isinstance(stored, bool):
        return expected is stored or str(expected).lower() == str(stored).lower()
    ne, ns = _num(expected), _num(stored)
    if ne is not None:
        return ns is not None and abs(ne - ns) < 1e-9
    figures = extract_figures(str(expected))
    if figures:  # every figure of the label, in one of its normal forms, among the stored value's
        offered = _figure_forms(str(stored))
        return all(forms & offered for _, forms in figures)
    we, ws = _words(expected), _words(stored)
    if not we or not ws:
        return False
    return we <= ws or (ws <= we and len(ws) * 2 >= len(we))


def _covered(value: Any, key: str | None, facts: Iterable[Mapping[str, Any]], key_rule: bool) -> bool:
    return any(
        value_matches(f["value"], value) and (not key_rule or not f.get("key") or f["key"] == key) for f in facts
    )


# -- the model wrapper: answers each prompt once per run, counts live calls per job and category ----


@dataclass
class _Tally:
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    seconds: float = 0.0
    replayed: int = 0
    failed: int = 0
    max_out: int = 0
    """The longest single answer (tokens): what a job's ``max_tokens`` must leave room for."""

    def add(self, other: _Tally) -> None:
        for k in ("calls", "tokens_in", "tokens_out", "seconds", "replayed", "failed"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.max_out = max(self.max_out, other.max_out)


@dataclass
class _Memo:
    """Wraps the chat model: a prompt answered once in this run is answered from memory."""

    inner: ChatModel
    cache: dict[str, RawResponse] = field(default_factory=dict)
    tally: dict[tuple[str, str, str], _Tally] = field(default_factory=lambda: defaultdict(_Tally))
    log: list[tuple[tuple[str, str], ChatRequest, RawResponse]] = field(default_factory=list)
    tag: tuple[str, str] = ("", "")
    is_replay: bool = False

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def description(self) -> str:
        return str(getattr(self.inner, "description", self.inner.name))

    def invoke(self, request: ChatRequest) -> RawResponse:
        key = request.key(self.inner.name)
        t = self.tally[(*self.tag, request.job)]
        raw = self.cache.get(key)
        if raw is not None:
            t.replayed += 1
        else:
            started = time.perf_counter()
            try:
                raw = self.inner.invoke(request)
            except Exception:
                t.calls += 1
                t.failed += 1
                t.seconds += time.perf_counter() - started
                raise
            t.calls += 1
            t.seconds += time.perf_counter() - started
            t.tokens_in += raw.tokens_in or 0
            t.tokens_out += raw.tokens_out or 0
            t.max_out = max(t.max_out, raw.tokens_out or 0)
            self.cache[key] = raw
        self.log.append((self.tag, request, raw))
        return raw


# -- the oracle (``--scripted``) -------------------------------------------------------------------


def _oracle_key(u: Mapping[str, Any], n: int, f: Mapping[str, Any]) -> str:
    return str(f.get("key") or f"fact.{u['id']}_{n}")


def oracle_model(labels: Mapping[str, Any]) -> ScriptedModel:
    """Answers every bench prompt with the labels: a check of the scoring, not a model."""
    by_text = {u["text"]: u for u in labels["utterances"]}
    enc = {(e["perspective"], e["text"]): e["relevant"] for e in labels["encodings"]}
    crit = {(c["perspective"], c["question"], c["other"]): c["attack"] for c in labels["critiques"]}
    m = ScriptedModel("scripted-oracle")

    def extract(inputs: Mapping[str, Any]) -> dict[str, Any]:
        turn = inputs["turns"][-1]
        u = by_text.get(turn["text"], {})
        return {
            "facts": [
                {
                    "source": turn["id"],
                    "key": _oracle_key(u, n, f),
                    "value": f["value"],
                    "text": turn["text"],
                    "kind": "semantic",
                    "confidence": 0.9,
                }
                for n, f in enumerate(u.get("expect") or [])
            ]
        }

    def classify(inputs: Mapping[str, Any]) -> dict[str, Any]:
        out = []
        for it in inputs["items"]:
            u = by_text.get(it["claim"]["text"], {})
            action = u.get("action", "ADD") if it["candidates"] else "ADD"
            target = it["candidates"][0]["id"] if action != "ADD" else None
            relation = {"ADD": "unrelated", "REPLACE": "conflict", "UPDATE": "same", "NOOP": "same"}[action]
            out.append(
                {"item": it["id"], "action": action, "relation": relation, "target_id": target, "rationale": "labelled"}
            )
        return {"items": out}

    def disambiguate(inputs: Mapping[str, Any]) -> dict[str, Any]:
        known = set(inputs["known_keys"])
        return {
            "items": [
                {
                    "item": it["id"],
                    "key": it["proposed_key"] or "fact.unnamed",
                    "is_new": (it["proposed_key"] or "fact.unnamed") not in known,
                    "rationale": "labelled",
                }
                for it in inputs["items"]
            ]
        }

    def encode(inputs: Mapping[str, Any]) -> dict[str, Any]:
        name = inputs["perspective"]["name"]
        items = []
        for o in inputs["observations"]:
            rel = enc.get((name, o["text"]), False)
            items.append(
                {
                    "observation": o["id"],
                    "relevant": rel,
                    "interpretation": o["text"] if rel else None,
                    "concepts": [],
                    "confidence": 0.9,
                }
            )
        return {"items": items}

    def critique(inputs: Mapping[str, Any]) -> dict[str, Any]:
        me = inputs["perspective"]
        attacks = [
            {"target": p["id"], "reason": "labelled"}
            for p in inputs["proposals"]
            if p["perspective"] != me["id"] and crit.get((me["name"], inputs["question"], p["text"]))
        ]
        return {"attacks": attacks}

    for job, fn in (
        ("extract", extract),
        ("classify", classify),
        ("disambiguate", disambiguate),
        ("encode", encode),
        ("critique", critique),
    ):
        m.respond(job, fn)
    return m


# -- the runs --------------------------------------------------------------------------------------


def _limit(items: list[dict[str, Any]], limit: int | None, by: str = "category") -> list[dict[str, Any]]:
    if not limit:
        return items
    seen: dict[str, int] = defaultdict(int)
    out = []
    for it in items:
        if seen[it.get(by, "")] < limit:
            seen[it.get(by, "")] += 1
            out.append(it)
    return out


def _stored_facts(results: Iterable[Any]) -> list[dict[str, Any]]:
    return [{"key": w.claim.key, "value": w.claim.value, "op": w.op.value} for w in results if w.op != WriteOp.NOOP]


def _score_remember(u: Mapping[str, Any], bg: BeliefGraph, r: Any, error: str | None) -> dict[str, Any]:
    expect = u.get("expect") or []
    allow = u.get("allow") or []
    keyed = bool(u.get("prior"))
    stored = _stored_facts(r.results) if r is not None else []
    all_results = [{"key": w.claim.key, "value": w.claim.value} for w in (r.results if r is not None else [])]
    missed = []
    for f in expect:
        ok = (
            _covered(f["value"], f.get("key"), [{"key": x["key"], "value": x["value"]} for x in all_results], False)
            if not keyed
            else any(value_matches(f["value"], x["value"]) and x["key"] == f["key"] for x in all_results)
        )
        if keyed and f.get("key"):
            cur = bg.belief(f["key"])
            ok = ok and cur is not None and value_matches(f["value"], cur.value)
        if not ok:
            missed.append(f["value"])
    false = [x for x in stored if not any(value_matches(f["value"], x["value"]) for f in [*expect, *allow])]
    return {
        "id": u["id"],
        "category": u["category"],
        "ok": not missed and not false and error is None,
        "missed": missed,
        "false_stored": false,
        "stored": stored,
        "rejected": [{"key": x["key"], "value": x["value"], "reason": x["reason"]} for x in (r.rejected if r else [])],
        "error": error,
    }


def _remember_all(
    settings: Settings, memo: _Memo, embedder: Any, utterances: list[dict[str, Any]], grounding: bool, run: str
) -> list[dict[str, Any]]:
    mode = "grounded" if grounding else "ungrounded"
    s = settings.model_copy(update={"policy": settings.policy.model_copy(update={"ground_extraction": grounding})})
    out = []
    for u in utterances:
        space = f"bench-llmq-{run}-{mode}-{u['id']}"
        with BeliefGraph.connect(space=space, settings=s, embedder=embedder, chat_model=memo) as bg:
            try:
                for p in u.get("prior") or []:
                    bg.assert_claim(p["key"], p["value"], p["text"], agent=p.get("agent", _DEFAULT_AGENT))
                memo.tag = (mode, u["category"])
                r, error = None, None
                try:
                    r = bg.remember(u["text"], agent=u.get("agent", _DEFAULT_AGENT))
                except LLMUnavailable:
                    raise
                except BeliefGraphError as exc:  # an invalid answer, or one the write path refused
                    error = f"{type(exc).__name__}: {exc}"[:300]
                out.append(_score_remember(u, bg, r, error))
            finally:
                AdminRepository(bg.graph, space).delete_space(space)
    return out


def _extract_scores(memo: _Memo, utterances: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The raw extraction of each utterance (the ungrounded run's last valid answer), values only."""
    last: dict[str, list[Any]] = {}
    for (mode, _), req, raw in memo.log:
        if req.job != "extract" or mode != "ungrounded":
            continue
        try:
            out = Extraction.model_validate_json(_unfence(raw.text or ""))
        except ValueError:
            continue
        last[req.inputs["turns"][-1]["text"]] = [f.value for f in out.facts]
    rows = []
    for u in utterances:
        expect, allow = u.get("expect") or [], u.get("allow") or []
        values = last.get(u["text"])
        if values is None:
            rows.append({"id": u["id"], "category": u["category"], "ok": False, "false": 0, "error": "no valid answer"})
            continue
        found = all(any(value_matches(f["value"], v) for v in values) for f in expect)
        false = [v for v in values if not any(value_matches(f["value"], v) for f in [*expect, *allow])]
        rows.append(
            {"id": u["id"], "category": u["category"], "ok": found and not false, "false": len(false), "values": values}
        )
    return rows


def _unfence(text: str) -> str:
    t = text.strip()
    m = re.match(r"^```[A-Za-z0-9_-]*\s*\n(.*)\n\s*```$", t, re.DOTALL)
    return m.group(1) if m else t


def _classify_scores(client: LLMClient, memo: _Memo, utterances: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for cat in ("update", "change", "contradiction"):
        us = [u for u in utterances if u["category"] == cat and u.get("action")]
        if not us:
            continue
        items = []
        for u in us:
            p, f = u["prior"][0], u["expect"][0]
            items.append(
                {
                    "id": u["id"],
                    "claim": {
                        "key": f["key"],
                        "value": f["value"],
                        "text": u["text"],
                        "agent": u.get("agent", _DEFAULT_AGENT),
                    },
                    "candidates": [
                        {
                            "id": f"{u['id']}-prior",
                            "key": p["key"],
                            "value": p["value"],
                            "text": p["text"],
                            "agent": p.get("agent", _DEFAULT_AGENT),
                        }
                    ],
                }
            )
        memo.tag = ("job", cat)
        try:
            got = {c.item: c.action for c in client.classify(items).output.items}
            error = None
        except LLMUnavailable:
            raise
        except LLMError as exc:
            got, error = {}, f"{type(exc).__name__}"
        for u in us:
            rows.append(_scored(u["id"], cat, got.get(u["id"]), u["action"], error))
    return rows


def _scored(item_id: str, category: str, got: Any, expected: Any, error: str | None) -> dict[str, Any]:
    """One scored row of a label job (classify, encode, critique): right when the answer is the label."""
    return {
        "id": item_id,
        "category": category,
        "ok": got == expected,
        "got": got,
        "expected": expected,
        "error": error,
    }


def _encode_scores(
    client: LLMClient, memo: _Memo, labels: Mapping[str, Any], limit: int | None
) -> list[dict[str, Any]]:
    rows = []
    items = _limit(labels["encodings"], limit, by="perspective")
    for name, spec in labels["perspectives"].items():
        mine = [e for e in items if e["perspective"] == name]
        if not mine:
            continue
        persp = {"id": f"p-{name}", "name": name, "goal": spec["goal"], "concepts": spec.get("concepts", [])}
        memo.tag = ("job", name)
        try:
            out = client.encode(persp, [{"id": e["id"], "text": e["text"]} for e in mine]).output
            got = {i.observation: i.relevant for i in out.items}
            error = None
        except LLMUnavailable:
            raise
        except LLMError as exc:
            got, error = {}, type(exc).__name__
        for e in mine:
            rows.append(_scored(e["id"], name, got.get(e["id"]), e["relevant"], error))
    return rows


def _critique_scores(
    client: LLMClient, memo: _Memo, labels: Mapping[str, Any], limit: int | None
) -> list[dict[str, Any]]:
    rows = []
    for c in _limit(labels["critiques"], limit, by="perspective"):
        spec = labels["perspectives"][c["perspective"]]
        me = {
            "id": f"p-{c['perspective']}",
            "name": c["perspective"],
            "goal": spec["goal"],
            "concepts": spec.get("concepts", []),
        }
        proposals = [
            {"id": f"{c['id']}-own", "perspective": me["id"], "text": c["own"]},
            {"id": f"{c['id']}-other", "perspective": "p-other", "text": c["other"]},
        ]
        memo.tag = ("job", c["perspective"])
        try:
            attacks = client.critique(me, c["question"], proposals).output.attacks
            got: bool | None = any(a.target == f"{c['id']}-other" for a in attacks)
            error = None
        except LLMUnavailable:
            raise
        except LLMError as exc:
            got, error = None, type(exc).__name__
        rows.append(_scored(c["id"], c["perspective"], got, c["attack"], error))
    return rows


def _summary(
    rows: list[dict[str, Any]], memo: _Memo, mode: str, job: str | None, false_key: str | None = None
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    cats = list(dict.fromkeys(r["category"] for r in rows))
    for cat in [*cats, "all"]:
        rs = [r for r in rows if cat in ("all", r["category"])]
        t = _Tally()
        for (m, c, j), v in memo.tally.items():
            if m == mode and (job is None or j == job) and cat in ("all", c):
                t.add(v)
        entry: dict[str, Any] = {
            "n": len(rs),
            "correct": sum(1 for r in rs if r["ok"]),
            "accuracy": round(sum(1 for r in rs if r["ok"]) / len(rs), 3) if rs else None,
            "calls": t.calls,
            "replayed": t.replayed,
            "failed_calls": t.failed,
            "tokens_in": t.tokens_in,
            "tokens_out": t.tokens_out,
            "max_tokens_out": t.max_out,
            "seconds": round(t.seconds, 1),
        }
        if false_key:
            entry["false_stored"] = sum(
                len(r[false_key]) if isinstance(r[false_key], list) else r[false_key] for r in rs
            )
        out[cat] = entry
    return out


def run_quality(
    settings: Settings,
    model: ChatModel,
    *,
    limit: int | None = None,
    labels: Mapping[str, Any] | None = None,
    progress: Any = None,
) -> dict[str, Any]:
    """Run the whole bench with ``model`` (see the module docstring) and return the numbers."""
    labels = labels if labels is not None else load_labels()
    memo = _Memo(model)
    client = make_client(settings.llm, model=memo)
    embedder = LocalMiniLMEmbedder()
    utterances = _limit(labels["utterances"], limit)
    run = uuid.uuid4().hex[:8]
    say = progress or (lambda _m: None)
    t0 = time.perf_counter()
    say(f"remember, grounding off: {len(utterances)} utterances")
    off = _remember_all(settings, memo, embedder, utterances, grounding=False, run=run)
    say("remember, grounding on (same model answers)")
    on = _remember_all(settings, memo, embedder, utterances, grounding=True, run=run)
    extract = _extract_scores(memo, utterances)
    say("classify")
    classify = _classify_scores(client, memo, utterances)
    say("encode")
    encode = _encode_scores(client, memo, labels, limit)
    say("critique")
    critique = _critique_scores(client, memo, labels, limit)
    return {
        "model": model.name,
        "model_description": str(getattr(model, "description", model.name)),
        "labels": labels.get("title"),
        "seconds": round(time.perf_counter() - t0, 1),
        "remember": {
            "ungrounded": _summary(off, memo, "ungrounded", None, "false_stored"),
            "grounded": _summary(on, memo, "grounded", None, "false_stored"),
        },
        "jobs": {
            "extract": _summary(extract, memo, "ungrounded", "extract", "false"),
            "classify": _summary(classify, memo, "job", "classify"),
            "encode": _summary(encode, memo, "job", "encode"),
            "critique": _summary(critique, memo, "job", "critique"),
        },
        "rows": {
            "remember_ungrounded": off,
            "remember_grounded": on,
            "extract": extract,
            "classify": classify,
            "encode": encode,
            "critique": critique,
        },
    }
