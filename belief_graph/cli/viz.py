"""``belief-graph viz``: one self-contained, offline HTML file per view."""

from __future__ import annotations

from pathlib import Path

import typer

from ..viz import GraphView
from .common import console, state

app = typer.Typer(
    help="HTML views (one offline file each): support, history, audit, deliberation, framework.", no_args_is_help=True
)

_OUT = typer.Option(None, "--output", "-o", help="Where to write the page (default: <view>-<name>.html).")


def _write(view: GraphView, out: Path | None, default: str) -> None:
    path = view.save(out if out is not None else Path(default))
    console.print(
        f"{view.title}: {view.node_count} nodes, {view.edge_count} edges -> {path}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )
    if view.note:
        console.print(f"  {view.note}", markup=False, highlight=False, soft_wrap=True)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]


@app.command("support")
def support(ctx: typer.Context, key: str, out: Path = _OUT) -> None:
    """Why a fact is believed: its current claim and the justifications back to the evidence."""
    _write(state(ctx).engine().explore.support(key), out, f"support-{_safe(key)}.html")


@app.command("history")
def history(ctx: typer.Context, key: str, out: Path = _OUT) -> None:
    """A fact's versions, the SUPERSEDES chain and the revisions."""
    _write(state(ctx).engine().explore.history(key), out, f"history-{_safe(key)}.html")


@app.command("audit")
def audit(ctx: typer.Context, audit_id: str, out: Path = _OUT) -> None:
    """What one reconsolidation changed (its region)."""
    _write(state(ctx).engine().explore.audit(audit_id), out, f"audit-{_safe(audit_id)}.html")


@app.command("deliberation")
def deliberation(ctx: typer.Context, deliberation_id: str, out: Path = _OUT) -> None:
    """A deliberation's attack graph, proposals coloured by grounded label."""
    _write(
        state(ctx).engine().explore.deliberation(deliberation_id), out, f"deliberation-{_safe(deliberation_id)}.html"
    )


@app.command("framework")
def framework(
    ctx: typer.Context,
    name: str,
    out: Path = _OUT,
    limit: int = typer.Option(300, "--limit", min=1, help="At most this many arguments (by name)."),
) -> None:
    """An imported argumentation framework, arguments coloured by grounded label."""
    _write(state(ctx).engine().explore.framework(name, limit), out, f"framework-{_safe(name)}.html")
