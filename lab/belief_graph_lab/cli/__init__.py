"""The lab's command groups: ``belief-graph bench ...`` (cli/bench/) and ``belief-graph demo``."""

# belief_graph.cli adds these groups to its app when it is imported; importing it first means a
# program that imports a lab command module before belief_graph.cli finds the app already built.
import belief_graph.cli  # noqa: F401,E402
