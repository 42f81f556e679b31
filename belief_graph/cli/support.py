"""``belief-graph support``: justifications, selective reconsolidation and the working context."""

from __future__ import annotations

import typer
from rich.markup import escape

from ..models.support import AuditRecord, ClaimSupport, Dependent
from .common import console, print_json, state, table

app = typer.Typer(help="Justifications, retract/restore with audits, and the working context.", no_args_is_help=True)

_MODE_HELP = "justification (exact, default), influence (withdraw everything reachable) or none (roots only)."


def _print_audit(a: AuditRecord) -> None:
    secs = f", {a.seconds * 1000:.1f} ms" if a.seconds is not None else ""
    currency = (
        f", stale {a.staled or 0}, current again {a.refreshed or 0}, re-derived {a.rederived or 0}"
        if a.staled or a.refreshed or a.rederived
        else ""
    )
    console.print(
        f"audit {a.id}: {a.op} (mode {a.mode}) {a.reason!r} at {a.at}: region {a.region}, waves {a.waves}, "
        f"withdrew {a.withdrew}, retained {a.retained}, reinstated {a.reinstated}{currency}{secs}",
        markup=False,
        highlight=False,
    )
    rows = []
    for e in a.entries:
        why = (
            e.rule
            and f"rule {e.rule}" + (f", supersedes {e.superseded}" if e.superseded else "")
            or e.via
            and f"via {e.via}"
            or "; ".join(e.lost)
            or (f"was {e.prior}" if e.prior else "")
        )
        rows.append([e.action, e.kind, e.id, e.status, escape(e.text or ""), escape(why or "")])
    if rows:
        table(f"audit {a.id}", ["action", "kind", "id", "status now", "text", "why"], rows)


def _print_supports(s: ClaimSupport) -> None:
    c = s.claim
    console.print(
        f"claim {c.id} ({c.status.value}) {c.text!r}" + (f" (fact {c.key})" if c.key else ""),
        markup=False,
        highlight=False,
    )
    if s.base:
        console.print("  base claim: no justification (holds unless retracted)")
    for f in s.families:
        mark = "current" if f.current else "intact, not current" if f.intact else "broken"
        console.print(f"  {mark} {f.id}" + (f" ({f.rule})" if f.rule else "") + ":", markup=False, highlight=False)
        for p in f.premises:
            sign = "+" if p.current else "~" if p.holds else "-"
            console.print(f"    {sign} {p.kind} {p.id} ({p.status}) {p.text}", markup=False, highlight=False)
    _print_dependents(s.dependents, indent="  ")


def _print_dependents(deps: list[Dependent], indent: str = "") -> None:
    for d in deps:
        c = d.claim
        console.print(
            f"{indent}{'  ' * (d.depth - 1)}supports {c.id} ({c.status.value})"
            + (f" [{d.rule}]" if d.rule else "")
            + f" {c.text!r}"
            + (f" (fact {c.key})" if c.key else ""),
            markup=False,
            highlight=False,
        )


