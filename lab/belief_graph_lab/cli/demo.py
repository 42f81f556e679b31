"""``belief-graph demo``: start the local Neo4j, apply the schema, write and recall a few beliefs."""

from __future__ import annotations

import time

import typer

from belief_graph.cli.common import console, state, table
from belief_graph.errors import LLMUnavailable
from belief_graph.facade import BeliefGraph
from belief_graph.llm.factory import resolve_provider
from belief_graph.models import WriteResult
from belief_graph.repositories import AdminRepository

from .demo_currency import story_conclusions_follow
from .demo_explore import DEMO_SPACE, print_explore
from .demo_revision import story_evidence


def demo(ctx: typer.Context, server: bool = True, stop: bool = False, real_llm: bool = False) -> None:
    """A first tour: free text in, a user changing her mind, two agents disagreeing, evidence invalidated,
    conclusions following their premises, recall. ``belief-graph demo`` (``_demo_group`` below) runs it
    with its options."""
    st = state(ctx)
    s = st.settings
    if real_llm and resolve_provider(s.llm, s.llm_server) not in ("openai", "local"):
        raise LLMUnavailable(
            "--real-llm: no real model is configured: start `belief-graph llm serve` "
            "(./scripts/demo.sh --real-llm does) or set BELIEF_GRAPH_LLM__API_KEY"
        )
    srv = None
    status = None
    if server:
        from belief_graph.localserver import LocalServer

        srv = LocalServer(s.server, s.neo4j, space=DEMO_SPACE)  # Browser logs in on the demo's space
        console.rule("local Neo4j")
        t0 = time.perf_counter()
        status = srv.start(progress=lambda msg: console.print(f"  {msg}"))
        console.print(
            f"  running: {status.bolt_uri}  Neo4j {status.version}  data {status.data_dir}  "
            f"({time.perf_counter() - t0:.1f}s)"
        )
        s = s.model_copy(update={"neo4j": srv.neo4j})  # the password start() may have generated
    try:
        with BeliefGraph.connect(space=DEMO_SPACE, settings=s) as bg:
            console.rule("schema")
            applied = bg.admin.init_schema()
            report = bg.admin.verify_schema()
            console.print(
                f"  migrations applied now: {applied or 'none (up to date)'}; verify: {'ok' if report.ok else report.to_dict()}"
            )
            console.print(f"  embedder: {bg.embedder.name} (dimension {bg.embedder.dimension})")
            AdminRepository(bg.graph, DEMO_SPACE).delete_space(DEMO_SPACE)

            story_free_text(bg)
            story_mind_change(bg)
            story_agents_disagree(bg)
            story_evidence(bg, console)
            story_conclusions_follow(bg, console)
            bg.assert_claim(
                "project.deadline", "2027-03-31", "The project's launch deadline is 31 March 2027", agent="agent:pm"
            )

            console.rule("semantic recall (Neo4j vector index)")
            for q in (
                "how much investment risk is she comfortable with?",
                "when is the launch due?",
                "what food should we order for her?",
            ):
                hits = bg.recall(q, k=2)
                table(
                    q,
                    ["score", "key", "value", "text"],
                    [[f"{h.score:.3f}", h.claim.key, h.claim.value, h.claim.text] for h in hits],
                )
            console.rule("counts")
            table(
                f"space {DEMO_SPACE}",
                ["label", "status", "count"],
                [[r["label"], r["status"], r["count"]] for r in bg.admin.stats()],
            )
        print_explore(console, status)
    finally:
        if srv is not None and stop:
            srv.stop()
            console.print("local Neo4j stopped")
        elif srv is not None:
            console.print("the local Neo4j keeps running; stop it with `belief-graph server stop`")


def _op(r: WriteResult) -> str:
    sup = f", superseded {r.superseded.value!r} of {r.superseded.agent}" if r.superseded else ""
    return f"  {r.op.value:<10} {r.claim.key} = {r.claim.value!r} by {r.claim.agent}{sup}  ({r.reason})"


def story_mind_change(bg: BeliefGraph) -> None:
    """Story 1: Priya changes her mind; memory keeps one current belief per fact, with history."""
    console.rule("story 1: Priya changes her mind")
    sessions = [
        (
            "I'm pretty cautious with money, and I don't like individual stocks.",
            "cautious",
            "Priya is cautious with money and dislikes individual stocks",
        ),
        (
            "After the promotion I want to be aggressive: individual tech stocks.",
            "aggressive",
            "Priya wants an aggressive strategy with individual tech stocks",
        ),
    ]
    for i, (said, value, statement) in enumerate(sessions, 1):
        ep = bg.add_episode(said, "user:priya", conversation=f"session-{i}")
        console.print(f"  session {i}, Priya: {said!r}")
        console.print(
            _op(bg.assert_claim("user.risk_appetite", value, statement, agent="user:priya", evidence=[ep.id]))
        )
    console.print("  session 3, the advisor agent asks: what is her appetite for investment risk?")
    hit = next(
        (h for h in bg.recall("what is her appetite for investment risk?", k=3) if h.claim.key == "user.risk_appetite"),
        None,
    )
    console.print(f"  memory answers from the one current belief: {hit.claim.text if hit else None!r}")
    table(
        "history of user.risk_appetite (oldest first)",
        ["value", "status", "agent", "why it changed"],
        [
            [
                v.claim.value,
                v.claim.status.value + (" (current)" if v.current else ""),
                v.claim.agent,
                v.revisions[-1].reason if v.revisions else "",
            ]
            for v in bg.beliefs.history("user.risk_appetite")
        ],
    )


