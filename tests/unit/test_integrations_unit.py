"""The agent-framework tools without a database: the framework is imported only when asked for and a
missing one names its extra; the tools' agent and names are checked when the tools are built."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from belief_graph.errors import ValidationError
from belief_graph.integrations.langchain import memory_tools
from belief_graph.integrations.openai_agents import memory_function_tools
from belief_graph.integrations.operations import OPERATIONS, Scope, operations

pytestmark = pytest.mark.unit


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


def test_importing_the_integrations_imports_no_framework() -> None:
    p = _python(
        """
        import sys
        import belief_graph.integrations.langchain, belief_graph.integrations.openai_agents
        print(sorted(m for m in ("langchain_core", "agents") if m in sys.modules))
        """
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("module", "blocked", "call", "extra"),
    [
        ("langchain", "langchain_core", "memory_tools", "belief-graph[langchain]"),
        ("openai_agents", "agents", "memory_function_tools", "belief-graph[openai-agents]"),
    ],
)
def test_a_missing_framework_is_a_configuration_error_naming_its_extra(
    module: str, blocked: str, call: str, extra: str
) -> None:
    p = _python(
        f"""
        import sys
        sys.modules[{blocked!r}] = None  # as if not installed: its import raises ImportError
        from belief_graph.errors import ConfigurationError
        from belief_graph.integrations.{module} import {call}
        try:
            {call}(object(), agent="user:ana")
        except ConfigurationError as exc:
            print(exc)
        """
    )
    assert p.returncode == 0, p.stderr
    assert f"pip install '{extra}'" in p.stdout


@pytest.mark.parametrize("agent", ["", "   ", "x" * 257])
def test_the_tools_agent_is_a_name(agent: str) -> None:
    with pytest.raises(ValidationError, match="the tools' agent"):
        Scope(agent)
    with pytest.raises(ValidationError, match="the tools' agent"):
        memory_tools(object(), agent=agent)
    with pytest.raises(ValidationError, match="the tools' agent"):
        memory_function_tools(object(), agent=agent)


def test_tools_are_picked_by_name_and_an_unknown_name_is_refused() -> None:
    assert [op.name for op in operations(["disputes", "belief"])] == ["belief", "disputes"]
    assert [t.name for t in memory_tools(object(), agent="a", include=["recall"])] == ["recall"]
    with pytest.raises(ValidationError, match=r"unknown memory tool\(s\) \['forget'\]"):
        memory_function_tools(object(), agent="a", include=["recall", "forget"])


def test_every_operation_reads_only_but_remember() -> None:
    assert [op.name for op in OPERATIONS if not op.read_only] == ["remember"]
    assert [t.name for t in memory_tools(object(), agent="a") if not (t.metadata or {})["read_only"]] == ["remember"]
