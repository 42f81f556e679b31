"""The end of ``belief-graph demo``: where its graph is and the exact commands that show it.

The demo writes to its own space, ``demo`` (it empties that space first, so it never touches a
user's ``default``). Every explore path takes a space, so the demo prints each command with
``--space demo`` and says how Browser gets there: a server the demo starts serves Browser on
``demo`` (``$space`` is set to it on login); a server that was already running keeps the space it
was started for, and the guide's first block (``:param space => 'demo'``) switches. The README's
explore examples are these commands (``tests/integration/test_demo_tour.py`` runs them after the
demo).
"""

from __future__ import annotations

from rich.console import Console

from belief_graph.localserver import ServerStatus

__all__ = ["DEMO_SPACE", "explore_commands", "print_explore"]

DEMO_SPACE = "demo"
"""The space the demo fills (and empties first)."""


def explore_commands(space: str = DEMO_SPACE) -> list[str]:
    """The commands that show what the demo wrote, exactly as the README prints them."""
    sp = f"--space {space}"
    return [
        f"belief-graph {sp} query run why_believed -p key=user.risk_tolerance",
        f"belief-graph {sp} query run show_history -p key=user.risk_appetite",
        f"belief-graph {sp} query run list_open_disputes",
        f"belief-graph {sp} shell why_believed -p key=user.risk_tolerance",
        f"belief-graph {sp} viz support user.risk_tolerance -o view.html",
    ]


def browser_hint(status: ServerStatus | None, space: str = DEMO_SPACE) -> str:
    """One line on how Neo4j Browser shows ``space``."""
    switch = f"run `:param space => '{space}'` (the guide's first block) to look at it"
    if status is None or status.browser_url is None:
        return f"in Neo4j Browser, {switch}"
    if status.browser_space == space:
        return f"Neo4j Browser {status.browser_url} logs in on the space '{space}': the guide's blocks run on it"
    other = f"the space '{status.browser_space}'" if status.browser_space else "the space it was started for"
    return f"Neo4j Browser {status.browser_url} logs in on {other}; {switch}"


def print_explore(console: Console, status: ServerStatus | None, space: str = DEMO_SPACE) -> None:
    """The demo's last words: where its graph is and how to look at it."""
    console.rule("look at the graph")
    console.print(f"  the demo wrote to the space '{space}'; every command below names it:", highlight=False)
    for cmd in explore_commands(space):
        console.print(f"    {cmd}", markup=False, highlight=False, soft_wrap=True)
    console.print(f"  {browser_hint(status, space)}", markup=False, highlight=False, soft_wrap=True)
