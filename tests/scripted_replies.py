"""Replies of a scripted chat model that the remember tests share: the facts a turn states, what it
changes of the beliefs revisited, a classification of every item, a model that keeps its own key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Responder = Callable[[Any], dict[str, Any]]


def facts(*stated: dict[str, Any]) -> Responder:
    """An ``extract`` reply: the given facts, sourced from the latest turn."""

    def respond(inputs: Any) -> dict[str, Any]:
        src = inputs["turns"][-1]["id"]
        return {"facts": [{"source": src, "kind": "semantic", "confidence": 0.9, **f} for f in stated]}

    return respond


def classify(action: str, rationale: str = "scripted") -> Responder:
    """A ``classify`` reply: every item gets ``action`` against its first candidate."""
    relation = {"NOOP": "same", "UPDATE": "conflict", "REPLACE": "conflict", "ADD": "unrelated"}[action]
    return lambda inputs: {
        "items": [
            {
                "item": it["id"],
                "action": action,
                "relation": relation,
                "target_id": None if action == "ADD" else it["candidates"][0]["id"],
                "rationale": rationale,
            }
            for it in inputs["items"]
        ]
    }


def choose(key: str | None = None) -> Responder:
    """A ``disambiguate`` reply: ``key`` for every item, or each item's own proposed key."""
    return lambda inputs: {
        "items": [
            {
                "item": it["id"],
                "key": key or it["proposed_key"],
                "is_new": key is None,
                "rationale": "scripted",
            }
            for it in inputs["items"]
        ]
    }


def revisit(changes: dict[str, tuple[Any, str]] | None = None) -> Responder:
    """A ``revisit`` reply: the beliefs under the keys of ``changes`` changed to (value, text); every
    other belief shown unchanged."""
    wanted = changes or {}

    def respond(inputs: Any) -> dict[str, Any]:
        out = []
        for b in inputs["beliefs"]:
            value, text = wanted.get(b["key"], (None, ""))
            out.append({"key": b["key"], "changed": b["key"] in wanted, "value": value, "text": text})
        return {"items": out}

    return respond
