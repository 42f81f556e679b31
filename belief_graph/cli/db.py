"""``belief-graph db``: apply, verify and count the schema (schemas/*.cypher); delete a space."""

from __future__ import annotations

import typer

from ..db.schema import load_migrations
from ..errors import NotFoundError, SchemaError
from ..repositories import AdminRepository
from ..repositories.admin import DELETE_BATCH, MIN_DELETE_BATCH
from ..settings import load_settings
from .common import console, err_console, print_json, state, table

app = typer.Typer(help="Schema migrations, verification, counts, and deleting a space.", no_args_is_help=True)


@app.command("init")
def init(
    ctx: typer.Context,
    wait: float = typer.Option(
        60.0,
        "--wait",
        min=0.0,
        help="Seconds to wait for the indexes to come ONLINE after applying (a large store rebuilding a vector index may need more).",
    ),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Apply pending migrations from schemas/ and record them in the graph."""
    bg = state(ctx).engine()
    applied = bg.admin.init_schema()
    report = bg.admin.verify_schema(wait_seconds=wait)
    if json_:
        print_json({"applied": applied, "verify": report.to_dict()})
    else:
        migs = {m.version: m.name for m in load_migrations()}
        if applied:
            for v in applied:
                console.print(f"applied {migs[v]}")
        else:
            console.print("schema up to date: nothing to apply")
        console.print("verify: " + ("ok" if report.ok else "FAILED"))
    if not report.ok:
        hint = (
            ""
            if not report.not_online or report.missing or report.problems
            else f" (the migrations are applied; indexes still populating after {wait:g} s: "
            "`belief-graph db verify --wait 600` waits longer)"
        )
        raise SchemaError(
            "schema verification failed after init: "
            + "; ".join(report.missing + report.not_online + report.problems)
            + hint
        )


@app.command("verify")
def verify(
    ctx: typer.Context,
    wait: float = typer.Option(60.0, help="Seconds to wait for indexes to come ONLINE."),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Compare SHOW CONSTRAINTS/INDEXES with the migrations; wait for ONLINE. Exit 1 on any difference."""
    report = state(ctx).engine().admin.verify_schema(wait_seconds=wait)
    if json_:
        print_json(report.to_dict())
    else:
        table(
            "schema objects",
            ["name", "type", "state", "population %"],
            [[o["name"], o["type"], o["state"], o["population"]] for o in report.objects],
        )
        for label, items in (
            ("pending migrations", report.pending),
            ("missing", report.missing),
            ("not ONLINE", report.not_online),
            ("problems", report.problems),
        ):
            if items:
                console.print(f"[red]{label}:[/red] {', '.join(map(str, items))}")
        console.print("schema: " + ("[green]ok[/green]" if report.ok else "[red]FAILED[/red]"))
    if not report.ok:
        raise typer.Exit(1)


@app.command("stats")
def stats(
    ctx: typer.Context,
    all_spaces: bool = typer.Option(False, "--all-spaces", help="Count every space, not just the current one."),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Node counts by label and status."""
    st = state(ctx)
    rows = st.engine().admin.stats(all_spaces=all_spaces)
    if json_:
        print_json({"space": None if all_spaces else st.settings.space, "counts": rows})
    else:
        table(
            f"space {'*' if all_spaces else st.settings.space}",
            ["label", "status", "count"],
            [[r["label"], r["status"], r["count"]] for r in rows],
        )


@app.command("check")
def check(
    ctx: typer.Context,
    limit: int = typer.Option(100, "--limit", min=1, max=100_000, help="Offending items listed per invariant."),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Check the invariants of the space (read-only). Exit 1, listing the offending ids, when one breaks."""
    st = state(ctx)
    report = st.engine().admin.check(limit=limit)
    if json_:
        print_json(report.to_dict())
    else:
        table(
            f"invariants of space {st.settings.space}",
            ["invariant", "ok", "violations", "seconds", "offending (first)"],
            [
                [i.name, "ok" if i.ok else "BROKEN", i.violations, f"{i.seconds:.3f}", "; ".join(i.offending[:3])]
                for i in report.invariants
            ],
        )
        for i in report.failed:
            console.print(f"[red]{i.name}[/red]: {i.description}", highlight=False)
            for item in i.offending:
                typer.echo(f"  {item}")
        for d in report.duplicates or []:
            console.print(
                f"[yellow]likely duplicate keys[/yellow] {d.keys[0]} = {d.values[0]!r} / {d.keys[1]} = "
                f"{d.values[1]!r} ({d.relation.replace('_', ' ')}, {d.similarity}): {d.merge_command}",
                highlight=False,
            )
        console.print(report.summary(), highlight=False, markup=False)
    if not report.ok:
        raise typer.Exit(1)


@app.command("drop-space")
def drop_space(
    ctx: typer.Context,
    space: str = typer.Argument(..., help="The memory space to delete, named in full (--space is not used)."),
    yes: bool = typer.Option(False, "--yes", help="Delete. Without it the command only counts what would go."),
    batch: int = typer.Option(
        DELETE_BATCH,
        "--batch",
        min=MIN_DELETE_BATCH,
        max=100_000,
        help="Nodes deleted per transaction (halved while a batch exceeds the server's transaction memory).",
    ),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Delete a memory space: its episodes, claims, versions, audits, rules, perspectives and
    arguments (forgetting a user or a tenant). Without --yes it lists what would go, deletes
    nothing and exits 2. Batches commit one by one: if it stops half way, run it again."""
    load_settings(space=space)  # the same name rules as --space
    admin = AdminRepository(state(ctx).engine().graph, space)
    counts = admin.count_space(space)
    if not counts:
        raise NotFoundError(f"space {space!r} holds nothing: no node has space = {space!r}")
    if not yes:
        if json_:
            print_json({"space": space, "deleted": 0, "counts": counts})
        else:
            rows = [[r["label"], r["status"], r["count"]] for r in counts]
            table(f"space {space}: would be deleted", ["label", "status", "count"], rows)
            err_console.print(f"nothing deleted: run again with --yes to delete space {space!r}", highlight=False)
        raise typer.Exit(2)
    deleted = admin.delete_space_batched(space, batch)
    left = admin.count_space(space)
    if json_:
        print_json({"space": space, "deleted": deleted, "left": left})
    else:
        console.print(f"deleted space {space!r}: {deleted} nodes" + (f"; still there: {left}" if left else ""))
    if left:  # written into the space while it was being deleted
        raise typer.Exit(1)
