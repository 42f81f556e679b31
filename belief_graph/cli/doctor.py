"""``belief-graph doctor``: connectivity, schema, vector index, embedding coverage, paraphrase probe."""

from __future__ import annotations

import typer

from ..errors import DoctorFailed
from .common import console, print_json, state


def doctor(
    ctx: typer.Context,
    sample: int = typer.Option(200, help="How many embedded claims to look up through the vector index."),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Check that the store is reachable, migrated, and really semantic. Exit 1 with the reason otherwise."""
    report = state(ctx).engine(verify=False).admin.doctor(sample=sample)
    if json_:
        print_json(report.to_dict())
    else:
        for c in report.checks:
            mark = {True: "[green]ok  [/green]", False: "[red]FAIL[/red]", None: "[yellow]skip[/yellow]"}[c.ok]
            console.print(f"{mark} {c.name:<17} {c.detail}", highlight=False)
    if not report.ok:
        raise DoctorFailed(report.failed)
