"""What the bench commands share: comma-separated lists, store sizes, the timed engine, progress, ``--out``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from belief_graph.cli.common import console
from belief_graph.embeddings import HashingEmbedder
from belief_graph.errors import ValidationError
from belief_graph.facade import BeliefGraph

__all__ = ["FULL_SIZES", "numbers", "say", "sizes_or_full", "timed_engine", "words", "write_out"]

N = TypeVar("N", int, float)

FULL_SIZES = [10**3, 10**4, 10**5, 10**6]
"""The store sizes of ``--full``: where the goals are stated."""


def words(text: str) -> list[str]:
    """``"a, b,,c"`` -> ``["a", "b", "c"]``."""
    return [w.strip() for w in text.split(",") if w.strip()]


def numbers(text: str, option: str, kind: Callable[[str], N] = int) -> list[N]:
    """A comma-separated option as numbers; anything else is a ``ValidationError`` naming the option."""
    try:
        return [kind(w) for w in words(text)]
    except ValueError as exc:
        what = "integers" if kind is int else "numbers"
        raise ValidationError(f"{option} must be comma-separated {what}, got {text!r}") from exc


def sizes_or_full(sizes: str, full: bool) -> list[int]:
    """``--sizes`` as integers, or :data:`FULL_SIZES` with ``--full``."""
    return list(FULL_SIZES) if full else numbers(sizes, "--sizes")


def timed_engine(engine: Callable[[], BeliefGraph], embedder: str) -> BeliefGraph:
    """The engine whose writes a study times: ``configured`` is the space's own (``engine()``);
    ``hashing`` the same store with the hashing embedder, so that the times are the engine's cost
    alone. ``--embedder`` is checked before ``engine()`` connects."""
    if embedder not in ("hashing", "configured"):
        raise ValidationError("--embedder is 'hashing' or 'configured'")
    bg = engine()
    if embedder == "configured":
        return bg
    return BeliefGraph(bg.graph, bg.settings, bg.space, HashingEmbedder(bg.settings.embedding.dimension))


def say(json_: bool) -> Callable[[str], None] | None:
    """A study's progress lines on the console, or none when the output is ``--json``."""
    if json_:
        return None
    return lambda m: console.print(m, markup=False, highlight=False)


def write_out(out_file: Path | None, out: dict[str, Any]) -> None:
    """``--out FILE``: the result as JSON, also when it is printed as a table."""
    if out_file is not None:
        out_file.write_text(json.dumps(out, indent=2, default=str) + "\n", encoding="utf-8")
