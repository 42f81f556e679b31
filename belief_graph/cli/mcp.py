"""``belief-graph mcp``: serve the memory of one space to agents over MCP (stdio)."""

from __future__ import annotations

import typer

from ..errors import ConfigurationError
from .common import state


def mcp(ctx: typer.Context) -> None:
    """Run an MCP server on stdin/stdout bound to the current space (--space / BELIEF_GRAPH_SPACE).

    Add it to an agent's MCP configuration as the command `belief-graph --space NAME mcp`.
    """
    try:
        import mcp as _sdk  # noqa: F401

        from ..mcp_server import build_server
    except ImportError as exc:  # pragma: no cover - the extra is not installed
        raise ConfigurationError("the MCP server needs the mcp package: pip install 'belief-graph[mcp]'") from exc
    build_server(state(ctx).engine()).run("stdio")
