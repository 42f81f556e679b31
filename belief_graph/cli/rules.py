"""``belief-graph rules``: derivation rules stored in the graph and re-run by the engine (docs/rules.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
import yaml
from rich.markup import escape

from ..errors import FormatError
from ..models.rules import RuleInfo, RuleRun
from .common import console, print_json, state, table

app = typer.Typer(
    help="Derivation rules: conclusions the engine re-derives when their premises change.", no_args_is_help=True
)


def read_rules(path: Path) -> list[dict[str, Any]]:
    """One rule or a list of rules from a YAML or JSON file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(f"cannot read the rule file: {exc.strerror or exc}", path=str(path)) from exc
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise FormatError(
            f"not valid {'JSON' if path.suffix.lower() == '.json' else 'YAML'}: {exc}", path=str(path)
        ) from exc
    rules = data.get("rules", data) if isinstance(data, dict) and "rules" in data else data
    rules = [rules] if isinstance(rules, dict) else rules
    if not isinstance(rules, list) or not rules or not all(isinstance(r, dict) for r in rules):
        raise FormatError("expected a rule (a mapping), a list of rules, or {rules: [...]}", path=str(path))
    return rules


def _print_run(r: RuleRun) -> None:
    console.print(
        f"rule {r.rule}: {r.evaluated} key(s) evaluated, {len(r.rederived)} conclusion(s) written, "
        f"{len(r.unresolved)} unresolved" + (f" (audit {r.audit})" if r.audit else ""),
        markup=False,
        highlight=False,
    )
    for c in r.rederived[:20]:
        console.print(f"  {c.key} = {c.value!r}: {c.text}", markup=False, highlight=False)
    for u in r.unresolved[:20]:
        console.print(f"  {u.key}: waits for {u.missing}", markup=False, highlight=False)


def _rule_row(r: RuleInfo) -> list[Any]:
    chain = " -> ".join(p.key for p in r.spec.premises)
    return [
        r.name,
        r.version,
        r.status,
        escape(chain),
        escape(r.spec.conclusion.key),
        r.instances,
        r.resolved,
        r.unresolved,
        r.spec.direct_writes,
    ]


_COLUMNS = ["name", "version", "status", "premises", "derives", "instances", "resolved", "unresolved", "direct writes"]


@app.command("add")
def add(
    ctx: typer.Context,
    path: Path = typer.Argument(..., help="A YAML or JSON file: one rule, a list, or {rules: [...]}."),
    agent: str = typer.Option(None, "--agent", help="Who adds it (recorded on the audit)."),
    apply: bool = typer.Option(True, "--apply/--no-apply", help="Derive the instances of the facts there are now."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Store rules (a new version when a name exists) and derive their instances."""
    bg = state(ctx).engine()
    runs = [bg.rules.add(spec, agent=agent, apply=apply) for spec in read_rules(path)]
    if json_:
        print_json(runs)
    else:
        for r in runs:
            _print_run(r)


@app.command("list")
def list_(
    ctx: typer.Context,
    all_versions: bool = typer.Option(False, "--all-versions", help="Replaced and removed versions too."),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """The rules of the space."""
    rows = state(ctx).engine().rules.all(all_versions)
    if json_:
        print_json([r.model_dump(mode="json", by_alias=True) for r in rows])
    else:
        table("rules", _COLUMNS, [_rule_row(r) for r in rows])


@app.command("show")
def show(ctx: typer.Context, name: str, json_: bool = typer.Option(False, "--json")) -> None:
    """One rule: its spec and every version."""
    versions = state(ctx).engine().rules.get(name, all_versions=True)
    if json_:
        print_json([r.model_dump(mode="json", by_alias=True) for r in versions])
        return
    table(f"rule {name}", _COLUMNS, [_rule_row(r) for r in versions])
    current = next((r for r in versions if r.status == "active"), versions[-1])
    console.print(
        yaml.safe_dump(current.spec.model_dump(by_alias=True, exclude_none=True), sort_keys=False),
        markup=False,
        highlight=False,
    )


@app.command("instances")
def instances(
    ctx: typer.Context,
    name: str,
    status: str = typer.Option(None, "--status", help="resolved, unresolved or new."),
    limit: int = typer.Option(100, "--limit"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """A rule's instances: the key each derives, whether its join resolves, and the belief."""
    rows = state(ctx).engine().rules.instances(name, status, limit)
    if json_:
        print_json(rows)
        return
    table(
        f"instances of {name}",
        ["key", "status", "reads", "missing", "belief", "belief status"],
        [
            [
                r.key,
                r.status,
                escape(" -> ".join(r.reads)),
                r.missing,
                escape(repr(r.belief.value)) if r.belief else "",
                r.belief.status.value if r.belief else "",
            ]
            for r in rows
        ],
    )


@app.command("run")
def run(
    ctx: typer.Context,
    name: str,
    key: str = typer.Option(None, "--key", help="Only the instance whose first premise is this key."),
    agent: str = typer.Option(None, "--agent"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Re-evaluate a rule's instances by hand (the engine does it on every premise change)."""
    r = state(ctx).engine().rules.run(name, key, agent=agent)
    print_json(r) if json_ else _print_run(r)


@app.command("remove")
def remove(
    ctx: typer.Context,
    name: str,
    reason: str = typer.Option(..., "--reason", help="Why (recorded on the audit)."),
    agent: str = typer.Option(None, "--agent"),
    json_: bool = typer.Option(False, "--json"),
) -> None:
    """Remove a rule: conclusions only it supported go stale; its keys can be written directly again."""
    r = state(ctx).engine().rules.remove(name, reason, agent=agent)
    print_json(r) if json_ else _print_run(r)
