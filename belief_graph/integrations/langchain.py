"""Memory as LangChain tools: :func:`memory_tools` returns one ``StructuredTool`` per operation of
:mod:`belief_graph.integrations.operations` (remember, recall, belief, history, explain, disputes),
each with its pydantic argument schema and a description an LLM can act on::

    tools = memory_tools(bg, agent="assistant:concierge")
    model = chat_model.bind_tools(tools)

The tools act as the one ``agent`` given here (operations.py says why it is no tool argument). A
tool's result is a JSON-able dict (the ``ToolMessage`` content is its JSON). A library error (a
malformed key, a failed extraction) is the tool's error message, ``"<ErrorType>: <message>"``, with
``status="error"`` (LangChain's ``handle_tool_error``), and nothing was written; malformed arguments
are reported the same way (``handle_validation_error``). ``tool.metadata["read_only"]`` is False only for
``remember`` (an application may ask before a write). ``ainvoke`` runs the call off the event loop
(operations.run_async). Needs ``pip install 'belief-graph[langchain]'`` (``langchain-core``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import BeliefGraphError, ConfigurationError
from .operations import Operation, Scope, arguments_error_text, error_text, operations, run, run_async

if TYPE_CHECKING:
    from langchain_core.tools import StructuredTool

__all__ = ["memory_tools"]


def _langchain() -> Any:
    try:
        from langchain_core import tools
    except ImportError as exc:
        raise ConfigurationError(
            "the LangChain tools need langchain-core: pip install 'belief-graph[langchain]'"
        ) from exc
    return tools


def memory_tools(
    bg: Any, *, agent: str, conversation: str | None = None, include: Iterable[str] | None = None
) -> list[StructuredTool]:
    """The memory tools over ``bg`` (a ``BeliefGraph``, or an async client with ``call``), acting as ``agent``.

    ``conversation`` tags the turns ``remember`` stores; ``include`` picks tools by name (all by default).
    """
    lc = _langchain()
    scope = Scope(agent, conversation)
    return [_tool(lc, op, bg, scope) for op in operations(include)]


def _tool(lc: Any, op: Operation[Any, Any], bg: Any, scope: Scope) -> StructuredTool:
    def call(**kwargs: Any) -> dict[str, Any]:
        try:
            return run(op, bg, scope, kwargs)
        except BeliefGraphError as exc:
            raise lc.ToolException(error_text(exc)) from exc

    async def acall(**kwargs: Any) -> dict[str, Any]:
        try:
            return await run_async(op, bg, scope, kwargs)
        except BeliefGraphError as exc:
            raise lc.ToolException(error_text(exc)) from exc

    tool: StructuredTool = lc.StructuredTool.from_function(
        func=call,
        coroutine=acall,
        name=op.name,
        description=op.description,
        args_schema=op.args,
        infer_schema=False,
        handle_tool_error=True,
        handle_validation_error=arguments_error_text,
        metadata={"read_only": op.read_only},
    )
    return tool
