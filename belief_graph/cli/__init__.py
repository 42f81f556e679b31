"""The ``belief-graph`` admin CLI. One module per command group; resources on the Typer context.

Every command turns a :class:`~belief_graph.errors.BeliefGraphError` into one line on stderr and a
non-zero exit code (1 for operational errors, 2 for bad input). Read commands take ``--json``.
"""

from __future__ import annotations

import logging
import sys

import typer

from ..db import interrupts
from ..errors import BeliefGraphError, ConfigurationError, ValidationError
from . import agents, db, disputes, doctor, memory, policy, server
from .common import AppState

__all__ = ["app", "configure_logging", "main"]

app = typer.Typer(
    name="belief-graph",
    help="Neo4j-native belief engine for the memory of AI agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(server.app, name="server")
app.add_typer(db.app, name="db")
app.add_typer(memory.app, name="memory")
app.add_typer(policy.app, name="policy")
app.add_typer(disputes.app, name="disputes")
app.add_typer(agents.app, name="agents")
from . import support as support_cli  # noqa: E402

app.add_typer(support_cli.app, name="support")
from . import rules as rules_cli  # noqa: E402

app.add_typer(rules_cli.app, name="rules")
from . import argue  # noqa: E402

app.add_typer(argue.app, name="argue")
from . import perspectives as perspectives_cli  # noqa: E402

app.add_typer(perspectives_cli.app, name="perspectives")
from . import llm as llm_cli  # noqa: E402

app.add_typer(llm_cli.app, name="llm")
app.command("doctor")(doctor.doctor)
from . import bloom as bloom_cli, mcp as mcp_cli, query as query_cli, shell as shell_cli, viz as viz_cli  # noqa: E402

app.add_typer(query_cli.app, name="query")
app.add_typer(viz_cli.app, name="viz")
app.add_typer(bloom_cli.app, name="bloom")
app.command("shell")(shell_cli.shell)
app.command("mcp")(mcp_cli.mcp)
from .plugins import add_plugin_commands  # noqa: E402

# `bench`, `demo` and `llm record-demo` come from the lab (lab/belief_graph_lab in a checkout), an
# installed package of its own; without it they are hidden commands that say how to get them.
add_plugin_commands(app)


@app.callback()
def _root(
    ctx: typer.Context,
    space: str = typer.Option(None, "--space", help="Memory space (default: BELIEF_GRAPH_SPACE or 'default')."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print more (timings, LLM and embedding usage)."),
) -> None:
    ctx.obj = AppState(space=space, verbose=verbose)
    configure_logging(verbose)


_DRIVER_LOGGER = "neo4j"


def configure_logging(verbose: bool) -> None:
    """The Neo4j driver logs a WARNING for every retried transaction ("Transaction failed and will
    be retried in 0.9 s") and for server notifications; with no handler configured Python prints
    them on stderr, in the middle of a command's output. The CLI shows them only with
    ``--verbose`` (as ``neo4j: <message>`` lines); errors still reach the user as one line."""
    driver = logging.getLogger(_DRIVER_LOGGER)
    for h in list(driver.handlers):
        if getattr(h, "_belief_graph", False):
            driver.removeHandler(h)
    if verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("neo4j: %(message)s"))
        handler._belief_graph = True  # type: ignore[attr-defined]
        driver.addHandler(handler)
        driver.setLevel(logging.WARNING)
        driver.propagate = False
    else:
        quiet = logging.NullHandler()
        quiet._belief_graph = True  # type: ignore[attr-defined]
        driver.addHandler(quiet)
        driver.setLevel(logging.ERROR)
        driver.propagate = False


def main() -> None:
    # SIGTERM (kill, a supervisor, CI's timeout) and Ctrl-C end the command as an exception, so
    # finally blocks run (bench scratch spaces are removed, open transactions roll back); never
    # inside a driver call, which the exception would leave broken (db/interrupts.py)
    interrupts.install()
    try:
        rv = app(standalone_mode=False)
        # click returns the exit code of typer.Exit instead of exiting when not standalone
        if isinstance(rv, int) and rv != 0:
            sys.exit(rv)
    except BeliefGraphError as exc:
        code = 2 if isinstance(exc, ValidationError | ConfigurationError) else 1
        typer.echo(f"error: {exc}", err=True)
        sys.exit(code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except Exception as exc:  # usage errors (bad option values, unknown commands)
        import click

        # typer 0.2x runs its own copy of click (typer._click): its usage errors derive from
        # typer.TyperException, not from click.ClickException (before this check a bad option
        # value ended in a traceback and exit code 1)
        usage: tuple[type[Exception], ...] = (click.ClickException,)
        typer_base = getattr(typer, "TyperException", None)
        if isinstance(typer_base, type) and issubclass(typer_base, Exception):
            usage += (typer_base,)
        if isinstance(exc, usage) and hasattr(exc, "show"):
            exc.show()
            sys.exit(int(getattr(exc, "exit_code", 2)))
        raise
