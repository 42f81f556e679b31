"""``belief-graph memory merge-keys`` and ``memory schema ...``: fact keys from the shell (``bg.keys``).

``merge-keys SOURCE INTO`` without ``--yes`` prints what the merge would do, writes nothing and
exits 2 (like ``db drop-space``); with ``--yes`` it merges. ``schema set FILE`` declares a new
version of the space's key schema from YAML or JSON: a list of keys, or a mapping with ``keys`` and
``unknown`` (``other`` or ``refuse``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
import yaml

from ..errors import ValidationError
from ..models.keys import KeySchema, MergePlan, MergeResult
from .common import console, err_console, print_json, state, table

__all__ = ["merge_keys", "schema_app"]

schema_app = typer.Typer(help="The space's optional key schema: declared facts, versioned.", no_args_is_help=True)


def _print_plan(plan: MergePlan) -> None:
    into = plan.into if plan.into == plan.requested_into else f"{plan.into} (what {plan.requested_into} resolves to)"
    console.print(f"merge {plan.source} into {into}: {plan.outcome}", markup=False, highlight=False)
    console.print(
        f"  moves {len(plan.versions)} version(s) of {plan.source} to the {plan.into_versions} of {plan.into}",
        markup=False,
        highlight=False,
    )
    console.print(f"  current belief: {plan.current or '(none)'} ({plan.reason})", markup=False, highlight=False)
    for c in plan.changes:
        console.print(f"  {c.id}: {c.before} -> {c.after}", markup=False, highlight=False)
    console.print(f"  {plan.source} stays as an alias of {plan.into}", markup=False, highlight=False)


def _print_result(r: MergeResult) -> None:
    cur = f"{r.current.id} = {r.current.value!r}" if r.current is not None else "(none)"
    console.print(
        f"merged {r.source} into {r.into}: {r.outcome}, {len(r.moved)} version(s) moved; current {cur}",
        markup=False,
        highlight=False,
    )
    for c in r.changes:
        console.print(f"  {c.id}: {c.before} -> {c.after}", markup=False, highlight=False)
    if r.dispute is not None:
        console.print(
            f"  open dispute {r.dispute.id}: settle it with `disputes resolve {r.dispute.id} incumbent|challenger`",
            markup=False,
            highlight=False,
        )
    if r.staled:
        console.print(f"  stale: {', '.join(r.staled)} (see `support stale`)", markup=False, highlight=False)
    for d in r.rederived:
        console.print(f"  re-derived {d.key} = {d.value!r} ({d.agent})", markup=False, highlight=False)
    console.print(f"  audit {r.audit}", markup=False, highlight=False)


def merge_keys(
    ctx: typer.Context,
    source: str = typer.Argument(..., help="The key to merge (it stays as an alias)."),
    into: str = typer.Argument(..., help="The key the versions land on."),
    reason: str = typer.Option(..., "--reason", help="Why the two keys are one fact (kept on the audit)."),
    agent: str = typer.Option("user:cli", "--agent", help="Who merges."),
    yes: bool = typer.Option(False, "--yes", help="Merge. Without it the command only shows what would happen."),
    json_: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Merge two fact keys into one fact: versions interleaved by time, one current belief (a
    dispute when two agents disagree), one audit; SOURCE stays as an alias of INTO. Without --yes
    it shows what would happen, writes nothing and exits 2."""
    keys = state(ctx).engine().keys
    if not yes:
        plan = keys.plan_merge(source, into)
        if json_:
            print_json({"merged": False, "plan": plan.model_dump(mode="json")})
        else:
            _print_plan(plan)
            err_console.print(f"nothing merged: run again with --yes to merge {source!r}", highlight=False)
        raise typer.Exit(2)
    r = keys.merge(source, into, agent=agent, reason=reason)
    print_json({"merged": True, "result": r.model_dump(mode="json")}) if json_ else _print_result(r)


def _print_schema(s: KeySchema) -> None:
    console.print(
        f"key schema v{s.version} ({s.status}), unknown facts: {s.unknown}, by {s.agent} at {s.created_at}",
        markup=False,
        highlight=False,
    )
    rows = [[k.key, k.type or "", k.description, ", ".join(repr(e) for e in k.examples)] for k in s.keys]
    table(f"key schema v{s.version}", ["key", "type", "description", "examples"], rows)


def _load(path: Path) -> tuple[Any, str]:
    """``(keys, unknown)`` from a YAML or JSON file (JSON is YAML)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValidationError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise ValidationError(f"{path} is not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}") from None
    if isinstance(data, dict):
        extra = sorted(set(data) - {"keys", "unknown"})
        if extra:
            raise ValidationError(f"{path}: a schema file has 'keys' and 'unknown', not {', '.join(extra)}")
        return data.get("keys"), str(data.get("unknown", "other"))
    return data, "other"


@schema_app.command("show")
def schema_show(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """The space's key schema (exit 1 when it has none)."""
    s = state(ctx).engine().keys.schema()
    if json_:
        print_json(s)
    elif s is not None:
        _print_schema(s)
    else:
        err_console.print("this space has no key schema: declare one with `memory schema set FILE`", highlight=False)
    if s is None:
        raise typer.Exit(1)


@schema_app.command("set")
def schema_set(
    ctx: typer.Context,
    file: Path = typer.Argument(
        ..., help="YAML or JSON: a list of {key, description, type, examples}, or {keys, unknown}."
    ),
    unknown: str = typer.Option(None, "--unknown", help="other | refuse (overrides the file's)."),
    agent: str = typer.Option("user:cli", "--agent", help="Who declares it."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Declare a new version of the key schema: registers every key and sets its value type."""
    keys, from_file = _load(file)
    s = state(ctx).engine().keys.declare_schema(keys, unknown=unknown or from_file, agent=agent)
    print_json(s) if json_ else _print_schema(s)


@schema_app.command("history")
def schema_history(ctx: typer.Context, json_: bool = typer.Option(False, "--json")) -> None:
    """Every version of the key schema, oldest first."""
    hist = state(ctx).engine().keys.schema_history()
    if json_:
        print_json(hist)
        return
    rows = [[s.version, s.status, s.unknown, len(s.keys), s.agent, s.created_at, s.ended_at or ""] for s in hist]
    table("key schema history", ["version", "status", "unknown", "keys", "by", "created", "ended"], rows)


@schema_app.command("drop")
def schema_drop(
    ctx: typer.Context,
    agent: str = typer.Option("user:cli", "--agent", help="Who drops it."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Drop the key schema (the version stays in the history as dropped)."""
    s = state(ctx).engine().keys.drop_schema(agent)
    if json_:
        print_json(s)
    else:
        console.print(f"dropped key schema v{s.version}", markup=False, highlight=False)
