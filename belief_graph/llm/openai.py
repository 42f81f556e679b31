"""The OpenAI chat model: the :class:`~belief_graph.llm.protocol.ChatModel` of every LLM job,
through ``langchain_openai.ChatOpenAI`` with structured output.

Imported lazily by :func:`belief_graph.llm.make_chat_model`, so the library works without the
``openai`` extra (``pip install 'belief-graph[openai]'``). Together with
:mod:`belief_graph.embeddings.openai` (the embedder) these are the only modules that import
``langchain_openai``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import openai
from langchain_openai import ChatOpenAI
from pydantic import BaseModel

from ..errors import LLMUnavailable
from .protocol import ChatRequest, ModelTimeout, RawResponse, output_json_schema

__all__ = ["OpenAIChatModel"]

StructuredMethod = Literal["json_schema", "function_calling", "json_mode"]


_LC_ROLE = {"system": "system", "user": "human", "assistant": "ai"}


class OpenAIChatModel:
    """OpenAI or any OpenAI-compatible server (llama-server, vLLM, Ollama, LM Studio) through
    ``ChatOpenAI``.

    Implements :class:`belief_graph.llm.protocol.ChatModel`. Each request binds the structured
    output format to ``ChatOpenAI`` exactly as ``with_structured_output`` does, plus the call's
    ``max_tokens`` and ``timeout`` (the job's limits, from the request), and reads the raw
    ``AIMessage``: the raw answer, the token usage, the finish reason and a refusal are always
    available; the runner validates the raw text itself.

    ``structured_output`` picks how the schema reaches the server:

    * ``json_schema`` (default): ``response_format={"type": "json_schema", ...}`` with the
      schema of :func:`~belief_graph.llm.protocol.output_json_schema` (``strict`` as given).
      The schema is passed as a dict, not the pydantic class: with a class, the OpenAI SDK
      parses the answer itself and raises on invalid JSON, losing the raw output and the
      token usage that the repair loop and the accounting need.
    * ``function_calling``: one forced tool call whose arguments are the answer (servers
      without ``response_format`` support). An answer without the forced tool call means the
      server ignores ``tool_choice`` (llama-server does): ``LLMUnavailable`` with a hint, at
      once, instead of unconstrained answers repaired in vain.
    * ``json_mode``: ``response_format={"type": "json_object"}``; the schema is only in the
      prompt.

    An answer cut off at ``max_tokens`` (``finish_reason == "length"``; the SDK's
    ``LengthFinishReasonError`` on the ``response_format`` path) is returned with
    ``finish_reason="length"`` and whatever text was produced: the runner repairs it like any
    invalid answer.

    ``max_retries`` are the OpenAI client's own retries (HTTP 408/409/429/5xx and connection
    errors, with backoff honouring ``retry-after``). After them, a timeout becomes
    :class:`~belief_graph.llm.protocol.ModelTimeout` (the runner may retry it) and every other
    failure :class:`~belief_graph.errors.LLMUnavailable`; HTTP 400 and 500 name the other
    structured-output methods (servers answer an unsupported ``response_format`` with either).
    """

    is_replay = False

    def __init__(
        self,
        *,
        model: str = "gpt-4o-mini",
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float | None = 60.0,
        temperature: float = 0.0,
        max_retries: int = 2,
        structured_output: StructuredMethod = "json_schema",
        strict: bool = True,
        description: str | None = None,
    ) -> None:
        if structured_output not in ("json_schema", "function_calling", "json_mode"):
            raise ValueError(f"unknown structured_output {structured_output!r}")
        self._model = model
        self._base_url = base_url
        self._method: StructuredMethod = structured_output
        self._strict = strict
        self._description = description
        # A local server usually needs no key, but the client insists on one.
        key = api_key if api_key else ("not-needed" if base_url else None)
        try:
            self._llm = ChatOpenAI(
                model=model,
                api_key=key,  # type: ignore[arg-type]  # None: OPENAI_API_KEY from the env
                base_url=base_url,
                timeout=timeout,
                temperature=temperature,
                max_retries=max_retries,
            )
        except Exception as exc:  # pydantic / openai raise their own types
            raise LLMUnavailable(
                f"cannot set up the chat model {model!r}: {exc} "
                "(set BELIEF_GRAPH_LLM__API_KEY, or BELIEF_GRAPH_LLM__BASE_URL for a local server)"
            ) from exc
        self._runnables: dict[type[BaseModel], Any] = {}

    @property
    def name(self) -> str:
        return self._model

    @property
    def method(self) -> StructuredMethod:
        return self._method

    @property
    def description(self) -> str:
        where = self._base_url or "api.openai.com"
        base = self._description or self._model
        return f"{base} at {where} (structured output: {self._method})"

    def _runnable(self, schema: type[BaseModel]) -> Any:
        """``ChatOpenAI`` bound to the structured-output format of ``schema`` (what
        ``with_structured_output(..., method=...)`` binds), without langchain's output parser."""
        r = self._runnables.get(schema)
        if r is None:
            if self._method == "json_schema":
                fmt = {"name": schema.__name__, "schema": output_json_schema(schema), "strict": self._strict}
                r = self._llm.bind(
                    response_format={"type": "json_schema", "json_schema": fmt},
                    ls_structured_output_format={
                        "kwargs": {"method": "json_schema", "strict": self._strict},
                        "schema": fmt,
                    },
                )
            elif self._method == "function_calling":
                r = self._llm.bind_tools(
                    [schema],
                    tool_choice=schema.__name__,
                    parallel_tool_calls=False,
                    ls_structured_output_format={"kwargs": {"method": "function_calling"}, "schema": schema},
                )
            else:
                r = self._llm.bind(
                    response_format={"type": "json_object"},
                    ls_structured_output_format={"kwargs": {"method": "json_mode"}, "schema": schema},
                )
            self._runnables[schema] = r
        return r

    def invoke(self, request: ChatRequest) -> RawResponse:
        messages = [(_LC_ROLE[m.role], m.content) for m in request.messages]
        where = self._base_url or "api.openai.com"
        limits: dict[str, Any] = {}
        if request.max_tokens is not None:
            # langchain-openai sends it as `max_completion_tokens` (OpenAI's current name); other
            # servers document only `max_tokens` (Ollama), so a base_url also gets that one
            limits["max_tokens"] = request.max_tokens
            if self._base_url:
                limits["extra_body"] = {"max_tokens": request.max_tokens}
        if request.timeout is not None:
            limits["timeout"] = request.timeout
        try:
            raw = self._runnable(request.schema).invoke(messages, **limits)
        except openai.LengthFinishReasonError as exc:
            return self._cut_off(exc.completion)
        except openai.APITimeoutError as exc:
            after = f" after {request.timeout:g} s" if request.timeout is not None else ""
            raise ModelTimeout(f"{self._model} at {where} timed out{after}") from exc
        except openai.APIConnectionError as exc:
            raise LLMUnavailable(f"cannot reach the chat model at {where}: {exc}") from exc
        except openai.APIStatusError as exc:
            raise LLMUnavailable(
                f"chat model {self._model} at {where} answered HTTP {exc.status_code}: {exc.message}"
                f"{self._hint(exc.status_code)}"
            ) from exc
        except openai.OpenAIError as exc:
            raise LLMUnavailable(f"chat model {self._model} at {where} failed: {exc}") from exc
        meta = raw.response_metadata or {}
        finish = meta.get("finish_reason")
        refusal = raw.additional_kwargs.get("refusal")
        text = self._text(raw)
        if (
            self._method == "function_calling"
            and finish != "length"
            and not refusal
            and not getattr(raw, "tool_calls", None)
            and not getattr(raw, "invalid_tool_calls", None)
        ):
            raise LLMUnavailable(
                f"chat model {self._model} at {where} answered without the forced tool call "
                f"{request.schema.__name__!r}: the server ignores `tool_choice`, so function calling is "
                "unconstrained there; set BELIEF_GRAPH_LLM__STRUCTURED_OUTPUT=json_schema (or json_mode)"
            )
        usage = getattr(raw, "usage_metadata", None) or {}
        return RawResponse(
            text=text,
            refusal=refusal or None,
            tokens_in=usage.get("input_tokens"),
            tokens_out=usage.get("output_tokens"),
            model=meta.get("model_name") or self._model,
            finish_reason=finish,
        )

    def _hint(self, status: int) -> str:
        if status in (401, 403):
            return " (check BELIEF_GRAPH_LLM__API_KEY)"
        if status in (400, 500) and self._method != "json_mode":
            other = "json_mode" if self._method == "json_schema" else "json_schema (or json_mode)"
            return (
                f" (if the server does not support structured output by {self._method}, "
                f"set BELIEF_GRAPH_LLM__STRUCTURED_OUTPUT={other}; docs/llm.md lists what each server supports)"
            )
        return ""

    def _cut_off(self, completion: Any) -> RawResponse:
        """A completion the SDK refused to parse because it stopped at ``max_tokens``."""
        text: str | None = None
        choices = getattr(completion, "choices", None) or []
        if choices:
            message = choices[0].message
            text = message.content
            if text is None:
                for call in getattr(message, "tool_calls", None) or []:
                    text = call.function.arguments
                    break
        usage = getattr(completion, "usage", None)
        return RawResponse(
            text=text,
            tokens_in=getattr(usage, "prompt_tokens", None),
            tokens_out=getattr(usage, "completion_tokens", None),
            model=getattr(completion, "model", None) or self._model,
            finish_reason="length",
        )

    def _text(self, raw: Any) -> str | None:
        """The raw answer: the tool-call arguments for function calling, else the content."""
        if self._method == "function_calling":
            for call in getattr(raw, "tool_calls", None) or []:
                return json.dumps(call.get("args", {}), ensure_ascii=False)
            for call in getattr(raw, "invalid_tool_calls", None) or []:
                args = call.get("args")
                return args if isinstance(args, str) else None
        content = raw.content
        if isinstance(content, list):
            content = "".join(
                part if isinstance(part, str) else str(part.get("text", ""))
                for part in content
                if isinstance(part, str) or part.get("type") == "text"
            )
        return content if isinstance(content, str) else None

    def __repr__(self) -> str:
        return f"OpenAIChatModel(model={self._model!r}, base_url={self._base_url!r}, method={self._method!r})"
