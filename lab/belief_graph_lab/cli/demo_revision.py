"""The demo's "evidence invalidated" story: selective reconsolidation, before and after.

``story_evidence(bg, console)`` is called by ``belief-graph demo`` on a fresh demo space: a lab
memory derives a plan from an executed assay; a reviewer invalidates the assay; exactly the
conclusions that lost every support are withdrawn, one with an independent justification stays,
the working context stops citing the withdrawn ones; restoring the assay reinstates them.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from belief_graph.facade import BeliefGraph
from belief_graph.models.support import AuditRecord

__all__ = ["story_evidence"]

_STYLE = {"active": "green", "withdrawn": "red", "retracted": "bold red", "superseded": "yellow", "stale": "magenta"}


def _status_table(bg: BeliefGraph, title: str, names: dict[str, str]) -> Table:
    rows = bg.support.repo.find_nodes(list(names.values()))
    t = Table(title=title, show_lines=False)
    for col in ("node", "kind", "status", "text"):
        t.add_column(col)
    for label, nid in names.items():
        r = rows[nid]
        st = r["status"]
        t.add_row(label, r["kind"], f"[{_STYLE.get(st, 'white')}]{st}[/]", escape(r["text"] or ""))
    return t


def _audit_table(a: AuditRecord, names: dict[str, str]) -> Table:
    by_id = {v: k for k, v in names.items()}
    t = Table(
        title=escape(
            f"audit {a.id[:8]}…: {a.op} (mode {a.mode}) “{a.reason}”, region {a.region} claims, {a.waves} wave(s)"
        )
    )
    for col in ("action", "node", "why"):
        t.add_column(col)
    order = {"ROOT": 0, "WITHDREW": 1, "RETAINED": 2, "REINSTATED": 3}
    rank = {v: i for i, v in enumerate(names.values())}
    for e in sorted(a.entries, key=lambda e: (order.get(e.action, 4), rank.get(e.id, 99))):
        if e.via:
            why = f"intact justification {e.via[:8]}…"
        elif e.lost:
            why = "; ".join(_short(x, by_id) for x in e.lost)
        else:
            why = f"was {e.prior}" if e.prior else ""
        t.add_row(e.action, by_id.get(e.id, e.id[:8]), escape(why))
    return t


def _short(lost: str, by_id: dict[str, str]) -> str:
    jid, _, missing = lost.partition(" lacks ")
    return "lacks " + ", ".join(by_id.get(m.strip(), m.strip()[:8]) for m in missing.split(","))


def _show_state(
    console: Console, bg: BeliefGraph, audit: AuditRecord | None, title: str, names: dict[str, str], note: str = ""
) -> None:
    """What an audit did (when there is one), every status after it, and the plan's current belief."""
    if audit is not None:
        console.print(_audit_table(audit, names))
    console.print(_status_table(bg, title, names))
    cur = bg.belief("project.next_experiment")
    console.print(f"  belief(project.next_experiment) = {cur.text if cur else None!r}{note}")


def story_evidence(bg: BeliefGraph, console: Console) -> dict[str, Any]:
    """Evidence invalidated: withdraw exactly what lost every support, keep what has another, put
    it all back when the correction is retracted. Prints before/after tables and the audits;
    returns the ids and audits (for tests)."""
    console.rule("evidence invalidated: selective reconsolidation")
    run42 = bg.add_episode("Run 42 (executed): knocking down KRX cut tumour-cell growth by 40%", "user:lab")
    run43 = bg.add_episode("Run 43 (executed): imaging puts KRX at the cell membrane", "user:lab")
    paper = bg.add_episode("Published screen: KRX is amplified in 30% of pancreatic tumours", "user:librarian")
    obs = bg.derive(
        "KRX knock-down reduces tumour-cell growth",
        [run42.id],
        agent="agent:analyst",
        rule="observation",
        kind="observation",
    )
    loc = bg.derive(
        "KRX sits at the cell membrane", [run43.id], agent="agent:analyst", rule="observation", kind="observation"
    )
    drives = bg.derive(
        "KRX drives tumour-cell growth", [obs.id], agent="agent:analyst", rule="interpretation", kind="interpretation"
    )
    mech = bg.derive(
        "KRX signals from the membrane to drive growth", [drives.id, loc.id], agent="agent:analyst", rule="mechanism"
    )
    plan = bg.derive(
        "Next experiment: test the KRX inhibitor X-17 in the growth assay",
        [mech.id],
        key="project.next_experiment",
        agent="agent:planner",
        rule="planning",
    )
    target = bg.derive("KRX is a drug-target candidate", [drives.id], agent="agent:analyst", rule="target triage")
    bg.derive("KRX is a drug-target candidate", [paper.id], agent="agent:librarian", rule="literature")
    names = {
        "run 42": run42.id,
        "run 43": run43.id,
        "paper": paper.id,
        "observation": obs.id,
        "membrane": loc.id,
        "interpretation": drives.id,
        "mechanism": mech.id,
        "plan": plan.id,
        "target": target.id,
    }

    fams = bg.support.supports(target.id)
    console.print(
        f"  “{target.text}” has {len(fams.families)} independent justifications: "
        + " OR ".join("(" + " AND ".join(p.text or p.id for p in f.premises) + ")" for f in fams.families),
        markup=False,
        highlight=False,
    )
    _show_state(console, bg, None, "before review", names)

    console.rule("a reviewer invalidates run 42 (contaminated reagent)")
    a1 = bg.retract([run42.id], "reviewer: run 42 used a contaminated reagent", agent="user:reviewer")
    _show_state(console, bg, a1, "after review", names, "  (the plan lost every support)")
    ctx = bg.context(budget_tokens=400)
    console.print("  working context now (active beliefs with their support certificates):")
    console.print(ctx.text, markup=False, highlight=False)
    cited_withdrawn = ctx.cited_ids() & set(a1.withdrawn_ids + a1.root_ids)
    console.print(f"  withdrawn or retracted items cited by the context: {len(cited_withdrawn)}")

    console.rule("the correction is itself retracted: run 42 was fine")
    a2 = bg.restore([run42.id], "re-run with a fresh reagent reproduced run 42", agent="user:reviewer")
    _show_state(console, bg, a2, "after restore", names)
    console.print("  the plan's audit trail (what explain shows):")
    for x in bg.support.audits_for_claim(plan.id):
        console.print("    " + x.text(), markup=False, highlight=False)
    return {"names": names, "retract": a1, "restore": a2, "context": ctx}
