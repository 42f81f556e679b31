"""belief_graph where agents are built: one module per framework, each importing its framework only
when it is imported itself (``belief_graph`` never imports them), with an error naming the extra
to install when the framework is missing.

``integrations.langgraph``  ``BeliefGraphStore``: LangGraph's ``BaseStore`` over one memory space
                            (``pip install 'belief-graph[langgraph]'``; docs/integrations.md)
"""
