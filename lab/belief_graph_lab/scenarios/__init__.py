"""Scenarios: the worlds, frameworks and scripted stories that studies, demos and tests build.

* :mod:`.worlds`: support worlds by name (:class:`World`), built through the public API
  (:func:`build_world`), with their reference labelling (:func:`least_model`) and generated
  families (:func:`paired_worlds`, :func:`scimap_workspace`, :func:`chain_world`);
* :mod:`.frameworks`: generated argumentation frameworks (:func:`chain_graph`,
  :func:`double_chain_graph`, :func:`small_graph`);
* :mod:`.rashomon`: the Rashomon scenario (:func:`load_scenario`, :func:`setup_scenario`) and its
  scripted LLM answers (:class:`ScriptedRashomon`).

They sit above the facade (they build through :class:`~belief_graph.BeliefGraph`) and below
``benchmarks`` and ``cli``.
"""

from .frameworks import FAMILIES, chain_graph, double_chain_graph, small_graph
from .rashomon import Scenario, ScriptedRashomon, data_path, load_scenario, setup_scenario
from .worlds import (
    EPOCH,
    CachedEmbedder,
    World,
    build_world,
    chain_world,
    least_model,
    paired_worlds,
    scimap_workspace,
)

__all__ = [
    "EPOCH",
    "FAMILIES",
    "CachedEmbedder",
    "Scenario",
    "ScriptedRashomon",
    "World",
    "build_world",
    "chain_graph",
    "chain_world",
    "data_path",
    "double_chain_graph",
    "least_model",
    "load_scenario",
    "paired_worlds",
    "scimap_workspace",
    "setup_scenario",
    "small_graph",
]
