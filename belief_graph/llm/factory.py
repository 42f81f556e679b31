"""Build the configured chat model and job runner from :class:`~belief_graph.settings.LLMSettings`."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..errors import LLMUnavailable
from .protocol import ChatModel
from .replay import RecordingModel, ReplayModel
from .runner import LLMClient
from .usage import UsageMeter

if TYPE_CHECKING:
    from ..settings import LLMServerSettings, LLMSettings

__all__ = ["make_chat_model", "make_client", "resolve_provider"]


def _local_endpoint(server: LLMServerSettings | None) -> dict[str, Any] | None:
    if server is None:
        return None
    from ..llmserver import running_endpoint

    return running_endpoint(server)


def resolve_provider(settings: LLMSettings, server: LLMServerSettings | None = None) -> str:
    """``openai``, ``local`` or ``replay``: what ``provider=auto`` means with these settings.

    ``auto``: ``openai`` when an API key is set; else ``local`` when the server of
    ``belief-graph llm serve`` (``server``'s home) runs; else ``replay``. Without ``server``
    the local server is not looked for.
    """
    if settings.provider != "auto":
        return settings.provider
    has_key = settings.api_key is not None and bool(settings.api_key.get_secret_value())
    if has_key:
        return "openai"
    return "local" if _local_endpoint(server) is not None else "replay"


def make_chat_model(settings: LLMSettings, server: LLMServerSettings | None = None) -> ChatModel:
    """The chat model the settings ask for.

    * ``provider=auto``: see :func:`resolve_provider`.
    * ``openai``: :class:`belief_graph.llm.openai.OpenAIChatModel` with ``model``,
      ``base_url`` (any OpenAI-compatible server), ``api_key``, ``timeout``, ``temperature``,
      ``max_retries``, ``structured_output`` and ``strict_schema``; wrapped in a
      :class:`RecordingModel` when ``record_file`` is set. ``belief_graph.llm.openai``
      (and so ``langchain_openai``) is imported only here.
    * ``local``: the same client pointed at the running local server
      (``http://127.0.0.1:<port>/v1``), named by the model's alias (the GGUF file's stem), so
      provenance records the real model; ``LLMUnavailable`` when it does not run.
    * ``replay``: :class:`ReplayModel` of ``replay_file`` (default: the shipped demo file).

    Nothing is contacted yet (the local server is found through its run file).
    """
    provider = resolve_provider(settings, server)
    if provider == "replay":
        return ReplayModel.load(settings.replay_file)
    if provider not in ("openai", "local"):
        raise LLMUnavailable(f"unknown LLM provider {settings.provider!r}")
    try:
        backend = importlib.import_module("belief_graph.llm.openai")
    except ModuleNotFoundError as exc:
        raise LLMUnavailable(
            f"the OpenAI chat model needs `{exc.name}` (install with `pip install 'belief-graph[openai]'`)"
        ) from exc
    kwargs: dict[str, Any] = dict(
        model=settings.model,
        api_key=settings.api_key.get_secret_value() if settings.api_key is not None else None,
        base_url=settings.base_url,
        timeout=settings.timeout,
        temperature=settings.temperature,
        max_retries=settings.max_retries,
        structured_output=settings.structured_output,
        strict=settings.strict_schema,
    )
    if provider == "local":
        endpoint = _local_endpoint(server)
        if endpoint is None:
            raise LLMUnavailable(
                "BELIEF_GRAPH_LLM__PROVIDER=local, but the local chat server does not run: "
                "start it with `belief-graph llm serve`"
            )
        kwargs.update(
            model=str(endpoint["alias"]),
            base_url=str(endpoint["url"]),
            api_key=None,
            description=f"{endpoint.get('label') or endpoint['alias']}, local llama-server",
        )
    model: ChatModel = backend.OpenAIChatModel(**kwargs)
    if settings.record_file is not None:
        model = RecordingModel(model, settings.record_file)
    return model


def make_client(
    settings: LLMSettings,
    model: ChatModel | None = None,
    meter: UsageMeter | None = None,
    server: LLMServerSettings | None = None,
) -> LLMClient:
    """An :class:`LLMClient` on ``model`` (default: :func:`make_chat_model` with ``server``) with
    the settings' ``repair_attempts``, ``max_batch``, ``max_tokens`` and timeouts."""
    return LLMClient(
        model if model is not None else make_chat_model(settings, server),
        repair_attempts=settings.repair_attempts,
        max_batch=settings.max_batch,
        meter=meter,
        max_tokens=settings.max_tokens,
        timeouts=settings.timeouts,
        timeout=settings.timeout,
    )
