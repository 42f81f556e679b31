"""Memory as OpenAI Agents SDK function tools: :func:`memory_function_tools` returns one ``FunctionTool``
per operation of :mod:`belief_graph.integrations.operations` (remember, recall, belief, history,
explain, disputes)::

    agent = Agent(name="concierge", tools=memory_function_tools(bg, agent="assistant:concierge"))

The same operations, argument models and results as the LangChain tools (``langchain.py``): the
parameters are each argument model's JSON schema in the SDK's strict form (every field present,
``null`` for "not given"), the output is the result's JSON. A library error or malformed arguments
come back to the model as the tool's output, ``"<ErrorType>: <message>"`` (the SDK sends a returned
string to the LLM; a raised one would end the run), and nothing was written. The SDK awaits
``on_invoke_tool``: the call runs off the event loop (operations.run_async). The tools act as the one
``agent`` given here (operations.py says why). Needs ``pip install 'belief-graph[openai-agents]'``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import pydantic

from ..errors import BeliefGraphError, ConfigurationError
from .operations import Operation, Scope, arguments_error_text, error_text, operations, run_async

if TYPE_CHECKING:
    from agents import FunctionTool

__all__ = ["memory_function_tools"]


def _sdk() -> tuple[Any, Any]:
    try:
        from agents import FunctionTool
        from agents.strict_schema import ensure_strict_json_schema
    except ImportError as exc:
        raise ConfigurationError(
            "the OpenAI Agents SDK tools need openai-agents: pip install 'belief-graph[openai-agents]'"
        ) from exc
    return FunctionTool, ensure_strict_json_schema


def memory_function_tools(
    bg: Any, *, agent: str, conversation: str | None = None, include: Iterable[str] | None = None
) -> list[FunctionTool]:
    """The memory tools over ``bg`` (a ``BeliefGraph``, or an async client with ``call``), acting as ``agent``.

    ``conversation`` tags the turns ``remember`` stores; ``include`` picks tools by name (all by default).
    """
    function_tool, strict = _sdk()
    scope = Scope(agent, conversation)
    return [
        function_tool(
            name=op.name,
            description=op.description,
            params_json_schema=strict(op.args.model_json_schema()),
            on_invoke_tool=_invoke(op, bg, scope),
            strict_json_schema=True,
        )
        for op in operations(include)
    ]


def _invoke(op: Operation[Any, Any], bg: Any, scope: Scope) -> Any:
    async def on_invoke_tool(_ctx: Any, arguments: str) -> str:
        try:
            raw = json.loads(arguments or "{}")
            given = {k: v for k, v in raw.items() if v is not None} if isinstance(raw, dict) else raw
            return json.dumps(await run_async(op, bg, scope, given), ensure_ascii=False)
        except BeliefGraphError as exc:
            return error_text(exc)
        except pydantic.ValidationError as exc:
            return arguments_error_text(exc)
        except json.JSONDecodeError as exc:
            return f"ValidationError: the arguments are not JSON: {exc}"

    return on_invoke_tool
