"""``belief-graph memory``: write and read beliefs from the shell."""

from __future__ import annotations

import json
from typing import Any

import typer

from ..models import Claim
from .common import console, print_json, state, table

app = typer.Typer(help="Episodes, claims and beliefs of one memory space.", no_args_is_help=True)


def _value(raw: str) -> Any:
    """Values are JSON when they parse as JSON scalars (42, true, "x"), else the raw string."""
    try:
        v = json.loads(raw)
    except ValueError:
        return raw
    return v if isinstance(v, str | int | float | bool) or v is None else raw


def _claim_row(c: Claim) -> list[Any]:
    return [c.id, c.key, c.value, c.status.value, c.agent, c.text]


@app.command("episode")
def episode(
    ctx: typer.Context,
    text: str = typer.Argument(..., help="What was said or observed."),
    agent: str = typer.Option(..., "--agent", help="Who said it (e.g. user:alice)."),
    conversation: str = typer.Option(None, "--conversation"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Store one immutable episode (raw evidence)."""
    ep = state(ctx).engine().add_episode(text, agent, conversation=conversation)
    print_json(ep.model_dump()) if json_ else console.print(f"episode {ep.id}")


@app.command("assert")
def assert_(
    ctx: typer.Context,
    key: str = typer.Argument(..., help="Fact key, e.g. user.risk_tolerance."),
    value: str = typer.Argument(..., help="Value (JSON scalar or text)."),
    text: str = typer.Argument(..., help="The self-contained statement."),
    agent: str = typer.Option(..., "--agent", help="Who asserts it."),
    evidence: list[str] = typer.Option([], "--evidence", help="Episode or claim ids (repeatable)."),
    confidence: float = typer.Option(None, "--confidence"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Structured write: one current belief per fact, decided without an LLM."""
    r = state(ctx).engine().assert_claim(key, _value(value), text, agent, evidence=evidence, confidence=confidence)
    if json_:
        print_json(r.model_dump(mode="json"))
    else:
        sup = f" (superseded {r.superseded.id})" if r.superseded else ""
        console.print(f"{r.op.value} {r.claim.id}{sup}: {r.reason}")


@app.command("belief")
def belief(ctx: typer.Context, key: str, json_: bool = typer.Option(False, "--json")) -> None:
    """The one current belief for a fact key (exit 1 when there is none)."""
    c = state(ctx).engine().belief(key)
    if json_:
        print_json(c.model_dump(mode="json") if c else None)
    elif c:
        table(f"belief {key}", ["id", "key", "value", "status", "agent", "text"], [_claim_row(c)])
    else:
        console.print(f"no current belief for {key}")
    if c is None:
        raise typer.Exit(1)


@app.command("claim")
def claim(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Any claim by id, with its status."""
    c = state(ctx).engine().claim(claim_id)
    if json_:
        print_json(c.model_dump(mode="json"))
    else:
        table(f"claim {claim_id}", ["id", "key", "value", "status", "agent", "text"], [_claim_row(c)])


@app.command("recall")
def recall(
    ctx: typer.Context,
    query: str,
    k: int = typer.Option(5, "-k"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Semantic search over active claims (Neo4j vector index)."""
    hits = state(ctx).engine().recall(query, k=k)
    if json_:
        print_json([h.model_dump(mode="json") for h in hits])
    else:
        table(f"recall: {query}", ["score", "key", "value", "text"],
              [[f"{h.score:.3f}", h.claim.key, h.claim.value, h.claim.text] for h in hits])


@app.command("history")
def history(ctx: typer.Context, key: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Every version of a fact, oldest first: value, status, agent, time and why it changed."""
    versions = state(ctx).engine().history(key)
    if json_:
        print_json([v.model_dump(mode="json") for v in versions])
        return
    rows = []
    for v in versions:
        last = v.revisions[-1] if v.revisions else None
        rows.append([
            ("* " if v.current else "  ") + v.claim.id, v.claim.value, v.claim.status.value, v.claim.agent,
            v.claim.created_at, last.reason if last else "",
        ])
    table(f"history {key}", ["id (* = current)", "value", "status", "agent", "created", "why (last change)"], rows)


@app.command("as-of")
def as_of(
    ctx: typer.Context,
    key: str,
    at: str = typer.Argument(..., help="ISO time with offset, e.g. 2026-11-30T12:00:00+00:00"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """What memory believed about a fact at a given time (exit 1 when nothing)."""
    from datetime import datetime

    from ..errors import ValidationError

    try:
        t = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"not an ISO time: {at!r} (e.g. 2026-11-30T12:00:00+00:00)") from None
    c = state(ctx).engine().as_of(key, t)
    if json_:
        print_json(c.model_dump(mode="json") if c else None)
    elif c:
        table(f"{key} as of {at}", ["id", "key", "value", "status now", "agent", "text"], [_claim_row(c)])
    else:
        console.print(f"no belief for {key} at {at}")
    if c is None:
        raise typer.Exit(1)


@app.command("explain")
def explain(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Why memory says X: agent, evidence and justifications, versions, disputes, audits."""
    ex = state(ctx).engine().explain(claim_id)
    if json_:
        print_json(ex.model_dump(mode="json"))
    else:
        console.print(ex.text(), markup=False, highlight=False)


@app.command("keys")
def keys(ctx: typer.Context, prefix: str = typer.Option(None, "--prefix"), json_: bool = typer.Option(False, "--json")) -> None:
    """Known fact keys with description and current value."""
    ks = state(ctx).engine().keys(prefix)
    if json_:
        print_json([k.model_dump(mode="json") for k in ks])
    else:
        table("keys", ["key", "value", "type", "description"], [[k.key, k.value, k.value_type, k.description] for k in ks])


@app.command("register-key")
def register_key(ctx: typer.Context, key: str, description: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Add a known key with a description (used to resolve extracted keys)."""
    k = state(ctx).engine().register_key(key, description)
    print_json(k.model_dump(mode="json")) if json_ else console.print(f"registered {k.key}")


@app.command("remember")
def remember(
    ctx: typer.Context,
    text: list[str] = typer.Argument(..., help="The latest turn (several arguments: earlier turns first, as context)."),
    agent: str = typer.Option(..., "--agent", help="Who said the latest turn (e.g. user:alice)."),
    conversation: str = typer.Option(None, "--conversation"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Free text: the LLM extracts typed facts from the latest turn, then the structured write path."""
    bg = state(ctx).engine()
    r = bg.remember(text if len(text) > 1 else text[0], agent, conversation=conversation)
    if json_:
        print_json(r.model_dump(mode="json"))
        return
    console.print(f"episode {r.episode.id} ({bg.llm.describe().split(';')[0]})", markup=False, highlight=False)
    for w in r.results:
        sup = f" (superseded {w.superseded.id})" if w.superseded else ""
        console.print(f"{w.op.value} {w.claim.key} = {w.claim.value!r}{sup}: {w.reason}", markup=False)
    for s in r.skipped:
        console.print(f"NOOP {s['text']!r}: {s['rationale']}", markup=False)
    for warn in r.warnings:
        console.print(f"warning: {warn}", markup=False)
