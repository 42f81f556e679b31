"""Benchmarks and studies: one module per study, each with the function that measures and the
``belief-graph bench ...`` command that prints it (registered in ``cli/bench.py``)."""
