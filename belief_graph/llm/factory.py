"""Build the configured chat model and job runner from :class:`~belief_graph.settings.LLMSettings`."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import LLMUnavailable
from .protocol import ChatModel
from .replay import RecordingModel, ReplayModel
from .runner import LLMClient
from .usage import UsageMeter

if TYPE_CHECKING:
    from ..settings import LLMSettings

__all__ = ["make_chat_model", "make_client", "resolve_provider"]


def resolve_provider(settings: LLMSettings) -> str:
    """``openai`` or ``replay``: what ``provider=auto`` means with these settings."""
    if settings.provider != "auto":
        return settings.provider
    has_key = settings.api_key is not None and bool(settings.api_key.get_secret_value())
    return "openai" if has_key else "replay"


def make_chat_model(settings: LLMSettings) -> ChatModel:
    """The chat model the settings ask for.

    * ``provider=auto``: ``openai`` when ``api_key`` is set, else ``replay``.
    * ``openai``: :class:`belief_graph.openai_backend.OpenAIChatModel` with ``model``,
      ``base_url`` (any OpenAI-compatible server), ``api_key``, ``timeout``, ``temperature``,
      ``max_retries``, ``structured_output`` and ``strict_schema``; wrapped in a
      :class:`RecordingModel` when ``record_file`` is set. ``belief_graph.openai_backend``
      (and so ``langchain_openai``) is imported only here.
    * ``replay``: :class:`ReplayModel` of ``replay_file`` (default: the shipped demo file).

    Nothing is contacted yet.
    """
    provider = resolve_provider(settings)
    if provider == "replay":
        return ReplayModel.load(settings.replay_file)
    if provider != "openai":
        raise LLMUnavailable(f"unknown LLM provider {settings.provider!r}")
    try:
        backend = importlib.import_module("belief_graph.openai_backend")
    except ModuleNotFoundError as exc:
        raise LLMUnavailable(
            f"the OpenAI chat model needs `{exc.name}` (install with `pip install 'belief-graph[openai]'`)"
        ) from exc
    model: ChatModel = backend.OpenAIChatModel(
        model=settings.model,
        api_key=settings.api_key.get_secret_value() if settings.api_key is not None else None,
        base_url=settings.base_url,
        timeout=settings.timeout,
        temperature=settings.temperature,
        max_retries=settings.max_retries,
        structured_output=settings.structured_output,
        strict=settings.strict_schema,
    )
    if settings.record_file is not None:
        model = RecordingModel(model, settings.record_file)
    return model


def make_client(settings: LLMSettings, model: ChatModel | None = None, meter: UsageMeter | None = None) -> LLMClient:
    """An :class:`LLMClient` on ``model`` (default: :func:`make_chat_model`) with the settings'
    ``repair_attempts`` and ``max_batch``."""
    return LLMClient(
        model if model is not None else make_chat_model(settings),
        repair_attempts=settings.repair_attempts,
        max_batch=settings.max_batch,
        meter=meter,
    )
