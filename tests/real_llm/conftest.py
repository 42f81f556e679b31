"""A real language model for the ``real_llm`` tests: the local llama-server.

The configured server (``BELIEF_GRAPH_LLM_SERVER__*`` as the suite was started with) is used when
it runs; otherwise it is started here from the installed ``llama-server`` and the configured GGUF,
and stopped at the end. Without either, the tests fail (never skip): run ``belief-graph llm
install`` and ``scripts/fetch-local-model.sh`` first (``.ci/run`` does).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from belief_graph.llm import LLMClient, make_client
from belief_graph.llmserver import LLMServerStatus, LocalLLMServer
from belief_graph.settings import LLMServerSettings, Settings, load_settings


@pytest.fixture(scope="session")
def llm_server_settings(real_llm_server_home: str | None) -> LLMServerSettings:
    s = load_settings().llm_server
    if real_llm_server_home:
        s = s.model_copy(update={"home": real_llm_server_home})
    else:  # the default home, not the suite's empty one
        s = s.model_copy(update={"home": LLMServerSettings().home})
    return s


@pytest.fixture(scope="session")
def local_llm(llm_server_settings: LLMServerSettings) -> Iterator[LLMServerStatus]:
    server = LocalLLMServer(llm_server_settings)
    started_here = not server.status().running
    try:
        status = server.serve()
    except Exception as exc:  # a failure, not a skip
        pytest.fail(f"no local chat model for the real_llm tests: {exc}", pytrace=False)
    yield status
    if started_here:
        server.stop()


@pytest.fixture(scope="session")
def real_settings(
    base_settings: Settings, llm_server_settings: LLMServerSettings, local_llm: LLMServerStatus
) -> Settings:
    """The suite's settings with the LLM pointed at the running local server."""
    llm = base_settings.llm.model_copy(update={"provider": "local", "structured_output": "json_schema"})
    return base_settings.model_copy(update={"llm": llm, "llm_server": llm_server_settings})


@pytest.fixture()
def real_client(real_settings: Settings) -> LLMClient:
    return make_client(real_settings.llm, server=real_settings.llm_server)
