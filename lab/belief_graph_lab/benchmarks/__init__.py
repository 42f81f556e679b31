"""Benchmarks and studies: one module per study, each with the functions that measure and return
their numbers (dicts and models, no printing). The ``belief-graph bench ...`` commands that call them
and print the results are in ``lab/belief_graph_lab/cli/bench/``.
"""