def story_agents_disagree(bg: BeliefGraph) -> None:
    """Story 2: two agents disagree; an authority rule parks a dispute, an unconfigured key uses recency."""
    console.rule("story 2: two agents disagree")
    bg.conflicts.set_policy("user.timezone", "authority")
    bg.conflicts.set_authority("agent:calendar", "user.timezone", 0.9)
    bg.conflicts.set_authority("agent:chat", "user.*", 0.2)
    console.print("  policy: user.timezone is decided by authority (calendar 0.9, chat 0.2 on user.*)")
    console.print(
        _op(
            bg.assert_claim(
                "user.timezone", "America/Los_Angeles", "The user is on Pacific time", agent="agent:calendar"
            )
        )
    )
    r = bg.assert_claim("user.timezone", "America/New_York", "The user is on Eastern time", agent="agent:chat")
    console.print(_op(r))
    cur = bg.belief("user.timezone")
    console.print(
        f"  current belief: {cur.value if cur else None!r}; open disputes: {len(bg.conflicts.disputes('open'))} "
        f"(resolve with `belief-graph --space {bg.space} disputes resolve ...`)"
    )
    console.print("  no rule for user.food: the default strategy, recency, applies")
    console.print(_op(bg.assert_claim("user.food", "Italian", "The user loves Italian food", agent="agent:chat")))
    console.print(
        _op(
            bg.assert_claim(
                "user.food", "Japanese only", "The user now hates Italian, only eats Japanese", agent="agent:concierge"
            )
        )
    )
    console.print(
        f"  disputes still open: {len(bg.conflicts.disputes('open'))} (recency settled user.food without one)"
    )


def story_free_text(bg: BeliefGraph) -> None:
    """Story 0: free text through the LLM layer (``remember``): a real model when one is configured
    (``--real-llm``), else the replay of recorded hand-written answers — labelled as such."""
    console.rule("free text in: remember() extracts facts with the LLM layer")
    if bg.llm.is_replay:
        console.print(
            "  chat model: REPLAY of hand-written answers recorded through a local stub - NOT a "
            "language model (fast and deterministic; `./scripts/demo.sh --real-llm` runs a real local "
            "model)",
            markup=False,
            highlight=False,
        )
        console.print(f"  replay file: {bg.llm.describe()}", markup=False, highlight=False)
    else:
        console.print(f"  chat model (live): {bg.llm.describe()}", markup=False, highlight=False)
    for said in (
        "I'm pretty cautious with money, I hate picking individual stocks.",
        "Honestly, after the raise I want to be aggressive: growth funds, crypto, all in.",
        "What's the weather like today?",
    ):
        console.print(f"  Alice: {said!r}")
        t0 = time.perf_counter()
        r = bg.remember(said, agent="user:alice")
        for w in r.results:
            console.print(_op(w), markup=False, highlight=False)
        for x in r.rejected:
            what = f"{x['key']} = {x['value']!r}" if x.get("key") else repr(x["text"])
            console.print(f"  refused    {what}: {x['reason']}", markup=False, highlight=False)
        if not r.results and not r.rejected:
            console.print("  (nothing extracted)")
        if not bg.llm.is_replay:
            console.print(f"  ({time.perf_counter() - t0:.1f} s)")
    usage = bg.llm_usage().llm
    console.print(
        "  LLM calls: "
        + ", ".join(
            f"{job} {u.calls} ({u.tokens_in}/{u.tokens_out} tokens, {u.seconds:.1f} s)"
            if not bg.llm.is_replay
            else f"{job} {u.calls}"
            for job, u in sorted(usage.jobs.items())
        ),
        markup=False,
        highlight=False,
    )


# -- `belief-graph demo` is a group: the tour above without a subcommand, stories as subcommands --
app = typer.Typer(no_args_is_help=False)


@app.callback(invoke_without_command=True)
def _demo_group(
    ctx: typer.Context,
    server: bool = typer.Option(
        True,
        "--server/--no-server",
        help="Start the local Neo4j first (use --no-server with your own BELIEF_GRAPH_NEO4J__URI).",
    ),
    stop: bool = typer.Option(False, "--stop", help="Stop the local server when done."),
    real_llm: bool = typer.Option(
        False,
        "--real-llm",
        help="Insist on a real model (the local `belief-graph llm serve`, or an API key); "
        "default: a real one when configured, else the labelled replay.",
    ),
) -> None:
    """A first tour: free text in, a user changing her mind, two agents disagreeing, evidence invalidated, recall.
    Subcommands: `rashomon` (perspectives and deliberation)."""
    if ctx.invoked_subcommand is None:
        demo(ctx, server=server, stop=stop, real_llm=real_llm)


from .demo_rashomon import demo_rashomon  # noqa: E402

app.command("rashomon")(demo_rashomon)
