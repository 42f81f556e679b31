"""``belief-graph bench ...``: benchmark and study commands.

Each prints its numbers measured side by side in one run (ratios, not absolute thresholds), with
``--json`` for tools. The studies (``lab/belief_graph_lab/benchmarks/<name>.py``) measure and return data;
the command of each (options, printing) is the module of the same name here.
"""

from __future__ import annotations

import typer

from belief_graph.cli.progress import with_activity

from . import (
    all as bench_all,
    edits as bench_edits,
    grounded as bench_grounded,
    llm as bench_llm,
    llm_quality as bench_llm_quality,
    memory as bench_memory,
    perspectives as bench_perspectives,
    recall as bench_recall,
    recall_quality as bench_recall_quality,
    revision as bench_revision,
    tenancy as bench_tenancy,
    tenants as bench_tenants,
    writes as bench_writes,
)

app = typer.Typer(help="Benchmarks and studies (numbers measured side by side in one run).", no_args_is_help=True)

app.command("llm")(with_activity("bench llm")(bench_llm.bench_llm))
app.command("grounded")(with_activity("bench grounded")(bench_grounded.bench_grounded))
app.command("revision-pairs")(with_activity("bench revision-pairs")(bench_revision.bench_revision_pairs))
app.command("scimap")(with_activity("bench scimap")(bench_revision.bench_scimap))
app.command("revision-latency")(with_activity("bench revision-latency")(bench_revision.bench_revision_latency))
app.command("perspectives")(with_activity("bench perspectives")(bench_perspectives.bench_perspectives))
app.command("recall")(with_activity("bench recall")(bench_recall.bench_recall))
app.command("edits")(with_activity("bench edits")(bench_edits.bench_edits))
app.command("tenancy")(with_activity("bench tenancy")(bench_tenancy.bench_tenancy))
app.command("writes")(with_activity("bench writes")(bench_writes.bench_writes))
app.command("tenants")(with_activity("bench tenants")(bench_tenants.bench_tenants))
app.command("recall-quality")(with_activity("bench recall-quality")(bench_recall_quality.bench_recall_quality))
app.command("llm-quality")(with_activity("bench llm-quality")(bench_llm_quality.bench_llm_quality))
app.command("memory")(with_activity("bench memory")(bench_memory.bench_memory))
app.command("all")(with_activity("bench all")(bench_all.bench_all))
