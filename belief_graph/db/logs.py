"""The Neo4j driver's log records, under belief_graph's logger.

The driver logs through :mod:`logging` (``neo4j``, ``neo4j.session``, ``neo4j.notifications``, ...):
a WARNING for every transaction it retries ("Transaction failed and will be retried in 0.9 s") and
for server notifications. A program that configured no logging gets them printed on its stderr by
Python's last-resort handler, from inside the library. :func:`route_driver_logs` (called by
``create_driver``) hands every record of the ``neo4j`` loggers to ``belief_graph.neo4j`` (the same
sub-name: ``neo4j.notifications`` becomes ``belief_graph.neo4j.notifications``) instead of
propagating it to the root logger, and gives ``belief_graph`` a ``NullHandler``, as a library
does: nothing is printed unless the program configures logging, and then the records arrive
through the program's own handlers, under ``belief_graph``.

A record passes where both loggers let it: the ``neo4j`` logger's level (the driver's DEBUG lines
stay off unless a program turns them on there) and then ``belief_graph.neo4j``'s effective level
(``belief_graph``'s, or the root's). Handlers a program puts on the ``neo4j`` logger itself keep
receiving its records.
"""

from __future__ import annotations

import logging

__all__ = ["DRIVER_LOGGER", "LOGGER", "route_driver_logs"]

DRIVER_LOGGER = "neo4j"
LOGGER = "belief_graph.neo4j"


class _ToBeliefGraph(logging.Handler):
    """Hands a ``neo4j...`` record to the logger of the same sub-name under ``belief_graph.neo4j``."""

    def emit(self, record: logging.LogRecord) -> None:
        target = logging.getLogger(LOGGER + record.name[len(DRIVER_LOGGER) :])
        if target.isEnabledFor(record.levelno):
            target.handle(record)


def route_driver_logs() -> None:
    """Route the driver's records under ``belief_graph.neo4j`` (idempotent; see the module docstring)."""
    library = logging.getLogger("belief_graph")
    if not any(isinstance(h, logging.NullHandler) for h in library.handlers):
        library.addHandler(logging.NullHandler())
    driver = logging.getLogger(DRIVER_LOGGER)
    if not any(isinstance(h, _ToBeliefGraph) for h in driver.handlers):
        driver.addHandler(_ToBeliefGraph())
    driver.propagate = False
