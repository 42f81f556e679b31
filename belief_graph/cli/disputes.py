"""``belief-graph disputes``: conflicts that policy could not settle, and their resolution."""

from __future__ import annotations

import typer

from ..models import Dispute
from .common import console, print_json, state, table

app = typer.Typer(help="Open and resolved disputes; resolve by hand or by the declared rules.", no_args_is_help=True)


def _rows(ds: list[Dispute]) -> list[list[object]]:
    return [
        [
            d.id,
            d.key,
            d.status,
            f"{d.incumbent.value!r} ({d.incumbent.agent})",
            f"{d.challenger.value!r} ({d.challenger.agent})",
            d.winner or "",
            d.reason or "",
        ]
        for d in ds
    ]


@app.command("list")
def list_(
    ctx: typer.Context,
    status: str = typer.Option("open", "--status", help="open | resolved | all"),
    key: str = typer.Option(None, "--key"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Disputes of the space."""
    ds = state(ctx).engine().conflicts.disputes(None if status == "all" else status, key)
    if json_:
        print_json(ds)
    else:
        table(f"disputes ({status})", ["id", "key", "status", "incumbent", "challenger", "winner", "reason"], _rows(ds))


@app.command("resolve")
def resolve(
    ctx: typer.Context,
    dispute_id: str,
    winner: str = typer.Option(..., "--winner", help="incumbent | challenger | a claim id"),
    by: str = typer.Option(..., "--by", help="Who decides (e.g. user:admin)."),
    reason: str = typer.Option(..., "--reason"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Settle a dispute: the winner becomes current, the loser superseded, all recorded."""
    d = state(ctx).engine().conflicts.resolve_dispute(dispute_id, winner, by, reason)
    print_json(d) if json_ else console.print(f"resolved {d.id}: winner {d.winner}")


@app.command("auto-resolve")
def auto_resolve(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Apply the declared auto-resolution rules to every open dispute."""
    ds = state(ctx).engine().conflicts.auto_resolve()
    if json_:
        print_json(ds)
    else:
        console.print(f"{len(ds)} dispute(s) resolved")
        if ds:
            table("resolved", ["id", "key", "status", "incumbent", "challenger", "winner", "reason"], _rows(ds))
