"""``belief-graph memory import FILE.jsonl`` and ``memory imports``: bulk import from the shell.

The import runs in batches, one transaction each, through the write path of ``memory assert``; its
progress is kept in the graph, so running the same command again after an interruption (Ctrl-C, a
kill, a lost connection) continues where it stopped. A progress bar (lines, claims per second) is
drawn on stderr, quiet with ``--json`` or when stderr is not a terminal.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from ..errors import ValidationError
from ..models.imports import ImportInfo, ImportResult
from .common import console, print_json, state, table
from .progress import activity

__all__ = ["import_file", "imports"]


def _count_lines(path: Path) -> int:
    n = 0
    last = b"\n"
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            n += chunk.count(b"\n")
            last = chunk[-1:]
    return n + (0 if last == b"\n" else 1)


def import_file(
    ctx: typer.Context,
    file: Path = typer.Argument(..., help="JSON Lines: one claim per line, {key, value, text, agent, evidence, ...}."),
    name: str = typer.Option(
        None, "--name", help="Name of the import (default: file:<absolute path>); a rerun with the same name resumes."
    ),
    agent: str = typer.Option(None, "--agent", help="Writer of the lines that name none."),
    batch_size: int = typer.Option(500, "--batch-size", help="Lines per transaction (embeddings batched alike)."),
    on_error: str = typer.Option(
        "stop",
        "--on-error",
        help="stop: a bad line stops the import (exit 2, nothing of "
        "its batch written); skip: it is left out and recorded.",
    ),
    restart: bool = typer.Option(
        False,
        "--restart",
        help="Start from the first line again (the progress is reset; "
        "lines already written go through the write path again).",
    ),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Bulk import: batched transactions, same policies as `memory assert`, resumable."""
    if not file.is_file():
        raise ValidationError(f"no such file: {str(file)!r}")
    bg = state(ctx).engine()
    total = _count_lines(file)
    started = time.perf_counter()
    with activity(f"importing {file.name}", quiet=json_, total=total) as act:
        shown = 0

        def progress(done: int, written: int) -> None:
            nonlocal shown
            rate = written / max(time.perf_counter() - started, 1e-9)
            act.say(f"importing {file.name}: {written} claims, {rate:.0f}/s")
            act.advance(done - shown)
            shown = done

        r = bg.importer.import_jsonl(
            file, name=name, agent=agent, batch_size=batch_size, on_error=on_error, restart=restart, progress=progress
        )
    if json_:
        print_json({**r.model_dump(mode="json"), "claims_per_second": round(r.claims_per_second, 1)})
        return
    _print_result(r)


def _print_result(r: ImportResult) -> None:
    ops = ", ".join(f"{n} {op.upper()}" for op, n in r.ops.items() if n)
    resumed = f" (resumed after line {r.resumed_from})" if r.resumed_from else ""
    console.print(
        f"import {r.name}{resumed}: {r.lines} lines in {r.batches} transactions, {ops or 'nothing written'}; "
        f"{r.done} lines committed in total",
        markup=False,
        highlight=False,
    )
    console.print(
        f"  {r.seconds:.1f} s ({r.claims_per_second:.0f} claims/s; embedding {r.embed_seconds:.1f} s "
        f"with {r.embedder}, writing {r.write_seconds:.1f} s)",
        markup=False,
        highlight=False,
    )
    if r.staled or r.rederived:
        console.print(f"  downstream: {r.rederived} re-derived, {r.staled} stale", markup=False, highlight=False)
    for rej in r.rejected[:20]:
        console.print(f"  rejected line {rej.line}: {rej.error}", markup=False, highlight=False)
    if len(r.rejected) > 20:
        console.print(f"  ... {len(r.rejected) - 20} more rejected lines (--json lists them all)", markup=False)


def imports(
    ctx: typer.Context,
    limit: int = typer.Option(50, "--limit"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Bulk imports of this space with their progress (lines committed) and counters."""
    infos: list[ImportInfo] = state(ctx).engine().importer.all(limit)
    if json_:
        print_json(infos)
        return
    table(
        "imports",
        ["name", "status", "lines done", "claims", "rejected", "batches", "runs", "updated"],
        [
            [
                i.name,
                i.status,
                i.done,
                sum(
                    v
                    for k, v in i.counts.items()
                    if k in ("add", "update", "replace", "superseded", "disputed", "noop")
                ),
                i.counts.get("rejected", 0),
                i.batches,
                i.runs,
                i.updated_at,
            ]
            for i in infos
        ],
    )
