"""``belief-graph memory``: write and read beliefs from the shell."""

from __future__ import annotations

import json
from typing import Any

import typer

from ..models import Claim, WriteResult
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
    valid_from: str = typer.Option(
        None, "--valid-from", help="When it became true: an ISO time with offset, not ahead (default: now)."
    ),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Structured write: one current belief per fact, decided without an LLM."""
    r = (
        state(ctx)
        .engine()
        .assert_claim(
            key, _value(value), text, agent, evidence=evidence, confidence=confidence, valid_from=_when(valid_from)
        )
    )
    _print_write(r, json_)


def _print_write(r: WriteResult, json_: bool) -> None:
    if json_:
        print_json(r)
        return
    sup = f" (superseded {r.superseded.id})" if r.superseded else ""
    console.print(f"{r.op.value} {r.claim.id}{sup}: {r.reason}", markup=False, highlight=False)
    for c in r.rederived:
        console.print(f"  re-derived {c.key} = {c.value!r} ({c.agent})", markup=False, highlight=False)
    if r.staled:
        console.print(f"  stale: {', '.join(r.staled)} (see `support stale`)", markup=False, highlight=False)


@app.command("revert")
def revert(
    ctx: typer.Context,
    key: str = typer.Argument(..., help="Fact key."),
    agent: str = typer.Option(..., "--agent", help="Who reverts it."),
    to: str = typer.Option(None, "--to", help="The version (claim id) to write again; default: the one before."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Write an earlier version of a fact again, as a new version; derived conclusions follow."""
    _print_write(state(ctx).engine().beliefs.revert(key, agent=agent, to=to), json_)


def _one_or_exit(c: Claim | None, title: str, status_header: str, missing: str, json_: bool) -> None:
    """Print one claim (a table, or JSON with ``null`` when there is none); exit 1 when there is none."""
    if json_:
        print_json(c)
    elif c:
        table(title, ["id", "key", "value", status_header, "agent", "text"], [_claim_row(c)])
    else:
        console.print(missing)
    if c is None:
        raise typer.Exit(1)


@app.command("belief")
def belief(ctx: typer.Context, key: str, json_: bool = typer.Option(False, "--json")) -> None:
    """The one current belief for a fact key (exit 1 when there is none)."""
    _one_or_exit(state(ctx).engine().belief(key), f"belief {key}", "status", f"no current belief for {key}", json_)


