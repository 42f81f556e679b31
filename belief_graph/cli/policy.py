"""``belief-graph policy``: conflict strategies and authority per key pattern."""

from __future__ import annotations

import typer

from .common import console, print_json, state, table

app = typer.Typer(
    help="Conflict policy: strategy and authority per key pattern (wildcards: user.schedule.*).", no_args_is_help=True
)


@app.command("set")
def set_(
    ctx: typer.Context,
    pattern: str = typer.Argument(..., help="Key or pattern, e.g. user.timezone, user.schedule.*, *"),
    strategy: str = typer.Argument(..., help="recency | authority | consensus | argumentation | llm_judge"),
    auto_authority_gap: float = typer.Option(None, help="Auto-resolve a dispute when weights differ by this much."),
    auto_corroboration: int = typer.Option(None, help="Auto-resolve for a value asserted by this many agents."),
    auto_age_days: float = typer.Option(None, help="Auto-resolve disputes open this many days."),
    auto_age_winner: str = typer.Option(None, help="incumbent | challenger (for --auto-age-days)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Declare the strategy (and auto-resolution rules) for a key pattern."""
    r = (
        state(ctx)
        .engine()
        .conflicts.set_policy(
            pattern,
            strategy,
            auto_authority_gap=auto_authority_gap,
            auto_corroboration=auto_corroboration,
            auto_age_days=auto_age_days,
            auto_age_winner=auto_age_winner,
        )
    )
    print_json(r) if json_ else console.print(f"{r.pattern}: {r.strategy.value}")


@app.command("authority")
def authority(
    ctx: typer.Context,
    agent: str = typer.Argument(..., help="Agent id, or '*' for every agent."),
    pattern: str = typer.Argument(...),
    weight: float = typer.Argument(..., help="0..1"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Declare an agent's authority on a key pattern."""
    r = state(ctx).engine().conflicts.set_authority(agent, pattern, weight)
    print_json(r) if json_ else console.print(f"{r.agent} on {r.pattern}: {r.weight:g}")


@app.command("list")
def list_(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Every strategy and authority rule of the space."""
    policies, authorities = state(ctx).engine().conflicts.policies()
    if json_:
        print_json(
            {
                "policies": [p.model_dump(mode="json") for p in policies],
                "authority": [a.model_dump(mode="json") for a in authorities],
            }
        )
        return
    table(
        "strategy rules (most specific first)",
        ["pattern", "strategy", "auto rules"],
        [
            [
                p.pattern,
                p.strategy.value,
                ", ".join(f"{k[5:]}={v}" for k, v in p.model_dump().items() if k.startswith("auto_") and v is not None),
            ]
            for p in policies
        ],
    )
    table("authority rules", ["agent", "pattern", "weight"], [[a.agent, a.pattern, a.weight] for a in authorities])


@app.command("show")
def show(ctx: typer.Context, key: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Which strategy decides a key, and by which rule."""
    strategy, rule = state(ctx).engine().conflicts.policy_for(key)
    if json_:
        print_json({"key": key, "strategy": strategy.value, "rule": rule.model_dump(mode="json") if rule else None})
    else:
        console.print(f"{key}: {strategy.value} ({'rule ' + rule.pattern if rule else 'default'})")
