"""``belief-graph bench ...``: benchmark and study commands.

Each prints its numbers measured side by side in one run (ratios, not absolute thresholds), with
``--json`` for tools. One module per benchmark (``cli/bench_<name>.py``) registers its command here.
"""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks and studies (numbers measured side by side in one run).", no_args_is_help=True)

from . import bench_llm  # noqa: E402  (issue 3)

app.command("llm")(bench_llm.bench_llm)

from . import bench_grounded  # noqa: E402  (issue 6)

app.command("grounded")(bench_grounded.bench_grounded)

from . import bench_revision  # noqa: E402  (issue 5)

app.command("revision-pairs")(bench_revision.bench_revision_pairs)
app.command("scimap")(bench_revision.bench_scimap)
app.command("revision-latency")(bench_revision.bench_revision_latency)

from . import bench_perspectives  # noqa: E402  (issue 7)

app.command("perspectives")(bench_perspectives.bench_perspectives)

from . import bench_recall  # noqa: E402  (issue 8)

app.command("recall")(bench_recall.bench_recall)

from . import bench_llm_quality  # noqa: E402

app.command("llm-quality")(bench_llm_quality.bench_llm_quality)
