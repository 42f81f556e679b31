"""``belief-graph argue``: Dung frameworks in Neo4j, the grounded extension computed in Cypher.

``solve FILE`` stores the file in a scratch namespace, solves it in the database, prints the
grounded extension ICCMA-style (``[a1,a2]``; ``--iccma23`` for ``w a1 a2``) or ``--json``
(``{"in": [...], "out": [...], "undec": [...]}`` with the file's own names), then deletes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from ..argumentation import iccma
from ..models.argumentation import GroundedResult, LabelExplanation
from .common import console, print_json, state, table
from .progress import with_activity

app = typer.Typer(
    help="Argumentation frameworks (ICCMA .apx/.tgf/.af) and the grounded extension.", no_args_is_help=True
)

_FORMAT_HELP = "Input format: apx, tgf or af (default: from the extension, else sniffed)."


def _explanation_line(e: LabelExplanation) -> str:
    return f"{e.name}: {e.reason}"


def _explanation_json(e: LabelExplanation) -> dict[str, Any]:
    return e.model_dump(mode="json")


def _print_result(result: GroundedResult, json_: bool, iccma23: bool, explanations: list[LabelExplanation]) -> None:
    if json_:
        data: dict[str, Any] = result.extension()
        if explanations:
            data["explain"] = {e.name: _explanation_json(e) for e in explanations}
        print_json(data)
        return
    typer.echo(iccma.format_extension(result.in_, "iccma23" if iccma23 else "iccma19"))
    for e in explanations:
        typer.echo(_explanation_line(e))


@app.command("solve")
@with_activity("solving the grounded extension in Neo4j")
def solve(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="An ICCMA framework file (.apx, .tgf, .af)."),
    json_: bool = typer.Option(False, "--json", help='Print {"in": [...], "out": [...], "undec": [...]}.'),
    explain: list[str] = typer.Option([], "--explain", help="Also explain this argument's label (repeatable)."),
    format: str = typer.Option(None, "--format", help=_FORMAT_HELP),
    iccma23: bool = typer.Option(False, "--iccma23", help="ICCMA 2023 output: 'w a1 a2' instead of '[a1,a2]'."),
) -> None:
    """Solve a file in Neo4j (scratch namespace, deleted afterwards) and print its grounded extension."""
    st = state(ctx)
    result, explanations = st.engine().argumentation.solve_explained(file, explain, format=format)
    _print_result(result, json_, iccma23, explanations)
    if st.verbose:
        typer.echo(
            f"# {result.arguments} arguments, {result.waves} waves, {result.round_trips} statement(s), "
            f"{result.seconds:.3f} s in the database",
            err=True,
        )


@app.command("import")
@with_activity("importing the framework (validate, then store)")
def import_(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="An ICCMA framework file (.apx, .tgf, .af)."),
    name: str = typer.Option(..., "--name", help="Name of the stored framework (namespace framework:<name>)."),
    format: str = typer.Option(None, "--format", help=_FORMAT_HELP),
    replace: bool = typer.Option(False, "--replace", help="Overwrite a framework of the same name."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Validate a file completely, then store it as a named framework."""
    fw = state(ctx).engine().argumentation.import_framework(file, name, format=format, replace=replace)
    if json_:
        print_json(fw)
    else:
        console.print(f"imported {fw.name}: {fw.arguments} arguments, {fw.attacks} attacks (namespace {fw.ns})")


@app.command("show")
@with_activity("solving the grounded extension in Neo4j")
def show(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A stored framework."),
    json_: bool = typer.Option(False, "--json"),
    iccma23: bool = typer.Option(False, "--iccma23", help="ICCMA 2023 output: 'w a1 a2'."),
) -> None:
    """Solve a stored framework in Neo4j (labels written back) and show it with its grounded extension."""
    bg = state(ctx).engine()
    fw = bg.argumentation.framework(name)
    result = bg.argumentation.ground_framework(name)
    if json_:
        print_json({"framework": fw.model_dump(mode="json"), **result.extension(), "waves": result.waves})
        return
    table(
        f"framework {fw.name}",
        ["namespace", "source", "format", "arguments", "attacks", "IN", "OUT", "UNDEC", "waves"],
        [
            [
                fw.ns,
                fw.source,
                fw.format,
                fw.arguments,
                fw.attacks,
                len(result.in_),
                len(result.out),
                len(result.undec),
                result.waves,
            ]
        ],
    )
    typer.echo(iccma.format_extension(result.in_, "iccma23" if iccma23 else "iccma19"))


@app.command("explain")
@with_activity("solving and explaining")
def explain(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A stored framework."),
    argument: str = typer.Argument(..., help="An argument name of that framework."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Why an argument of a stored framework is IN, OUT or UNDEC (solves it first if needed)."""
    bg = state(ctx).engine()
    e = bg.argumentation.explain_framework(name, argument)
    if json_:
        print_json(_explanation_json(e))
    else:
        typer.echo(_explanation_line(e))
        if e.attackers:
            table(
                f"attackers of {e.name}",
                ["attacker", "label", "wave"],
                [[a.name, a.label, a.wave] for a in e.attackers],
            )


@app.command("list")
def list_(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """The stored frameworks of this space."""
    fws = state(ctx).engine().argumentation.frameworks()
    if json_:
        print_json(fws)
    else:
        table(
            "frameworks",
            ["name", "arguments", "attacks", "format", "status", "source"],
            [[f.name, f.arguments, f.attacks, f.format, f.status, f.source] for f in fws],
        )


@app.command("export")
def export(
    ctx: typer.Context,
    name: str = typer.Argument(..., help="A stored framework."),
    format: str = typer.Option("apx", "--format", help="apx, tgf or af."),
    out: Path = typer.Option(None, "--out", help="Write to this file instead of stdout."),
) -> None:
    """Write a stored framework back as ICCMA text."""
    text = state(ctx).engine().argumentation.export_text(name, format=format)
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        console.print(f"wrote {out}")


@app.command("delete")
def delete(ctx: typer.Context, name: str = typer.Argument(..., help="A stored framework.")) -> None:
    """Delete a stored framework and its arguments (exit 1 when there is none)."""
    if not state(ctx).engine().argumentation.delete_framework(name):
        console.print(f"no framework named {name}")
        raise typer.Exit(1)
    console.print(f"deleted {name}")
