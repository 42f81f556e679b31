"""``belief-graph shell``: cypher-shell connected with the configured settings and ``$space``."""

from __future__ import annotations

from pathlib import Path

import typer

from ..console.curated import parse_param_pairs, script
from ..db.registry import Query, get_registry, parse_query
from ..errors import ValidationError
from ..localserver.shell import CypherShell, elide_embeddings
from .common import state


def _query(target: str) -> Query:
    """A registry query by name (``explore.why_believed``, ``why_believed``) or a ``.cypher`` file."""
    registry = get_registry()
    path = Path(target)
    if target.endswith(".cypher"):
        if not path.is_file():
            raise ValidationError(f"no such file: {target}")
        parts = path.resolve().parts
        rel = "/".join(parts[-2:])  # <area>/<verb>_<noun>.cypher
        return parse_query(path.read_text(encoding="utf-8"), rel, path=str(path))
    for name in (target, f"explore.{target}"):
        if name in registry:
            return registry[name]
    raise ValidationError(f"{target!r} is neither a .cypher file nor a registry query (see belief-graph query list)")


def shell(
    ctx: typer.Context,
    target: str = typer.Argument(None, help="A .cypher file or a query name to run; none: interactive."),
    params: list[str] = typer.Option([], "--param", "-p", help="name=value for the file's :param lines (repeatable)."),
    output_format: str = typer.Option("verbose", "--format", help="cypher-shell output: verbose, plain or auto."),
    embeddings: bool = typer.Option(
        False, "--embeddings", help="Print embedding vectors in full (by default: how many numbers each held)."
    ),
) -> None:
    """cypher-shell on the configured database, with $space set; or run one file with its :param lines.

    A file runs as it would after pasting its header's :param lines: the header's example values,
    $space from --space / BELIEF_GRAPH_SPACE, and each -p name=value instead of the example.
    """
    settings = state(ctx).settings
    sh = CypherShell.from_settings(settings)
    if target is None:
        raise typer.Exit(sh.interactive())
    if output_format not in ("verbose", "plain", "auto"):
        raise ValidationError("--format must be verbose, plain or auto")
    q = _query(target)
    values = parse_param_pairs(q, params)
    if "space" in q.params:
        if "space" in values:
            raise ValidationError("the space is chosen with --space / BELIEF_GRAPH_SPACE, not -p space=...")
        values["space"] = settings.space
    done = sh.run_script(script(q, values), output_format=output_format)
    typer.echo(done.stdout if embeddings else elide_embeddings(done.stdout), nl=False)
    if done.returncode != 0:
        typer.echo(done.stderr.strip() or f"cypher-shell exited with {done.returncode}", err=True)
    raise typer.Exit(done.returncode)
