"""Run the real ``belief-graph`` entry point against a test server (shared by test modules and the
``run_cli`` fixture; a module of its own because two conftest.py files make ``import conftest``
ambiguous)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from belief_graph.settings import Settings


def run_cli_with(settings: Settings, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run the real ``belief-graph`` entry point against ``settings``' server (no other BELIEF_GRAPH_ variable)."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("BELIEF_GRAPH_")}
    e.update(
        BELIEF_GRAPH_NEO4J__URI=settings.neo4j.uri,
        BELIEF_GRAPH_NEO4J__PASSWORD=settings.neo4j.password.get_secret_value(),
        BELIEF_GRAPH_NEO4J__USER=settings.neo4j.user,
    )
    e.update(env)
    return subprocess.run(
        [str(Path(sys.executable).with_name("belief-graph")), *args], capture_output=True, text=True, env=e, timeout=300
    )
