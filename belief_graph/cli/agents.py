"""``belief-graph agents``: the writers of a space."""

from __future__ import annotations

import typer

from .common import console, print_json, state, table

app = typer.Typer(help="Agents (writers) of a memory space.", no_args_is_help=True)


@app.command("add")
def add(
    ctx: typer.Context,
    agent: str,
    kind: str = typer.Option("agent", "--kind", help="user | agent | system"),
    description: str = typer.Option(None, "--description"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Register an agent (required for writes when BELIEF_GRAPH_POLICY__STRICT_AGENTS=true)."""
    a = state(ctx).engine().beliefs.add_agent(agent, kind, description)
    print_json(a) if json_ else console.print(f"registered {a.id} ({a.kind})")


@app.command("list")
def list_(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Every agent that wrote to or was registered in the space."""
    agents = state(ctx).engine().beliefs.agents()
    if json_:
        print_json(agents)
    else:
        table(
            "agents",
            ["id", "kind", "registered", "description"],
            [[a.id, a.kind, a.registered, a.description] for a in agents],
        )
