"""The demo's LLM calls and their hand-written answers, and how the shipped replay file is made.

No real LLM endpoint is reachable where this package is built, so ``demo_replay.json`` is **not**
a recording of a real model. It is recorded by :func:`record_demo` (``belief-graph llm
record-demo``): every :data:`DEMO_SCRIPT` step goes through the real client path —
:class:`~belief_graph.llm.runner.LLMClient` → ``OpenAIChatModel`` (``langchain_openai.ChatOpenAI``)
→ HTTP → a local scripted OpenAI-compatible stub (:mod:`belief_graph.llm.stub`) that serves the
hand-written answer — and :class:`~belief_graph.llm.replay.RecordingModel` writes the answers
keyed by prompt hash. ``meta.source`` in the file says exactly this.

A replayed call finds its answer only when the rendered prompt is identical: same job, same
prompt file version, same texts, keys, values, agents and order. Ids do not matter (prompts show
``t1``/``c1`` aliases), so the demo may use freshly generated ids. When the demo's calls change,
edit :data:`DEMO_SCRIPT` to match and re-run ``belief-graph llm record-demo``; a unit test fails
while the shipped file is out of date.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from belief_graph.llm.jobs import job_spec
from belief_graph.llm.prompts import get_prompts
from belief_graph.llm.replay import RecordingModel
from belief_graph.llm.runner import LLMClient
from belief_graph.llm.scripted import aliased
from belief_graph.llm.stub import OpenAIStub, StubReply
from belief_graph.llm.validation import alias_map

__all__ = ["DEMO_MODEL", "DEMO_SCRIPT", "DEMO_SOURCE", "DemoStep", "record_demo"]

DEMO_MODEL = "stub-scripted"
DEMO_SOURCE = (
    "NOT a real model: recorded by `belief-graph llm record-demo` through langchain-openai "
    "ChatOpenAI from a local scripted OpenAI-compatible stub (belief_graph/llm/stub.py) serving "
    "the hand-written answers of lab/belief_graph_lab/llm_demo.py; token counts are the stub's estimate "
    "(4 characters per token)"
)


@dataclass(frozen=True)
class DemoStep:
    """One LLM call of the demo: job, inputs (real ids) and the answer (same ids)."""

    job: str
    inputs: dict[str, Any]
    output: dict[str, Any]
    note: str = ""
    tags: tuple[str, ...] = field(default_factory=tuple)


_ALICE = "user:alice"
_AGGRESSIVE = {
    "key": "user.risk_tolerance",
    "value": "aggressive",
    "text": "The user now wants an aggressive, growth-oriented investment strategy",
    "agent": _ALICE,
}
"""The classified claim of both classify steps (the change of mind)."""
_CAUTIOUS = {
    "id": "c1",
    "key": "user.risk_tolerance",
    "value": "cautious",
    "text": "The user is cautious with money and dislikes individual stocks",
    "agent": _ALICE,
}
"""Its candidate: the belief it replaces."""
_E1 = {"id": "e1", "agent": _ALICE, "text": "I'm pretty cautious with money, I hate picking individual stocks."}
_E2 = {
    "id": "e2",
    "agent": _ALICE,
    "text": "Honestly, after the raise I want to be aggressive: growth funds, crypto, all in.",
}
_E3 = {"id": "e3", "agent": _ALICE, "text": "My emergency fund covers about three months of expenses."}

_GROWTH = {
    "id": "p-growth",
    "name": "growth",
    "goal": "Grow the user's wealth over the long term",
    "concepts": [
        {"name": "RiskAppetite", "description": "how much volatility the user accepts"},
        {"name": "InvestmentGoal", "description": "what the user wants their money to do"},
    ],
}
_SAFETY = {
    "id": "p-safety",
    "name": "safety",
    "goal": "Protect the user from losses they cannot afford",
    "concepts": [
        {"name": "RiskAppetite", "description": "how much volatility the user accepts"},
        {"name": "SafetyNet", "description": "reserves that absorb shocks"},
    ],
}
_OBS = [{"id": e["id"], "text": e["text"]} for e in (_E1, _E2, _E3)]
_QUESTION = "How should Alice invest her raise?"
_GROWTH_ANSWER = "Put the raise into diversified growth funds, in line with the user's new aggressive stance."
_SAFETY_ANSWER = "First raise the emergency fund beyond three months, then invest the rest gradually."
_PROPOSALS = [
    {"id": "r-growth", "perspective": "p-growth", "text": _GROWTH_ANSWER},
    {"id": "r-safety", "perspective": "p-safety", "text": _SAFETY_ANSWER},
]
"""The two answers as each perspective's critique sees them."""
_BELIEFS = [
    {
        "id": "b1",
        "text": "The user now wants an aggressive, growth-oriented investment strategy",
        "key": "user.risk_tolerance",
        "value": "aggressive",
    },
    {
        "id": "b2",
        "text": "The user's emergency fund covers about three months of expenses",
        "key": "user.emergency_fund_months",
        "value": 3,
    },
]

