"""The demo's "conclusions follow their premises" story: a user's employer changes and what the
agent derived from it (work timezone, meeting hours, the manager to copy) follows by itself.

``story_conclusions_follow(bg, console)`` is called by ``belief-graph demo`` on a fresh demo space.
Three derivation rules join the user's employer to facts about the employer; a planning agent
draws a free-text conclusion from one of them. When the employer changes, the same write
re-derives the three conclusions (new versions, "re-derived by rule ...") and makes the free-text
conclusion stale, with one audit naming the change; a direct write to a derived key is refused.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from belief_graph.errors import DerivedKeyConflict
from belief_graph.facade import BeliefGraph

__all__ = ["RULES", "story_conclusions_follow"]

RULES: list[dict[str, Any]] = [
    {
        "name": "work_timezone",
        "description": "a user works in the timezone of their employer",
        "premises": [{"key": "user.{u}.employer", "as": "org"}, {"key": "org.{org}.timezone", "as": "tz"}],
        "conclusion": {
            "key": "user.{u}.work_timezone",
            "value": "{tz}",
            "text": "{u} works in the {tz} timezone (employer: {org})",
        },
    },
    {
        "name": "meeting_hours",
        "description": "meetings with a user fall in their employer's office hours, in its timezone",
        "premises": [
            {"key": "user.{u}.employer", "as": "org"},
            {"key": "org.{org}.office_hours", "as": "hours"},
            {"key": "org.{org}.timezone", "as": "tz"},
        ],
        "conclusion": {
            "key": "user.{u}.meeting_hours",
            "value": "{hours} {tz}",
            "text": "Meetings with {u} fit {hours} {tz}, {org}'s office hours",
        },
    },
    {
        "name": "manager_to_copy",
        "description": "scheduling emails to a user copy their employer's manager of record",
        "premises": [{"key": "user.{u}.employer", "as": "org"}, {"key": "org.{org}.manager", "as": "manager"}],
        "conclusion": {
            "key": "user.{u}.cc_manager",
            "value": "{manager}",
            "text": "Copy {manager} on scheduling emails to {u} ({org})",
        },
    },
]

_FACTS = [
    ("org.acme.timezone", "Europe/Berlin", "Acme works on Berlin time"),
    ("org.acme.office_hours", "09:00-17:00", "Acme's office hours are 09:00-17:00"),
    ("org.acme.manager", "lena@acme.example", "Lena is the manager of record at Acme"),
    ("org.globex.timezone", "America/New_York", "Globex works on New York time"),
    ("org.globex.office_hours", "08:30-16:30", "Globex's office hours are 08:30-16:30"),
    ("org.globex.manager", "sam@globex.example", "Sam is the manager of record at Globex"),
]
_DERIVED = ["user.dana.work_timezone", "user.dana.meeting_hours", "user.dana.cc_manager"]
_ids = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_STYLE = {"active": "green", "stale": "magenta", "superseded": "yellow", "withdrawn": "red"}


def _beliefs(bg: BeliefGraph, title: str, extra: list[str]) -> Table:
    t = Table(title=title)
    for col in ("fact / conclusion", "value", "status", "by"):
        t.add_column(col)
    for key in _DERIVED:
        c = bg.belief(key)
        t.add_row(key, escape(repr(c.value)) if c else "-", "[green]active[/]" if c else "-", c.agent if c else "")
    for cid in extra:
        c = bg.beliefs.claim(cid)
        st = c.status.value
        t.add_row(escape(c.text), "", f"[{_STYLE.get(st, 'white')}]{st}[/]", c.agent)
    return t


def story_conclusions_follow(bg: BeliefGraph, console: Console) -> None:
    console.rule("story 4: conclusions follow their premises")
    for key, value, text in _FACTS:
        bg.assert_claim(key, value, text, agent="agent:directory")
    ep = bg.add_episode("I work at Acme.", "user:dana", conversation="onboarding")
    bg.assert_claim("user.dana.employer", "acme", "Dana works at Acme", agent="user:dana", evidence=[ep.id])
    for rule in RULES:
        run = bg.rules.add(rule, agent="user:admin")
        console.print(
            f"  rule {run.rule}: "
            + " -> ".join(p["key"] for p in rule["premises"])
            + f"  =>  {rule['conclusion']['key']}",
            markup=False,
            highlight=False,
        )
    tz = bg.belief("user.dana.work_timezone")
    assert tz is not None
    sync = bg.derive("Hold Dana's weekly sync on Tuesdays at 10:00 Berlin time", [tz.id], agent="agent:planner")
    console.print(_beliefs(bg, "before: what the agent concluded about Dana", [sync.id]))

    said = "I've moved to Globex, starting Monday."
    console.print(f"  Dana: {said!r}")
    ep2 = bg.add_episode(said, "user:dana", conversation="week-12")
    r = bg.assert_claim("user.dana.employer", "globex", "Dana works at Globex", agent="user:dana", evidence=[ep2.id])
    console.print(
        f"  one write, one transaction: {r.op.value} user.dana.employer; "
        f"{len(r.rederived)} conclusion(s) re-derived, {len(r.staled)} made stale",
        markup=False,
        highlight=False,
    )
    console.print(_beliefs(bg, "after: the same conclusions, followed by themselves", [sync.id]))
    if r.audit:
        audit = bg.support.audit(r.audit)
        t = Table(title=escape(f"audit {audit.id[:8]}…: {audit.op} “{audit.reason}”"))
        for col in ("action", "claim", "why"):
            t.add_column(col)
        for e in audit.entries:
            if e.action == "ROOT":
                why = "the premise change"
            elif e.rule:
                why = f"rule {e.rule}" + (f", supersedes {e.superseded[:8]}…" if e.superseded else "")
            else:
                why = "; ".join(_ids.sub(lambda m: m.group(0)[:8] + "…", x) for x in e.lost)
            t.add_row(e.action, escape(e.text or e.id), escape(why))
        console.print(t)
    for s in bg.support.stale():
        console.print(f"  stale: {s.claim.text!r} because {s.cause}", markup=False, highlight=False)
    try:
        bg.assert_claim("user.dana.work_timezone", "Europe/Lisbon", "Dana works on Lisbon time", agent="agent:chat")
    except DerivedKeyConflict as exc:
        console.print(f"  a direct write to a derived key is refused: {exc}", markup=False, highlight=False)
    t = Table(title="history of user.dana.meeting_hours")
    for col in ("value", "status", "why it changed"):
        t.add_column(col)
    for v in bg.beliefs.history("user.dana.meeting_hours"):
        t.add_row(
            escape(str(v.claim.value)),
            v.claim.status.value + (" (current)" if v.current else ""),
            escape((v.revisions[-1].reason or "") if v.revisions else ""),
        )
    console.print(t)