@app.command("derive")
def derive(
    ctx: typer.Context,
    text: str = typer.Argument(..., help="The derived statement."),
    premises: list[str] = typer.Option(..., "--premise", "-p", help="Episode or claim id (repeatable; AND)."),
    key: str = typer.Option(None, "--key", help="Fact key, if the statement is a version of a fact."),
    agent: str = typer.Option(..., "--agent", help="Who derives it."),
    rule: str = typer.Option(None, "--rule", help="Name of the inference rule or reason."),
    kind: str = typer.Option("derived", "--kind", help="derived, interpretation, observation or semantic."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Add one AND-justification; deriving the same statement again adds an OR alternative."""
    c = state(ctx).engine().derive(text, premises, key, agent=agent, rule=rule, kind=kind)
    print_json(c) if json_ else console.print(f"claim {c.id} ({c.status.value})")


@app.command("supports")
def supports(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """A claim's support families: each justification, its premises, and whether it is intact."""
    s = state(ctx).engine().support.supports(claim_id)
    print_json(s) if json_ else _print_supports(s)


@app.command("dependents")
def dependents(
    ctx: typer.Context,
    target: str = typer.Argument(..., help="A claim id, an episode id, or a fact key (its current claim)."),
    limit: int = typer.Option(200, "--limit"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """The conclusions that rest on a claim, an episode or a fact, nearest first."""
    deps = state(ctx).engine().support.dependents(target, limit)
    if json_:
        print_json(deps)
    elif deps:
        _print_dependents(deps)
    else:
        console.print(f"nothing rests on {target}", markup=False, highlight=False)


@app.command("stale")
def stale(
    ctx: typer.Context,
    limit: int = typer.Option(100, "--limit"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Stale conclusions (their premises are no longer current) and the premise change behind each."""
    rows = state(ctx).engine().support.stale(limit)
    if json_:
        print_json(rows)
        return
    for r in rows:
        c = r.claim
        console.print(
            f"stale {c.id}" + (f" (fact {c.key} = {c.value!r})" if c.key else "") + f": {c.text!r}",
            markup=False,
            highlight=False,
        )
        console.print(f"  since {r.since}: {r.cause} (audit {r.audit}, {r.op})", markup=False, highlight=False)
        for lost in r.lost:
            console.print(f"  not current: {lost}", markup=False, highlight=False)
        if r.rule:
            console.print(
                f"  rule {r.rule}" + (f": waits for {r.missing}" if r.missing else ""), markup=False, highlight=False
            )
    if not rows:
        console.print("no stale conclusions")


@app.command("rederive")
def rederive(
    ctx: typer.Context,
    claim_id: str = typer.Argument(..., help="A stale conclusion (see `support stale`)."),
    agent: str = typer.Option(..., "--agent", help="Who asks for it (the new claim's writer)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Re-derive a stale free-text conclusion from its current premises with the LLM (one call)."""
    r = state(ctx).engine().support.rederive(claim_id, agent=agent)
    if json_:
        print_json(r)
        return
    console.print(f"{r.status}: {r.rationale} ({r.llm_model}, prompt {r.llm_prompt})", markup=False, highlight=False)
    if r.claim is not None:
        console.print(f"  claim {r.claim.id} ({r.claim.status.value}) {r.claim.text!r}", markup=False, highlight=False)


@app.command("retract")
def retract(
    ctx: typer.Context,
    roots: list[str] = typer.Argument(..., help="Episode or claim ids that are invalidated."),
    reason: str = typer.Option(..., "--reason", help="Why (recorded on the audit)."),
    mode: str = typer.Option("justification", "--mode", help=_MODE_HELP),
    agent: str = typer.Option(None, "--agent", help="Who invalidates it (reviewer)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Invalidate evidence; withdraw exactly the claims that lost every support."""
    a = state(ctx).engine().retract(roots, reason, mode, agent=agent)
    print_json(a) if json_ else _print_audit(a)


@app.command("restore")
def restore(
    ctx: typer.Context,
    roots: list[str] = typer.Argument(..., help="Retracted episode or claim ids to restore."),
    reason: str = typer.Option(..., "--reason", help="Why (recorded on the audit)."),
    mode: str = typer.Option("justification", "--mode", help=_MODE_HELP),
    agent: str = typer.Option(None, "--agent", help="Who restores it."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Lift a retraction; reinstate the withdrawn claims whose support is intact again."""
    a = state(ctx).engine().restore(roots, reason, mode, agent=agent)
    print_json(a) if json_ else _print_audit(a)


@app.command("audits")
def audits(
    ctx: typer.Context,
    limit: int = typer.Option(50, "--limit"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Reconsolidation audits of the space, newest first."""
    rows = state(ctx).engine().support.audits(limit)
    if json_:
        print_json(rows)
    else:
        table(
            "audits",
            ["id", "at", "op", "mode", "reason", "roots", "withdrew", "retained", "reinstated", "stale", "re-derived"],
            [
                [
                    a.id,
                    a.at,
                    a.op,
                    a.mode,
                    escape(a.reason),
                    ", ".join(a.roots),
                    a.withdrew,
                    a.retained,
                    a.reinstated,
                    a.staled,
                    a.rederived,
                ]
                for a in rows
            ],
        )


@app.command("audit")
def audit(ctx: typer.Context, audit_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """What one reconsolidation did, and why (per claim)."""
    a = state(ctx).engine().support.audit(audit_id)
    print_json(a) if json_ else _print_audit(a)


@app.command("history")
def history(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Every audit that touched one claim or episode, oldest first."""
    rows = state(ctx).engine().support.audits_for_claim(claim_id)
    if json_:
        print_json(rows)
    else:
        for r in rows:
            console.print(r.text(), markup=False, highlight=False)
        if not rows:
            console.print(f"no audit touched {claim_id}")


@app.command("context")
def context(
    ctx: typer.Context,
    query: str = typer.Option(None, "--query", "-q", help="Rank by similarity to this query (vector index)."),
    keys: list[str] = typer.Option([], "--key", "-k", help="Fact keys to include first (exact match; repeatable)."),
    budget: int = typer.Option(1000, "--budget", help="Token budget (estimate: ceil(characters / 4))."),
    limit: int = typer.Option(50, "--limit", help="How many candidates to rank."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """The working context: active beliefs only, each with its support certificate, cut to the budget."""
    wc = state(ctx).engine().context(query=query, keys=keys or None, budget_tokens=budget, limit=limit)
    if json_:
        print_json(wc)
    else:
        console.print(wc.text or "(empty)", markup=False, highlight=False)
        console.print(f"-- {len(wc.items)} item(s), {wc.used_tokens}/{wc.budget_tokens} tokens, {wc.omitted} omitted")