_AGGRESSIVE_FACT = {
    "source": "e2",
    "key": "user.risk_tolerance",
    "value": "aggressive",
    "text": "The user now wants an aggressive, growth-oriented investment strategy",
    "kind": "semantic",
    "confidence": 0.8,
}
"""The fact the model extracts from the second turn, alone or batched with the third."""

DEMO_SCRIPT: tuple[DemoStep, ...] = (
    DemoStep(
        "extract",
        {"turns": [_E2], "known_keys": ["user.risk_tolerance"]},
        {"facts": [_AGGRESSIVE_FACT]},
        "remember(): the second turn alone (facts come from the latest turn)",
    ),
    DemoStep(
        "extract",
        {
            "turns": [{"id": "e4", "agent": _ALICE, "text": "What's the weather like today?"}],
            "known_keys": ["user.risk_tolerance"],
        },
        {"facts": []},
        "remember(): a question that states no fact reaches the model, which extracts none",
    ),
    DemoStep(
        "classify",
        {
            "items": [
                {
                    "id": "n0",
                    "claim": _AGGRESSIVE,
                    "candidates": [_CAUTIOUS],
                },
            ]
        },
        {
            "items": [
                {
                    "item": "n0",
                    "action": "UPDATE",
                    "relation": "conflict",
                    "target_id": "c1",
                    "rationale": "The user changed their mind: aggressive contradicts cautious.",
                },
            ]
        },
        "remember(): pass 1 against the writer's own belief",
    ),
    DemoStep(
        "extract",
        {"turns": [_E1], "known_keys": []},
        {
            "facts": [
                {
                    "source": "e1",
                    "key": "user.risk_tolerance",
                    "value": "cautious",
                    "text": "The user is cautious with money and dislikes individual stocks",
                    "kind": "semantic",
                    "confidence": 0.85,
                }
            ]
        },
        "first turn: a new fact",
    ),
    DemoStep(
        "extract",
        {"turns": [_E2, _E3], "known_keys": ["user.risk_tolerance"]},
        {
            "facts": [
                _AGGRESSIVE_FACT,
                {
                    "source": "e3",
                    "key": "user.emergency_fund_months",
                    "value": 3,
                    "text": "The user's emergency fund covers about three months of expenses",
                    "kind": "semantic",
                    "confidence": 0.9,
                },
            ]
        },
        "two turns in one call (batching)",
    ),
    DemoStep(
        "classify",
        {
            "items": [
                {
                    "id": "n1",
                    "claim": _AGGRESSIVE,
                    "candidates": [_CAUTIOUS],
                },
                {
                    "id": "n2",
                    "claim": {
                        "key": "user.emergency_fund_months",
                        "value": 3,
                        "text": "The user's emergency fund covers about three months of expenses",
                        "agent": _ALICE,
                    },
                    "candidates": [],
                },
            ]
        },
        {
            "items": [
                {
                    "item": "n1",
                    "action": "UPDATE",
                    "relation": "conflict",
                    "target_id": "c1",
                    "rationale": "The user changed their mind: aggressive contradicts cautious.",
                },
                {
                    "item": "n2",
                    "action": "ADD",
                    "relation": "unrelated",
                    "target_id": None,
                    "rationale": "Nothing is known yet about the emergency fund.",
                },
            ]
        },
        "the user changes their mind",
    ),
    DemoStep(
        "disambiguate",
        {
            "items": [
                {
                    "id": "k1",
                    "text": "The user is happy to take big investment risks now",
                    "proposed_key": "user.risk_appetite",
                }
            ],
            "known_keys": ["user.risk_tolerance", "user.emergency_fund_months"],
        },
        {
            "items": [
                {
                    "item": "k1",
                    "key": "user.risk_tolerance",
                    "is_new": False,
                    "rationale": "Risk appetite and risk tolerance name the same attribute.",
                }
            ]
        },
        "a paraphrased key maps to the known one",
    ),
    DemoStep(
        "encode",
        {"perspective": _GROWTH, "observations": _OBS},
        {
            "items": [
                {
                    "observation": "e1",
                    "relevant": True,
                    "concepts": ["RiskAppetite"],
                    "confidence": 0.7,
                    "interpretation": "Earlier the user avoided volatile single stocks, limiting growth.",
                },
                {
                    "observation": "e2",
                    "relevant": True,
                    "concepts": ["RiskAppetite", "InvestmentGoal"],
                    "confidence": 0.85,
                    "interpretation": "The raise opens room for growth funds with high expected returns.",
                },
                {"observation": "e3", "relevant": False, "concepts": [], "confidence": 0.6, "interpretation": None},
            ]
        },
        "perspective growth reads three observations in one call",
    ),
    DemoStep(
        "encode",
        {"perspective": _SAFETY, "observations": _OBS},
        {
            "items": [
                {
                    "observation": "e1",
                    "relevant": True,
                    "concepts": ["RiskAppetite"],
                    "confidence": 0.8,
                    "interpretation": "The user's long-standing caution is a signal to keep risk moderate.",
                },
                {
                    "observation": "e2",
                    "relevant": True,
                    "concepts": ["RiskAppetite"],
                    "confidence": 0.8,
                    "interpretation": "Going all in on crypto right after a raise risks losses the user cannot absorb.",
                },
                {
                    "observation": "e3",
                    "relevant": True,
                    "concepts": ["SafetyNet"],
                    "confidence": 0.9,
                    "interpretation": "Three months of reserves is a thin safety net for aggressive bets.",
                },
            ]
        },
        "perspective safety reads the same observations in one call",
    ),
    DemoStep(
        "propose",
        {"perspective": _GROWTH, "question": _QUESTION, "beliefs": _BELIEFS},
        {
            "text": _GROWTH_ANSWER,
            "citations": ["b1"],
        },
    ),
    DemoStep(
        "propose",
        {"perspective": _SAFETY, "question": _QUESTION, "beliefs": _BELIEFS},
        {
            "text": _SAFETY_ANSWER,
            "citations": ["b2"],
        },
    ),
    DemoStep(
        "critique",
        {
            "perspective": _SAFETY,
            "question": _QUESTION,
            "proposals": _PROPOSALS,
        },
        {
            "attacks": [
                {
                    "target": "r-growth",
                    "reason": "Investing everything with only three months of reserves exposes the user to forced selling.",
                }
            ]
        },
    ),
    DemoStep(
        "critique",
        {
            "perspective": _GROWTH,
            "question": _QUESTION,
            "proposals": _PROPOSALS,
        },
        {
            "attacks": [
                {
                    "target": "r-safety",
                    "reason": "Holding the raise in cash ignores the user's explicit wish to invest aggressively.",
                }
            ]
        },
    ),
    DemoStep(
        "judge",
        {
            "question": "user.timezone",
            "contenders": [
                {
                    "id": "j1",
                    "agent": "agent:scheduler",
                    "text": "The user lives in Lisbon (Europe/Lisbon time zone)",
                    "value": "Europe/Lisbon",
                    "authority": 0.6,
                },
                {
                    "id": "j2",
                    "agent": "agent:travel",
                    "text": "The user is in New York this week (America/New_York)",
                    "value": "America/New_York",
                    "authority": 0.4,
                },
            ],
            "evidence": [],
        },
        {
            "winner": "j1",
            "rationale": "A one-week trip does not change the user's home time zone; the scheduler also has more authority.",
        },
    ),
    DemoStep(
        "answer",
        {"question": "What is the user's risk tolerance?", "beliefs": _BELIEFS[:1]},
        {"text": "Aggressive: the user now wants a growth-oriented investment strategy.", "citations": ["b1"]},
    ),
    DemoStep(
        "answer",
        {"question": "When is the project deadline?", "beliefs": _BELIEFS[:1]},
        {"text": "unknown", "citations": []},
        "nothing qualifies: the answer is unknown",
    ),
)


