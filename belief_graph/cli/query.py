"""``belief-graph query``: the curated questions (``cypher/explore/``) by name."""

from __future__ import annotations

import typer
from rich.markup import escape

from ..console.curated import parse_param_pairs, question, questions, script
from ..db.registry import get_registry
from .common import console, print_json, state, table

app = typer.Typer(help="Curated questions over the memory (the files of cypher/explore/).", no_args_is_help=True)

_P_HELP = "A parameter, name=value (repeatable); typed like the :param example of the file's header."


@app.command("list")
def list_(json_: bool = typer.Option(False, "--json")) -> None:
    """Every curated question: name, parameters, what it shows."""
    qs = questions(get_registry())
    if json_:
        print_json(
            [
                {
                    "name": q.short_name,
                    "query": q.query.name,
                    "title": q.title,
                    "params": list(q.query.params),
                    "description": q.query.description,
                }
                for q in qs
            ]
        )
        return
    table(
        "curated questions",
        ["name", "params", "question"],
        [[q.short_name, ", ".join(p for p in q.query.params if p != "space"), escape(q.title)] for q in qs],
    )


@app.command("show")
def show(name: str, json_: bool = typer.Option(False, "--json")) -> None:
    """A question's file as it runs in Browser or cypher-shell: its :param lines, then the query."""
    q = question(get_registry(), name)
    if json_:
        print_json(
            {
                "name": q.short_name,
                "query": q.query.name,
                "title": q.title,
                "note": q.note,
                "params": dict(q.query.examples),
                "text": q.query.text,
                "path": q.query.path,
            }
        )
        return
    # plain echo, never wrapped: `query show NAME > file.cypher` must keep the // header one line
    typer.echo(f"// {q.title} - {q.note}")
    typer.echo(script(q.query))


@app.command("run")
def run(
    ctx: typer.Context,
    name: str,
    params: list[str] = typer.Option([], "--param", "-p", help=_P_HELP),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Run a curated question in the current space (--space) and print its rows."""
    q = question(get_registry(), name)
    values = parse_param_pairs(q.query, params)
    result = state(ctx).engine(verify=False).explore.run(q.query.name, values)
    if json_:
        print_json(
            result.model_dump(mode="json", exclude={"graph"})
            | {"nodes": len(result.graph.nodes), "relationships": len(result.graph.edges)}
        )
        return
    counts = ", ".join(f"{k} {v}" for k, v in sorted(result.graph.labels_count().items()))
    console.print(
        f"{q.title}: {len(result.rows)} rows; {len(result.graph.nodes)} nodes ({counts or 'none'}), "
        f"{len(result.graph.edges)} relationships",
        markup=False,
        highlight=False,
    )
    rows = []
    for r in result.rows:
        rows.append([escape(_brief(r[k])) for k in result.keys])
    if rows:
        table(q.query.name, list(result.keys), rows)


def _brief(value: object) -> str:
    """A node by its labels and caption, a path by its length, other values as text (cut)."""
    if isinstance(value, dict) and "labels" in value and "properties" in value:
        props = value["properties"]
        cap = props.get("key") or props.get("text") or props.get("name") or props.get("id") or ""
        status = f" [{props['status']}]" if props.get("status") else ""
        return f"(:{':'.join(value['labels'])}) {str(cap)[:40]}{status}"
    if isinstance(value, dict) and "type" in value and "source" in value:
        return f"[:{value['type']}]"
    if isinstance(value, dict) and "relationships" in value:
        return f"path of {len(value['relationships'])}"
    if isinstance(value, list):
        return f"{len(value)} items"
    text = "" if value is None else str(value)
    return text if len(text) <= 60 else text[:59] + "\u2026"
