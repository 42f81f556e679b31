"""Benchmarks and studies: one module per study, each with the function that measures and the
``belief-graph bench ...`` command that prints it (registered in ``cli/bench.py``).

The commands still print through ``cli.common``; the CLI package is loaded first so that importing a
study directly (tests, demos) does not enter ``cli/bench.py`` half-way through the study's module.
"""

from .. import cli as _cli  # noqa: F401  (load order: see above)
