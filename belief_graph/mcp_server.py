"""``belief-graph mcp``: the memory of one space as an MCP server (stdio), for agent frameworks.

Built on the official ``mcp`` Python SDK (``pip install 'belief-graph[mcp]'``). The server is bound
to one memory space for its whole life (``--space`` / ``BELIEF_GRAPH_SPACE``): no tool takes a
space, so an agent cannot read or write another tenant's memory. Tools:

=============  =================================================================================
remember       free text through LLM extraction into structured beliefs (replayed without a key)
assert         a structured write: key, value, text, agent, evidence ids
belief         the current belief for a fact key
history        every version of a fact, with why it changed
recall         hybrid retrieval over active beliefs, with provenance
answer         a grounded answer citing active beliefs, or ``unknown``
explain        why memory holds a claim: justifications, revisions, disputes, audits
retract        invalidate evidence; withdraws exactly the conclusions that lose every support
restore        lift a retraction; reinstates what is supported again
dependents     the conclusions resting on a claim, an episode or a fact
stale          stale conclusions and the premise change that made each stale
disputes       open (or resolved) disputes
deliberate     perspectives propose and attack; grounded semantics picks select/compose/conflict
=============  =================================================================================

Every result is JSON (the models' ``model_dump(mode="json")``). Errors of the library
(:mod:`belief_graph.errors`) come back as tool errors with their one-line message. The server
reports the package's version, and each tool carries MCP annotations (:data:`ANNOTATIONS`): the
eight reads are read-only and idempotent; ``retract`` is the one destructive tool (it withdraws
conclusions; ``restore`` undoes it); no tool reaches beyond this memory (``open_world`` false:
the LLM that ``remember``, ``answer`` and ``deliberate`` call is the operator's configured model).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import BeliefGraphError
from .facade import BeliefGraph

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["ANNOTATIONS", "TOOLS", "build_server"]

TOOLS = (
    "remember",
    "assert",
    "belief",
    "history",
    "recall",
    "answer",
    "explain",
    "retract",
    "restore",
    "dependents",
    "stale",
    "disputes",
    "deliberate",
)

_READS = ("belief", "history", "recall", "answer", "explain", "dependents", "stale", "disputes")

ANNOTATIONS: dict[str, dict[str, bool]] = {
    **{name: {"read_only": True, "destructive": False, "idempotent": True} for name in _READS},
    "remember": {"read_only": False, "destructive": False, "idempotent": False},
    "assert": {"read_only": False, "destructive": False, "idempotent": False},
    "retract": {"read_only": False, "destructive": True, "idempotent": False},
    "restore": {"read_only": False, "destructive": False, "idempotent": False},
    "deliberate": {"read_only": False, "destructive": False, "idempotent": False},
}
"""Tool name -> MCP hints (every tool: ``open_world`` false). A write that replaces a belief keeps
the old version (history), so only ``retract`` is destructive."""


def build_server(bg: BeliefGraph) -> Any:
    """An ``MCPServer`` whose tools act on ``bg`` (one space). Run it with ``.run("stdio")``."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    from . import __version__

    def hints(name: str) -> ToolAnnotations:
        h = ANNOTATIONS[name]
        return ToolAnnotations(
            read_only_hint=h["read_only"],
            destructive_hint=h["destructive"],
            idempotent_hint=h["idempotent"],
            open_world_hint=False,
        )

    def said(fn: F) -> F:
        """Library errors reach the agent as tool errors with their message (bad input, not found)."""

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except BeliefGraphError as exc:
                raise ToolError(f"{type(exc).__name__}: {exc}") from exc

        return wrapper  # type: ignore[return-value]

    server = MCPServer(
        name="belief-graph",
        version=__version__,
        instructions=(
            f"Long-term memory of space {bg.space!r}: claims with provenance, one current belief per fact key, "
            "justifications, reconsolidation and grounded argumentation. Prefer 'assert' for facts with a key; "
            "'recall' or 'answer' before acting on remembered facts; 'explain' to say why."
        ),
    )

    def tool(name: str, description: str) -> Callable[[F], F]:
        """Register ``fn`` as the tool ``name``: its MCP hints from ``ANNOTATIONS``, its errors through ``said``."""

        def register(fn: F) -> F:
            server.tool(name=name, annotations=hints(name), description=description)(said(fn))
            return fn

        return register

    @tool("remember", "Extract facts from free text (the latest turn) and store them.")
    def remember(text: str, agent: str, conversation: str | None = None) -> dict[str, Any]:
        return bg.remember(text, agent, conversation=conversation).model_dump(mode="json")

    @tool("assert", "Store one structured fact: key, value, the sentence, who says it, evidence ids.")
    def assert_(
        key: str, value: str | int | float | bool, text: str, agent: str, evidence: list[str] | None = None
    ) -> dict[str, Any]:
        return bg.assert_claim(key, value, text, agent, evidence=evidence).model_dump(mode="json")

    @tool("belief", "The current belief for a fact key (null when none).")
    def belief(key: str) -> dict[str, Any]:
        claim = bg.belief(key)
        return {"key": key, "belief": claim.model_dump(mode="json", exclude={"embedding"}) if claim else None}

    @tool("history", "Every version of a fact key, oldest first, with why it changed.")
    def history(key: str) -> dict[str, Any]:
        return {
            "key": key,
            "versions": [v.model_dump(mode="json", exclude={"claim": {"embedding"}}) for v in bg.beliefs.history(key)],
        }

    @tool("recall", "Active beliefs relevant to a query (hybrid vector + fulltext).")
    def recall(query: str, k: int = 5) -> dict[str, Any]:
        return {
            "query": query,
            "hits": [h.model_dump(mode="json", exclude={"claim": {"embedding"}}) for h in bg.recall(query, k)],
        }

    @tool("answer", "A grounded answer citing active beliefs, or 'unknown' with the reason.")
    def answer(query: str) -> dict[str, Any]:
        return bg.answer(query).model_dump(mode="json")

    @tool("explain", "Why memory holds a claim: justifications, versions, revisions, disputes.")
    def explain(claim_id: str) -> dict[str, Any]:
        ex = bg.beliefs.explain(claim_id)
        return ex.model_dump(mode="json", exclude={"claim": {"embedding"}}) | {"text": ex.text()}

    @tool("retract", "Invalidate evidence (episode or claim ids); withdraws what loses all support.")
    def retract(ids: list[str], reason: str, agent: str | None = None) -> dict[str, Any]:
        return bg.retract(ids, reason, agent=agent).model_dump(mode="json")

    @tool("restore", "Lift a retraction; reinstates the claims whose support holds again.")
    def restore(ids: list[str], reason: str, agent: str | None = None) -> dict[str, Any]:
        return bg.restore(ids, reason, agent=agent).model_dump(mode="json")

    @tool("dependents", "The conclusions resting on a claim, an episode or a fact key's current claim.")
    def dependents(target: str) -> dict[str, Any]:
        return {"target": target, "dependents": [d.model_dump(mode="json") for d in bg.support.dependents(target)]}

    @tool("stale", "Stale conclusions (premises no longer current) and the change behind each.")
    def stale(limit: int = 100) -> dict[str, Any]:
        return {"stale": [s.model_dump(mode="json") for s in bg.support.stale(limit)]}

    @tool("disputes", "Disputes of this space: status 'open' (default), 'resolved' or 'all'.")
    def disputes(status: str = "open") -> dict[str, Any]:
        chosen = None if status == "all" else status
        return {"status": status, "disputes": [d.model_dump(mode="json") for d in bg.conflicts.disputes(chosen)]}

    @tool("deliberate", "Let the perspectives answer a question; grounded semantics decides.")
    def deliberate(query: str, perspectives: list[str] | None = None) -> dict[str, Any]:
        return bg.deliberations.deliberate(query, perspectives).model_dump(mode="json")

    return server
