"""The lab of belief_graph: benchmarks, demos and scenarios, kept out of the runtime package.

``benchmarks`` (the studies behind ``belief-graph bench ...``: they measure and return data),
``scenarios`` (worlds, frameworks and scripted stories that studies, demos and tests build),
``cli`` (the ``bench`` and ``demo`` command groups), ``llm_demo`` (the demo's hand-written LLM
answers and how the runtime's replay file is recorded) and ``data/`` (the conversation suite, the
labelled LLM set, the Rashomon scenario). Installed editable by ``scripts/bootstrap.sh``.
"""