def record_demo(path: Path, steps: tuple[DemoStep, ...] = DEMO_SCRIPT) -> dict[str, Any]:
    """Record ``steps`` into the replay file ``path`` (replaced) through the real client path
    against a local scripted stub. Returns a summary (entries per job, the file's meta)."""
    from pydantic import SecretStr

    from belief_graph.llm.factory import make_chat_model  # the real client path (the openai extra is needed to record)
    from belief_graph.settings import LLMSettings

    prompts = get_prompts()
    meta = {"prompts": {name: p.version for name, p in sorted(prompts.items())}}
    path = Path(path)
    with OpenAIStub() as stub, tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "replay.json"
        inner = make_chat_model(
            LLMSettings(
                provider="openai",
                model=DEMO_MODEL,
                base_url=stub.url,
                api_key=SecretStr("not-needed"),
                max_retries=0,
                timeout=30,
            )
        )
        client = LLMClient(RecordingModel(inner, target, source=DEMO_SOURCE, meta=meta), repair_attempts=0)
        for step in steps:
            aliases = alias_map(step.job, step.inputs)
            stub.enqueue(StubReply(content=json.dumps(aliased(step.output, aliases), ensure_ascii=False)))
            result = client.run(step.job, step.inputs)
            expected = job_spec(step.job).output_model.model_validate(step.output)
            if result.output != expected:
                raise AssertionError(f"demo step {step.job} came back as {result.output!r}, not {expected!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(target.read_text(encoding="utf-8"), encoding="utf-8")
    from belief_graph.llm.replay import ReplayFile

    rf = ReplayFile.load(path)
    return {"path": str(path), "entries": len(rf.entries), "jobs": rf.jobs(), "meta": rf.meta}
