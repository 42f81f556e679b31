"""``belief-graph bench ...``: benchmark and study commands.

Each prints its numbers measured side by side in one run (ratios, not absolute thresholds), with
``--json`` for tools. The studies (``belief_graph/benchmarks/<name>.py``) measure and return data;
the command of each (options, printing) is the module of the same name here.
"""

from __future__ import annotations

import typer

from ..progress import with_activity

app = typer.Typer(help="Benchmarks and studies (numbers measured side by side in one run).", no_args_is_help=True)

from . import llm as bench_llm  # noqa: E402

app.command("llm")(with_activity("bench llm")(bench_llm.bench_llm))

from . import grounded as bench_grounded  # noqa: E402

app.command("grounded")(with_activity("bench grounded")(bench_grounded.bench_grounded))

from . import revision as bench_revision  # noqa: E402

app.command("revision-pairs")(with_activity("bench revision-pairs")(bench_revision.bench_revision_pairs))
app.command("scimap")(with_activity("bench scimap")(bench_revision.bench_scimap))
app.command("revision-latency")(with_activity("bench revision-latency")(bench_revision.bench_revision_latency))

from . import perspectives as bench_perspectives  # noqa: E402

app.command("perspectives")(with_activity("bench perspectives")(bench_perspectives.bench_perspectives))

from . import recall as bench_recall  # noqa: E402

app.command("recall")(with_activity("bench recall")(bench_recall.bench_recall))

from . import edits as bench_edits  # noqa: E402

app.command("edits")(with_activity("bench edits")(bench_edits.bench_edits))

from . import tenancy as bench_tenancy  # noqa: E402

app.command("tenancy")(with_activity("bench tenancy")(bench_tenancy.bench_tenancy))

from . import writes as bench_writes  # noqa: E402

app.command("writes")(with_activity("bench writes")(bench_writes.bench_writes))

from . import tenants as bench_tenants  # noqa: E402

app.command("tenants")(with_activity("bench tenants")(bench_tenants.bench_tenants))

from . import recall_quality as bench_recall_quality  # noqa: E402

app.command("recall-quality")(with_activity("bench recall-quality")(bench_recall_quality.bench_recall_quality))

from . import llm_quality as bench_llm_quality  # noqa: E402

app.command("llm-quality")(with_activity("bench llm-quality")(bench_llm_quality.bench_llm_quality))

from . import all as bench_all  # noqa: E402

app.command("all")(with_activity("bench all")(bench_all.bench_all))
