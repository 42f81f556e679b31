"""Progress on long work (imports, solves, encoding, every bench), drawn with rich on stderr.

``with activity("importing af.apx") as act: ... act.say("solving")`` shows a spinner, what is being
done and the elapsed time while the block runs, and leaves nothing behind (transient). It is
quiet when the command prints ``--json`` or when stderr is not a terminal (pipes, CI, tests), so
machine-readable output never carries it. :func:`with_activity` wraps a whole command.

The spinner is drawn by the command's output console when stdout is a terminal: a result line the
command prints while it runs then goes above the spinner, which rich clears and draws again. Drawn
by the stderr console on the same terminal, the result was written at the end of the spinner's
line (``⠇ importing ... 0:00:01imported big: ...``). With stdout redirected it stays on stderr.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from .common import console as out_console, err_console

__all__ = ["Activity", "activity", "with_activity"]

F = TypeVar("F", bound=Callable[..., Any])


class Activity:
    """The running activity: :meth:`say` changes what it shows, :meth:`advance` counts steps."""

    def __init__(self, progress: Progress | None, task: TaskID | None) -> None:
        self._progress = progress
        self._task = task

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def say(self, text: str) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=text)

    def advance(self, steps: int = 1, total: int | None = None) -> None:
        if self._progress is not None and self._task is not None:
            if total is not None:
                self._progress.update(self._task, total=total)
            self._progress.advance(self._task, steps)


@contextmanager
def activity(
    what: str, *, quiet: bool = False, total: int | None = None, console: Console | None = None
) -> Iterator[Activity]:
    """Show ``what`` with a spinner and the elapsed time while the block runs (see module doc)."""
    if console is not None:
        con = console
    elif not err_console.is_terminal:
        con = err_console  # quiet below: stderr is a pipe or a file
    else:
        con = out_console if out_console.is_terminal else err_console
    if quiet or not con.is_terminal:
        yield Activity(None, None)
        return
    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None:
        columns += [BarColumn(), MofNCompleteColumn()]
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=con, transient=True) as progress:
        task = progress.add_task(what, total=total)
        yield Activity(progress, task)


def with_activity(what: str) -> Callable[[F], F]:
    """Run a whole command under :func:`activity` (quiet when it is given ``--json``)."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def command(*args: Any, **kwargs: Any) -> Any:
            with activity(what, quiet=bool(kwargs.get("json_"))):
                return fn(*args, **kwargs)

        return command  # type: ignore[return-value]

    return wrap
