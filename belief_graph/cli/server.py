"""``belief-graph server``: a real local Neo4j Community (no Docker), built from Maven Central."""

from __future__ import annotations

import typer

from ..localserver import LocalServer, ServerStatus
from .common import console, print_json, state
from .processes import add_process_commands, progress

app = typer.Typer(help="Run a local Neo4j Community server (Bolt on 127.0.0.1).", no_args_is_help=True)


def _server(ctx: typer.Context) -> LocalServer:
    s = state(ctx).settings
    return LocalServer(s.server, s.neo4j, space=s.space)


def _show(st: ServerStatus, json_: bool) -> None:
    if json_:
        print_json(st.to_dict())
        return
    if st.running:
        console.print(
            f"Neo4j {st.version} running (pid {st.pid}) at {st.bolt_uri}"
            + (f", Browser {st.browser_url}" if st.browser_url else "")
            + (f" (logs in on the space {st.browser_space!r})" if st.browser_space else ""),
            highlight=False,
        )
    else:
        console.print(f"Neo4j {st.version}: not running", highlight=False)
    console.print(f"  home: {st.home}\n  data: {st.data_dir}", highlight=False)
    if st.message:
        console.print(f"  {st.message}", highlight=False)
    for w in st.warnings:
        console.print(f"  [yellow]warning:[/yellow] {w}", highlight=False)


@app.command("install")
def install(ctx: typer.Context) -> None:
    """Fetch the Neo4j jars, Neo4j Browser and cypher-shell from Maven Central (once; cached)."""
    from ..localserver.shell import CypherShell

    srv = _server(ctx)
    path = srv.install(progress=progress)
    console.print(f"Neo4j installed in {path}", highlight=False)
    browser = srv.install_browser(progress=progress)
    if browser is not None:
        console.print(f"Neo4j Browser installed in {browser.parent}", highlight=False)
    shell = CypherShell.from_settings(state(ctx).settings).install(progress=progress)
    console.print(f"cypher-shell installed in {shell}", highlight=False)


@app.command("start")
def start(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Start the server and wait until Bolt answers (idempotent)."""
    _show(_server(ctx).start(progress=None if json_ else progress), json_)


add_process_commands(
    app,
    _server,
    _show,
    stop_help="Stop the server cleanly; the data stays.",
    status_help="Where it runs, which version, the data dir. Exit code 3 when not running.",
    logs_help="The tail of the server log.",
)
