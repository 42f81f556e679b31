"""``belief-graph demo``: start the local Neo4j, apply the schema, write and recall a few beliefs."""

from __future__ import annotations

import time

import typer

from ..facade import BeliefGraph
from ..repositories import AdminRepository
from .common import console, state, table

DEMO_SPACE = "demo"


def demo(
    ctx: typer.Context,
    server: bool = typer.Option(True, "--server/--no-server",
                                help="Start the local Neo4j first (use --no-server with your own BELIEF_GRAPH_NEO4J__URI)."),
    stop: bool = typer.Option(False, "--stop", help="Stop the local server when done."),
) -> None:
    """A first tour: one current belief per fact, its history, and semantic recall."""
    st = state(ctx)
    s = st.settings
    srv = None
    if server:
        from ..server import LocalServer

        srv = LocalServer(s.server, s.neo4j)
        console.rule("local Neo4j")
        t0 = time.perf_counter()
        status = srv.start(progress=lambda msg: console.print(f"  {msg}"))
        console.print(f"  running: {status.bolt_uri}  Neo4j {status.version}  data {status.data_dir}  "
                      f"({time.perf_counter() - t0:.1f}s)")
    try:
        with BeliefGraph.connect(space=DEMO_SPACE, settings=s) as bg:
            console.rule("schema")
            applied = bg.init_schema()
            report = bg.verify_schema()
            console.print(f"  migrations applied now: {applied or 'none (up to date)'}; verify: {'ok' if report.ok else report.to_dict()}")
            console.print(f"  embedder: {bg.embedder.name} (dimension {bg.embedder.dimension})")
            AdminRepository(bg.graph, DEMO_SPACE).delete_space(DEMO_SPACE)

            console.rule("the user changes their mind")
            ep1 = bg.add_episode("I'm pretty cautious with money, I hate picking individual stocks.", "user:alice")
            r1 = bg.assert_claim("user.risk_tolerance", "cautious",
                                 "The user is cautious with money and dislikes individual stocks",
                                 agent="user:alice", evidence=[ep1.id])
            ep2 = bg.add_episode("Honestly, after the raise I want to be aggressive: growth funds, crypto, all in.", "user:alice")
            r2 = bg.assert_claim("user.risk_tolerance", "aggressive",
                                 "The user now wants an aggressive, growth-oriented investment strategy",
                                 agent="user:alice", evidence=[ep2.id])
            r3 = bg.assert_claim("user.risk_tolerance", "aggressive",
                                 "The user wants aggressive investments", agent="user:alice")
            bg.assert_claim("user.timezone", "Europe/Lisbon", "The user lives in Lisbon (Europe/Lisbon time zone)",
                            agent="agent:scheduler")
            bg.assert_claim("project.deadline", "2027-03-31", "The project's launch deadline is 31 March 2027",
                            agent="agent:pm")
            for r in (r1, r2, r3):
                sup = f", superseded {r.superseded.value!r}" if r.superseded else ""
                console.print(f"  {r.op.value:<10} {r.claim.key} = {r.claim.value!r}{sup}  ({r.reason})")
            cur = bg.belief("user.risk_tolerance")
            old = bg.claim(r1.claim.id)
            console.print(f"  current belief: {cur.value if cur else None!r}; first version is now {old.status.value!r}")

            console.rule("semantic recall (Neo4j vector index)")
            for q in ("how much investment risk is she comfortable with?", "when is the launch due?",
                      "what time zone should meetings use?"):
                hits = bg.recall(q, k=2)
                table(q, ["score", "key", "value", "text"],
                      [[f"{h.score:.3f}", h.claim.key, h.claim.value, h.claim.text] for h in hits])
            console.rule("counts")
            table(f"space {DEMO_SPACE}", ["label", "status", "count"],
                  [[r["label"], r["status"], r["count"]] for r in bg.stats()])
    finally:
        if srv is not None and stop:
            srv.stop()
            console.print("local Neo4j stopped")
        elif srv is not None:
            console.print("the local Neo4j keeps running; stop it with `belief-graph server stop`")