@app.command("claim")
def claim(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Any claim by id, with its status."""
    c = state(ctx).engine().beliefs.claim(claim_id)
    if json_:
        print_json(c)
    else:
        table(f"claim {claim_id}", ["id", "key", "value", "status", "agent", "text"], [_claim_row(c)])


def _when(at: str | None) -> Any:
    """An ISO time with offset (``2026-11-30T12:00:00+00:00`` or ``...Z``) or None."""
    if at is None:
        return None
    from datetime import datetime

    from ..errors import ValidationError

    try:
        t = datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"not an ISO time: {at!r} (e.g. 2026-11-30T12:00:00+00:00)") from None
    return t


def _hit_rows(hits: list[Any]) -> list[list[Any]]:
    rows = []
    for h in hits:
        sc = h.scores
        parts = " ".join(f"{n}={sc[n]:.3f}" for n in ("vector", "fulltext") if n in sc)
        ranks = "/".join("-" if sc.get(n) is None else str(int(sc[n])) for n in ("vector_rank", "fulltext_rank"))
        cert = getattr(h, "certificate", None)
        because = "base" if cert is None else ", ".join(f"{p.kind} {p.id[:8]}" for p in cert.premises) or "asserted"
        status = h.claim.status.value + (f" (then {h.status_then})" if getattr(h, "status_then", None) else "")
        rows.append(
            [f"{h.score:.3f}", parts, ranks, status, h.claim.key, h.claim.value, h.claim.text, h.claim.agent, because]
        )
    return rows


_HIT_COLUMNS = ["score", "parts", "ranks v/ft", "status", "key", "value", "text", "agent", "because"]


@app.command("recall")
def recall(
    ctx: typer.Context,
    query: str,
    k: int = typer.Option(5, "-k", "--k", help="How many hits."),
    perspective: str = typer.Option(None, "--perspective", help="Only this perspective's interpretations."),
    key: list[str] = typer.Option([], "--key", help="Only claims of this fact key (repeatable)."),
    prefix: str = typer.Option(None, "--prefix", help="Only claims whose key starts with this prefix."),
    as_of: str = typer.Option(None, "--as-of", help="What memory believed at this ISO time (with offset)."),
    include_inactive: bool = typer.Option(False, "--include-inactive", help="Also superseded/withdrawn/... claims."),
    interpretations: bool = typer.Option(False, "--interpretations", help="Include perspectives' interpretations."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Hybrid search (vector + fulltext) over active claims, with score parts and support."""
    hits = (
        state(ctx)
        .engine()
        .recall(
            query,
            k=k,
            perspective=perspective,
            keys=key or None,
            as_of=_when(as_of),
            include_inactive=include_inactive,
            key_prefix=prefix,
            include_interpretations=interpretations,
        )
    )
    if json_:
        print_json(hits)
    else:
        table(f"recall: {query}", _HIT_COLUMNS, _hit_rows(hits))


@app.command("lookup")
def lookup(
    ctx: typer.Context,
    key: list[str] = typer.Argument(None, help="Exact fact keys."),
    prefix: str = typer.Option(None, "--prefix", help="Every fact whose key starts with this prefix."),
    as_of: str = typer.Option(None, "--as-of", help="What memory believed at this ISO time (with offset)."),
    include_inactive: bool = typer.Option(False, "--include-inactive", help="Every version, any status."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Exact-key or key-prefix look-up (no embedding), with provenance and support."""
    hits = (
        state(ctx).engine().retrieval.lookup(key or None, prefix, as_of=_when(as_of), include_inactive=include_inactive)
    )
    if json_:
        print_json(hits)
    else:
        table("lookup " + (" ".join(key or []) or f"{prefix}*"), _HIT_COLUMNS, _hit_rows(hits))


@app.command("answer")
def answer(
    ctx: typer.Context,
    query: str,
    k: int = typer.Option(8, "-k", "--k", help="How many beliefs to recall."),
    budget: int = typer.Option(1000, "--budget", help="Token budget of the working context."),
    threshold: float = typer.Option(None, "--threshold", help="Minimum cosine score (default: calibrated)."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """A grounded answer from active beliefs only, each cited; 'unknown' with the reason otherwise."""
    bg = state(ctx).engine()
    r = bg.answer(query, k=k, budget_tokens=budget, threshold=threshold)
    if json_:
        print_json(r.model_dump(mode="json", exclude={"context"}))
        return
    label = ""
    if r.model is not None:
        label = f" [{'replayed answer (recorded, not a live model)' if r.replayed else 'model ' + r.model}]"
    console.print(f"{r.status}: {r.text}{label}", markup=False, highlight=False)
    if r.reason:
        console.print(f"  why: {r.reason}", markup=False, highlight=False)
    for c in r.cited:
        console.print(f"  cites {c.id}: {c.text} ({c.key} = {c.value!r})", markup=False, highlight=False)
    for chk in r.checks:
        console.print(f"  {'ok  ' if chk.ok else 'FAIL'} {chk.name}: {chk.detail}", markup=False, highlight=False)
    console.print(f"  LLM calls: {r.llm_calls}", markup=False)


@app.command("history")
def history(ctx: typer.Context, key: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Every version of a fact, oldest first: value, status, agent, time and why it changed."""
    versions = state(ctx).engine().beliefs.history(key)
    if json_:
        print_json(versions)
        return
    rows = []
    for v in versions:
        last = v.revisions[-1] if v.revisions else None
        rows.append(
            [
                ("* " if v.current else "  ") + v.claim.id,
                v.claim.value,
                v.claim.status.value,
                v.claim.agent,
                v.claim.created_at,
                v.claim.valid_from,
                last.reason if last else "",
            ]
        )
    table(
        f"history {key}",
        ["id (* = current)", "value", "status", "agent", "recorded", "valid from", "why (last change)"],
        rows,
    )


@app.command("as-of")
def as_of(
    ctx: typer.Context,
    key: str,
    at: str = typer.Argument(..., help="ISO time with offset, e.g. 2026-11-30T12:00:00+00:00"),
    valid: bool = typer.Option(
        False,
        "--valid",
        help="What was true at that time by what memory knows now (valid time), not what it believed then.",
    ),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """What memory believed about a fact at a given time; with --valid, what was true then (exit 1 when nothing)."""
    c = state(ctx).engine().beliefs.as_of(key, _when(at), "valid" if valid else "recorded")
    title = f"{key} {'true at' if valid else 'as of'} {at}"
    _one_or_exit(c, title, "status now", f"no belief for {key} {'true at' if valid else 'at'} {at}", json_)


@app.command("explain")
def explain(ctx: typer.Context, claim_id: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Why memory says X: agent, evidence and justifications, versions, disputes, audits."""
    ex = state(ctx).engine().beliefs.explain(claim_id)
    if json_:
        print_json(ex)
    else:
        console.print(ex.text(), markup=False, highlight=False)


@app.command("keys")
def keys(
    ctx: typer.Context, prefix: str = typer.Option(None, "--prefix"), json_: bool = typer.Option(False, "--json")
) -> None:
    """Known fact keys with description and current value; an alias (a merged key) names its target."""
    ks = state(ctx).engine().keys.all(prefix)
    if json_:
        print_json(ks)
    else:
        rows = [[k.key, k.value, k.value_type, k.description, k.merged_into or ""] for k in ks]
        table("keys", ["key", "value", "type", "description", "merged into"], rows)


@app.command("register-key")
def register_key(ctx: typer.Context, key: str, description: str, json_: bool = typer.Option(False, "--json")) -> None:
    """Add a known key with a description (used to resolve extracted keys)."""
    k = state(ctx).engine().beliefs.register_key(key, description)
    print_json(k) if json_ else console.print(f"registered {k.key}")


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
        print_json(r)
        return
    console.print(f"episode {r.episode.id} ({bg.llm.describe().split(';')[0]})", markup=False, highlight=False)
    for w in r.results:
        sup = f" (superseded {w.superseded.id})" if w.superseded else ""
        console.print(f"{w.op.value} {w.claim.key} = {w.claim.value!r}{sup}: {w.reason}", markup=False)
    for s in r.skipped:
        console.print(f"NOOP {s['text']!r}: {s['rationale']}", markup=False)
    for x in r.rejected:
        what = f"{x['key']} = {x['value']!r}" if x.get("key") else repr(x["text"])
        console.print(f"REFUSED {what}: {x['reason']}", markup=False, highlight=False)
    for warn in r.warnings:
        console.print(f"warning: {warn}", markup=False)


from . import memory_import  # noqa: E402  (bulk import: its own module)

app.command("import")(memory_import.import_file)
app.command("imports")(memory_import.imports)

from . import memory_keys  # noqa: E402  (fact keys: merge and the key schema, bg.keys)

app.command("merge-keys")(memory_keys.merge_keys)
app.add_typer(memory_keys.schema_app, name="schema")
