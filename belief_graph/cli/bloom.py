"""``belief-graph bloom``: the Neo4j Bloom / Explore perspective file."""

from __future__ import annotations

from pathlib import Path

import typer

from ..console.bloom import perspective_json
from ..db.registry import get_registry
from .common import console

app = typer.Typer(help="Neo4j Bloom (Desktop) / Explore (Aura): the perspective file to import.", no_args_is_help=True)


@app.command("perspective")
def perspective(out: Path = typer.Option(Path("belief-graph.perspective.json"), "--output", "-o")) -> None:
    """Write the perspective (categories, colours by status and label, search phrases) to import."""
    out.write_text(perspective_json(get_registry()), encoding="utf-8")
    console.print(
        f"perspective written to {out}: import it in Bloom (Desktop) or Explore (Aura), see README 'Bloom'",
        markup=False,
        highlight=False,
    )
